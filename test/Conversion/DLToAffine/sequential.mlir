// An op marked `dl.sequential` (dl-decide-parallelism: its work does not pay
// for a parallel region) passes the mark on to every top-level nest it lowers
// to, its packing and padding copies included; its neighbours' nests are not
// marked. dl-parallelize-outer-loops then leaves all of its nests sequential
// and parallelizes the others.
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s
// RUN: dl-opt %s --convert-dl-to-affine --dl-parallelize-outer-loops=threads=2 | FileCheck %s --check-prefix=PAR

// The packed GEMM: the copies of A and B and the blocked nest (C is
// initialized per tile, inside it).
// CHECK-LABEL: func.func @matmul
// CHECK-COUNT-3: } {dl.sequential}
// CHECK-NOT: affine.for
// CHECK: return
// PAR-LABEL: func.func @matmul
// PAR-NOT: affine.parallel
// PAR: return
func.func @matmul(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) {
  dl.matmul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>) {pack_a, pack_b, pack_blocks = array<i64: 8, 8, 8>, dl.sequential}
  return
}

// The padded convolution: the copy with zero padding columns (one nest over
// the rows: fills and the interior) and the nest; the relus around it stay
// unmarked.
// CHECK-LABEL: func.func @conv_between_relus
// CHECK: arith.maxnumf
// CHECK-NOT: dl.sequential
// CHECK: memref.alloc
// CHECK-COUNT-2: } {dl.sequential}
// CHECK-NEXT: memref.dealloc
// CHECK: arith.maxnumf
// CHECK-NOT: dl.sequential
// CHECK: return
// PAR-LABEL: func.func @conv_between_relus
// PAR: affine.parallel
// PAR: arith.maxnumf
// PAR-NOT: affine.parallel
// PAR: memref.dealloc
// PAR: affine.parallel
// PAR: arith.maxnumf
// PAR: return
func.func @conv_between_relus(%in: memref<1x1x6x6x4xf32>, %f: memref<1x1x3x3x4x8xf32>, %out: memref<1x1x6x6x8xf32>) {
  dl.relu ins(%in : memref<1x1x6x6x4xf32>) outs(%in : memref<1x1x6x6x4xf32>)
  dl.conv2d ins(%in, %f : memref<1x1x6x6x4xf32>, memref<1x1x3x3x4x8xf32>) outs(%out : memref<1x1x6x6x8xf32>)
      {padding = array<i64: 1, 1, 1, 1>, schedule = #dl.schedule<[n, kb, oh]>, dl.sequential}
  dl.relu ins(%out : memref<1x1x6x6x8xf32>) outs(%out : memref<1x1x6x6x8xf32>)
  return
}

// A sequential op first in its block, and one right after it.
// CHECK-LABEL: func.func @first_and_next
// CHECK-COUNT-2: } {dl.sequential}
// CHECK-NEXT: return
// PAR-LABEL: func.func @first_and_next
// PAR-NOT: affine.parallel
// PAR: return
func.func @first_and_next(%x: memref<4x8xf32>) {
  dl.relu ins(%x : memref<4x8xf32>) outs(%x : memref<4x8xf32>) {dl.sequential}
  dl.relu6 ins(%x : memref<4x8xf32>) outs(%x : memref<4x8xf32>) {dl.sequential}
  return
}
