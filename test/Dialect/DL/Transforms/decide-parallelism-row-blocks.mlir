// dl-decide-parallelism divides a GEMM's one block of rows into blocks for
// the threads where its columns cannot keep them busy: the two parts of
// 64x190x219 (dl-split-gemm-remainders: 128 and 62 columns of the same 64
// rows) each compute C in blocks of 32 rows, their row loop outermost and in
// parallel; the 128 columns' two blocks in parallel would divide every row of
// C, the 62 columns are one block. Not where every thread would read all of
// a B beyond the L2 (16x256x1746: 1.7 MB), nor a GEMM of a few FLOPs per
// element of C against one thread (64x1920x3), nor blocks under 8 rows.
// With a 4 MiB L2, B stays in each thread's L2 and 16x256x1746 divides its
// rows too.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-decide-parallelism="threads=2" | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-decide-parallelism="threads=2 report-fallbacks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-decide-parallelism="threads=1" | FileCheck %s --check-prefix=ONE
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=4M,L3=32M" --dl-decide-parallelism="threads=2" | FileCheck %s --check-prefix=BIG-L2

// CHECK-LABEL: func.func @parts_of_the_same_rows
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<64x128xf32, strided<[190, 1]>>) {pack_a, pack_blocks = array<i64: 32, 64, 73>, panel_a, schedule = #dl.schedule<[i, j, k], parallel = 0>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<64x62xf32, strided<[190, 1], offset: 128>>) {pack_blocks = array<i64: 32, 62, 73>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
// REMARK: remark: dl-decide-parallelism: C's 64 rows computed in blocks of 32, their loop run in parallel: modeled {{.*}} us on 2 threads against {{.*}} us with loop 1 (j, 2 iterations) in parallel
// REMARK: remark: dl-decide-parallelism: C's 64 rows computed in blocks of 32, their loop run in parallel: modeled {{.*}} us on 2 threads against {{.*}} us on one thread
// ONE-LABEL: func.func @parts_of_the_same_rows
// ONE: pack_blocks = array<i64: 64, 64, 73>
// ONE: pack_blocks = array<i64: 64, 62, 73>
func.func @parts_of_the_same_rows(%arg0: memref<64x219xf32>, %arg1: memref<219x190xf32>, %arg2: memref<64x190xf32>) {
  %subview = memref.subview %arg2[0, 0] [64, 128] [1, 1] : memref<64x190xf32> to memref<64x128xf32, strided<[190, 1]>>
  %subview_0 = memref.subview %arg1[0, 0] [219, 128] [1, 1] : memref<219x190xf32> to memref<219x128xf32, strided<[190, 1]>>
  dl.matmul ins(%arg0, %subview_0 : memref<64x219xf32>, memref<219x128xf32, strided<[190, 1]>>) outs(%subview : memref<64x128xf32, strided<[190, 1]>>) {pack_a, pack_blocks = array<i64: 64, 64, 73>, panel_a, schedule = #dl.schedule<[i, j, k]>}
  %subview_1 = memref.subview %arg2[0, 128] [64, 62] [1, 1] : memref<64x190xf32> to memref<64x62xf32, strided<[190, 1], offset: 128>>
  %subview_2 = memref.subview %arg1[0, 128] [219, 62] [1, 1] : memref<219x190xf32> to memref<219x62xf32, strided<[190, 1], offset: 128>>
  dl.matmul ins(%arg0, %subview_2 : memref<64x219xf32>, memref<219x62xf32, strided<[190, 1], offset: 128>>) outs(%subview_1 : memref<64x62xf32, strided<[190, 1], offset: 128>>) {pack_blocks = array<i64: 64, 62, 73>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// Its columns in parallel, each thread reads all of A (112 KB, within the
// L2): in place, not from the copy one thread would make.
// CHECK-LABEL: func.func @b_beyond_the_l2
// CHECK: {batch_blocks = 6 : i64, pack_blocks = array<i64: 16, 64, 97>, schedule = #dl.schedule<[i, j, k], parallel = 1>
// BIG-L2-LABEL: func.func @b_beyond_the_l2
// BIG-L2: pack_blocks = array<i64: 8, 64, 97>, {{.*}}schedule = #dl.schedule<[i, j, k], parallel = 0>
func.func @b_beyond_the_l2(%a: memref<16x1746xf32>, %b: memref<1746x256xf32>, %c: memref<16x256xf32>) {
  dl.matmul ins(%a, %b : memref<16x1746xf32>, memref<1746x256xf32>) outs(%c : memref<16x256xf32>) {batch_blocks = 6 : i64, pack_a, pack_blocks = array<i64: 16, 64, 97>, panel_a, schedule = #dl.schedule<[i, j, k]>}
  return
}

// CHECK-LABEL: func.func @few_flops_an_element
// CHECK: dl.sequential, pack_blocks = array<i64: 64, 64, 3>
func.func @few_flops_an_element(%a: memref<64x3xf32>, %b: memref<3x1920xf32>, %c: memref<64x1920xf32>) {
  dl.matmul ins(%a, %b : memref<64x3xf32>, memref<3x1920xf32>) outs(%c : memref<64x1920xf32>) {pack_blocks = array<i64: 64, 64, 3>, schedule = #dl.schedule<[j, i, k]>}
  return
}

// CHECK-LABEL: func.func @few_rows
// CHECK: dl.sequential, pack_blocks = array<i64: 12, 62, 73>
func.func @few_rows(%a: memref<12x219xf32>, %b: memref<219x62xf32>, %c: memref<12x62xf32>) {
  dl.matmul ins(%a, %b : memref<12x219xf32>, memref<219x62xf32>) outs(%c : memref<12x62xf32>) {pack_blocks = array<i64: 12, 62, 73>, schedule = #dl.schedule<[i, j, k]>}
  return
}
