// The lowering of dl.conv2d: zero the output, then accumulate over the
// plain (n, k, oh, ow, c, r, s) or blocked (n, kb, oh, cb, r, s, ow, c, k)
// nest. Plain: taps in the zero padding are skipped with affine.if. Blocked:
// the bounds of the filter-row loop r skip the padding rows, the padding
// columns are materialized in a copy, and the (ow, c, k) band is tagged as a
// GEMM.
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s

// Maps and integer sets are printed first: the filter-row bounds of the
// blocked cases, then the tests of the plain padded and dynamic cases.
// CHECK: #[[FIRSTROW:.*]] = affine_map<(d0) -> (0, -d0 + 1)>
// CHECK: #[[LASTROW:.*]] = affine_map<(d0)[s0] -> (3, -d0 + s0 + 1)>
// CHECK: #[[PADSET:.*]] = affine_set<(d0, d1, d2, d3, d4, d5, d6) : (d2 + d5 - 1 >= 0, -(d2 + d5 - 1) + 4 >= 0, -(d3 + d6) + 4 >= 0)>
// CHECK: #[[DYNSET:.*]] = affine_set<(d0, d1, d2, d3, d4, d5, d6)[s0, s1] : (d2 + d5 - 1 >= 0, -(d2 + d5 - 1) + s0 - 1 >= 0, d3 + d6 - 1 >= 0, -(d3 + d6 - 1) + s1 - 1 >= 0)>

// No padding: no affine.if; stride 2 and dilation 2 in the input index.
// CHECK-LABEL: func.func @plain_strided
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: memref<1x3x9x9xf32>, %[[F:[a-z0-9_]+]]: memref<4x3x2x2xf32>, %[[OUT:[a-z0-9_]+]]: memref<1x4x4x4xf32>)
// CHECK: affine.store %{{.*}}, %[[OUT]]
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[S:.*]] = 0 to 2 {
// CHECK-NOT: affine.if
// CHECK-DAG: affine.load %[[IN]][%[[N]], %[[C]], %[[OH]] * 2 + %[[R]] * 2, %[[OW]] * 2 + %[[S]] * 2]
// CHECK-DAG: affine.load %[[F]][%[[K]], %[[C]], %[[R]], %[[S]]]
// CHECK: affine.store %{{.*}}, %[[OUT]][%[[N]], %[[K]], %[[OH]], %[[OW]]]
func.func @plain_strided(%in: memref<1x3x9x9xf32>, %f: memref<4x3x2x2xf32>, %out: memref<1x4x4x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x3x9x9xf32>, memref<4x3x2x2xf32>) outs(%out : memref<1x4x4x4xf32>)
      {strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>}
  return
}

// Asymmetric padding (top 1, left 0, bottom 2, right 1): only the borders
// that can be crossed are tested.
// CHECK-LABEL: func.func @padded
// CHECK: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.for %[[S:.*]] = 0 to 3 {
// CHECK-NEXT: affine.if #[[PADSET]]
// CHECK-DAG: affine.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}} + %{{.*}} - 1, %{{.*}} + %[[S]]]
func.func @padded(%in: memref<1x2x5x5xf32>, %f: memref<2x2x3x3xf32>, %out: memref<1x2x6x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x5x5xf32>, memref<2x2x3x3xf32>) outs(%out : memref<1x2x6x4xf32>)
      {padding = array<i64: 1, 0, 2, 1>}
  return
}

