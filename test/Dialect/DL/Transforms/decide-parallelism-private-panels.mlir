// dl-decide-parallelism: a packed operand that every thread of the parallel
// loop reads whole is copied by each thread for itself (private panels)
// where each thread runs one iteration of that loop, instead of once for all
// threads before the nest, whose copy the threads would read from each
// other's cores. A loop over C's rows of more iterations is tiled to one
// iteration per thread where that copy weighs in the modeled time.
// near-line-us=0 piece-line-us=0: these decisions without the near-write term
// (decide-parallelism-near-writes.mlir tests it).
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-decide-panels --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 report-fallbacks" --verify-diagnostics | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-decide-panels | FileCheck %s --check-prefix=ONE
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-decide-panels --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0" --convert-dl-to-affine | FileCheck %s --check-prefix=LOOPS

// 120x300x900 in 2 blocks of rows, one per thread: B's blocks are copied
// inside the parallel loop, a batch before each call (a call per copy: the
// copy is kept for the threads, not for re-reads). Without threads
// (dl-decide-panels alone) B is one packed copy.
// CHECK-LABEL: func.func @private_b
// CHECK: dl.matmul {{.*}}panel_a, panel_b, schedule = #dl.schedule<[i, j, k], parallel = 0>
// ONE-LABEL: func.func @private_b
// ONE-NOT: panel_b
// ONE: return
// LOOPS-LABEL: func.func @private_b
// LOOPS: affine.for %[[I:.*]] = 0 to 2 {
// LOOPS: memref.alloc() {alignment = 64 : i64} : memref<9x60x100xf32>
// LOOPS: memref.alloc() {alignment = 64 : i64} : memref<9x100x60xf32>
// LOOPS: } {dl.parallel}
func.func @private_b(%a: memref<120x900xf32>, %b: memref<900x300xf32>, %c: memref<120x300xf32>) {
  dl.matmul ins(%a, %b : memref<120x900xf32>, memref<900x300xf32>) outs(%c : memref<120x300xf32>)
      {batch_blocks = 3 : i64, pack_a, pack_b, pack_blocks = array<i64: 60, 60, 100>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  return
}

// The 256x192x126 part of 316x206x126: 4 blocks of rows, all of packed B
// read by each thread. Tiled: each thread copies B's column blocks once and
// re-reads them for its 2 blocks of rows.
// CHECK-LABEL: func.func @rows_tiled
// CHECK: dl.matmul {{.*}}panel_b, schedule = #dl.schedule<[i:2, j, i, k], parallel = 0>
// LOOPS-LABEL: func.func @rows_tiled
// LOOPS: affine.for %{{.*}} = 0 to 2 {
// LOOPS-NEXT: memref.alloc() {alignment = 64 : i64} : memref<1x126x64xf32>
// LOOPS-NEXT: affine.for %{{.*}} = 0 to 3 {
// LOOPS: affine.for %{{.*}} = 0 to 2 {
// LOOPS: } {dl.parallel}
func.func @rows_tiled(%a: memref<256x126xf32>, %b: memref<126x192xf32, strided<[206, 1]>>, %c: memref<256x192xf32, strided<[206, 1]>>) {
  // expected-remark @+1 {{dl-decide-parallelism: loop 0 (i, 4 iterations) tiled to one iteration per thread, each thread copying the blocks of B it reads into private panels: the copy made for all threads would be handed between the cores, modeled 4.84 us of 40.52 us}}
  dl.matmul ins(%a, %b : memref<256x126xf32>, memref<126x192xf32, strided<[206, 1]>>) outs(%c : memref<256x192xf32, strided<[206, 1]>>)
      {pack_b, pack_blocks = array<i64: 64, 64, 126>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  return
}

// 512x1280x13: B (13 rows) is 66 KB, its handed-over copy 4% of the
// modeled time: the rows keep their order (C written row after row), B one
// packed copy.
// CHECK-LABEL: func.func @small_copy
// CHECK: dl.matmul {{.*}}pack_b, pack_blocks = array<i64: 64, 64, 13>, schedule = #dl.schedule<[i, j:2, j, k], parallel = 0>
func.func @small_copy(%a: memref<512x13xf32>, %b: memref<13x1280xf32>, %c: memref<512x1280xf32>) {
  dl.matmul ins(%a, %b : memref<512x13xf32>, memref<13x1280xf32>) outs(%c : memref<512x1280xf32>)
      {pack_b, pack_blocks = array<i64: 64, 64, 13>, schedule = #dl.schedule<[i, j:2, j, k], parallel = 0>}
  return
}

// Columns in parallel, A read whole by each thread: A is not tiled for
// (measured mixed), it stays one packed copy.
// CHECK-LABEL: func.func @columns_keep_a
// CHECK: dl.matmul {{.*}}pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, pack_c, panel_b, schedule = #dl.schedule<[k:2, j, i, k], parallel = 1>
func.func @columns_keep_a(%a: memref<256x512xf32>, %b: memref<512x512xf32>, %c: memref<256x512xf32>) {
  dl.matmul ins(%a, %b : memref<256x512xf32>, memref<512x512xf32>) outs(%c : memref<256x512xf32>)
      {pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, pack_c, schedule = #dl.schedule<[k:2, j, i, k], parallel = 1>}
  return
}
