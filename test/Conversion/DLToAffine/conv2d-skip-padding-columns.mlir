// The lowering of a blocked dl.conv2d with skip_padding_columns: no copy of
// the input; inside the schedule's loops, per run of filter columns (taps
// reading the input at the same output columns), the run's taps, the filter
// rows (bounded to skip the padding rows) and a GEMM band over only the
// output columns the taps read the input at, which reads the input itself at
// ow * stride + s - left.
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s

// CHECK: #[[FIRSTROW:.*]] = affine_map<(d0) -> (0, -d0 + 1)>
// CHECK: #[[LASTROW:.*]] = affine_map<(d0) -> (3, -d0 + 8)>
// CHECK: #[[FIRSTROW3:.*]] = affine_map<(d0) -> (0, d0 * -3 + 3)>
// CHECK: #[[LASTROW3:.*]] = affine_map<(d0) -> (7, d0 * -3 + 20)>

// 3x3, padding 1: the left tap skips output column 0, the right one column
// 6; the middle one reads all 7.
// CHECK-LABEL: func.func @three_by_three
// CHECK-SAME: (%[[IN:.*]]: memref<1x2x7x7x4xf32>, %[[F:.*]]: memref<3x2x3x3x4x8xf32>, %[[OUT:.*]]: memref<1x3x7x7x8xf32>)
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK: affine.for %[[KB:.*]] = 0 to 3 {
// CHECK: affine.for %[[OH:.*]] = 0 to 7 {
// CHECK: affine.store %{{.*}}, %[[OUT]]
// CHECK: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[S:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[R:.*]] = max #[[FIRSTROW]](%[[OH]]) to min #[[LASTROW]](%[[OH]]) {
// CHECK-NEXT: affine.for %[[OW:.*]] = 1 to 7 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT: affine.load %[[IN]][%[[N]], %[[CB]], %[[OH]] + %[[R]] - 1, %[[S]] + %[[OW]] - 1, %[[C]]]
// CHECK-NEXT: affine.load %[[F]][%[[KB]], %[[CB]], %[[R]], %[[S]], %[[C]], %[[K]]]
// CHECK: } {dl.gemm_band}
// CHECK: affine.for %{{.*}} = 1 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = max #[[FIRSTROW]](%[[OH]]) to min #[[LASTROW]](%[[OH]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 7 {
// CHECK: } {dl.gemm_band}
// CHECK: affine.for %{{.*}} = 2 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = max #[[FIRSTROW]](%[[OH]]) to min #[[LASTROW]](%[[OH]]) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 6 {
// CHECK: } {dl.gemm_band}
// CHECK-NOT: dl.gemm_band
// CHECK: return
func.func @three_by_three(%in: memref<1x2x7x7x4xf32>, %f: memref<3x2x3x3x4x8xf32>, %out: memref<1x3x7x7x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x7x7x4xf32>, memref<3x2x3x3x4x8xf32>) outs(%out : memref<1x3x7x7x8xf32>)
      {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
  return
}

// 7x7 at stride 3, padding [3, 2, 1, 3] on 17 columns (6 output columns):
// taps 0-1 read the input at columns 1-5, taps 2-3 at 0-5, taps 4-6 at
// 0-4, inside the schedule's loops (its tile and point loops over cb).
// CHECK-LABEL: func.func @strided_scheduled
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[KB:.*]] = 0 to 3 {
// CHECK: affine.for %[[CBT:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[CB:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[S:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = max #[[FIRSTROW3]](%[[OH]]) to min #[[LASTROW3]](%[[OH]]) {
// CHECK-NEXT: affine.for %[[OW:.*]] = 1 to 6 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.load %{{.*}}[%[[N]], %[[CBT]] + %[[CB]], %[[OH]] * 3 + %[[R]] - 3, %[[OW]] * 3 + %[[S]] - 2, %[[C]]]
// CHECK: } {dl.gemm_band}
// CHECK: affine.for %{{.*}} = 2 to 4 {
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.for %{{.*}} = 0 to 6 {
// CHECK: } {dl.gemm_band}
// CHECK: affine.for %{{.*}} = 4 to 7 {
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.for %{{.*}} = 0 to 5 {
// CHECK: } {dl.gemm_band}
// CHECK-NOT: dl.gemm_band
// CHECK: return
func.func @strided_scheduled(%in: memref<1x2x17x17x4xf32>, %f: memref<3x2x7x7x4x8xf32>, %out: memref<1x3x5x6x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x17x17x4xf32>, memref<3x2x7x7x4x8xf32>) outs(%out : memref<1x3x5x6x8xf32>)
      {strides = array<i64: 3, 3>, padding = array<i64: 3, 2, 1, 3>, skip_padding_columns,
       schedule = #dl.schedule<[kb, cb:1, oh, n, cb]>}
  return
}
