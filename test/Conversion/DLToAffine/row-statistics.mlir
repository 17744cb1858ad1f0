// Row statistics: a blocked convolution writes, after each output tile is
// complete, per row and channel the mean over the row and the sum of squared
// deviations from it, two passes over the row with the sums in registers; a
// batch normalization in training merges them per channel block (Chan's
// update, carried in iter_args) instead of sweeping its input, then
// normalizes as usual.
// RUN: dl-opt %s --convert-dl-to-affine --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @conv_rows
// CHECK-SAME: %[[OUT:[a-z0-9_]+]]: memref<1x1x3x4x8xf32>, %[[ROWS:[a-z0-9_]+]]: memref<1x3x2x8xf32>)
// CHECK-DAG: %[[INV:.*]] = arith.constant dense<2.500000e-01> : vector<8xf32>
// CHECK: {dl.gemm_band}
// Per row of the completed tile: the sum of its 4 pixels' channel vectors,
// the mean, the squared deviations, two vector stores.
// CHECK: %[[SUM:.*]] = affine.for %{{.*}} = 0 to 4 iter_args(%[[S:.*]] = %{{.*}}) -> (vector<8xf32>) {
// CHECK-NEXT: %[[X:.*]] = affine.vector_load %[[OUT]]
// CHECK-NEXT: arith.addf %[[S]], %[[X]] : vector<8xf32>
// CHECK: %[[MEAN:.*]] = arith.mulf %[[SUM]], %[[INV]]
// CHECK-NEXT: %[[SQ:.*]] = affine.for %{{.*}} = 0 to 4 iter_args(%[[Q:.*]] = %{{.*}}) -> (vector<8xf32>) {
// CHECK-NEXT: %[[X2:.*]] = affine.vector_load %[[OUT]]
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X2]], %[[MEAN]]
// CHECK-NEXT: math.fma %[[D]], %[[D]], %[[Q]]
// CHECK: affine.vector_store %[[MEAN]], %[[ROWS]][{{.*}}, 0, {{.*}}]
// CHECK-NEXT: affine.vector_store %[[SQ]], %[[ROWS]][{{.*}}, 1, {{.*}}]
func.func @conv_rows(%in: memref<1x1x3x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>,
                     %out: memref<1x1x3x4x8xf32>, %rows: memref<1x3x2x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x3x4x8xf32>, memref<1x1x1x1x8x8xf32>)
      outs(%out : memref<1x1x3x4x8xf32>) row_statistics(%rows : memref<1x3x2x8xf32>)
  return
}

// CHECK-LABEL: func.func @merge
// CHECK-SAME: %[[ROWS:[a-z0-9_]+]]: memref<1x3x2x8xf32>)
// CHECK-DAG: %[[M:.*]] = arith.constant dense<1.200000e+01> : vector<8xf32>
// CHECK-DAG: %[[W:.*]] = arith.constant 4.000000e+00 : f32
// CHECK: affine.for %[[CB:.*]] = 0 to 1 {
// No statistics sweep over the input: the rows' statistics merged.
// CHECK-NOT: affine.vector_load %collapse
// CHECK: affine.for %[[R:.*]] = 0 to 3 iter_args(%[[NA:.*]] = %{{.*}}, %[[MA:.*]] = %{{.*}}, %[[SA:.*]] = %{{.*}}) -> (f32, vector<8xf32>, vector<8xf32>) {
// CHECK-NEXT: %[[MB:.*]] = affine.vector_load %[[ROWS]][%{{.*}}, %[[R]], 0, %[[CB]] * 8]
// CHECK-NEXT: %[[SB:.*]] = affine.vector_load %[[ROWS]][%{{.*}}, %[[R]], 1, %[[CB]] * 8]
// CHECK-NEXT: %[[NAB:.*]] = arith.addf %[[NA]], %[[W]] : f32
// CHECK-NEXT: %[[DELTA:.*]] = arith.subf %[[MB]], %[[MA]]
// CHECK: %[[MEAN:.*]] = math.fma %[[DELTA]], %{{.*}}, %[[MA]]
// CHECK: %[[SQ:.*]] = arith.addf %[[SA]], %[[SB]]
// CHECK: math.fma %{{.*}}, %{{.*}}, %[[SQ]]
// CHECK: arith.divf %{{.*}}, %[[M]] : vector<8xf32>
// CHECK: math.rsqrt
// The normalize sweep reads the input.
// CHECK: affine.vector_load %collapse
func.func @merge(%x: memref<1x1x3x4x8xf32>, %g: memref<8xf32>, %b: memref<8xf32>,
                 %y: memref<1x1x3x4x8xf32>, %m: memref<8xf32>, %v: memref<8xf32>,
                 %rows: memref<1x3x2x8xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<1x1x3x4x8xf32>, memref<8xf32>, memref<8xf32>)
      outs(%y, %m, %v : memref<1x1x3x4x8xf32>, memref<8xf32>, memref<8xf32>)
      row_statistics(%rows : memref<1x3x2x8xf32>)
  return
}
