// A convolution's epilogue: a batch normalization step becomes a per-channel
// scale and shift computed before the nest (one rsqrt per channel); the
// blocked nest applies the steps to each output tile right after the tile's
// reduction loops (the input-channel blocks), reading the element once and
// writing it once; the plain nest applies them in one sweep after it.
// RUN: dl-opt %s --convert-dl-to-affine --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @blocked
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: {{.*}}, %[[F:[a-z0-9_]+]]: {{.*}}, %[[BIAS:[a-z0-9_]+]]: memref<8xf32>, %[[G:[a-z0-9_]+]]: memref<8xf32>, %[[B:[a-z0-9_]+]]: memref<8xf32>, %[[M:[a-z0-9_]+]]: memref<8xf32>, %[[V:[a-z0-9_]+]]: memref<8xf32>, %[[OUT:[a-z0-9_]+]]: memref<1x1x4x4x8xf32>)
// CHECK: %[[SCALE:.*]] = memref.alloc() : memref<8xf32>
// CHECK: %[[SHIFT:.*]] = memref.alloc() : memref<8xf32>
// CHECK: affine.for %[[C:.*]] = 0 to 8 {
// CHECK: math.rsqrt
// CHECK: affine.store %{{.*}}, %[[SCALE]][%[[C]]]
// CHECK: affine.store %{{.*}}, %[[SHIFT]][%[[C]]]
// The tile loops (n, kb, oh), the tile set to zero, the reduction over the
// input-channel blocks around the GEMM band, then the epilogue.
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[KB:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 4 {
// CHECK: affine.store %{{.*}}, %[[OUT]]
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK: {dl.gemm_band}
// CHECK: affine.for %[[OW:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT: %[[SUM:.*]] = affine.load %[[OUT]][%[[N]], %[[KB]], %[[OH]], %[[OW]], %[[K]]]
// CHECK-NEXT: %[[BV:.*]] = affine.load %[[BIAS]][%[[KB]] * 8 + %[[K]]]
// CHECK-NEXT: %[[X1:.*]] = arith.addf %[[SUM]], %[[BV]]
// CHECK-NEXT: %[[SC:.*]] = affine.load %[[SCALE]][%[[KB]] * 8 + %[[K]]]
// CHECK-NEXT: %[[SH:.*]] = affine.load %[[SHIFT]][%[[KB]] * 8 + %[[K]]]
// CHECK-NEXT: %[[X2:.*]] = math.fma %[[X1]], %[[SC]], %[[SH]]
// CHECK-NEXT: %[[X3:.*]] = arith.maxnumf %[[X2]]
// CHECK-NEXT: affine.store %[[X3]], %[[OUT]][%[[N]], %[[KB]], %[[OH]], %[[OW]], %[[K]]]
// CHECK: memref.dealloc %[[SCALE]]
// CHECK: memref.dealloc %[[SHIFT]]
// CHECK-NOT: math.rsqrt
func.func @blocked(%in: memref<1x2x4x4x8xf32>, %f: memref<1x2x1x1x8x8xf32>, %bias: memref<8xf32>,
                   %g: memref<8xf32>, %b: memref<8xf32>, %m: memref<8xf32>, %v: memref<8xf32>,
                   %out: memref<1x1x4x4x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x4x4x8xf32>, memref<1x2x1x1x8x8xf32>) outs(%out : memref<1x1x4x4x8xf32>)
      epilogue(%bias, %g, %b, %m, %v : memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>)
      {epilogue = [#dl.post_op<bias_add>, #dl.post_op<batch_norm_inference>, #dl.post_op<relu>],
       epilogue_epsilon = 1.0e-3 : f32}
  return
}

// CHECK-LABEL: func.func @plain
// CHECK-SAME: %[[R:[a-z0-9_]+]]: memref<1x2x4x4xf32>, %[[OUT:[a-z0-9_]+]]: memref<1x2x4x4xf32>)
// CHECK: arith.mulf
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[H:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 4 {
// CHECK-NEXT: %[[SUM:.*]] = affine.load %[[OUT]][%[[N]], %[[K]], %[[H]], %[[W]]]
// CHECK-NEXT: %[[RV:.*]] = affine.load %[[R]][%[[N]], %[[K]], %[[H]], %[[W]]]
// CHECK-NEXT: %[[X1:.*]] = arith.addf %[[SUM]], %[[RV]]
// CHECK-NEXT: %[[X2:.*]] = arith.maxnumf %[[X1]]
// CHECK-NEXT: %[[X3:.*]] = arith.minnumf %[[X2]]
// CHECK-NEXT: affine.store %[[X3]], %[[OUT]][%[[N]], %[[K]], %[[H]], %[[W]]]
func.func @plain(%in: memref<1x3x4x4xf32>, %f: memref<2x3x1x1xf32>, %r: memref<1x2x4x4xf32>, %out: memref<1x2x4x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x3x4x4xf32>, memref<2x3x1x1xf32>) outs(%out : memref<1x2x4x4xf32>)
      epilogue(%r : memref<1x2x4x4xf32>) {epilogue = [#dl.post_op<add>, #dl.post_op<relu6>]}
  return
}