// Blocked layout: innermost k is contiguous in the output and the filter.
// CHECK-LABEL: func.func @blocked
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: memref<2x2x7x7x16xf32>, %[[F:[a-z0-9_]+]]: memref<3x2x3x3x16x8xf32>, %[[OUT:[a-z0-9_]+]]: memref<2x3x5x5x8xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-NEXT: affine.for %[[N:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[KB:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[ZW:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[ZK:.*]] = 0 to 8 {
// CHECK-NEXT: affine.store %[[ZERO]], %[[OUT]][%[[N]], %[[KB]], %[[OH]], %[[ZW]], %[[ZK]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[S:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 16 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 8 {
// CHECK-DAG: affine.load %[[IN]][%[[N]], %[[CB]], %[[OH]] + %[[R]], %[[S]] + %[[OW]], %[[C]]]
// CHECK-DAG: affine.load %[[F]][%[[KB]], %[[CB]], %[[R]], %[[S]], %[[C]], %[[K]]]
// CHECK: affine.store %{{.*}}, %[[OUT]][%[[N]], %[[KB]], %[[OH]], %[[OW]], %[[K]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: } {dl.gemm_band}
// CHECK-NOT: memref.alloc
func.func @blocked(%in: memref<2x2x7x7x16xf32>, %f: memref<3x2x3x3x16x8xf32>, %out: memref<2x3x5x5x8xf32>) {
  dl.conv2d ins(%in, %f : memref<2x2x7x7x16xf32>, memref<3x2x3x3x16x8xf32>) outs(%out : memref<2x3x5x5x8xf32>)
  return
}

// Blocked with padding (top 1, left 2, bottom 0, right 1): the filter rows
// run from max(0, 1 - oh) (no bottom padding: to 3), and a 1x1x5x8x4 copy
// holds the input at column offset 2; the band reads it without tests. Only
// the padding columns are zeroed: per row, columns 0-1, then the copy of the
// interior, then column 7, in one nest over the rows.
// CHECK-LABEL: func.func @blocked_padded
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: memref<1x1x5x5x4xf32>
// CHECK: %[[PAD:.*]] = memref.alloc() : memref<1x1x5x8x4xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.0
// CHECK: affine.for %[[H:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[LW:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[LC:.*]] = 0 to 4 {
// CHECK-NEXT: affine.store %[[Z]], %[[PAD]][%{{.*}}, %{{.*}}, %[[H]], %[[LW]], %[[LC]]]
// CHECK: affine.for %[[W:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT: %[[X:.*]] = affine.load %[[IN]][%[[A0:.*]], %[[A1:.*]], %[[H]], %[[W]], %[[C]]]
// CHECK-NEXT: affine.store %[[X]], %[[PAD]][%[[A0]], %[[A1]], %[[H]], %[[W]] + 2, %[[C]]]
// CHECK: affine.for %[[RW:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[RC:.*]] = 0 to 4 {
// CHECK-NEXT: affine.store %[[Z]], %[[PAD]][%{{.*}}, %{{.*}}, %[[H]], %[[RW]] + 7, %[[RC]]]
// CHECK-NOT: affine.store %[[Z]], %[[PAD]]
// CHECK-NOT: affine.if
// CHECK: affine.for %[[OH:.*]] = 0 to 4 {
// CHECK: affine.for %[[CB:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[R:.*]] = max #[[FIRSTROW]](%[[OH]]) to 3 {
// CHECK-NEXT: affine.for %[[S:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 6 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT: affine.load %[[PAD]][%{{.*}}, %[[CB]], %[[OH]] + %[[R]] - 1, %[[S]] + %[[OW]], %[[C]]]
// CHECK: } {dl.gemm_band}
// CHECK: memref.dealloc %[[PAD]]
func.func @blocked_padded(%in: memref<1x1x5x5x4xf32>, %f: memref<1x1x3x3x4x4xf32>, %out: memref<1x1x4x6x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x5x5x4xf32>, memref<1x1x3x3x4x4xf32>) outs(%out : memref<1x1x4x6x4xf32>)
      {padding = array<i64: 1, 2, 0, 1>}
  return
}

// Dynamic blocked sizes: the copy is allocated with H and W + 2; the right
// column is at W (a symbol) plus 1, and the filter rows end at
// min(3, H + 1 - oh).
// CHECK-LABEL: func.func @blocked_dynamic_padded
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: memref<?x1x?x?x4xf32>
// CHECK-DAG: %[[N:.*]] = memref.dim %[[IN]], %c0
// CHECK-DAG: %[[H:.*]] = memref.dim %[[IN]], %c2
// CHECK-DAG: %[[W:.*]] = memref.dim %[[IN]], %c3
// CHECK-DAG: %[[W2:.*]] = arith.addi %[[W]], %c2
// CHECK: %[[PAD:.*]] = memref.alloc(%[[N]], %[[H]], %[[W2]]) : memref<?x1x?x?x4xf32>
// CHECK: affine.store %{{.*}}, %[[PAD]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} + symbol(%{{.*}}) + 1, %{{.*}}]
// CHECK: affine.for %{{.*}} = 0 to %{{.*}} {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to %{{.*}} {
// CHECK: affine.for %{{.*}} = max #[[FIRSTROW]](%[[OH]]) to min #[[LASTROW]](%[[OH]])[%{{.*}}] {
func.func @blocked_dynamic_padded(%in: memref<?x1x?x?x4xf32>, %f: memref<1x1x3x3x4x4xf32>, %out: memref<?x1x?x?x4xf32>) {
  dl.conv2d ins(%in, %f : memref<?x1x?x?x4xf32>, memref<1x1x3x3x4x4xf32>) outs(%out : memref<?x1x?x?x4xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// Dynamic sizes: the padding test reads H and W as symbols.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: memref<?x3x?x?xf32>
// CHECK-DAG: %[[H:.*]] = memref.dim %[[IN]], %c2
// CHECK-DAG: %[[W:.*]] = memref.dim %[[IN]], %c3
// CHECK: affine.if #[[DYNSET]](%{{.*}})[%[[H]], %[[W]]]
func.func @dynamic(%in: memref<?x3x?x?xf32>, %f: memref<8x3x3x3xf32>, %out: memref<?x8x?x?xf32>) {
  dl.conv2d ins(%in, %f : memref<?x3x?x?xf32>, memref<8x3x3x3xf32>) outs(%out : memref<?x8x?x?xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}
// CHECK-NOT: dl.conv2d
