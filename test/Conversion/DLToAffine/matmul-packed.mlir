// The blocked lowering of a dl.matmul with pack_blocks: C accumulates over
// (M/bm, N/bn, K/bk, bm, bn, bk) with the band tag on the bm loop. A packed
// operand whose blocks the nest reads under several iterations of an outer
// loop that does not index it (B under both row blocks here) is copied into
// contiguous blocks before the nest (read in source order); otherwise its
// blocks are copied inside the nest, one microkernel batch at a time, into a
// panel scratch (alpha * A here, once per row block, before the j loop that
// re-reads it). The copies are freed. C is zeroed (or scaled by beta) per
// bm x bn tile right before the K-block loop, not in a separate pass over all
// of C.
// RUN: dl-opt %s --dl-decide-panels --convert-dl-to-affine --split-input-file | FileCheck %s

// CHECK-LABEL: func @packed
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.0
// CHECK: %[[PB:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2x3x2xf32>
// CHECK: affine.for %[[RB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 2 {
// CHECK-NEXT: %[[V:.*]] = affine.load %arg1[%[[RB]] * 3 + %[[R]], %[[CB]] * 2 + %[[C]]]
// CHECK-NEXT: affine.store %[[V]], %[[PB]][%[[CB]], %[[RB]], %[[R]], %[[C]]]
// CHECK: %[[PA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4x3xf32>
// CHECK-NEXT: affine.for %[[I0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[KB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 3 {
// CHECK-NEXT: %[[V:.*]] = affine.load %arg0[%[[I0]] * 4 + %[[R]], %[[KB]] * 3 + %[[C]]]
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[TWO]], %[[V]]
// CHECK-NEXT: affine.store %[[S]], %[[PA]][%[[KB]], %[[R]], %[[C]]]
// CHECK-NOT: affine.store %{{.*}}, %[[PA]]
// CHECK: affine.for %[[J0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[ZI:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[ZJ:.*]] = 0 to 2 {
// CHECK-NEXT: affine.store %[[ZERO]], %arg2[%[[I0]] * 4 + %[[ZI]], %[[J0]] * 2 + %[[ZJ]]]
// CHECK: affine.for %[[K0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: affine.load %[[PA]][%[[K0]], %[[I]], %[[K]]]
// CHECK-NEXT: affine.load %[[PB]][%[[J0]], %[[K0]], %[[K]], %[[J]]]
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: affine.load %arg2[%[[I0]] * 4 + %[[I]], %[[J0]] * 2 + %[[J]]]
// CHECK: } {dl.gemm_band}
// CHECK: memref.dealloc %[[PB]]
// CHECK: memref.dealloc %[[PA]]
func.func @packed(%a: memref<8x6xf32>, %b: memref<6x4xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x6xf32>, memref<6x4xf32>) outs(%c : memref<8x4xf32>)
      {alpha = 2.0 : f32, pack_blocks = array<i64: 4, 2, 3>, pack_a, pack_b,
       schedule = #dl.schedule<[i, j, k]>}
  return
}

// -----

// The same without a schedule: no loop is named parallel, and a panel shared
// by the iterations of an outer loop would keep dl-parallelize-outer-loops
// from running it in parallel, so both operands are copied before the nest.
// CHECK-LABEL: func @packed_unscheduled
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<2x2x4x3xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<2x2x3x2xf32>
// CHECK-NOT: memref.alloc
func.func @packed_unscheduled(%a: memref<8x6xf32>, %b: memref<6x4xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x6xf32>, memref<6x4xf32>) outs(%c : memref<8x4xf32>)
      {alpha = 2.0 : f32, pack_blocks = array<i64: 4, 2, 3>, pack_a, pack_b}
  return
}

// -----

