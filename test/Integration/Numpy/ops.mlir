// Every dl op, compiled by dl-compile into a shared library and checked by
// check_ops.py against numpy float64 references written from the semantics
// in DLOps.td (not from the compiler's reference lowering). Sizes are
// deliberately small and not multiples of 16. check_ops.py holds, for each
// function below, the argument shapes (concrete ones for `?` sizes) and the
// reference.
//
// RUN: %python %S/check_ops.py %s --dl-compile dl-compile --dl-opt dl-opt \
// RUN:   --work-dir %t | FileCheck %s

// CHECK: matmul_plain: max_abs_err={{.*}} ok
// CHECK-NEXT: matmul_alpha_beta: max_abs_err={{.*}} ok
// CHECK-NEXT: matmul_transpose_a: max_abs_err={{.*}} ok
// CHECK-NEXT: matmul_transpose_b: max_abs_err={{.*}} ok
// CHECK-NEXT: matmul_transpose_ab_accumulate: max_abs_err={{.*}} ok
// CHECK-NEXT: matmul_dynamic: max_abs_err={{.*}} ok
// CHECK-NEXT: matmul_blocked_b: max_abs_err={{.*}} ok
// CHECK-NEXT: matmul_blocked_b_dynamic: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_1x1: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_3x3_pad1: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_3x3_stride2_asym_pad: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_7x7_stride3_pad3: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_3x3_dilation2_asym_pad: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_3x5_mixed_hw: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_dynamic: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_blocked_3x3_pad1: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_blocked_1x1_stride2: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_blocked_7x7_stride3_asym_pad: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_blocked_3x3_dilation2: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_blocked_skip_3x3_pad1: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_blocked_skip_7x7_stride3_asym_pad: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_blocked_skip_dilation2: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_blocked_skip_padding_only_tap: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_blocked_skip_dynamic_rows: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_inference: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_inference_blocked: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_training: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_training_blocked: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_training_m1: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_training_dynamic: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_training_offset_relu: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_training_blocked16_offset_relu6: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_inference_relu_in_place: max_abs_err={{.*}} ok
// CHECK-NEXT: bn_inference_blocked_dynamic_relu6: max_abs_err={{.*}} ok
// CHECK-NEXT: relu: max_abs_err={{.*}} ok
// CHECK-NEXT: relu_in_place: max_abs_err={{.*}} ok
// CHECK-NEXT: relu6: max_abs_err={{.*}} ok
// CHECK-NEXT: add: max_abs_err={{.*}} ok
// CHECK-NEXT: add_in_place: max_abs_err={{.*}} ok
// CHECK-NEXT: add_dynamic: max_abs_err={{.*}} ok
// CHECK-NEXT: bias_add_rank2: max_abs_err={{.*}} ok
// CHECK-NEXT: bias_add_rank4: max_abs_err={{.*}} ok
// CHECK-NEXT: bias_add_rank5: max_abs_err={{.*}} ok
// CHECK-NEXT: bias_add_in_place: max_abs_err={{.*}} ok
// CHECK-NEXT: pack_activation: max_abs_err={{.*}} ok
// CHECK-NEXT: unpack_activation: max_abs_err={{.*}} ok
// CHECK-NEXT: pack_filter: max_abs_err={{.*}} ok
// CHECK-NEXT: unpack_filter: max_abs_err={{.*}} ok
// CHECK-NEXT: pack_activation_dynamic: max_abs_err={{.*}} ok
// CHECK-NEXT: pack_matrix: max_abs_err={{.*}} ok
// CHECK-NEXT: unpack_matrix: max_abs_err={{.*}} ok
// CHECK-NEXT: conv_bn_relu: max_abs_err={{.*}} ok
// CHECK-NEXT: fused_conv_bias_add_relu: max_abs_err={{.*}} ok
// CHECK-NEXT: fused_conv_merged_rows_add_relu6: max_abs_err={{.*}} ok
// CHECK-NEXT: fused_conv_bn_relu: max_abs_err={{.*}} ok
// CHECK-NEXT: fused_conv_bn_training_relu: max_abs_err={{.*}} ok
// CHECK-NEXT: fused_linear_bias_relu: max_abs_err={{.*}} ok
// CHECK-NEXT: fused_gemv_add_relu6: max_abs_err={{.*}} ok
// CHECK-NEXT: blocked_pipeline: max_abs_err={{.*}} ok
// CHECK-NEXT: tensor_conv_bias_relu: max_abs_err={{.*}} ok
// CHECK-NEXT: tensor_matmul_accumulate: max_abs_err={{.*}} ok
// CHECK-NEXT: tensor_reuse_after_in_place: max_abs_err={{.*}} ok
// CHECK-NEXT: tensor_bn_training: max_abs_err={{.*}} ok
// CHECK-NEXT: tensor_matmul_dynamic: max_abs_err={{.*}} ok
// CHECK-NEXT: all {{[0-9]+}} functions match numpy

//===----------------------------------------------------------------------===//
// dl.matmul
//===----------------------------------------------------------------------===//

