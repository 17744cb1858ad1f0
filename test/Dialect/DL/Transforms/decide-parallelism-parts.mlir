// dl-decide-parallelism on the parts of a GEMM split along N
// (dl-split-gemm-remainders: 770x227x4 into 192 and 35 columns of the same
// rows of C): the 35-column part, too small to pay for a parallel region
// of its own, still runs its row loop in parallel, with the iterations of
// the 192-column part's parallel row loop, so that each thread writes the
// rows whose lines it holds. With the main part sequential too (one
// thread), nothing is aligned. With a fork and join of 3 us (pinned), the
// 35-column part alone does not pay for a region of its own.
// near-line-us=0 piece-line-us=0: these decisions without the near-write term
// (decide-parallelism-near-writes.mlir tests it).
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 fork-join-us=3" | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 fork-join-us=3 report-fallbacks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 fork-join-us=1000" | FileCheck %s --check-prefix=SEQUENTIAL

// CHECK-LABEL: func.func @columns_of_the_same_rows
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<770x192xf32, strided<[227, 1]>>) {pack_b, pack_blocks = array<i64: 55, 64, 4>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<770x35xf32, strided<[227, 1], offset: 192>>) {pack_blocks = array<i64: 55, 35, 4>, schedule = #dl.schedule<[j, i, k], parallel = 1>}
// REMARK: remark: dl-decide-parallelism: loop 1 (i, 14 iterations) runs in parallel as the part of C's rows next to it does
// SEQUENTIAL: dl.matmul {{.*}} outs(%{{.*}} : memref<770x192xf32, strided<[227, 1]>>) {dl.sequential
// SEQUENTIAL: dl.matmul {{.*}} outs(%{{.*}} : memref<770x35xf32, strided<[227, 1], offset: 192>>) {dl.sequential
func.func @columns_of_the_same_rows(%arg0: memref<770x4xf32>, %arg1: memref<4x227xf32>, %arg2: memref<770x227xf32>) {
  %subview = memref.subview %arg2[0, 0] [770, 192] [1, 1] : memref<770x227xf32> to memref<770x192xf32, strided<[227, 1]>>
  %subview_0 = memref.subview %arg1[0, 0] [4, 192] [1, 1] : memref<4x227xf32> to memref<4x192xf32, strided<[227, 1]>>
  dl.matmul ins(%arg0, %subview_0 : memref<770x4xf32>, memref<4x192xf32, strided<[227, 1]>>) outs(%subview : memref<770x192xf32, strided<[227, 1]>>) {pack_b, pack_blocks = array<i64: 55, 64, 4>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  %subview_1 = memref.subview %arg2[0, 192] [770, 35] [1, 1] : memref<770x227xf32> to memref<770x35xf32, strided<[227, 1], offset: 192>>
  %subview_2 = memref.subview %arg1[0, 192] [4, 35] [1, 1] : memref<4x227xf32> to memref<4x35xf32, strided<[227, 1], offset: 192>>
  dl.matmul ins(%arg0, %subview_2 : memref<770x4xf32>, memref<4x35xf32, strided<[227, 1], offset: 192>>) outs(%subview_1 : memref<770x35xf32, strided<[227, 1], offset: 192>>) {pack_blocks = array<i64: 55, 35, 4>, schedule = #dl.schedule<[j, i, k], parallel = 1>}
  return
}

// The part's blocks of rows may be smaller than its neighbour's, as long
// as each thread gets the same rows: 431x331x7's 384 rows in 6 blocks of 64
// and in 12 of 32 both give a thread 192 rows. Blocks of 48 (8 iterations,
// 4 a thread) would too; blocks of 128 (3 iterations: 256 and 128 rows)
// would not.
// CHECK-LABEL: func.func @smaller_blocks_of_the_same_rows
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<384x320xf32, strided<[331, 1]>>) {pack_b, pack_blocks = array<i64: 64, 64, 7>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<384x11xf32, strided<[331, 1], offset: 320>>) {pack_blocks = array<i64: 32, 11, 7>, schedule = #dl.schedule<[j, i, k], parallel = 1>}
// REMARK: remark: dl-decide-parallelism: loop 1 (i, 12 iterations) runs in parallel as the part of C's rows next to it does
func.func @smaller_blocks_of_the_same_rows(%arg0: memref<384x7xf32>, %arg1: memref<7x331xf32>, %arg2: memref<384x331xf32>) {
  %subview = memref.subview %arg2[0, 0] [384, 320] [1, 1] : memref<384x331xf32> to memref<384x320xf32, strided<[331, 1]>>
  %subview_0 = memref.subview %arg1[0, 0] [7, 320] [1, 1] : memref<7x331xf32> to memref<7x320xf32, strided<[331, 1]>>
  dl.matmul ins(%arg0, %subview_0 : memref<384x7xf32>, memref<7x320xf32, strided<[331, 1]>>) outs(%subview : memref<384x320xf32, strided<[331, 1]>>) {pack_b, pack_blocks = array<i64: 64, 64, 7>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  %subview_1 = memref.subview %arg2[0, 320] [384, 11] [1, 1] : memref<384x331xf32> to memref<384x11xf32, strided<[331, 1], offset: 320>>
  %subview_2 = memref.subview %arg1[0, 320] [7, 11] [1, 1] : memref<7x331xf32> to memref<7x11xf32, strided<[331, 1], offset: 320>>
  dl.matmul ins(%arg0, %subview_2 : memref<384x7xf32>, memref<7x11xf32, strided<[331, 1], offset: 320>>) outs(%subview_1 : memref<384x11xf32, strided<[331, 1], offset: 320>>) {pack_blocks = array<i64: 32, 11, 7>, schedule = #dl.schedule<[j, i, k]>}
  return
}

// CHECK-LABEL: func.func @blocks_dividing_the_rows_otherwise
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<384x320xf32, strided<[331, 1]>>) {pack_b, pack_blocks = array<i64: 64, 64, 7>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<384x11xf32, strided<[331, 1], offset: 320>>) {dl.sequential, pack_blocks = array<i64: 128, 11, 7>, schedule = #dl.schedule<[j, i, k]>}
func.func @blocks_dividing_the_rows_otherwise(%arg0: memref<384x7xf32>, %arg1: memref<7x331xf32>, %arg2: memref<384x331xf32>) {
  %subview = memref.subview %arg2[0, 0] [384, 320] [1, 1] : memref<384x331xf32> to memref<384x320xf32, strided<[331, 1]>>
  %subview_0 = memref.subview %arg1[0, 0] [7, 320] [1, 1] : memref<7x331xf32> to memref<7x320xf32, strided<[331, 1]>>
  dl.matmul ins(%arg0, %subview_0 : memref<384x7xf32>, memref<7x320xf32, strided<[331, 1]>>) outs(%subview : memref<384x320xf32, strided<[331, 1]>>) {pack_b, pack_blocks = array<i64: 64, 64, 7>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  %subview_1 = memref.subview %arg2[0, 320] [384, 11] [1, 1] : memref<384x331xf32> to memref<384x11xf32, strided<[331, 1], offset: 320>>
  %subview_2 = memref.subview %arg1[0, 320] [7, 11] [1, 1] : memref<7x331xf32> to memref<7x11xf32, strided<[331, 1], offset: 320>>
  dl.matmul ins(%arg0, %subview_2 : memref<384x7xf32>, memref<7x11xf32, strided<[331, 1], offset: 320>>) outs(%subview_1 : memref<384x11xf32, strided<[331, 1], offset: 320>>) {pack_blocks = array<i64: 128, 11, 7>, schedule = #dl.schedule<[j, i, k]>}
  return
}
