// The blocked lowering of a dl.matmul with dynamic sizes (pack_blocks with
// pad_blocks, as dl-parametric-versioning decides for its generic version):
// alpha * A, B and beta * C are copied into buffers of ceil(size / block)
// blocks, the loops over a block's elements ending at the last, partial
// block's size; K's whole blocks and its rest (K mod bk, at most one partial
// block) go to separate buffers, so the rest's band reads its block at the
// constant index 0. The accumulation runs over the blocks of C: whole K
// blocks in batches of `batch_blocks` (the batch loop's bound is a min with
// a constant, the batch-reduce call's count), then the rest; both bands are
// tagged, their row and column loops bounded by the partial blocks. C comes
// back from its packed copy, and the buffers are freed.
// The copies run on one thread (dl.sequential on their nests: six in the
// first function), the accumulation as the op's parallel depth says.
// RUN: dl-opt %s --split-input-file --convert-dl-to-affine --canonicalize | FileCheck %s
// RUN: dl-opt %s --split-input-file --convert-dl-to-affine | FileCheck %s --check-prefix=SEQ
// SEQ-LABEL: func.func @dynamic
// SEQ-COUNT-5: } {dl.sequential}
// SEQ-NOT: dl.sequential
// SEQ: {dl.gemm_band}
// SEQ-NOT: dl.sequential
// SEQ: {dl.gemm_band}
// SEQ: } {dl.sequential}
// SEQ-LABEL: func.func @static_k