// Blocks without copies: the operands are read in place; alpha stays in the
// product, and a band that scales is no GEMM band (no tag).
// CHECK-LABEL: func @in_place
// CHECK-NOT: memref.alloc
// CHECK: affine.load %arg0[%{{.*}} * 4 + %{{.*}}, %{{.*}} * 3 + %{{.*}}]
// CHECK: affine.load %arg1[%{{.*}} * 3 + %{{.*}}, %{{.*}} * 2 + %{{.*}}]
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK-NOT: dl.gemm_band
func.func @in_place(%a: memref<8x6xf32>, %b: memref<6x4xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x6xf32>, memref<6x4xf32>) outs(%c : memref<8x4xf32>)
      {alpha = 2.0 : f32, pack_blocks = array<i64: 4, 2, 3>}
  return
}

// -----

// K tiled outside the j loop ([i, k:2, j, k]): each i tile of C is scaled by
// beta once, before the outer K loop (A's panel copy, then j and the inner K
// loop run inside it).
// CHECK-LABEL: func @k_outer
// CHECK: %[[BETA:.*]] = arith.constant 5.0
// CHECK: memref.alloc
// CHECK: affine.load %arg1
// CHECK: memref.alloc
// CHECK: affine.for %[[I0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[ZI:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[ZJ:.*]] = 0 to 4 {
// CHECK-NEXT: %[[OLD:.*]] = affine.load %arg2[%[[I0]] * 4 + %[[ZI]], %[[ZJ]]]
// CHECK-NEXT: %[[NEW:.*]] = arith.mulf %[[BETA]], %[[OLD]]
// CHECK-NEXT: affine.store %[[NEW]], %arg2[%[[I0]] * 4 + %[[ZI]], %[[ZJ]]]
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK: affine.load %arg0
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 4 {
// CHECK: } {dl.gemm_band}
func.func @k_outer(%a: memref<8x12xf32>, %b: memref<12x4xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x12xf32>, memref<12x4xf32>) outs(%c : memref<8x4xf32>)
      {beta = 0.5 : f32, pack_blocks = array<i64: 4, 2, 3>, pack_a, pack_b,
       schedule = #dl.schedule<[i, k:2, j, k]>}
  return
}

// -----

// batch_blocks = 2 of the 6 K blocks: without a schedule, the default order
// with the K-block loop tiled, [i, j, k:2, k]; the per-tile zeroing stays
// before the outermost K loop.
// CHECK-LABEL: func @batch_blocks
// CHECK: affine.for %[[I0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[J0:.*]] = 0 to 2 {
// CHECK: affine.store
// CHECK: affine.for %[[KT:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[K0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: affine.load %arg0[%[[I0]] * 4 + %[[I]], (%[[KT]] * 2 + %[[K0]]) * 3 + %[[K]]]
// The batch bound goes on the band for dl-tile-gemm-bands.
// CHECK: } {dl.gemm_band, dl.max_batch = 2 : i64}
func.func @batch_blocks(%a: memref<8x18xf32>, %b: memref<18x4xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x18xf32>, memref<18x4xf32>) outs(%c : memref<8x4xf32>)
      {pack_blocks = array<i64: 4, 2, 3>, batch_blocks = 2}
  return
}

// -----

// A schedule takes precedence over batch_blocks: one loop over the 6 K
// blocks.
// CHECK-LABEL: func @scheduled_batch_blocks
// CHECK: affine.for %[[J0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I0:.*]] = 0 to 2 {
// CHECK: affine.store
// CHECK: affine.for %[[K0:.*]] = 0 to 6 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 4 {
func.func @scheduled_batch_blocks(%a: memref<8x18xf32>, %b: memref<18x4xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x18xf32>, memref<18x4xf32>) outs(%c : memref<8x4xf32>)
      {pack_blocks = array<i64: 4, 2, 3>, batch_blocks = 2, schedule = #dl.schedule<[j, i, k]>}
  return
}

// -----

