// The lowering of batch normalization: one loop per channel (two for the
// blocked layout); training computes the mean and the biased variance in two
// (n, h, w) sweeps carried in iter_args, then normalizes in a third.
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s

// CHECK-LABEL: func.func @training
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<2x3x4x5xf32>, %[[G:[a-z0-9_]+]]: memref<3xf32>, %[[B:[a-z0-9_]+]]: memref<3xf32>, %[[Y:[a-z0-9_]+]]: memref<2x3x4x5xf32>, %[[M:[a-z0-9_]+]]: memref<3xf32>, %[[V:[a-z0-9_]+]]: memref<3xf32>)
// m = N * H * W = 40
// CHECK-DAG: %[[COUNT:.*]] = arith.constant 4.000000e+01 : f32
// CHECK-DAG: %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: affine.for %[[C:.*]] = 0 to 3 {
// Sweep 1: the sum.
// CHECK-NEXT: %[[SUM:.*]] = affine.for %[[N1:.*]] = 0 to 2 iter_args(%{{.*}} = %[[ZERO]]) -> (f32) {
// CHECK: affine.for %{{.*}} = 0 to 4 iter_args
// CHECK: affine.for %{{.*}} = 0 to 5 iter_args
// CHECK: affine.load %[[X]][%[[N1]], %[[C]], %{{.*}}, %{{.*}}]
// CHECK: %[[MEAN:.*]] = arith.divf %[[SUM]], %[[COUNT]]
// Sweep 2: the squared deviations.
// CHECK-NEXT: %[[SQ:.*]] = affine.for %{{.*}} = 0 to 2 iter_args(%{{.*}} = %[[ZERO]]) -> (f32) {
// CHECK: %[[D:.*]] = arith.subf %{{.*}}, %[[MEAN]]
// CHECK-NEXT: arith.mulf %[[D]], %[[D]]
// CHECK: %[[VAR:.*]] = arith.divf %[[SQ]], %[[COUNT]]
// CHECK-NEXT: affine.store %[[MEAN]], %[[M]][%[[C]]]
// CHECK-NEXT: affine.store %[[VAR]], %[[V]][%[[C]]]
// One square root per channel, outside the element loops.
// CHECK-NEXT: %[[SHIFTED:.*]] = arith.addf %[[VAR]], %[[EPS]]
// CHECK-NEXT: %[[ROOT:.*]] = math.sqrt %[[SHIFTED]]
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %[[ROOT]]
// CHECK-DAG: %[[GV:.*]] = affine.load %[[G]][%[[C]]]
// CHECK-DAG: %[[BV:.*]] = affine.load %[[B]][%[[C]]]
// Sweep 3: normalize.
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK: %[[XV:.*]] = affine.load %[[X]]
// CHECK-NEXT: %[[XC:.*]] = arith.subf %[[XV]], %[[MEAN]]
// CHECK-NEXT: %[[XN:.*]] = arith.mulf %[[XC]], %[[INV]]
// CHECK-NEXT: %[[XS:.*]] = arith.mulf %[[GV]], %[[XN]]
// CHECK-NEXT: %[[YV:.*]] = arith.addf %[[XS]], %[[BV]]
// CHECK-NEXT: affine.store %[[YV]], %[[Y]]
// CHECK-NOT: math.sqrt
// CHECK: return
func.func @training(%x: memref<2x3x4x5xf32>, %g: memref<3xf32>, %b: memref<3xf32>,
                    %y: memref<2x3x4x5xf32>, %m: memref<3xf32>, %v: memref<3xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
      outs(%y, %m, %v : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
  return
}

// Blocked NCHW16c: scale = gamma / sqrt(variance + eps) per channel into a
// scratch vector, then one sweep in memory order (the block innermost) with
// per-channel vectors at cb * 16 + c.
// CHECK-LABEL: func.func @inference_blocked
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<1x2x3x3x16xf32>, %[[G:[a-z0-9_]+]]: memref<32xf32>, %[[B:[a-z0-9_]+]]: memref<32xf32>, %[[M:[a-z0-9_]+]]: memref<32xf32>, %[[V:[a-z0-9_]+]]: memref<32xf32>, %[[Y:[a-z0-9_]+]]: memref<1x2x3x3x16xf32>)
// CHECK: %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[SCALE:.*]] = memref.alloc() : memref<32xf32>
// CHECK: affine.for %[[C:.*]] = 0 to 32 {
// CHECK-NEXT: %[[VV:.*]] = affine.load %[[V]][%[[C]]]
// CHECK-NEXT: %[[SH:.*]] = arith.addf %[[VV]], %[[EPS]]
// CHECK-NEXT: %[[SQ:.*]] = math.sqrt %[[SH]]
// CHECK-NEXT: %[[INV:.*]] = arith.divf %{{.*}}, %[[SQ]]
// CHECK-NEXT: %[[GV:.*]] = affine.load %[[G]][%[[C]]]
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[GV]], %[[INV]]
// CHECK-NEXT: affine.store %[[S]], %[[SCALE]][%[[C]]]
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[H:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[CI:.*]] = 0 to 16 {
// CHECK-NEXT: %[[XV:.*]] = affine.load %[[X]][%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]]
// CHECK-NEXT: %[[MV:.*]] = affine.load %[[M]][%[[CB]] * 16 + %[[CI]]]
// CHECK-NEXT: %[[XC:.*]] = arith.subf %[[XV]], %[[MV]]
// CHECK-NEXT: %[[SV:.*]] = affine.load %[[SCALE]][%[[CB]] * 16 + %[[CI]]]
// CHECK-NEXT: %[[XS:.*]] = arith.mulf %[[XC]], %[[SV]]
// CHECK-NEXT: %[[BV:.*]] = affine.load %[[B]][%[[CB]] * 16 + %[[CI]]]
// CHECK-NEXT: %[[YV:.*]] = arith.addf %[[XS]], %[[BV]]
// CHECK-NEXT: affine.store %[[YV]], %[[Y]][%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]]
// CHECK: memref.dealloc %[[SCALE]]
func.func @inference_blocked(%x: memref<1x2x3x3x16xf32>, %g: memref<32xf32>, %b: memref<32xf32>,
                             %m: memref<32xf32>, %v: memref<32xf32>, %y: memref<1x2x3x3x16xf32>) {
  dl.batch_norm_inference ins(%x, %g, %b, %m, %v : memref<1x2x3x3x16xf32>, memref<32xf32>,
      memref<32xf32>, memref<32xf32>, memref<32xf32>) outs(%y : memref<1x2x3x3x16xf32>)
      {epsilon = 1.0e-5 : f32}
  return
}

// Dynamic N, H, W: the element count m is computed at run time.
// CHECK-LABEL: func.func @training_dynamic
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<?x3x?x?xf32>
// CHECK: cf.assert %{{.*}}, "{{.*}}'dl.batch_norm_training' op run-time size check failed: input size 0 does not match output size 0"
// CHECK-NEXT: arith.cmpi
// CHECK-NEXT: cf.assert %{{.*}}, "{{.*}}: input size 2 does not match output size 2"
// CHECK-NEXT: arith.cmpi
// CHECK-NEXT: cf.assert %{{.*}}, "{{.*}}: input size 3 does not match output size 3"
// CHECK-DAG: %[[N:.*]] = memref.dim %[[X]], %c0
// CHECK-DAG: %[[H:.*]] = memref.dim %[[X]], %c2
// CHECK-DAG: %[[W:.*]] = memref.dim %[[X]], %c3
// CHECK: %[[NH:.*]] = arith.muli %[[N]], %[[H]]
// CHECK-NEXT: %[[NHW:.*]] = arith.muli %[[NH]], %[[W]]
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %[[NHW]] : index to i64
// CHECK-NEXT: arith.sitofp %[[I64]] : i64 to f32
// CHECK: affine.for %{{.*}} = 0 to %[[N]] iter_args
func.func @training_dynamic(%x: memref<?x3x?x?xf32>, %g: memref<3xf32>, %b: memref<3xf32>,
                            %y: memref<?x3x?x?xf32>, %m: memref<3xf32>, %v: memref<3xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<?x3x?x?xf32>, memref<3xf32>, memref<3xf32>)
      outs(%y, %m, %v : memref<?x3x?x?xf32>, memref<3xf32>, memref<3xf32>)
  return
}
