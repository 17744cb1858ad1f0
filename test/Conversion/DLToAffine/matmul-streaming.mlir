// The lowering of a stream_a GEMM (GEMV-like): op(B) copied transposed (16
// rows of a contiguous B a vector, split by shuffles; the last K % 16 rows
// element by element), then
// groups of rows of A (8 rows for N = 2: 16 accumulators and 8 row vectors
// in registers; the 9th row alone) against it, in
// 16-float vectors over K (32 of 40) accumulated with vector.fma, the last 8
// products in one more step of vectors whose lanes past K are masked off,
// one reduction per element of C, beta * C added.
// With AVX2's 16 registers (8 such vectors), groups of 2 rows (4
// accumulators, 2 row vectors), the 9th row alone.
// 16 rows of N = 3 (groups of 7 by the registers) run in 4 groups of 4,
// which divide M: one loop over the rows, none after it. A transposed copy
// beyond half the L1 (N = 8, K = 2048: 64 KB) is read once a group: 76 rows
// keep groups of 3 (25 groups and one row, 26 reads) rather than 38 groups
// of 2.
// RUN: dl-opt %s --dl-set-target=vector-bits=512 --convert-dl-to-affine --split-input-file | FileCheck %s
// RUN: dl-opt %s --dl-set-target=vector-bits=256 --convert-dl-to-affine --split-input-file | FileCheck %s --check-prefix=AVX2

// CHECK-LABEL: func.func @stream
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<9x40xf32>, %[[B:[a-z0-9_]+]]: memref<40x2xf32>, %[[C:[a-z0-9_]+]]: memref<9x2xf32>)
// CHECK: %[[BT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x40xf32>
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[B]] {{\[\[}}0, 1]] : memref<40x2xf32> into memref<80xf32>
// CHECK: affine.for %[[KC:.*]] = 0 to 32 step 16 {
// CHECK-NEXT: %[[ROWS:.*]] = affine.vector_load %[[FLAT]][%[[KC]] * 2] : memref<80xf32>, vector<32xf32>
// CHECK-NEXT: %[[COL0:.*]] = vector.shuffle %[[ROWS]], %[[ROWS]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK-NEXT: affine.vector_store %[[COL0]], %[[BT]][0, %[[KC]]]
// CHECK-NEXT: %[[COL1:.*]] = vector.shuffle %[[ROWS]], %[[ROWS]] [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK-NEXT: affine.vector_store %[[COL1]], %[[BT]][1, %[[KC]]]
// CHECK: affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[K:.*]] = 32 to 40 {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[B]][%[[K]], %[[J]]]
// CHECK-NEXT: affine.store %[[V]], %[[BT]][%[[J]], %[[K]]]
// CHECK: affine.for %[[I:.*]] = 0 to 8 step 8 {
// CHECK: %{{.*}}:16 = affine.for %[[KV:.*]] = 0 to 32 step 16 iter_args
// CHECK-COUNT-8: affine.vector_load %[[A]][%[[I]]{{.*}}, %[[KV]]] : memref<9x40xf32>, vector<16xf32>
// CHECK: affine.vector_load %[[BT]][0, %[[KV]]]
// CHECK-COUNT-8: vector.fma
// CHECK: affine.vector_load %[[BT]][1, %[[KV]]]
// CHECK-COUNT-8: vector.fma
// CHECK: %[[REST:.*]] = vector.constant_mask [8] : vector<16xi1>
// CHECK-COUNT-8: vector.maskedload %[[A]][%{{.*}}, %{{.*}}], %[[REST]], %{{.*}} : memref<9x40xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: vector.maskedload %[[BT]][%{{.*}}, %{{.*}}], %[[REST]]
// CHECK-COUNT-8: vector.fma
// CHECK-NOT: affine.for
// CHECK: vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK: affine.load %[[C]][%[[I]], 0]
// CHECK: affine.store %{{.*}}, %[[C]][%[[I]], 0]
// CHECK: affine.for %[[LAST:.*]] = 8 to 9 {
// CHECK: %{{.*}}:2 = affine.for %{{.*}} = 0 to 32 step 16 iter_args
// CHECK: memref.dealloc %[[BT]]
// AVX2-LABEL: func.func @stream
// AVX2: affine.for %{{.*}} = 0 to 8 step 2 {
// AVX2: %{{.*}}:4 = affine.for %{{.*}} = 0 to 32 step 16 iter_args
// AVX2: affine.for %{{.*}} = 8 to 9 {
func.func @stream(%a: memref<9x40xf32>, %b: memref<40x2xf32>, %c: memref<9x2xf32>) {
  dl.matmul ins(%a, %b : memref<9x40xf32>, memref<40x2xf32>) outs(%c : memref<9x2xf32>) {stream_a, beta = 1.0 : f32}
  return
}

// -----

// Rows of 256 floats (1 KiB) would put every row of the transposed copy in
// the same few L1 sets: its rows are a vector (16 floats) further apart.
// CHECK-LABEL: func.func @conflicting_rows
// CHECK: %[[BT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x272xf32>
// CHECK: affine.for %{{.*}} = 0 to 256 step 16 {
func.func @conflicting_rows(%a: memref<8x256xf32>, %b: memref<256x3xf32>, %c: memref<8x3xf32>) {
  dl.matmul ins(%a, %b : memref<8x256xf32>, memref<256x3xf32>) outs(%c : memref<8x3xf32>) {stream_a}
  return
}

// -----

// CHECK-LABEL: func.func @groups_dividing_rows
// CHECK: affine.for %{{.*}} = 0 to 16 step 4 {
// CHECK: %{{.*}}:12 = affine.for %{{.*}} = 0 to 64 step 16 iter_args
// CHECK-NOT: affine.for %{{.*}} = 16 to
// CHECK: memref.dealloc
func.func @groups_dividing_rows(%a: memref<16x64xf32>, %b: memref<64x3xf32>, %c: memref<16x3xf32>) {
  dl.matmul ins(%a, %b : memref<16x64xf32>, memref<64x3xf32>) outs(%c : memref<16x3xf32>) {stream_a}
  return
}

// -----

// CHECK-LABEL: func.func @groups_reading_a_large_copy
// CHECK: affine.for %{{.*}} = 0 to 75 step 3 {
// CHECK: %{{.*}}:24 = affine.for %{{.*}} = 0 to 2048 step 16 iter_args
// CHECK: affine.for %{{.*}} = 75 to 76 {
func.func @groups_reading_a_large_copy(%a: memref<76x2048xf32>, %b: memref<2048x8xf32>, %c: memref<76x8xf32>) {
  dl.matmul ins(%a, %b : memref<76x2048xf32>, memref<2048x8xf32>) outs(%c : memref<76x8xf32>) {stream_a}
  return
}
