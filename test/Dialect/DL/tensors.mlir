// The dl layer ops on tensors: every op round-trips in its tensor form
// (custom and generic), with one result per `outs` tensor.
// RUN: dl-opt %s | dl-opt | FileCheck %s
// RUN: dl-opt %s --mlir-print-op-generic | dl-opt | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) {beta = 1.000000e+00 : f32} -> tensor<4x16xf32>
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = dl.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) {beta = 1.0 : f32} -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @conv_epilogue
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%{{.*}} : tensor<1x16x8x8xf32>) epilogue(%{{.*}} : tensor<16xf32>) {epilogue = [#dl.post_op<bias_add>]} -> tensor<1x16x8x8xf32>
func.func @conv_epilogue(%x: tensor<1x8x10x10xf32>, %f: tensor<16x8x3x3xf32>, %y: tensor<1x16x8x8xf32>, %bias: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %r = dl.conv2d ins(%x, %f : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%y : tensor<1x16x8x8xf32>) epilogue(%bias : tensor<16xf32>) {epilogue = [#dl.post_op<bias_add>]} -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// CHECK-LABEL: func.func @batch_norms
// CHECK: dl.batch_norm_inference ins({{.*}}) outs(%{{.*}} : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
// CHECK: dl.batch_norm_training ins({{.*}}) outs({{.*}}) inv_std(%{{.*}} : tensor<8xf32>) -> tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
func.func @batch_norms(%x: tensor<2x8x4x4xf32>, %v: tensor<8xf32>, %y: tensor<2x8x4x4xf32>) -> (tensor<2x8x4x4xf32>, tensor<8xf32>) {
  %i = dl.batch_norm_inference ins(%x, %v, %v, %v, %v : tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %t:4 = dl.batch_norm_training ins(%i, %v, %v : tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>) outs(%y, %v, %v : tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>) inv_std(%v : tensor<8xf32>) -> tensor<2x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  return %t#0, %t#3 : tensor<2x8x4x4xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @elementwise_and_layouts
// CHECK: dl.relu ins(%{{.*}} : tensor<1x8x4x4xf32>) outs(%{{.*}} : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK: dl.relu6 ins
// CHECK: dl.add ins
// CHECK: dl.bias_add ins
// CHECK: dl.pack ins(%{{.*}} : tensor<1x8x4x4xf32>) outs(%{{.*}} : tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
// CHECK: dl.unpack ins(%{{.*}} : tensor<1x2x4x4x4xf32>) outs(%{{.*}} : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
func.func @elementwise_and_layouts(%x: tensor<1x8x4x4xf32>, %b: tensor<8xf32>, %blocked: tensor<1x2x4x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %0 = dl.relu ins(%x : tensor<1x8x4x4xf32>) outs(%x : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %1 = dl.relu6 ins(%0 : tensor<1x8x4x4xf32>) outs(%0 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %2 = dl.add ins(%0, %1 : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%1 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %3 = dl.bias_add ins(%2, %b : tensor<1x8x4x4xf32>, tensor<8xf32>) outs(%2 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %4 = dl.pack ins(%3 : tensor<1x8x4x4xf32>) outs(%blocked : tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  %5 = dl.unpack ins(%4 : tensor<1x2x4x4x4xf32>) outs(%3 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %5 : tensor<1x8x4x4xf32>
}

// CHECK-LABEL: func.func @dynamic
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<?x16xf32>) -> tensor<?x16xf32>
func.func @dynamic(%a: tensor<?x8xf32> {dl.run_shape = array<i64: 3, 8>}, %b: tensor<8x16xf32>, %c: tensor<?x16xf32> {dl.run_shape = array<i64: 3, 16>}) -> tensor<?x16xf32> {
  %r = dl.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x16xf32>) outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