// CHECK-DAG: #[[BLOCKS_M:.+]] = affine_map<()[s0] -> (s0 ceildiv 2)>
// CHECK-DAG: #[[WHOLE_K:.+]] = affine_map<()[s0] -> (s0 floordiv 4)>
// CHECK-DAG: #[[ROWS:.+]] = affine_map<(d0)[s0] -> (2, d0 * -2 + s0)>
// CHECK-DAG: #[[BLOCKS_N:.+]] = affine_map<()[s0] -> (s0 ceildiv 8)>
// CHECK-DAG: #[[COLS:.+]] = affine_map<(d0)[s0] -> (8, d0 * -8 + s0)>
// CHECK-DAG: #[[BATCHES:.+]] = affine_map<()[s0] -> ((s0 floordiv 4) ceildiv 2)>
// CHECK-DAG: #[[IN_BATCH:.+]] = affine_map<(d0)[s0] -> (2, d0 * -2 + s0 floordiv 4)>
// CHECK-DAG: #[[REST:.+]] = affine_map<()[s0] -> (s0 mod 4)>
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG: %[[TWO:.+]] = arith.constant 2.0
// CHECK-DAG: %[[HALF:.+]] = arith.constant 5.0{{0*}}e-01
// CHECK: %[[M:.+]] = memref.dim %arg2, %c0
// CHECK: %[[N:.+]] = memref.dim %arg2, %c1
// CHECK: %[[K:.+]] = memref.dim %arg0, %c1
// CHECK: %[[PA:.+]] = memref.alloc(%{{.+}}, %{{.+}}) {alignment = 64 : i64} : memref<?x?x2x4xf32>
// CHECK: affine.for %{{.+}} = 0 to #[[BLOCKS_M]]()[%[[M]]] {
// CHECK-NEXT: affine.for %{{.+}} = 0 to min #[[ROWS]](%{{.+}})[%[[M]]] {
// CHECK: arith.mulf %{{.+}}, %[[TWO]]
// CHECK: %[[PB:.+]] = memref.alloc(%{{.+}}, %{{.+}}) {alignment = 64 : i64} : memref<?x?x4x8xf32>
// CHECK: %[[RA:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x1x2x4xf32>
// CHECK: %[[RB:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x1x4x8xf32>
// CHECK: affine.load %arg0[%{{.+}} * 2 + %{{.+}}, %{{.+}} * 4 + %{{.+}} + (symbol(%[[K]]) floordiv 4) * 4]
// CHECK: affine.load %arg1[%{{.+}} * 4 + %{{.+}} + (symbol(%[[K]]) floordiv 4) * 4, %{{.+}} * 8 + %{{.+}}]
// CHECK: %[[PC:.+]] = memref.alloc(%{{.+}}, %{{.+}}) {alignment = 64 : i64} : memref<?x?x2x8xf32>
// CHECK: %[[C:.+]] = affine.load %arg2
// CHECK-NEXT: arith.mulf %[[C]], %[[HALF]]
// CHECK: affine.for %[[IB:.+]] = 0 to #[[BLOCKS_M]]()[%[[M]]] {
// CHECK-NEXT: affine.for %[[JB:.+]] = 0 to #[[BLOCKS_N]]()[%[[N]]] {
// CHECK-NEXT: affine.for %[[KT:.+]] = 0 to #[[BATCHES]]()[%[[K]]] {
// CHECK-NEXT: affine.for %[[KB:.+]] = 0 to min #[[IN_BATCH]](%[[KT]])[%[[K]]] {
// CHECK-NEXT: affine.for %[[R:.+]] = 0 to min #[[ROWS]](%[[IB]])[%[[M]]] {
// CHECK-NEXT: affine.for %[[S:.+]] = 0 to min #[[COLS]](%[[JB]])[%[[N]]] {
// CHECK-NEXT: affine.for %[[T:.+]] = 0 to 4 {
// CHECK-NEXT: affine.load %[[PA]][%[[IB]], %[[KT]] * 2 + %[[KB]], %[[R]], %[[T]]]
// CHECK-NEXT: affine.load %[[PB]][%[[JB]], %[[KT]] * 2 + %[[KB]], %[[T]], %[[S]]]
// CHECK-NEXT: affine.load %[[PC]][%[[IB]], %[[JB]], %[[R]], %[[S]]]
// CHECK: } {dl.gemm_band}
// CHECK: affine.for %[[R2:.+]] = 0 to min #[[ROWS]](%[[IB]])[%[[M]]] {
// CHECK-NEXT: affine.for %[[S2:.+]] = 0 to min #[[COLS]](%[[JB]])[%[[N]]] {
// CHECK-NEXT: affine.for %[[T2:.+]] = 0 to #[[REST]]()[%[[K]]] {
// CHECK-NEXT: affine.load %[[RA]][%[[IB]], 0, %[[R2]], %[[T2]]]
// CHECK-NEXT: affine.load %[[RB]][%[[JB]], 0, %[[T2]], %[[S2]]]
// CHECK: } {dl.gemm_band}
// CHECK: affine.load %[[PC]]
// CHECK-NEXT: affine.store %{{.+}}, %arg2
// CHECK-DAG: memref.dealloc %[[PA]]
// CHECK-DAG: memref.dealloc %[[PB]]
// CHECK-DAG: memref.dealloc %[[RA]]
// CHECK-DAG: memref.dealloc %[[RB]]
// CHECK-DAG: memref.dealloc %[[PC]]
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
      {alpha = 2.0 : f32, beta = 0.5 : f32, pack_a, pack_b, pack_c, pad_blocks,
       pack_blocks = array<i64: 2, 8, 4>, batch_blocks = 2}
  return
}

// -----

// beta = 0: C is not read, its packed copy starts at zeros. A static K that
// the block divides has no rest: no rest buffers or band.
// CHECK-LABEL: func.func @static_k
// CHECK-NOT: affine.load %arg2
// CHECK: affine.store %cst, %{{.+}} : memref<?x?x2x8xf32>
// CHECK-NOT: memref<?x1x
// CHECK: {dl.gemm_band}
// CHECK-NOT: dl.gemm_band
// CHECK: return
func.func @static_k(%a: memref<?x8xf32>, %b: memref<8x?xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x8xf32>, memref<8x?xf32>) outs(%c : memref<?x?xf32>)
      {pack_a, pack_b, pack_c, pad_blocks, pack_blocks = array<i64: 2, 8, 4>}
  return
}
