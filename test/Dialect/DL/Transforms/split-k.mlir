// dl-split-k applies the split_k that dl-decide-parallelism records: a
// parallel loop over equal chunks of K's blocks, chunk 0 into C with the
// GEMM's beta, the others into copies of C in a scratch buffer (beta 0),
// the copies added to C after the loop, then the blocks the chunks leave
// over (33 of 128 = 2 x 16 + 1) into C with beta 1. Each part keeps the
// blocks and packing, runs on one thread and has its K tiles and
// batch_blocks reduced to divide its blocks; transposed operands are cut
// along their K dimension.
// RUN: dl-opt %s --dl-split-k | FileCheck %s

// CHECK-DAG: #[[CHUNK:.*]] = affine_map<(d0) -> (d0 * 2048)>
// CHECK-DAG: #[[COPY:.*]] = affine_map<(d0) -> (d0 - 1)>
// CHECK-DAG: #[[FIRST:.*]] = affine_set<(d0) : (d0 == 0)>
// CHECK-LABEL: func.func @two_chunks
// CHECK-SAME: (%[[A:.*]]: memref<49x4224xf32>, %[[B:.*]]: memref<4224x38xf32>, %[[C:.*]]: memref<49x38xf32>)
// CHECK: %[[S:.*]] = memref.alloc() : memref<1x49x38xf32>
// CHECK: affine.parallel (%[[T:.*]]) = (0) to (2) {
// CHECK:   %[[K0:.*]] = affine.apply #[[CHUNK]](%[[T]])
// CHECK:   %[[AT:.*]] = memref.subview %[[A]][0, %[[K0]]] [49, 2048] [1, 1]
// CHECK:   %[[BT:.*]] = memref.subview %[[B]][%[[K0]], 0] [2048, 38] [1, 1]
// CHECK:   affine.if #[[FIRST]](%[[T]]) {
// CHECK:     dl.matmul ins(%[[AT]], %[[BT]] : {{.*}}) outs(%[[C]] : memref<49x38xf32>)
// CHECK-SAME: {batch_blocks = 8 : i64, dl.sequential, pack_a, pack_blocks = array<i64: 49, 38, 128>, schedule = #dl.schedule<[i, j, k:8, k]>}
// CHECK:   } else {
// CHECK:     %[[I:.*]] = affine.apply #[[COPY]](%[[T]])
// CHECK:     %[[ST:.*]] = memref.subview %[[S]][%[[I]], 0, 0] [1, 49, 38] [1, 1, 1]
// CHECK:     dl.matmul ins(%[[AT]], %[[BT]] : {{.*}}) outs(%[[ST]] : memref<49x38xf32, strided<[38, 1], offset: ?>>)
// CHECK-SAME: {batch_blocks = 8 : i64, dl.sequential, pack_a, pack_blocks = array<i64: 49, 38, 128>, schedule = #dl.schedule<[i, j, k:8, k]>}
// CHECK:   }
// CHECK: }
// CHECK: %[[S0:.*]] = memref.subview %[[S]][0, 0, 0] [1, 49, 38] [1, 1, 1]
// CHECK: dl.add ins(%[[C]], %[[S0]] : {{.*}}) outs(%[[C]] : memref<49x38xf32>) {dl.sequential}
// CHECK: %[[AR:.*]] = memref.subview %[[A]][0, 4096] [49, 128] [1, 1]
// CHECK: %[[BR:.*]] = memref.subview %[[B]][4096, 0] [128, 38] [1, 1]
// CHECK: dl.matmul ins(%[[AR]], %[[BR]] : {{.*}}) outs(%[[C]] : memref<49x38xf32>)
// CHECK-SAME: {batch_blocks = 1 : i64, beta = 1.000000e+00 : f32, dl.sequential, {{.*}}schedule = #dl.schedule<[i, j, k:1, k]>}
// CHECK: memref.dealloc %[[S]]
// CHECK-NOT: split_k
func.func @two_chunks(%a: memref<49x4224xf32>, %b: memref<4224x38xf32>, %c: memref<49x38xf32>) {
  dl.matmul ins(%a, %b : memref<49x4224xf32>, memref<4224x38xf32>) outs(%c : memref<49x38xf32>)
      {batch_blocks = 11 : i64, pack_a, pack_blocks = array<i64: 49, 38, 128>, schedule = #dl.schedule<[i, j, k:11, k]>, split_k = 2 : i64}
  return
}

// CHECK-LABEL: func.func @three_chunks_transposed
// CHECK-SAME: (%[[A:.*]]: memref<96x20xf32>, %[[B:.*]]: memref<30x96xf32>, %[[C:.*]]: memref<20x30xf32>)
// CHECK: %[[S:.*]] = memref.alloc() : memref<2x20x30xf32>
// CHECK: affine.parallel (%{{.*}}) = (0) to (3) {
// CHECK:   memref.subview %[[A]][%[[K0:.*]], 0] [32, 20] [1, 1]
// CHECK:   memref.subview %[[B]][0, %[[K0]]] [30, 32] [1, 1]
// CHECK:   dl.matmul {{.*}} outs(%[[C]] : {{.*}}) {alpha = 2.000000e+00 : f32, beta = 1.000000e+00 : f32, dl.sequential
// CHECK:   } else {
// CHECK:   dl.matmul {{.*}} {alpha = 2.000000e+00 : f32, dl.sequential
// CHECK: dl.add ins(%[[C]], %{{.*}} : memref<20x30xf32>, memref<20x30xf32, strided<[30, 1]>>)
// CHECK: dl.add ins(%[[C]], %{{.*}} : memref<20x30xf32>, memref<20x30xf32, strided<[30, 1], offset: 600>>)
// CHECK-NOT: dl.matmul
// CHECK: memref.dealloc %[[S]]
func.func @three_chunks_transposed(%a: memref<96x20xf32>, %b: memref<30x96xf32>, %c: memref<20x30xf32>) {
  dl.matmul ins(%a, %b : memref<96x20xf32>, memref<30x96xf32>) outs(%c : memref<20x30xf32>)
      {alpha = 2.0 : f32, beta = 1.0 : f32, transpose_a, transpose_b, pack_a, pack_b, pack_blocks = array<i64: 20, 30, 32>, schedule = #dl.schedule<[i, j, k]>, split_k = 3 : i64}
  return
}

// A GEMM without split_k is left alone.
// CHECK-LABEL: func.func @not_split
// CHECK-NOT: affine.parallel
// CHECK: dl.matmul
func.func @not_split(%a: memref<8x12xf32>, %b: memref<12x16xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x12xf32>, memref<12x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 8, 16, 3>}
  return
}