// One row block (M = bm) and K tiled outside j, [i, k:2, j, k] with j
// parallel: each B block is read by one call, and a copy right before it
// would gain nothing over the packed copy (which reads whole rows): B is
// copied before the nest. A's panel (2 blocks) is copied once per K tile,
// outside the parallel loop, and re-read across j.
// CHECK-LABEL: func @per_call_panels
// CHECK: %[[PB:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x4x3x2xf32>
// CHECK: %[[PA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4x3xf32>
// CHECK: affine.for %[[KT:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.load %arg0
// CHECK-NEXT: affine.store %{{.*}}, %[[PA]]
// CHECK: affine.for %[[J0:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[K0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: affine.load %[[PA]][%[[K0]], %[[I]], %[[K]]]
// CHECK-NEXT: affine.load %[[PB]][%[[J0]], %[[KT]] * 2 + %[[K0]], %[[K]], %[[J]]]
// CHECK: } {dl.gemm_band}
// CHECK: } {dl.parallel}
// CHECK: memref.dealloc %[[PB]]
// CHECK: memref.dealloc %[[PA]]
func.func @per_call_panels(%a: memref<4x12xf32>, %b: memref<12x8xf32>, %c: memref<4x8xf32>) {
  dl.matmul ins(%a, %b : memref<4x12xf32>, memref<12x8xf32>) outs(%c : memref<4x8xf32>)
      {pack_blocks = array<i64: 4, 2, 3>, pack_a, pack_b,
       schedule = #dl.schedule<[i, k:2, j, k], parallel = 2>}
  return
}

// -----

// [k:2, i, j, k] with i parallel: A's panel of each (K tile, row block) is
// copied inside the parallel loop, into a scratch each iteration allocates
// and frees (threads never share it), and re-read across j. B's blocks are
// read under both row blocks: copied before the nest.
// CHECK-LABEL: func @private_panel
// CHECK: %[[PB:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4x3x2xf32>
// CHECK: affine.store %{{.*}}, %[[PB]]
// CHECK: affine.store %{{.*}}, %arg2
// CHECK: affine.for %[[KT:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I0:.*]] = 0 to 2 {
// CHECK-NEXT: %[[PA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4x3xf32>
// CHECK-NEXT: affine.for %[[KB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 3 {
// CHECK-NEXT: %[[V:.*]] = affine.load %arg0[%[[I0]] * 4 + %[[R]], (%[[KT]] * 2 + %[[KB]]) * 3 + %[[C]]]
// CHECK-NEXT: affine.store %[[V]], %[[PA]][%[[KB]], %[[R]], %[[C]]]
// CHECK: affine.for %[[J0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[K0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: affine.load %[[PA]][%[[K0]], %[[I]], %[[K]]]
// CHECK: } {dl.gemm_band}
// CHECK: memref.dealloc %[[PA]]
// CHECK-NEXT: } {dl.parallel}
// CHECK: memref.dealloc %[[PB]]
func.func @private_panel(%a: memref<8x12xf32>, %b: memref<12x4xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x12xf32>, memref<12x4xf32>) outs(%c : memref<8x4xf32>)
      {pack_blocks = array<i64: 4, 2, 3>, pack_a, pack_b,
       schedule = #dl.schedule<[k:2, i, j, k], parallel = 1>}
  return
}

// -----

// A panel larger than 1 MiB (A's batch: 65 blocks of 32 x 128 floats,
// re-read by both column blocks) is not a scratch that stays in cache: A is
// copied before the nest. At 64 blocks (1 MiB) it is a panel.
// CHECK-LABEL: func @large_panel
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x65x32x128xf32>
// CHECK-LABEL: func @largest_panel
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<64x32x128xf32>
func.func @large_panel(%a: memref<32x8320xf32>, %b: memref<8320x64xf32>, %c: memref<32x64xf32>) {
  dl.matmul ins(%a, %b : memref<32x8320xf32>, memref<8320x64xf32>) outs(%c : memref<32x64xf32>)
      {pack_blocks = array<i64: 32, 32, 128>, pack_a, schedule = #dl.schedule<[i, j, k]>}
  return
}
func.func @largest_panel(%a: memref<32x8192xf32>, %b: memref<8192x64xf32>, %c: memref<32x64xf32>) {
  dl.matmul ins(%a, %b : memref<32x8192xf32>, memref<8192x64xf32>) outs(%c : memref<32x64xf32>)
      {pack_blocks = array<i64: 32, 32, 128>, pack_a, schedule = #dl.schedule<[i, j, k]>}
  return
}

// -----

// pack_c under [i, j, k:2, k]: each tile of C (one 4 x 2 block) is copied
// into the packed buffer [M/bm][N/bn][bm][bn] scaled by beta right before its
// K loops, accumulated there (the band reads and writes the packed block),
// and copied back right after them. The copies run (block row, row, block
// column, column) with the innermost loop contiguous in both buffers.
// CHECK-LABEL: func @packed_c
// CHECK-DAG: %[[BETA:.*]] = arith.constant 5.0
// CHECK: %[[PC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2x4x2xf32>
// CHECK: affine.for %[[I0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[J0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[BR:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[BC:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 2 {
// CHECK-NEXT: %[[OLD:.*]] = affine.load %arg2[(%[[I0]] + %[[BR]]) * 4 + %[[R]], (%[[J0]] + %[[BC]]) * 2 + %[[C]]]
// CHECK-NEXT: %[[NEW:.*]] = arith.mulf %[[BETA]], %[[OLD]]
// CHECK-NEXT: affine.store %[[NEW]], %[[PC]][%[[I0]] + %[[BR]], %[[J0]] + %[[BC]], %[[R]], %[[C]]]
// CHECK: affine.for %[[KT:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[K0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: affine.load %arg0
// CHECK-NEXT: affine.load %arg1
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: %[[ACC:.*]] = affine.load %[[PC]][%[[I0]], %[[J0]], %[[I]], %[[J]]]
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]]
// CHECK-NEXT: affine.store %[[SUM]], %[[PC]][%[[I0]], %[[J0]], %[[I]], %[[J]]]
// CHECK: } {dl.gemm_band}
// CHECK: affine.for %[[BR:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[BC:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 2 {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[PC]][%[[I0]] + %[[BR]], %[[J0]] + %[[BC]], %[[R]], %[[C]]]
// CHECK-NEXT: affine.store %[[V]], %arg2[(%[[I0]] + %[[BR]]) * 4 + %[[R]], (%[[J0]] + %[[BC]]) * 2 + %[[C]]]
// CHECK: memref.dealloc %[[PC]]
func.func @packed_c(%a: memref<8x18xf32>, %b: memref<18x4xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x18xf32>, memref<18x4xf32>) outs(%c : memref<8x4xf32>)
      {beta = 5.0 : f32, pack_blocks = array<i64: 4, 2, 3>, pack_c,
       schedule = #dl.schedule<[i, j, k:2, k]>}
  return
}

// -----

// pack_c with K tiled outermost ([k:2, i, j, k]): the tile is all of C,
// copied in before the nest (as C, beta being 1) and back after it.
// CHECK-LABEL: func @packed_c_k_outer
// CHECK: %[[PC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2x4x2xf32>
// CHECK-NEXT: affine.for %[[BR:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[BC:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 2 {
// CHECK-NEXT: %[[OLD:.*]] = affine.load %arg2[%[[BR]] * 4 + %[[R]], %[[BC]] * 2 + %[[C]]]
// CHECK-NEXT: affine.store %[[OLD]], %[[PC]][%[[BR]], %[[BC]], %[[R]], %[[C]]]
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK: } {dl.gemm_band}
// CHECK: affine.for %[[BR:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[BC:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 2 {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[PC]][%[[BR]], %[[BC]], %[[R]], %[[C]]]
// CHECK-NEXT: affine.store %[[V]], %arg2[%[[BR]] * 4 + %[[R]], %[[BC]] * 2 + %[[C]]]
// CHECK: memref.dealloc %[[PC]]
func.func @packed_c_k_outer(%a: memref<8x18xf32>, %b: memref<18x4xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x18xf32>, memref<18x4xf32>) outs(%c : memref<8x4xf32>)
      {beta = 1.0 : f32, pack_blocks = array<i64: 4, 2, 3>, pack_c,
       schedule = #dl.schedule<[k:2, i, j, k]>}
  return
}

