// TOSA through the stock mlir-opt-22 to linalg (tosa-to-linalg-named,
// tosa-to-linalg), then dl-compile: convert-linalg-to-dl raises the GEMM,
// the convolutions (NHWC, padded, with bias), the clamps and the adds; the
// depthwise convolution and the pooling stay linalg and compile to loops.
// --run checks the result against the same program not raised (its linalg
// ops lowered by upstream MLIR to loops).
// RUN: mlir-opt %s --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))' -o %t.mlir
// RUN: dl-opt %t.mlir --convert-linalg-to-dl 2>/dev/null | FileCheck %s --check-prefix=RAISED
// RUN: dl-compile %t.mlir --run --threads=2 | FileCheck %s

// RAISED-LABEL: func.func @conv_block
// RAISED: dl.conv2d {{.*}} {padding = array<i64: 1, 1, 1, 1>}
// RAISED: dl.bias_add
// RAISED: dl.relu ins
// RAISED: dl.conv2d {{.*}} {strides = array<i64: 2, 2>}
// RAISED: dl.relu6 ins
// RAISED-NOT: linalg.conv
// RAISED-LABEL: func.func @gemm
// RAISED: dl.matmul
// RAISED: dl.add
// RAISED-LABEL: func.func @left_as_loops
// RAISED: linalg.depthwise_conv_2d_nhwc_hwcm
// RAISED: linalg.pooling_nhwc_max

// CHECK: conv_block: max_abs_err={{.*}} ok
// CHECK: gemm: max_abs_err={{.*}} ok
// CHECK: left_as_loops: max_abs_err={{.*}} ok

func.func @conv_block(%x: tensor<1x13x13x16xf32>, %w: tensor<32x3x3x16xf32>, %b: tensor<32xf32>,
                      %w2: tensor<8x1x1x32xf32>, %b2: tensor<8xf32>) -> tensor<1x7x7x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
       : (tensor<1x13x13x16xf32>, tensor<32x3x3x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x13x13x32xf32>
  %r = tosa.clamp %y {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32} : (tensor<1x13x13x32xf32>) -> tensor<1x13x13x32xf32>
  %z = tosa.conv2d %r, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
       : (tensor<1x13x13x32xf32>, tensor<8x1x1x32xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x8xf32>
  %r6 = tosa.clamp %z {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  return %r6 : tensor<1x7x7x8xf32>
}

func.func @gemm(%a: tensor<1x64x96xf32>, %b: tensor<1x96x80xf32>, %c: tensor<1x64x80xf32>) -> tensor<1x64x80xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %a, %b, %zp, %zp : (tensor<1x64x96xf32>, tensor<1x96x80xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x80xf32>
  %s = tosa.add %p, %c : (tensor<1x64x80xf32>, tensor<1x64x80xf32>) -> tensor<1x64x80xf32>
  return %s : tensor<1x64x80xf32>
}

func.func @left_as_loops(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x1xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %d = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
       : (tensor<1x8x8x4xf32>, tensor<3x3x4x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
  %m = tosa.max_pool2d %d {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x4xf32>) -> tensor<1x3x3x4xf32>
  return %m : tensor<1x3x3x4xf32>
}