// Defaults (alpha 1, beta 0): C starts as NaN and must not be read.
func.func @matmul_plain(%a: memref<5x7xf32>, %b: memref<7x13xf32>,
                        %c: memref<5x13xf32>) {
  dl.matmul ins(%a, %b : memref<5x7xf32>, memref<7x13xf32>)
            outs(%c : memref<5x13xf32>)
  return
}

func.func @matmul_alpha_beta(%a: memref<13x17xf32>, %b: memref<17x5xf32>,
                             %c: memref<13x5xf32>) {
  dl.matmul ins(%a, %b : memref<13x17xf32>, memref<17x5xf32>)
            outs(%c : memref<13x5xf32>) {alpha = 2.0 : f32, beta = 0.5 : f32}
  return
}

// A is K x M.
func.func @matmul_transpose_a(%a: memref<7x5xf32>, %b: memref<7x13xf32>,
                              %c: memref<5x13xf32>) {
  dl.matmul ins(%a, %b : memref<7x5xf32>, memref<7x13xf32>)
            outs(%c : memref<5x13xf32>)
            {alpha = 2.0 : f32, beta = 0.5 : f32, transpose_a}
  return
}

// B is N x K.
func.func @matmul_transpose_b(%a: memref<5x7xf32>, %b: memref<13x7xf32>,
                              %c: memref<5x13xf32>) {
  dl.matmul ins(%a, %b : memref<5x7xf32>, memref<13x7xf32>)
            outs(%c : memref<5x13xf32>) {transpose_b}
  return
}

// beta = 1: C += op(A) * op(B).
func.func @matmul_transpose_ab_accumulate(%a: memref<17x13xf32>,
                                          %b: memref<5x17xf32>,
                                          %c: memref<13x5xf32>) {
  dl.matmul ins(%a, %b : memref<17x13xf32>, memref<5x17xf32>)
            outs(%c : memref<13x5xf32>)
            {beta = 1.0 : f32, transpose_a, transpose_b}
  return
}

func.func @matmul_dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                          %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
            outs(%c : memref<?x?xf32>) {alpha = 2.0 : f32, beta = 0.5 : f32}
  return
}

// B blocked ahead of time: K = 24 in blocks of 12, N = 24 in blocks of 8.
func.func @matmul_blocked_b(%a: memref<20x24xf32>, %b: memref<3x2x12x8xf32>,
                            %c: memref<20x24xf32>) {
  dl.matmul ins(%a, %b : memref<20x24xf32>, memref<3x2x12x8xf32>)
            outs(%c : memref<20x24xf32>) {alpha = 2.0 : f32, beta = 0.5 : f32}
  return
}

// Dynamic block counts (the reference nest, with run-time size checks).
func.func @matmul_blocked_b_dynamic(%a: memref<?x?xf32>, %b: memref<?x?x8x4xf32>,
                                    %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?x8x4xf32>)
            outs(%c : memref<?x?xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.conv2d, plain NCHW / KCRS (padding is [top, left, bottom, right])
//===----------------------------------------------------------------------===//

func.func @conv_1x1(%in: memref<2x5x7x7xf32>, %f: memref<3x5x1x1xf32>,
                    %out: memref<2x3x7x7xf32>) {
  dl.conv2d ins(%in, %f : memref<2x5x7x7xf32>, memref<3x5x1x1xf32>)
            outs(%out : memref<2x3x7x7xf32>)
  return
}

func.func @conv_3x3_pad1(%in: memref<1x3x13x13xf32>, %f: memref<5x3x3x3xf32>,
                         %out: memref<1x5x13x13xf32>) {
  dl.conv2d ins(%in, %f : memref<1x3x13x13xf32>, memref<5x3x3x3xf32>)
            outs(%out : memref<1x5x13x13xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  return
}

func.func @conv_3x3_stride2_asym_pad(%in: memref<2x3x17x13xf32>,
                                     %f: memref<4x3x3x3xf32>,
                                     %out: memref<2x4x9x6xf32>) {
  dl.conv2d ins(%in, %f : memref<2x3x17x13xf32>, memref<4x3x3x3xf32>)
            outs(%out : memref<2x4x9x6xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 2, 1>}
  return
}

func.func @conv_7x7_stride3_pad3(%in: memref<1x3x17x17xf32>,
                                 %f: memref<4x3x7x7xf32>,
                                 %out: memref<1x4x6x6xf32>) {
  dl.conv2d ins(%in, %f : memref<1x3x17x17xf32>, memref<4x3x7x7xf32>)
            outs(%out : memref<1x4x6x6xf32>)
            {strides = array<i64: 3, 3>, padding = array<i64: 3, 3, 3, 3>}
  return
}

func.func @conv_3x3_dilation2_asym_pad(%in: memref<1x4x13x11xf32>,
                                       %f: memref<5x4x3x3xf32>,
                                       %out: memref<1x5x11x11xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x13x11xf32>, memref<5x4x3x3xf32>)
            outs(%out : memref<1x5x11x11xf32>)
            {dilations = array<i64: 2, 2>, padding = array<i64: 2, 1, 0, 3>}
  return
}

// Different stride, dilation, padding and filter size in H and W.
func.func @conv_3x5_mixed_hw(%in: memref<1x2x13x17xf32>,
                             %f: memref<3x2x3x5xf32>,
                             %out: memref<1x3x5x6xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x13x17xf32>, memref<3x2x3x5xf32>)
            outs(%out : memref<1x3x5x6xf32>)
            {strides = array<i64: 2, 3>, dilations = array<i64: 2, 1>,
             padding = array<i64: 1, 2, 0, 1>}
  return
}