// -----

// A blocked B (packed ahead of time) is read in place as the packed copy
// would be: B[jb][kb][k][j]; only A is copied.
// CHECK-LABEL: func @blocked_b
// CHECK-SAME: %[[B:[a-z0-9_]+]]: memref<2x2x3x2xf32>
// CHECK: %[[PA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2x4x3xf32>
// CHECK-NOT: memref.alloc
// CHECK: affine.store %{{.*}}, %[[PA]]
// CHECK: affine.for %[[I0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[J0:.*]] = 0 to 2 {
// CHECK: affine.store %{{.*}}, %arg2
// CHECK: affine.for %[[K0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: affine.load %[[PA]][%[[I0]], %[[K0]], %[[I]], %[[K]]]
// CHECK-NEXT: affine.load %[[B]][%[[J0]], %[[K0]], %[[K]], %[[J]]]
// CHECK: } {dl.gemm_band}
// CHECK: memref.dealloc %[[PA]]
// CHECK-NOT: memref.dealloc
func.func @blocked_b(%a: memref<8x6xf32>, %b: memref<2x2x3x2xf32>, %c: memref<8x4xf32>) {
  dl.matmul ins(%a, %b : memref<8x6xf32>, memref<2x2x3x2xf32>) outs(%c : memref<8x4xf32>)
      {alpha = 2.0 : f32, pack_blocks = array<i64: 4, 2, 3>, pack_a}
  return
}

