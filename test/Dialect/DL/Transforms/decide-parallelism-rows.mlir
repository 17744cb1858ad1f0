// dl-decide-parallelism moves a GEMM's loop over M outermost, in parallel,
// where the ranking's order (one thread's traffic) leaves no loop that pays
// for parallel regions or only one inside another loop, forking once per
// iteration of it: each thread then writes whole rows of C in one region.
// near-line-us=0: these decisions without the near-write term
// (decide-parallelism-near-writes.mlir tests it).
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-panels --dl-decide-parallelism="threads=2 near-line-us=0 report-fallbacks" --verify-diagnostics | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-panels --dl-decide-parallelism="threads=2 near-line-us=0" --convert-dl-to-affine | FileCheck %s --check-prefix=LOOPS

// A part of a 368x1066x6 GEMM (rows of C 1066 floats apart): its loop over
// N in parallel would divide all 368 rows of C off a line boundary, so the
// best loop of [j:2, i, j, k] is i inside j:2, two regions; moved out, one.
// CHECK-LABEL: func.func @rows_outermost
// CHECK: dl.matmul {{.*}}schedule = #dl.schedule<[i, j:2, j, k], parallel = 0>
// LOOPS-LABEL: func.func @rows_outermost
// LOOPS: affine.for %{{.*}} = 0 to 8 {
// LOOPS: } {dl.parallel}
func.func @rows_outermost(%a: memref<368x6xf32>, %b: memref<6x1066xf32>, %c: memref<368x1066xf32>) {
  %b0 = memref.subview %b[0, 0] [6, 1024] [1, 1] : memref<6x1066xf32> to memref<6x1024xf32, strided<[1066, 1]>>
  %c0 = memref.subview %c[0, 0] [368, 1024] [1, 1] : memref<368x1066xf32> to memref<368x1024xf32, strided<[1066, 1]>>
  // expected-remark @+1 {{dl-decide-parallelism: loop 1 (i, 8 iterations) moved outermost and run in parallel: modeled 28.72 us on 2 threads against 39.22 us in the ranking's order (loop 1 (i, 8 iterations)) and 48.99 us on one thread}}
  dl.matmul ins(%a, %b0 : memref<368x6xf32>, memref<6x1024xf32, strided<[1066, 1]>>) outs(%c0 : memref<368x1024xf32, strided<[1066, 1]>>)
      {pack_b, pack_blocks = array<i64: 46, 64, 6>, schedule = #dl.schedule<[j:2, i, j, k], parallel = 0>}
  return
}


// M tiled: its loops stay where the ranking put them.
// CHECK-LABEL: func.func @rows_tiled
// CHECK: dl.matmul {{.*}}schedule = #dl.schedule<[j:2, i:4, i, j, k], parallel = 1>
func.func @rows_tiled(%a: memref<368x6xf32>, %b: memref<6x1066xf32>, %c: memref<368x1066xf32>) {
  %b0 = memref.subview %b[0, 0] [6, 1024] [1, 1] : memref<6x1066xf32> to memref<6x1024xf32, strided<[1066, 1]>>
  %c0 = memref.subview %c[0, 0] [368, 1024] [1, 1] : memref<368x1066xf32> to memref<368x1024xf32, strided<[1066, 1]>>
  // expected-remark @+1 {{dl-decide-parallelism: loop 1 (i, 2 iterations) runs in parallel: modeled 39.22 us on 2 threads against 48.99 us on one thread (instead of loop 0 (j, 8 iterations): 53.41 us)}}
  dl.matmul ins(%a, %b0 : memref<368x6xf32>, memref<6x1024xf32, strided<[1066, 1]>>) outs(%c0 : memref<368x1024xf32, strided<[1066, 1]>>)
      {pack_b, pack_blocks = array<i64: 46, 64, 6>, schedule = #dl.schedule<[j:2, i:4, i, j, k], parallel = 0>}
  return
}


// The outermost loop pays (columns divided on line boundaries): kept, with
// its panel of B.
// CHECK-LABEL: func.func @outer_loop_kept
// CHECK: dl.matmul {{.*}}panel_b, schedule = #dl.schedule<[j, i, k], parallel = 0>
func.func @outer_loop_kept(%a: memref<256x512xf32>, %b: memref<512x512xf32>, %c: memref<256x512xf32>) {
  dl.matmul ins(%a, %b : memref<256x512xf32>, memref<512x512xf32>) outs(%c : memref<256x512xf32>)
      {pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[j, i, k], parallel = 0>}
  return
}

// Against the ranking's parallel loop, a modeled gain of 3% moves the rows
// out: a 256x192x979 GEMM in 11 K blocks whose rows run in parallel inside
// them forks 11 times, once with the rows outermost. Each thread then reads
// all of packed B: the rows are tiled to one tile per thread, B copied into
// private panels (decide-parallelism-private-panels.mlir).
// CHECK-LABEL: func.func @fewer_regions
// CHECK: dl.matmul {{.*}}panel_b, schedule = #dl.schedule<[i:2, k:1, j, i, k], parallel = 0>
func.func @fewer_regions(%a: memref<256x979xf32>, %b: memref<979x192xf32>, %c: memref<256x192xf32>) {
  // expected-remark @+2 {{dl-decide-parallelism: loop 1 (i, 4 iterations) moved outermost and run in parallel: modeled 300.12 us on 2 threads against 318.12 us in the ranking's order (loop 1 (i, 4 iterations)) and 519.05 us on one thread}}
  // expected-remark @+1 {{dl-decide-parallelism: loop 0 (i, 4 iterations) tiled to one iteration per thread, each thread copying the blocks of B it reads into private panels: the copy made for all threads would be handed between the cores, modeled 37.59 us of 300.12 us}}
  dl.matmul ins(%a, %b : memref<256x979xf32>, memref<979x192xf32>) outs(%c : memref<256x192xf32>)
      {batch_blocks = 1 : i64, pack_a, pack_b, pack_blocks = array<i64: 64, 64, 89>, pack_c, schedule = #dl.schedule<[k:1, i, j, k]>}
  return
}

// A near tie keeps the ranking's order (1472x1216x1664: measured at
// 1472x1216x1707, 16818 against 16797 us modeled, 18.4 against 19.8 ms).
// CHECK-LABEL: func.func @near_tie
// CHECK: dl.matmul {{.*}}schedule = #dl.schedule<[k:1, i, j, k], parallel = 1>
func.func @near_tie(%a: memref<1472x1664xf32>, %b: memref<1664x1216xf32>, %c: memref<1472x1216xf32>) {
  dl.matmul ins(%a, %b : memref<1472x1664xf32>, memref<1664x1216xf32>) outs(%c : memref<1472x1216xf32>)
      {batch_blocks = 1 : i64, pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, pack_c, schedule = #dl.schedule<[k:1, i, j, k]>}
  return
}
