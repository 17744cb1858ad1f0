// An op marked `dl.parallel_depth = d` (an occupancy version of a generic op,
// dl-parametric-versioning) marks the loop at depth d of every top-level
// nest it lowers to `dl.parallel`; dl-parallelize-outer-loops runs that loop
// in parallel, dynamic bounds and all, and only that one.
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s
// RUN: dl-opt %s --convert-dl-to-affine --dl-parallelize-outer-loops=threads=2 | FileCheck %s --check-prefix=PAR

// The zero fill and the GEMM nest, each over (m, n): n in parallel.
// CHECK-LABEL: func.func @over_columns
// CHECK: affine.for %[[M:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: affine.for %{{.+}} = 0 to %{{.+}} {
// CHECK: } {dl.parallel}
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %{{.+}} = 0 to %{{.+}} {
// CHECK-NEXT: affine.for %{{.+}} = 0 to %{{.+}} {
// CHECK-NEXT: affine.for
// CHECK: } {dl.parallel}
// CHECK-NEXT: } {dl.gemm_band}
// PAR-LABEL: func.func @over_columns
// PAR: affine.for
// PAR-NEXT: affine.parallel (%{{.+}}) = (0) to (symbol(%{{.+}}))
// PAR: affine.for
// PAR-NEXT: affine.parallel (%{{.+}}) = (0) to (symbol(%{{.+}}))
// PAR-NOT: affine.parallel
// PAR: return
func.func @over_columns(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {dl.parallel_depth = 1 : i64}
  return
}

// The convolution's nests over (n, k, oh, ow): the images in parallel; the
// ReLU after it is not marked.
// CHECK-LABEL: func.func @over_images
// CHECK-COUNT-2: {dl.parallel}
// CHECK-NOT: dl.parallel
// CHECK: return
// PAR-LABEL: func.func @over_images
// PAR-COUNT-2: affine.parallel (%{{.+}}) = (0) to (symbol(
// PAR: arith.maxnumf
// PAR: return
func.func @over_images(%x: memref<?x3x8x8xf32>, %w: memref<4x3x3x3xf32>, %y: memref<?x4x6x6xf32>) {
  dl.conv2d ins(%x, %w : memref<?x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%y : memref<?x4x6x6xf32>) {dl.parallel_depth = 0 : i64}
  dl.relu ins(%y : memref<?x4x6x6xf32>) outs(%y : memref<?x4x6x6xf32>)
  return
}
