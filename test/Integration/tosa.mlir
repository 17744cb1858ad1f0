// TOSA through the stock mlir-opt-22 to linalg (tosa-to-linalg-named,
// tosa-to-linalg), then dl-compile: convert-linalg-to-dl raises the GEMM,
// the convolutions (NHWC, padded, with bias, their transposes folded into
// the layout copies), the clamps and the adds; the
// depthwise convolution and the pooling stay linalg and compile to loops.
// --run checks the result against the same program not raised (its linalg
// ops lowered by upstream MLIR to loops).
// RUN: mlir-opt %s --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))' -o %t.mlir
// RUN: dl-opt %t.mlir --convert-linalg-to-dl 2>/dev/null | FileCheck %s --check-prefix=RAISED
// RUN: dl-opt %t.mlir --dl-set-target="vector-bits=512" --convert-linalg-to-dl --dl-bufferize --dl-layouts | FileCheck %s --check-prefix=FOLDED
// RUN: dl-compile %t.mlir --run --threads=2 | FileCheck %s
// The same linalg bufferized by the stock one-shot-bufferize: raised on
// buffers, checked the same way.
// RUN: mlir-opt %t.mlir --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{modify-public-functions},buffer-deallocation-pipeline)' -o %t.buffers.mlir
// RUN: dl-opt %t.buffers.mlir --convert-linalg-to-dl 2>/dev/null | FileCheck %s --check-prefix=BUFFERS
// RUN: dl-compile %t.buffers.mlir --run --threads=2 | FileCheck %s

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

// The NHWC transposes around the blocked convolutions are folded into their
// layout copies (dl-fold-layout-transposes): the packs read transposed views
// of the NHWC input and FHWC filter, the unpacks write views of NHWC buffers.
// FOLDED-LABEL: func.func @conv_block
// FOLDED-NOT: linalg.transpose
// FOLDED: dl.pack ins(%{{.*}} : memref<1x16x13x13xf32, strided<[2704, 1, 208, 16]>>)
// FOLDED: dl.pack ins(%{{.*}} : memref<32x16x3x3xf32, strided<[144, 1, 48, 16]>>)
// FOLDED: dl.unpack ins(%{{.*}}) outs(%{{.*}} : memref<1x32x13x13xf32, strided<[5408, 1, 416, 32]>>)
// FOLDED-NOT: linalg.transpose
// FOLDED-LABEL: func.func @gemm

// BUFFERS-LABEL: func.func @conv_block
// BUFFERS: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x16x15x15xf32>, memref<32x16x3x3xf32>)
// BUFFERS: dl.relu ins
// BUFFERS: dl.conv2d {{.*}} {strides = array<i64: 2, 2>}
// BUFFERS: dl.relu6 ins
// BUFFERS-NOT: linalg.conv
// BUFFERS-LABEL: func.func @gemm
// BUFFERS: dl.matmul
// BUFFERS: dl.add

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