func.func @conv_dynamic(%in: memref<?x?x?x?xf32>, %f: memref<?x?x?x?xf32>,
                        %out: memref<?x?x?x?xf32>) {
  dl.conv2d ins(%in, %f : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>)
            outs(%out : memref<?x?x?x?xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

//===----------------------------------------------------------------------===//
// dl.conv2d, blocked NCHW{c}c / KCRS{c}c{k}k
//===----------------------------------------------------------------------===//

// C = 8 in blocks of 4, K = 24 in blocks of 8.
func.func @conv_blocked_3x3_pad1(%in: memref<1x2x7x7x4xf32>,
                                 %f: memref<3x2x3x3x4x8xf32>,
                                 %out: memref<1x3x7x7x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x7x7x4xf32>, memref<3x2x3x3x4x8xf32>)
            outs(%out : memref<1x3x7x7x8xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  return
}

func.func @conv_blocked_1x1_stride2(%in: memref<2x2x13x13x8xf32>,
                                    %f: memref<2x2x1x1x8x4xf32>,
                                    %out: memref<2x2x7x7x4xf32>) {
  dl.conv2d ins(%in, %f : memref<2x2x13x13x8xf32>, memref<2x2x1x1x8x4xf32>)
            outs(%out : memref<2x2x7x7x4xf32>)
            {strides = array<i64: 2, 2>}
  return
}

func.func @conv_blocked_7x7_stride3_asym_pad(%in: memref<1x1x17x17x4xf32>,
                                             %f: memref<2x1x7x7x4x4xf32>,
                                             %out: memref<1x2x5x6x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x17x17x4xf32>, memref<2x1x7x7x4x4xf32>)
            outs(%out : memref<1x2x5x6x4xf32>)
            {strides = array<i64: 3, 3>, padding = array<i64: 3, 2, 1, 3>}
  return
}

func.func @conv_blocked_3x3_dilation2(%in: memref<1x2x11x11x4xf32>,
                                      %f: memref<2x2x3x3x4x4xf32>,
                                      %out: memref<1x2x11x11x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x11x11x4xf32>, memref<2x2x3x3x4x4xf32>)
            outs(%out : memref<1x2x11x11x4xf32>)
            {dilations = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>}
  return
}

// skip_padding_columns: the filter columns in runs over the output columns
// they read the input at (no zero-padded copy).
func.func @conv_blocked_skip_3x3_pad1(%in: memref<1x2x7x7x4xf32>,
                                      %f: memref<3x2x3x3x4x8xf32>,
                                      %out: memref<1x3x7x7x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x7x7x4xf32>, memref<3x2x3x3x4x8xf32>)
            outs(%out : memref<1x3x7x7x8xf32>)
            {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
  return
}

func.func @conv_blocked_skip_7x7_stride3_asym_pad(
    %in: memref<1x1x17x17x4xf32>, %f: memref<2x1x7x7x4x4xf32>,
    %out: memref<1x2x5x6x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x17x17x4xf32>, memref<2x1x7x7x4x4xf32>)
            outs(%out : memref<1x2x5x6x4xf32>)
            {strides = array<i64: 3, 3>, padding = array<i64: 3, 2, 1, 3>,
             skip_padding_columns}
  return
}

func.func @conv_blocked_skip_dilation2(%in: memref<1x2x11x11x4xf32>,
                                       %f: memref<2x2x3x3x4x4xf32>,
                                       %out: memref<1x2x11x10x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x11x11x4xf32>, memref<2x2x3x3x4x4xf32>)
            outs(%out : memref<1x2x11x10x4xf32>)
            {dilations = array<i64: 2, 2>, padding = array<i64: 2, 3, 2, 0>,
             skip_padding_columns}
  return
}

// Tap 0 of the 5 filter columns reads only padding (4 columns on the left
// of a 3-column input): no run has it.
func.func @conv_blocked_skip_padding_only_tap(%in: memref<1x1x5x3x4xf32>,
                                              %f: memref<1x1x3x5x4x4xf32>,
                                              %out: memref<1x1x5x3x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x5x3x4xf32>, memref<1x1x3x5x4x4xf32>)
            outs(%out : memref<1x1x5x3x4xf32>)
            {padding = array<i64: 1, 4, 1, 0>, skip_padding_columns}
  return
}