// -----

// pad_blocks: 4x4x4 blocks of a 5x6x7 GEMM. Each packed buffer holds whole
// blocks (2x2x4x4): its padding is zeroed (A: rows 5-7 of the last row
// block, columns 7 of the last K block), then the operand is copied in
// boxes of whole and partial blocks with constant bounds. C is copied into
// its packed buffer before the nest (zeros: beta is 0) and back after it,
// where C exists; the nest computes whole blocks.
// CHECK-LABEL: func.func @padded
// CHECK-SAME: (%[[A:.*]]: memref<5x7xf32>, %[[B:.*]]: memref<7x6xf32>, %[[C:.*]]: memref<5x6xf32>)
// CHECK: %[[PA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2x4x4xf32>
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK: affine.store %{{.*}}, %[[PA]][%{{.*}} + 1, %{{.*}}, %{{.*}} + 1, %{{.*}}]
// CHECK: affine.store %{{.*}}, %[[PA]][%{{.*}}, %{{.*}} + 1, %{{.*}}, %{{.*}} + 3]
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.load %[[A]][%{{.*}} * 4 + %{{.*}}, (%{{.*}} + 1) * 4 + %{{.*}}]
// CHECK: %[[PB:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2x4x4xf32>
// CHECK: %[[PC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2x4x4xf32>
// CHECK: affine.store %{{.*}}, %[[PC]][%{{.*}} + 1, %{{.*}} + 1, %{{.*}}, %{{.*}}]
// CHECK: affine.for %[[I:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 2 {
// CHECK: affine.load %[[PA]][%[[I]], %[[K]],
// CHECK: affine.load %[[PB]][%[[J]], %[[K]],
// CHECK: } {dl.gemm_band}
// CHECK: %[[X:.*]] = affine.load %[[PC]][%{{.*}} + 1, %{{.*}} + 1, %{{.*}}, %{{.*}}]
// CHECK-NEXT: affine.store %[[X]], %[[C]][(%{{.*}} + 1) * 4 + %{{.*}}, (%{{.*}} + 1) * 4 + %{{.*}}]
// CHECK: memref.dealloc %[[PC]]
func.func @padded(%a: memref<5x7xf32>, %b: memref<7x6xf32>, %c: memref<5x6xf32>) {
  dl.matmul ins(%a, %b : memref<5x7xf32>, memref<7x6xf32>) outs(%c : memref<5x6xf32>) {pack_a, pack_b, pack_c, pad_blocks, pack_blocks = array<i64: 4, 4, 4>}
  return
}