// Static widths are enough: images, channels and rows are dynamic.
func.func @conv_blocked_skip_dynamic_rows(%in: memref<?x?x?x9x4xf32>,
                                          %f: memref<?x?x3x3x4x4xf32>,
                                          %out: memref<?x?x?x9x4xf32>) {
  dl.conv2d ins(%in, %f : memref<?x?x?x9x4xf32>, memref<?x?x3x3x4x4xf32>)
            outs(%out : memref<?x?x?x9x4xf32>)
            {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
  return
}

//===----------------------------------------------------------------------===//
// dl.batch_norm_inference and dl.batch_norm_training
//===----------------------------------------------------------------------===//

// Default epsilon (1e-3).
func.func @bn_inference(%x: memref<2x5x7x3xf32>, %gamma: memref<5xf32>,
                        %beta: memref<5xf32>, %mean: memref<5xf32>,
                        %var: memref<5xf32>, %y: memref<2x5x7x3xf32>) {
  dl.batch_norm_inference
      ins(%x, %gamma, %beta, %mean, %var : memref<2x5x7x3xf32>, memref<5xf32>,
          memref<5xf32>, memref<5xf32>, memref<5xf32>)
      outs(%y : memref<2x5x7x3xf32>)
  return
}

// 12 channels in blocks of 4.
func.func @bn_inference_blocked(%x: memref<2x3x5x7x4xf32>,
                                %gamma: memref<12xf32>, %beta: memref<12xf32>,
                                %mean: memref<12xf32>, %var: memref<12xf32>,
                                %y: memref<2x3x5x7x4xf32>) {
  dl.batch_norm_inference
      ins(%x, %gamma, %beta, %mean, %var : memref<2x3x5x7x4xf32>,
          memref<12xf32>, memref<12xf32>, memref<12xf32>, memref<12xf32>)
      outs(%y : memref<2x3x5x7x4xf32>) {epsilon = 1.0e-5 : f32}
  return
}

// With the inverse standard deviation the backward pass reads.
func.func @bn_training(%x: memref<3x5x7x13xf32>, %gamma: memref<5xf32>,
                       %beta: memref<5xf32>, %y: memref<3x5x7x13xf32>,
                       %mean: memref<5xf32>, %var: memref<5xf32>,
                       %inv_std: memref<5xf32>) {
  dl.batch_norm_training
      ins(%x, %gamma, %beta : memref<3x5x7x13xf32>, memref<5xf32>,
          memref<5xf32>)
      outs(%y, %mean, %var : memref<3x5x7x13xf32>, memref<5xf32>,
           memref<5xf32>) inv_std(%inv_std : memref<5xf32>)
      {epsilon = 1.0e-5 : f32}
  return
}

// 16 channels in blocks of 8, with the inverse standard deviation.
func.func @bn_training_blocked(%x: memref<2x2x5x3x8xf32>,
                               %gamma: memref<16xf32>, %beta: memref<16xf32>,
                               %y: memref<2x2x5x3x8xf32>,
                               %mean: memref<16xf32>, %var: memref<16xf32>,
                               %inv_std: memref<16xf32>) {
  dl.batch_norm_training
      ins(%x, %gamma, %beta : memref<2x2x5x3x8xf32>, memref<16xf32>,
          memref<16xf32>)
      outs(%y, %mean, %var : memref<2x2x5x3x8xf32>, memref<16xf32>,
           memref<16xf32>) inv_std(%inv_std : memref<16xf32>)
  return
}

// m = N * H * W = 1: mean = x, variance = 0, so y = beta.
func.func @bn_training_m1(%x: memref<1x7x1x1xf32>, %gamma: memref<7xf32>,
                          %beta: memref<7xf32>, %y: memref<1x7x1x1xf32>,
                          %mean: memref<7xf32>, %var: memref<7xf32>) {
  dl.batch_norm_training
      ins(%x, %gamma, %beta : memref<1x7x1x1xf32>, memref<7xf32>,
          memref<7xf32>)
      outs(%y, %mean, %var : memref<1x7x1x1xf32>, memref<7xf32>,
           memref<7xf32>)
  return
}

func.func @bn_training_dynamic(%x: memref<?x?x?x?xf32>, %gamma: memref<?xf32>,
                               %beta: memref<?xf32>, %y: memref<?x?x?x?xf32>,
                               %mean: memref<?xf32>, %var: memref<?xf32>) {
  dl.batch_norm_training
      ins(%x, %gamma, %beta : memref<?x?x?x?xf32>, memref<?xf32>,
          memref<?xf32>)
      outs(%y, %mean, %var : memref<?x?x?x?xf32>, memref<?xf32>,
           memref<?xf32>) {epsilon = 1.0e-5 : f32}
  return
}

// Inputs of mean 100 (check_ops.py): the statistics must not cancel. 19
// channels, 14x14 (runs of 196 floats: 12 vectors and a 4-float tail), fused
// ReLU.
func.func @bn_training_offset_relu(%x: memref<2x19x14x14xf32>,
                                   %gamma: memref<19xf32>,
                                   %beta: memref<19xf32>,
                                   %y: memref<2x19x14x14xf32>,
                                   %mean: memref<19xf32>, %var: memref<19xf32>) {
  dl.batch_norm_training
      ins(%x, %gamma, %beta : memref<2x19x14x14xf32>, memref<19xf32>,
          memref<19xf32>)
      outs(%y, %mean, %var : memref<2x19x14x14xf32>, memref<19xf32>,
           memref<19xf32>) {activation = #dl.activation<relu>}
  return
}

// NCHW16c, N = 1, 7x7, mean 100, fused ReLU6 (check_ops.py scales gamma so
// that outputs reach 6).
func.func @bn_training_blocked16_offset_relu6(%x: memref<1x2x7x7x16xf32>,
                                             %gamma: memref<32xf32>,
                                             %beta: memref<32xf32>,
                                             %y: memref<1x2x7x7x16xf32>,
                                             %mean: memref<32xf32>,
                                             %var: memref<32xf32>) {
  dl.batch_norm_training
      ins(%x, %gamma, %beta : memref<1x2x7x7x16xf32>, memref<32xf32>,
          memref<32xf32>)
      outs(%y, %mean, %var : memref<1x2x7x7x16xf32>, memref<32xf32>,
           memref<32xf32>) {activation = #dl.activation<relu6>}
  return
}

// In place, N = 1, runs of 7x7 = 49 floats (3 vectors and a tail), ReLU.
func.func @bn_inference_relu_in_place(%x: memref<1x21x7x7xf32>,
                                      %gamma: memref<21xf32>,
                                      %beta: memref<21xf32>,
                                      %mean: memref<21xf32>,
                                      %var: memref<21xf32>) {
  dl.batch_norm_inference
      ins(%x, %gamma, %beta, %mean, %var : memref<1x21x7x7xf32>,
          memref<21xf32>, memref<21xf32>, memref<21xf32>, memref<21xf32>)
      outs(%x : memref<1x21x7x7xf32>) {activation = #dl.activation<relu>}
  return
}

// Dynamic blocked sizes, ReLU6.
func.func @bn_inference_blocked_dynamic_relu6(%x: memref<?x?x?x?x8xf32>,
                                              %gamma: memref<?xf32>,
                                              %beta: memref<?xf32>,
                                              %mean: memref<?xf32>,
                                              %var: memref<?xf32>,
                                              %y: memref<?x?x?x?x8xf32>) {
  dl.batch_norm_inference
      ins(%x, %gamma, %beta, %mean, %var : memref<?x?x?x?x8xf32>,
          memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>)
      outs(%y : memref<?x?x?x?x8xf32>) {activation = #dl.activation<relu6>}
  return
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

func.func @relu(%x: memref<5x7x13xf32>, %y: memref<5x7x13xf32>) {
  dl.relu ins(%x : memref<5x7x13xf32>) outs(%y : memref<5x7x13xf32>)
  return
}

func.func @relu_in_place(%x: memref<2x3x17x5xf32>) {
  dl.relu ins(%x : memref<2x3x17x5xf32>) outs(%x : memref<2x3x17x5xf32>)
  return
}

// Inputs in [-10, 10) so that both clamps are hit.
func.func @relu6(%x: memref<17x13xf32>, %y: memref<17x13xf32>) {
  dl.relu6 ins(%x : memref<17x13xf32>) outs(%y : memref<17x13xf32>)
  return
}

func.func @add(%lhs: memref<5x7x13xf32>, %rhs: memref<5x7x13xf32>,
               %out: memref<5x7x13xf32>) {
  dl.add ins(%lhs, %rhs : memref<5x7x13xf32>, memref<5x7x13xf32>)
         outs(%out : memref<5x7x13xf32>)
  return
}

func.func @add_in_place(%lhs: memref<7x17xf32>, %rhs: memref<7x17xf32>) {
  dl.add ins(%lhs, %rhs : memref<7x17xf32>, memref<7x17xf32>)
         outs(%lhs : memref<7x17xf32>)
  return
}

func.func @add_dynamic(%lhs: memref<?x13xf32>, %rhs: memref<?x13xf32>,
                       %out: memref<?x13xf32>) {
  dl.add ins(%lhs, %rhs : memref<?x13xf32>, memref<?x13xf32>)
         outs(%out : memref<?x13xf32>)
  return
}

// Rank 2: one bias per column.
func.func @bias_add_rank2(%x: memref<5x17xf32>, %bias: memref<17xf32>,
                          %y: memref<5x17xf32>) {
  dl.bias_add ins(%x, %bias : memref<5x17xf32>, memref<17xf32>)
              outs(%y : memref<5x17xf32>)
  return
}

func.func @bias_add_rank4(%x: memref<2x7x3x5xf32>, %bias: memref<7xf32>,
                          %y: memref<2x7x3x5xf32>) {
  dl.bias_add ins(%x, %bias : memref<2x7x3x5xf32>, memref<7xf32>)
              outs(%y : memref<2x7x3x5xf32>)
  return
}

// Rank 5: channel = cb * 4 + c.
func.func @bias_add_rank5(%x: memref<2x3x5x7x4xf32>, %bias: memref<12xf32>,
                          %y: memref<2x3x5x7x4xf32>) {
  dl.bias_add ins(%x, %bias : memref<2x3x5x7x4xf32>, memref<12xf32>)
              outs(%y : memref<2x3x5x7x4xf32>)
  return
}

func.func @bias_add_in_place(%x: memref<13x5xf32>, %bias: memref<5xf32>) {
  dl.bias_add ins(%x, %bias : memref<13x5xf32>, memref<5xf32>)
              outs(%x : memref<13x5xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.pack and dl.unpack
//===----------------------------------------------------------------------===//

func.func @pack_activation(%src: memref<2x12x5x7xf32>,
                           %dst: memref<2x3x5x7x4xf32>) {
  dl.pack ins(%src : memref<2x12x5x7xf32>) outs(%dst : memref<2x3x5x7x4xf32>)
  return
}

func.func @unpack_activation(%src: memref<2x2x5x3x8xf32>,
                             %dst: memref<2x16x5x3xf32>) {
  dl.unpack ins(%src : memref<2x2x5x3x8xf32>) outs(%dst : memref<2x16x5x3xf32>)
  return
}

// K = 24 in blocks of 8, C = 8 in blocks of 4.
func.func @pack_filter(%src: memref<24x8x3x3xf32>,
                       %dst: memref<3x2x3x3x4x8xf32>) {
  dl.pack ins(%src : memref<24x8x3x3xf32>) outs(%dst : memref<3x2x3x3x4x8xf32>)
  return
}

// K = 16 in blocks of 8, C = 12 in blocks of 4.
func.func @unpack_filter(%src: memref<2x3x3x3x4x8xf32>,
                         %dst: memref<16x12x3x3xf32>) {
  dl.unpack ins(%src : memref<2x3x3x3x4x8xf32>)
            outs(%dst : memref<16x12x3x3xf32>)
  return
}

func.func @pack_activation_dynamic(%src: memref<?x?x?x?xf32>,
                                   %dst: memref<?x?x?x?x8xf32>) {
  dl.pack ins(%src : memref<?x?x?x?xf32>) outs(%dst : memref<?x?x?x?x8xf32>)
  return
}

// A 24 x 16 matrix in blocks of 12 rows and 8 columns (matmul's blocked B).
func.func @pack_matrix(%src: memref<24x16xf32>, %dst: memref<2x2x12x8xf32>) {
  dl.pack ins(%src : memref<24x16xf32>) outs(%dst : memref<2x2x12x8xf32>)
  return
}

func.func @unpack_matrix(%src: memref<3x2x4x8xf32>, %dst: memref<8x24xf32>) {
  dl.unpack ins(%src : memref<3x2x4x8xf32>) outs(%dst : memref<8x24xf32>)
  return
}

//===----------------------------------------------------------------------===//
// Chains of ops, as in a network (intermediates are arguments, checked too)
//===----------------------------------------------------------------------===//

func.func @conv_bn_relu(%x: memref<1x5x13x13xf32>, %f: memref<7x5x3x3xf32>,
                        %gamma: memref<7xf32>, %beta: memref<7xf32>,
                        %mean: memref<7xf32>, %var: memref<7xf32>,
                        %conv: memref<1x7x13x13xf32>,
                        %y: memref<1x7x13x13xf32>) {
  dl.conv2d ins(%x, %f : memref<1x5x13x13xf32>, memref<7x5x3x3xf32>)
            outs(%conv : memref<1x7x13x13xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_inference
      ins(%conv, %gamma, %beta, %mean, %var : memref<1x7x13x13xf32>,
          memref<7xf32>, memref<7xf32>, memref<7xf32>, memref<7xf32>)
      outs(%y : memref<1x7x13x13xf32>) {epsilon = 1.0e-5 : f32}
  dl.relu ins(%y : memref<1x7x13x13xf32>) outs(%y : memref<1x7x13x13xf32>)
  return
}

// Fused by dl-fuse-epilogues (test/Dialect/DL/Transforms/fuse-epilogues.mlir
// shows the IR): bias, residual and ReLU in a blocked convolution's
// epilogue, in place.
func.func @fused_conv_bias_add_relu(%x: memref<1x2x6x6x8xf32>,
                                    %f: memref<2x2x3x3x8x8xf32>,
                                    %bias: memref<16xf32>,
                                    %r: memref<1x2x6x6x8xf32>,
                                    %y: memref<1x2x6x6x8xf32>) {
  dl.conv2d ins(%x, %f : memref<1x2x6x6x8xf32>, memref<2x2x3x3x8x8xf32>)
            outs(%y : memref<1x2x6x6x8xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.bias_add ins(%y, %bias : memref<1x2x6x6x8xf32>, memref<16xf32>)
              outs(%y : memref<1x2x6x6x8xf32>)
  dl.add ins(%r, %y : memref<1x2x6x6x8xf32>, memref<1x2x6x6x8xf32>)
         outs(%y : memref<1x2x6x6x8xf32>)
  dl.relu ins(%y : memref<1x2x6x6x8xf32>) outs(%y : memref<1x2x6x6x8xf32>)
  return
}

// A pointwise convolution on 7x7 rows (merged by dl-merge-conv-rows) and
// its residual through the same views, ReLU6.
func.func @fused_conv_merged_rows_add_relu6(%x: memref<2x1x7x7x16xf32>,
                                            %f: memref<2x1x1x1x16x16xf32>,
                                            %r: memref<2x2x7x7x16xf32>,
                                            %y: memref<2x2x7x7x16xf32>) {
  dl.conv2d ins(%x, %f : memref<2x1x7x7x16xf32>, memref<2x1x1x1x16x16xf32>)
            outs(%y : memref<2x2x7x7x16xf32>)
  dl.add ins(%y, %r : memref<2x2x7x7x16xf32>, memref<2x2x7x7x16xf32>)
         outs(%y : memref<2x2x7x7x16xf32>)
  dl.relu6 ins(%y : memref<2x2x7x7x16xf32>) outs(%y : memref<2x2x7x7x16xf32>)
  return
}

// Batch normalization (inference) of a scratch convolution output into
// another buffer, then ReLU: the convolution writes %y through its epilogue.
func.func @fused_conv_bn_relu(%x: memref<1x1x5x5x8xf32>,
                              %f: memref<1x1x3x3x8x8xf32>,
                              %gamma: memref<8xf32>, %beta: memref<8xf32>,
                              %mean: memref<8xf32>, %var: memref<8xf32>,
                              %y: memref<1x1x5x5x8xf32>) {
  %t = memref.alloc() : memref<1x1x5x5x8xf32>
  dl.conv2d ins(%x, %f : memref<1x1x5x5x8xf32>, memref<1x1x3x3x8x8xf32>)
            outs(%t : memref<1x1x5x5x8xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_inference
      ins(%t, %gamma, %beta, %mean, %var : memref<1x1x5x5x8xf32>,
          memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>)
      outs(%y : memref<1x1x5x5x8xf32>)
  dl.relu ins(%y : memref<1x1x5x5x8xf32>) outs(%y : memref<1x1x5x5x8xf32>)
  memref.dealloc %t : memref<1x1x5x5x8xf32>
  return
}

// Batch normalization in training of a convolution's output: the statistics
// come from the convolution's output tiles (row_statistics), here of outputs
// with a large mean (inputs in [9, 11], positive weights), then ReLU.
func.func @fused_conv_bn_training_relu(%x: memref<2x1x6x6x8xf32>,
                                       %f: memref<2x1x3x3x8x8xf32>,
                                       %gamma: memref<16xf32>,
                                       %beta: memref<16xf32>,
                                       %conv: memref<2x2x6x6x8xf32>,
                                       %y: memref<2x2x6x6x8xf32>,
                                       %mean: memref<16xf32>,
                                       %var: memref<16xf32>) {
  dl.conv2d ins(%x, %f : memref<2x1x6x6x8xf32>, memref<2x1x3x3x8x8xf32>)
            outs(%conv : memref<2x2x6x6x8xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_training ins(%conv, %gamma, %beta : memref<2x2x6x6x8xf32>,
                             memref<16xf32>, memref<16xf32>)
      outs(%y, %mean, %var : memref<2x2x6x6x8xf32>, memref<16xf32>,
           memref<16xf32>)
  dl.relu ins(%y : memref<2x2x6x6x8xf32>) outs(%y : memref<2x2x6x6x8xf32>)
  return
}

// A GEMM's epilogue: bias per column and ReLU on a blocked GEMM (per block
// of C), a residual and ReLU6 on a streamed GEMV-like one (after it).
func.func @fused_linear_bias_relu(%a: memref<64x96xf32>, %b: memref<96x128xf32>,
                                  %bias: memref<128xf32>,
                                  %c: memref<64x128xf32>) {
  dl.matmul ins(%a, %b : memref<64x96xf32>, memref<96x128xf32>)
            outs(%c : memref<64x128xf32>)
  dl.bias_add ins(%c, %bias : memref<64x128xf32>, memref<128xf32>)
              outs(%c : memref<64x128xf32>)
  dl.relu ins(%c : memref<64x128xf32>) outs(%c : memref<64x128xf32>)
  return
}

func.func @fused_gemv_add_relu6(%a: memref<256x512xf32>, %b: memref<512x3xf32>,
                                %r: memref<256x3xf32>, %c: memref<256x3xf32>) {
  dl.matmul ins(%a, %b : memref<256x512xf32>, memref<512x3xf32>)
            outs(%c : memref<256x3xf32>)
  dl.add ins(%c, %r : memref<256x3xf32>, memref<256x3xf32>)
         outs(%c : memref<256x3xf32>)
  dl.relu6 ins(%c : memref<256x3xf32>) outs(%c : memref<256x3xf32>)
  return
}

// pack, blocked convolution (stride 2, asymmetric padding), unpack, bias.
func.func @blocked_pipeline(%x: memref<1x8x9x9xf32>, %f: memref<8x8x3x3xf32>,
                            %bias: memref<8xf32>,
                            %xb: memref<1x2x9x9x4xf32>,
                            %fb: memref<1x2x3x3x4x8xf32>,
                            %yb: memref<1x1x4x4x8xf32>,
                            %y: memref<1x8x4x4xf32>) {
  dl.pack ins(%x : memref<1x8x9x9xf32>) outs(%xb : memref<1x2x9x9x4xf32>)
  dl.pack ins(%f : memref<8x8x3x3xf32>) outs(%fb : memref<1x2x3x3x4x8xf32>)
  dl.conv2d ins(%xb, %fb : memref<1x2x9x9x4xf32>, memref<1x2x3x3x4x8xf32>)
            outs(%yb : memref<1x1x4x4x8xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 1, 0>}
  dl.unpack ins(%yb : memref<1x1x4x4x8xf32>) outs(%y : memref<1x8x4x4xf32>)
  dl.bias_add ins(%y, %bias : memref<1x8x4x4xf32>, memref<8xf32>)
              outs(%y : memref<1x8x4x4xf32>)
  return
}

// Tensor programs: dl-compile bufferizes them (dl-bufferize); check_ops.py
// calls their buffer form, in which a result that is an `outs` argument is
// that argument and a new result is an argument appended after the others.

// conv -> bias -> ReLU into new tensors; ReLU in place.
func.func @tensor_conv_bias_relu(%x: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>,
                                 %bias: tensor<4xf32>) -> tensor<1x4x9x9xf32> {
  %e = tensor.empty() : tensor<1x4x9x9xf32>
  %y = dl.conv2d ins(%x, %w : tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>)
                 outs(%e : tensor<1x4x9x9xf32>)
                 {padding = array<i64: 1, 1, 1, 1>} -> tensor<1x4x9x9xf32>
  %e2 = tensor.empty() : tensor<1x4x9x9xf32>
  %z = dl.bias_add ins(%y, %bias : tensor<1x4x9x9xf32>, tensor<4xf32>)
                   outs(%e2 : tensor<1x4x9x9xf32>) -> tensor<1x4x9x9xf32>
  %r = dl.relu ins(%z : tensor<1x4x9x9xf32>) outs(%z : tensor<1x4x9x9xf32>)
         -> tensor<1x4x9x9xf32>
  return %r : tensor<1x4x9x9xf32>
}

// C accumulated into the `outs` argument, which the result is.
func.func @tensor_matmul_accumulate(%a: tensor<5x7xf32>, %b: tensor<7x13xf32>,
                                    %c: tensor<5x13xf32>) -> tensor<5x13xf32> {
  %r = dl.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x13xf32>)
                 outs(%c : tensor<5x13xf32>) {alpha = 2.0 : f32, beta = 0.5 : f32}
         -> tensor<5x13xf32>
  return %r : tensor<5x13xf32>
}

// The ReLU's in-place output would overwrite %y, which the add reads after
// it: bufferization must give one of them a copy.
func.func @tensor_reuse_after_in_place(%x: tensor<2x3x5x5xf32>,
                                       %w: tensor<3x3x1x1xf32>)
    -> tensor<2x3x5x5xf32> {
  %e = tensor.empty() : tensor<2x3x5x5xf32>
  %y = dl.conv2d ins(%x, %w : tensor<2x3x5x5xf32>, tensor<3x3x1x1xf32>)
                 outs(%e : tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32>
  %z = dl.relu ins(%y : tensor<2x3x5x5xf32>) outs(%y : tensor<2x3x5x5xf32>)
         -> tensor<2x3x5x5xf32>
  %s = dl.add ins(%z, %y : tensor<2x3x5x5xf32>, tensor<2x3x5x5xf32>)
              outs(%z : tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32>
  return %s : tensor<2x3x5x5xf32>
}

// Three results of one op.
func.func @tensor_bn_training(%x: tensor<2x6x4x5xf32>, %g: tensor<6xf32>,
                              %b: tensor<6xf32>)
    -> (tensor<2x6x4x5xf32>, tensor<6xf32>, tensor<6xf32>) {
  %e = tensor.empty() : tensor<2x6x4x5xf32>
  %m = tensor.empty() : tensor<6xf32>
  %v = tensor.empty() : tensor<6xf32>
  %y:3 = dl.batch_norm_training ins(%x, %g, %b : tensor<2x6x4x5xf32>,
                                    tensor<6xf32>, tensor<6xf32>)
           outs(%e, %m, %v : tensor<2x6x4x5xf32>, tensor<6xf32>, tensor<6xf32>)
           -> tensor<2x6x4x5xf32>, tensor<6xf32>, tensor<6xf32>
  return %y#0, %y#1, %y#2 : tensor<2x6x4x5xf32>, tensor<6xf32>, tensor<6xf32>
}

// A dynamic batch: the result's rows are the argument's.
func.func @tensor_matmul_dynamic(%a: tensor<?x13xf32>, %b: tensor<13x7xf32>)
    -> tensor<?x7xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x13xf32>
  %e = tensor.empty(%m) : tensor<?x7xf32>
  %r = dl.matmul ins(%a, %b : tensor<?x13xf32>, tensor<13x7xf32>)
                 outs(%e : tensor<?x7xf32>) -> tensor<?x7xf32>
  return %r : tensor<?x7xf32>
}
