// Tests that every dl op (and the dl.run_shape argument attribute) round-trips through the custom and the generic printed forms.
// RUN: dl-opt %s | dl-opt | FileCheck %s
// RUN: dl-opt %s --mlir-print-op-generic | dl-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// dl.matmul
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul_defaults
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<4x16xf32>)
// CHECK: dl.matmul ins(%[[A]], %[[B]] : memref<4x8xf32>, memref<8x16xf32>) outs(%[[C]] : memref<4x16xf32>){{$}}
func.func @matmul_defaults(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                           %c: memref<4x16xf32>) {
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<4x16xf32>)
  return
}

// Explicit default values are elided when printed.
// CHECK-LABEL: func.func @matmul_explicit_defaults
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x16xf32>) outs(%{{.*}} : memref<4x16xf32>){{$}}
func.func @matmul_explicit_defaults(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                                    %c: memref<4x16xf32>) {
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<4x16xf32>) {alpha = 1.0 : f32, beta = 0.0 : f32}
  return
}

// CHECK-LABEL: func.func @matmul_alpha_beta
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x16xf32>) outs(%{{.*}} : memref<4x16xf32>) {alpha = 2.000000e+00 : f32, beta = 5.000000e-01 : f32}
func.func @matmul_alpha_beta(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                             %c: memref<4x16xf32>) {
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<4x16xf32>) {alpha = 2.0 : f32, beta = 0.5 : f32}
  return
}

// CHECK-LABEL: func.func @matmul_transpose_a
// CHECK-SAME: (%[[A:.*]]: memref<8x4xf32>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<4x16xf32>)
// CHECK: dl.matmul ins(%[[A]], %[[B]] : memref<8x4xf32>, memref<8x16xf32>) outs(%[[C]] : memref<4x16xf32>) {transpose_a}
func.func @matmul_transpose_a(%a: memref<8x4xf32>, %b: memref<8x16xf32>,
                              %c: memref<4x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<8x16xf32>)
            outs(%c : memref<4x16xf32>) {transpose_a}
  return
}

// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<16x8xf32>) outs(%{{.*}} : memref<4x16xf32>) {transpose_b}
func.func @matmul_transpose_b(%a: memref<4x8xf32>, %b: memref<16x8xf32>,
                              %c: memref<4x16xf32>) {
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<16x8xf32>)
            outs(%c : memref<4x16xf32>) {transpose_b}
  return
}

// CHECK-LABEL: func.func @matmul_all_attrs
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<8x4xf32>, memref<16x8xf32>) outs(%{{.*}} : memref<4x16xf32>) {alpha = -1.000000e+00 : f32, beta = 1.000000e+00 : f32, transpose_a, transpose_b}
func.func @matmul_all_attrs(%a: memref<8x4xf32>, %b: memref<16x8xf32>,
                            %c: memref<4x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<16x8xf32>)
            outs(%c : memref<4x16xf32>)
            {alpha = -1.0 : f32, beta = 1.0 : f32, transpose_a, transpose_b}
  return
}

//===----------------------------------------------------------------------===//
// dl.conv2d
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @conv2d_plain
// CHECK-SAME: (%[[IN:.*]]: memref<1x8x10x10xf32>, %[[F:.*]]: memref<16x8x3x3xf32>, %[[OUT:.*]]: memref<1x16x8x8xf32>)
// CHECK: dl.conv2d ins(%[[IN]], %[[F]] : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%[[OUT]] : memref<1x16x8x8xf32>){{$}}
func.func @conv2d_plain(%in: memref<1x8x10x10xf32>, %f: memref<16x8x3x3xf32>,
                        %out: memref<1x16x8x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>)
  return
}

// Explicit default values are elided when printed.
// CHECK-LABEL: func.func @conv2d_explicit_defaults
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%{{.*}} : memref<1x16x8x8xf32>){{$}}
func.func @conv2d_explicit_defaults(%in: memref<1x8x10x10xf32>,
                                    %f: memref<16x8x3x3xf32>,
                                    %out: memref<1x16x8x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>)
            {strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>,
             dilations = array<i64: 1, 1>}
  return
}

// (10 + 1 + 1 - 3) / 2 + 1 = 5.
// CHECK-LABEL: func.func @conv2d_strides_padding
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%{{.*}} : memref<1x16x5x5xf32>) {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
func.func @conv2d_strides_padding(%in: memref<1x8x10x10xf32>,
                                  %f: memref<16x8x3x3xf32>,
                                  %out: memref<1x16x5x5xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x5x5xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// Grouped: 4 groups of 2 input and 4 output channels; blocked, 2 groups of
// channel blocks, and the pack of a grouped filter.
// CHECK-LABEL: func.func @conv2d_groups
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x10x10xf32>, memref<16x2x3x3xf32>) outs(%{{.*}} : memref<1x16x8x8xf32>) {groups = 4 : i64}
// CHECK: dl.pack ins(%{{.*}} : memref<16x2x3x3xf32>) outs(%{{.*}} : memref<2x1x3x3x4x8xf32>) {groups = 4 : i64}
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x2x10x10x4xf32>, memref<2x1x3x3x4x8xf32>) outs(%{{.*}} : memref<1x2x8x8x8xf32>) {groups = 2 : i64}
func.func @conv2d_groups(%in: memref<1x8x10x10xf32>, %f: memref<16x2x3x3xf32>,
                         %out: memref<1x16x8x8xf32>,
                         %bin: memref<1x2x10x10x4xf32>,
                         %bf: memref<2x1x3x3x4x8xf32>,
                         %bout: memref<1x2x8x8x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x2x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>) {groups = 4 : i64}
  dl.pack ins(%f : memref<16x2x3x3xf32>) outs(%bf : memref<2x1x3x3x4x8xf32>)
          {groups = 4 : i64}
  dl.conv2d ins(%bin, %bf : memref<1x2x10x10x4xf32>, memref<2x1x3x3x4x8xf32>)
            outs(%bout : memref<1x2x8x8x8xf32>) {groups = 2 : i64}
  return
}

// A blocked convolution that skips its padding columns.
// CHECK-LABEL: func.func @conv2d_skip_padding_columns
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x2x7x7x4xf32>, memref<3x2x3x3x4x8xf32>) outs(%{{.*}} : memref<1x3x7x7x8xf32>) {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
func.func @conv2d_skip_padding_columns(%in: memref<1x2x7x7x4xf32>,
                                       %f: memref<3x2x3x3x4x8xf32>,
                                       %out: memref<1x3x7x7x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x7x7x4xf32>, memref<3x2x3x3x4x8xf32>)
            outs(%out : memref<1x3x7x7x8xf32>)
            {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
  return
}

// Asymmetric padding [top, left, bottom, right] and non-square strides:
// OH = (10 + 2 + 0 - 3) / 1 + 1 = 10, OW = (10 + 0 + 1 - 3) / 2 + 1 = 5.
// CHECK-LABEL: func.func @conv2d_asymmetric
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%{{.*}} : memref<1x16x10x5xf32>) {padding = array<i64: 2, 0, 0, 1>, strides = array<i64: 1, 2>}
func.func @conv2d_asymmetric(%in: memref<1x8x10x10xf32>,
                             %f: memref<16x8x3x3xf32>,
                             %out: memref<1x16x10x5xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x10x5xf32>)
            {strides = array<i64: 1, 2>, padding = array<i64: 2, 0, 0, 1>}
  return
}

// Dilated 3x3 filter spans 5: (10 - 5) / 1 + 1 = 6; with dilation 3 it spans
// 7: (10 - 7) / 1 + 1 = 4.
// CHECK-LABEL: func.func @conv2d_dilations
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%{{.*}} : memref<1x16x6x4xf32>) {dilations = array<i64: 2, 3>}
func.func @conv2d_dilations(%in: memref<1x8x10x10xf32>,
                            %f: memref<16x8x3x3xf32>,
                            %out: memref<1x16x6x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x6x4xf32>) {dilations = array<i64: 2, 3>}
  return
}

// CHECK-LABEL: func.func @conv2d_all_attrs
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<2x8x11x11xf32>, memref<16x8x3x3xf32>) outs(%{{.*}} : memref<2x16x5x5xf32>) {dilations = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
func.func @conv2d_all_attrs(%in: memref<2x8x11x11xf32>,
                            %f: memref<16x8x3x3xf32>,
                            %out: memref<2x16x5x5xf32>) {
  dl.conv2d ins(%in, %f : memref<2x8x11x11xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<2x16x5x5xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>,
             dilations = array<i64: 2, 2>}
  return
}

// Blocked layout: C = 2 x 4, K = 4 x 4.
// CHECK-LABEL: func.func @conv2d_blocked
// CHECK-SAME: (%[[IN:.*]]: memref<1x2x10x10x4xf32>, %[[F:.*]]: memref<4x2x3x3x4x4xf32>, %[[OUT:.*]]: memref<1x4x10x10x4xf32>)
// CHECK: dl.conv2d ins(%[[IN]], %[[F]] : memref<1x2x10x10x4xf32>, memref<4x2x3x3x4x4xf32>) outs(%[[OUT]] : memref<1x4x10x10x4xf32>) {padding = array<i64: 1, 1, 1, 1>}
func.func @conv2d_blocked(%in: memref<1x2x10x10x4xf32>,
                          %f: memref<4x2x3x3x4x4xf32>,
                          %out: memref<1x4x10x10x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x10x10x4xf32>, memref<4x2x3x3x4x4xf32>)
            outs(%out : memref<1x4x10x10x4xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  return
}

// Blocked layout with different input (8) and output (16) channel blocks.
// CHECK-LABEL: func.func @conv2d_blocked_strided
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<2x1x9x9x8xf32>, memref<2x1x3x3x8x16xf32>) outs(%{{.*}} : memref<2x2x4x4x16xf32>) {strides = array<i64: 2, 2>}
func.func @conv2d_blocked_strided(%in: memref<2x1x9x9x8xf32>,
                                  %f: memref<2x1x3x3x8x16xf32>,
                                  %out: memref<2x2x4x4x16xf32>) {
  dl.conv2d ins(%in, %f : memref<2x1x9x9x8xf32>, memref<2x1x3x3x8x16xf32>)
            outs(%out : memref<2x2x4x4x16xf32>) {strides = array<i64: 2, 2>}
  return
}

// CHECK-LABEL: func.func @conv2d_dynamic
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<?x8x?x?xf32>, memref<16x8x3x3xf32>) outs(%{{.*}} : memref<?x16x?x?xf32>) {padding = array<i64: 1, 1, 1, 1>}
func.func @conv2d_dynamic(%in: memref<?x8x?x?xf32>, %f: memref<16x8x3x3xf32>,
                          %out: memref<?x16x?x?xf32>) {
  dl.conv2d ins(%in, %f : memref<?x8x?x?xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<?x16x?x?xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  return
}

// CHECK-LABEL: func.func @conv2d_blocked_dynamic
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<?x2x?x?x4xf32>, memref<?x2x?x?x4x4xf32>) outs(%{{.*}} : memref<?x?x?x?x4xf32>){{$}}
func.func @conv2d_blocked_dynamic(%in: memref<?x2x?x?x4xf32>,
                                  %f: memref<?x2x?x?x4x4xf32>,
                                  %out: memref<?x?x?x?x4xf32>) {
  dl.conv2d ins(%in, %f : memref<?x2x?x?x4xf32>, memref<?x2x?x?x4x4xf32>)
            outs(%out : memref<?x?x?x?x4xf32>)
  return
}

//===----------------------------------------------------------------------===//
// Batch normalization
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @batch_norm_inference_plain
// CHECK-SAME: (%[[IN:.*]]: memref<2x8x4x4xf32>, %[[G:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>, %[[M:.*]]: memref<8xf32>, %[[V:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<2x8x4x4xf32>)
// CHECK: dl.batch_norm_inference ins(%[[IN]], %[[G]], %[[B]], %[[M]], %[[V]] : memref<2x8x4x4xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%[[OUT]] : memref<2x8x4x4xf32>){{$}}
func.func @batch_norm_inference_plain(%in: memref<2x8x4x4xf32>,
                                      %g: memref<8xf32>, %b: memref<8xf32>,
                                      %m: memref<8xf32>, %v: memref<8xf32>,
                                      %out: memref<2x8x4x4xf32>) {
  dl.batch_norm_inference ins(%in, %g, %b, %m, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
  return
}

// Epsilon 1e-3 is the default and is elided.
// CHECK-LABEL: func.func @batch_norm_inference_default_epsilon
// CHECK: dl.batch_norm_inference ins({{.*}}) outs(%{{.*}} : memref<2x8x4x4xf32>){{$}}
func.func @batch_norm_inference_default_epsilon(%in: memref<2x8x4x4xf32>,
    %g: memref<8xf32>, %b: memref<8xf32>, %m: memref<8xf32>,
    %v: memref<8xf32>, %out: memref<2x8x4x4xf32>) {
  dl.batch_norm_inference ins(%in, %g, %b, %m, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>) {epsilon = 1.0e-3 : f32}
  return
}

// A convolution's epilogue.
// CHECK-LABEL: func.func @conv2d_epilogue
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x2x4x4x8xf32>, memref<1x2x1x1x8x8xf32>) outs(%{{.*}} : memref<1x1x4x4x8xf32>) epilogue(%{{.*}}, %{{.*}} : memref<8xf32>, memref<1x1x4x4x8xf32>) {epilogue = [#dl.post_op<bias_add>, #dl.post_op<add>, #dl.post_op<relu>]}
func.func @conv2d_epilogue(%in: memref<1x2x4x4x8xf32>, %f: memref<1x2x1x1x8x8xf32>,
                           %bias: memref<8xf32>, %r: memref<1x1x4x4x8xf32>,
                           %out: memref<1x1x4x4x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x4x4x8xf32>, memref<1x2x1x1x8x8xf32>)
      outs(%out : memref<1x1x4x4x8xf32>)
      epilogue(%bias, %r : memref<8xf32>, memref<1x1x4x4x8xf32>)
      {epilogue = [#dl.post_op<bias_add>, #dl.post_op<add>, #dl.post_op<relu>]}
  return
}

// A fused activation.
// CHECK-LABEL: func.func @batch_norm_inference_relu6
// CHECK: dl.batch_norm_inference ins({{.*}}) outs(%{{.*}} : memref<2x8x4x4xf32>) {activation = #dl.activation<relu6>}
func.func @batch_norm_inference_relu6(%in: memref<2x8x4x4xf32>,
    %g: memref<8xf32>, %b: memref<8xf32>, %m: memref<8xf32>,
    %v: memref<8xf32>, %out: memref<2x8x4x4xf32>) {
  dl.batch_norm_inference ins(%in, %g, %b, %m, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>) {activation = #dl.activation<relu6>}
  return
}

// Blocked rank 5 (8 channels = 2 x 4), in place, with an epsilon.
// CHECK-LABEL: func.func @batch_norm_inference_blocked
// CHECK-SAME: (%[[IN:.*]]: memref<2x2x4x4x4xf32>
// CHECK: dl.batch_norm_inference ins(%[[IN]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<2x2x4x4x4xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) outs(%[[IN]] : memref<2x2x4x4x4xf32>) {epsilon = 5.000000e-01 : f32}
func.func @batch_norm_inference_blocked(%in: memref<2x2x4x4x4xf32>,
                                        %g: memref<8xf32>, %b: memref<8xf32>,
                                        %m: memref<8xf32>, %v: memref<8xf32>) {
  dl.batch_norm_inference ins(%in, %g, %b, %m, %v : memref<2x2x4x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%in : memref<2x2x4x4x4xf32>) {epsilon = 0.5 : f32}
  return
}

// CHECK-LABEL: func.func @batch_norm_training_plain
// CHECK-SAME: (%[[IN:.*]]: memref<2x8x4x4xf32>, %[[G:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<2x8x4x4xf32>, %[[SM:.*]]: memref<8xf32>, %[[SV:.*]]: memref<8xf32>)
// CHECK: dl.batch_norm_training ins(%[[IN]], %[[G]], %[[B]] : memref<2x8x4x4xf32>, memref<8xf32>, memref<8xf32>) outs(%[[OUT]], %[[SM]], %[[SV]] : memref<2x8x4x4xf32>, memref<8xf32>, memref<8xf32>){{$}}
func.func @batch_norm_training_plain(%in: memref<2x8x4x4xf32>,
                                     %g: memref<8xf32>, %b: memref<8xf32>,
                                     %out: memref<2x8x4x4xf32>,
                                     %sm: memref<8xf32>, %sv: memref<8xf32>) {
  dl.batch_norm_training ins(%in, %g, %b : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
  return
}

// CHECK-LABEL: func.func @batch_norm_training_inv_std
// CHECK: dl.batch_norm_training ins({{.*}}) outs({{.*}}) inv_std(%{{.*}} : memref<8xf32>) {activation = #dl.activation<relu>}
func.func @batch_norm_training_inv_std(%in: memref<2x8x4x4xf32>,
                                       %g: memref<8xf32>, %b: memref<8xf32>,
                                       %out: memref<2x8x4x4xf32>,
                                       %sm: memref<8xf32>, %sv: memref<8xf32>,
                                       %si: memref<8xf32>) {
  dl.batch_norm_training ins(%in, %g, %b : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
                         inv_std(%si : memref<8xf32>)
                         {activation = #dl.activation<relu>}
  return
}

// CHECK-LABEL: func.func @batch_norm_training_blocked
// CHECK: dl.batch_norm_training ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<2x2x4x4x4xf32>, memref<8xf32>, memref<8xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : memref<2x2x4x4x4xf32>, memref<8xf32>, memref<8xf32>) {epsilon = 2.500000e-01 : f32}
func.func @batch_norm_training_blocked(%in: memref<2x2x4x4x4xf32>,
                                       %g: memref<8xf32>, %b: memref<8xf32>,
                                       %out: memref<2x2x4x4x4xf32>,
                                       %sm: memref<8xf32>, %sv: memref<8xf32>) {
  dl.batch_norm_training ins(%in, %g, %b : memref<2x2x4x4x4xf32>,
                             memref<8xf32>, memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x2x4x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
                         {epsilon = 0.25 : f32}
  return
}

// Epsilon 0 is allowed (>= 0).
// CHECK-LABEL: func.func @batch_norm_training_zero_epsilon
// CHECK: dl.batch_norm_training {{.*}} {epsilon = 0.000000e+00 : f32}
func.func @batch_norm_training_zero_epsilon(%in: memref<2x8x4x4xf32>,
                                            %g: memref<8xf32>, %b: memref<8xf32>,
                                            %out: memref<2x8x4x4xf32>,
                                            %sm: memref<8xf32>,
                                            %sv: memref<8xf32>) {
  dl.batch_norm_training ins(%in, %g, %b : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
                         {epsilon = 0.0 : f32}
  return
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @relu
// CHECK-SAME: (%[[IN:.*]]: memref<2x8x4x4xf32>, %[[OUT:.*]]: memref<2x8x4x4xf32>)
// CHECK: dl.relu ins(%[[IN]] : memref<2x8x4x4xf32>) outs(%[[OUT]] : memref<2x8x4x4xf32>){{$}}
// CHECK: dl.relu ins(%[[IN]] : memref<2x8x4x4xf32>) outs(%[[IN]] : memref<2x8x4x4xf32>){{$}}
func.func @relu(%in: memref<2x8x4x4xf32>, %out: memref<2x8x4x4xf32>) {
  dl.relu ins(%in : memref<2x8x4x4xf32>) outs(%out : memref<2x8x4x4xf32>)
  dl.relu ins(%in : memref<2x8x4x4xf32>) outs(%in : memref<2x8x4x4xf32>)
  return
}

// CHECK-LABEL: func.func @relu6
// CHECK-SAME: (%[[IN:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK: dl.relu6 ins(%[[IN]] : memref<16xf32>) outs(%[[OUT]] : memref<16xf32>){{$}}
// CHECK: dl.relu6 ins(%[[OUT]] : memref<16xf32>) outs(%[[OUT]] : memref<16xf32>){{$}}
func.func @relu6(%in: memref<16xf32>, %out: memref<16xf32>) {
  dl.relu6 ins(%in : memref<16xf32>) outs(%out : memref<16xf32>)
  dl.relu6 ins(%out : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}

// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[L:.*]]: memref<2x8x4x4xf32>, %[[R:.*]]: memref<2x8x4x4xf32>, %[[OUT:.*]]: memref<2x8x4x4xf32>)
// CHECK: dl.add ins(%[[L]], %[[R]] : memref<2x8x4x4xf32>, memref<2x8x4x4xf32>) outs(%[[OUT]] : memref<2x8x4x4xf32>){{$}}
// CHECK: dl.add ins(%[[L]], %[[R]] : memref<2x8x4x4xf32>, memref<2x8x4x4xf32>) outs(%[[L]] : memref<2x8x4x4xf32>){{$}}
func.func @add(%l: memref<2x8x4x4xf32>, %r: memref<2x8x4x4xf32>,
               %out: memref<2x8x4x4xf32>) {
  dl.add ins(%l, %r : memref<2x8x4x4xf32>, memref<2x8x4x4xf32>)
         outs(%out : memref<2x8x4x4xf32>)
  dl.add ins(%l, %r : memref<2x8x4x4xf32>, memref<2x8x4x4xf32>)
         outs(%l : memref<2x8x4x4xf32>)
  return
}

// CHECK-LABEL: func.func @bias_add_rank2
// CHECK-SAME: (%[[IN:.*]]: memref<4x16xf32>, %[[B:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<4x16xf32>)
// CHECK: dl.bias_add ins(%[[IN]], %[[B]] : memref<4x16xf32>, memref<16xf32>) outs(%[[OUT]] : memref<4x16xf32>){{$}}
func.func @bias_add_rank2(%in: memref<4x16xf32>, %b: memref<16xf32>,
                          %out: memref<4x16xf32>) {
  dl.bias_add ins(%in, %b : memref<4x16xf32>, memref<16xf32>)
              outs(%out : memref<4x16xf32>)
  return
}

// CHECK-LABEL: func.func @bias_add_rank4
// CHECK-SAME: (%[[IN:.*]]: memref<2x8x4x4xf32>, %[[B:.*]]: memref<8xf32>)
// CHECK: dl.bias_add ins(%[[IN]], %[[B]] : memref<2x8x4x4xf32>, memref<8xf32>) outs(%[[IN]] : memref<2x8x4x4xf32>){{$}}
func.func @bias_add_rank4(%in: memref<2x8x4x4xf32>, %b: memref<8xf32>) {
  dl.bias_add ins(%in, %b : memref<2x8x4x4xf32>, memref<8xf32>)
              outs(%in : memref<2x8x4x4xf32>)
  return
}

// Blocked: 2 blocks of 4 channels.
// CHECK-LABEL: func.func @bias_add_rank5
// CHECK: dl.bias_add ins(%{{.*}}, %{{.*}} : memref<2x2x4x4x4xf32>, memref<8xf32>) outs(%{{.*}} : memref<2x2x4x4x4xf32>){{$}}
func.func @bias_add_rank5(%in: memref<2x2x4x4x4xf32>, %b: memref<8xf32>,
                          %out: memref<2x2x4x4x4xf32>) {
  dl.bias_add ins(%in, %b : memref<2x2x4x4x4xf32>, memref<8xf32>)
              outs(%out : memref<2x2x4x4x4xf32>)
  return
}

//===----------------------------------------------------------------------===//
// Layout changes
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @pack_unpack_activation
// CHECK-SAME: (%[[PLAIN:.*]]: memref<2x8x5x5xf32>, %[[BLOCKED:.*]]: memref<2x2x5x5x4xf32>)
// CHECK: dl.pack ins(%[[PLAIN]] : memref<2x8x5x5xf32>) outs(%[[BLOCKED]] : memref<2x2x5x5x4xf32>){{$}}
// CHECK: dl.unpack ins(%[[BLOCKED]] : memref<2x2x5x5x4xf32>) outs(%[[PLAIN]] : memref<2x8x5x5xf32>){{$}}
func.func @pack_unpack_activation(%plain: memref<2x8x5x5xf32>,
                                  %blocked: memref<2x2x5x5x4xf32>) {
  dl.pack ins(%plain : memref<2x8x5x5xf32>) outs(%blocked : memref<2x2x5x5x4xf32>)
  dl.unpack ins(%blocked : memref<2x2x5x5x4xf32>) outs(%plain : memref<2x8x5x5xf32>)
  return
}

// Filter KCRS (K = 16, C = 8) <-> KCRS{c}c{k}k with c = 4, k = 8.
// CHECK-LABEL: func.func @pack_unpack_filter
// CHECK-SAME: (%[[PLAIN:.*]]: memref<16x8x3x3xf32>, %[[BLOCKED:.*]]: memref<2x2x3x3x4x8xf32>)
// CHECK: dl.pack ins(%[[PLAIN]] : memref<16x8x3x3xf32>) outs(%[[BLOCKED]] : memref<2x2x3x3x4x8xf32>){{$}}
// CHECK: dl.unpack ins(%[[BLOCKED]] : memref<2x2x3x3x4x8xf32>) outs(%[[PLAIN]] : memref<16x8x3x3xf32>){{$}}
func.func @pack_unpack_filter(%plain: memref<16x8x3x3xf32>,
                              %blocked: memref<2x2x3x3x4x8xf32>) {
  dl.pack ins(%plain : memref<16x8x3x3xf32>) outs(%blocked : memref<2x2x3x3x4x8xf32>)
  dl.unpack ins(%blocked : memref<2x2x3x3x4x8xf32>) outs(%plain : memref<16x8x3x3xf32>)
  return
}

// Matrix K x N (K = 12, N = 16) <-> N/n x K/k x k x n with k = 4, n = 8, the
// blocked B of dl.matmul.
// CHECK-LABEL: func.func @pack_unpack_matrix
// CHECK-SAME: (%[[PLAIN:.*]]: memref<12x16xf32>, %[[BLOCKED:.*]]: memref<2x3x4x8xf32>, %[[A:.*]]: memref<5x12xf32>, %[[C:.*]]: memref<5x16xf32>)
// CHECK: dl.pack ins(%[[PLAIN]] : memref<12x16xf32>) outs(%[[BLOCKED]] : memref<2x3x4x8xf32>){{$}}
// CHECK: dl.matmul ins(%[[A]], %[[BLOCKED]] : memref<5x12xf32>, memref<2x3x4x8xf32>) outs(%[[C]] : memref<5x16xf32>) {pack_blocks = array<i64: 5, 8, 4>}{{$}}
// CHECK: dl.unpack ins(%[[BLOCKED]] : memref<2x3x4x8xf32>) outs(%[[PLAIN]] : memref<12x16xf32>){{$}}
func.func @pack_unpack_matrix(%plain: memref<12x16xf32>, %blocked: memref<2x3x4x8xf32>,
                              %a: memref<5x12xf32>, %c: memref<5x16xf32>) {
  dl.pack ins(%plain : memref<12x16xf32>) outs(%blocked : memref<2x3x4x8xf32>)
  dl.matmul ins(%a, %blocked : memref<5x12xf32>, memref<2x3x4x8xf32>) outs(%c : memref<5x16xf32>)
      {pack_blocks = array<i64: 5, 8, 4>}
  dl.unpack ins(%blocked : memref<2x3x4x8xf32>) outs(%plain : memref<12x16xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.run_shape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @run_shape
// CHECK-SAME: (%[[IN:.*]]: memref<?x8x?x?xf32> {dl.run_shape = array<i64: 2, 8, 10, 12>}, %[[OUT:.*]]: memref<?x8x?x?xf32> {dl.run_shape = array<i64: 2, 8, 10, 12>}, %{{.*}}: memref<4xf32>)
// CHECK: dl.relu ins(%[[IN]] : memref<?x8x?x?xf32>) outs(%[[OUT]] : memref<?x8x?x?xf32>){{$}}
func.func @run_shape(%in: memref<?x8x?x?xf32> {dl.run_shape = array<i64: 2, 8, 10, 12>},
                     %out: memref<?x8x?x?xf32> {dl.run_shape = array<i64: 2, 8, 10, 12>},
                     %other: memref<4xf32>) {
  dl.relu ins(%in : memref<?x8x?x?xf32>) outs(%out : memref<?x8x?x?xf32>)
  return
}

// A fully static memref may carry its own sizes; a zero size is allowed.
// CHECK-LABEL: func.func @run_shape_static
// CHECK-SAME: (%{{.*}}: memref<4x?xf32> {dl.run_shape = array<i64: 4, 0>})
func.func @run_shape_static(%a: memref<4x?xf32> {dl.run_shape = array<i64: 4, 0>}) {
  return
}

//===----------------------------------------------------------------------===//
// Microkernels
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @microkernels
// CHECK: %[[G:.*]] = dl.gemm_dispatch {k = 4 : i64, lda = 4 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 8 : i64, n = 16 : i64}
// CHECK: dl.gemm_invoke %[[G]](%{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}]) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>
// CHECK: %[[S:.*]] = dl.gemm_dispatch {beta_zero, k = 4 : i64, lda = 4 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 2 : i64, n = 16 : i64, stride_a = 8 : i64, stride_b = 0 : i64}
// CHECK: dl.gemm_invoke %[[S]]({{.*}}) batch(%{{.*}}) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>
// CHECK: %[[O:.*]] = dl.gemm_dispatch {batch_offsets, k = 4 : i64, lda = 4 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 2 : i64, n = 16 : i64}
// CHECK: dl.gemm_invoke %[[O]]({{.*}}) batch(%{{.*}}) offsets(%{{.*}}, %{{.*}}) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>, memref<2xi64>, memref<2xi64>
func.func @microkernels(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>,
                        %offs: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %g = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16}
  dl.gemm_invoke %g(%a[%c0, %c0], %b[%c0, %c0], %c[%c0, %c0]) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>
  %s = dl.gemm_dispatch {m = 2, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, stride_a = 8, stride_b = 0, beta_zero}
  dl.gemm_invoke %s(%a[%c0, %c0], %b[%c0, %c0], %c[%c0, %c0]) batch(%c2) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>
  %o = dl.gemm_dispatch {m = 2, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, batch_offsets}
  dl.gemm_invoke %o(%a[%c0, %c0], %b[%c0, %c0], %c[%c0, %c0]) batch(%c2) offsets(%offs, %offs)
      : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>, memref<2xi64>, memref<2xi64>
  return
}

// Run-time sizes (the partial blocks of a GEMM with dynamic sizes), and the
// blocked GEMM of dynamic sizes they come from.
// CHECK-LABEL: func.func @runtime_sizes
// CHECK: dl.gemm_dispatch sizes(%{{.*}}, %{{.*}}, %{{.*}}) {k = 4 : i64, lda = 4 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 8 : i64, n = 16 : i64, stride_a = 32 : i64, stride_b = 64 : i64}
// CHECK: dl.gemm_dispatch sizes(%{{.*}}, %{{.*}}, %{{.*}}) leading_dims(%{{.*}}, %{{.*}}, %{{.*}}) {beta_zero, k = 64 : i64, m = 64 : i64, n = 64 : i64}
// CHECK: dl.matmul {{.*}} {batch_blocks = 4 : i64, pack_a, pack_b, pack_blocks = array<i64: 8, 16, 4>, pack_c, pad_blocks}
func.func @runtime_sizes(%m: index, %n: index, %k: index, %a: memref<?x?xf32>,
                         %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %s = dl.gemm_dispatch sizes(%m, %n, %k) {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, stride_a = 32, stride_b = 64}
  %w = dl.gemm_dispatch sizes(%m, %n, %k) leading_dims(%k, %n, %n) {m = 64, n = 64, k = 64, beta_zero}
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
      {pack_a, pack_b, pack_c, pad_blocks, pack_blocks = array<i64: 8, 16, 4>, batch_blocks = 4}
  return
}

//===----------------------------------------------------------------------===//
// #dl.schedule
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @scheduled_matmul
// CHECK: dl.matmul {{.*}} {pack_blocks = array<i64: 4, 8, 2>, schedule = #dl.schedule<[k:1, j, i, k], parallel = 1>}
func.func @scheduled_matmul(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 4, 8, 2>, schedule = #dl.schedule<[k:1, j, i, k], parallel = 1>}
  return
}

// CHECK-LABEL: func.func @scheduled_conv
// CHECK: dl.conv2d {{.*}} {schedule = #dl.schedule<[kb:3, oh, n, kb]>}
func.func @scheduled_conv(%in: memref<1x2x8x8x4xf32>, %f: memref<6x2x1x1x4x4xf32>, %out: memref<1x6x8x8x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<6x2x1x1x4x4xf32>) outs(%out : memref<1x6x8x8x4xf32>) {schedule = #dl.schedule<[kb:3, oh, n, kb]>}
  return
}

//===----------------------------------------------------------------------===//
// dl.max_pool2d, dl.avg_pool2d
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @pooling
// CHECK: dl.max_pool2d ins(%{{.*}} : memref<1x8x9x9xf32>) outs(%{{.*}} : memref<1x8x5x5xf32>) {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>}
// CHECK: dl.avg_pool2d ins(%{{.*}} : memref<1x8x9x9xf32>) outs(%{{.*}} : memref<1x8x1x1xf32>) {window = array<i64: 9, 9>}
// CHECK: dl.avg_pool2d ins(%{{.*}} : memref<1x2x9x9x4xf32>) outs(%{{.*}} : memref<1x2x4x4x4xf32>) {count_include_pad = false, padding = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>}
func.func @pooling(%x: memref<1x8x9x9xf32>, %m: memref<1x8x5x5xf32>,
                   %g: memref<1x8x1x1xf32>, %xb: memref<1x2x9x9x4xf32>,
                   %ab: memref<1x2x4x4x4xf32>) {
  dl.max_pool2d ins(%x : memref<1x8x9x9xf32>) outs(%m : memref<1x8x5x5xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 1, 1>}
  dl.avg_pool2d ins(%x : memref<1x8x9x9xf32>) outs(%g : memref<1x8x1x1xf32>)
                {window = array<i64: 9, 9>, count_include_pad = true}
  dl.avg_pool2d ins(%xb : memref<1x2x9x9x4xf32>) outs(%ab : memref<1x2x4x4x4xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 0, 0>, count_include_pad = false}
  return
}

//===----------------------------------------------------------------------===//
// dl.depthwise_conv2d
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @depthwise
// CHECK: dl.depthwise_conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x9x9xf32>, memref<3x3x8xf32>) outs(%{{.*}} : memref<1x8x5x5xf32>) {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
// CHECK: dl.depthwise_conv2d ins(%{{.*}}, %{{.*}} : memref<1x2x9x9x4xf32>, memref<3x3x7xf32>) outs(%{{.*}} : memref<1x2x5x5x4xf32>) {dilations = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>, strides = array<i64: 2, 2>}
func.func @depthwise(%x: memref<1x8x9x9xf32>, %f: memref<3x3x8xf32>,
                     %y: memref<1x8x5x5xf32>, %xb: memref<1x2x9x9x4xf32>,
                     %fb: memref<3x3x7xf32>, %yb: memref<1x2x5x5x4xf32>) {
  dl.depthwise_conv2d ins(%x, %f : memref<1x8x9x9xf32>, memref<3x3x8xf32>)
                      outs(%y : memref<1x8x5x5xf32>)
                      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>,
                       dilations = array<i64: 1, 1>}
  dl.depthwise_conv2d ins(%xb, %fb : memref<1x2x9x9x4xf32>, memref<3x3x7xf32>)
                      outs(%yb : memref<1x2x5x5x4xf32>)
                      {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>,
                       dilations = array<i64: 2, 2>}
  return
}

//===----------------------------------------------------------------------===//
// dl.concat
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @concat
// CHECK: dl.concat ins(%{{.*}}, %{{.*}} : memref<1x3x4x4xf32>, memref<1x5x4x4xf32>) outs(%{{.*}} : memref<1x8x4x4xf32>){{$}}
// CHECK: dl.concat ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<2x3xf32>, memref<2x1xf32>, memref<2x?xf32>) outs(%{{.*}} : memref<2x?xf32>){{$}}
// CHECK: dl.concat ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) {axis = 0 : i64} -> tensor<2x3xf32>
func.func @concat(%a: memref<1x3x4x4xf32>, %b: memref<1x5x4x4xf32>, %c: memref<1x8x4x4xf32>,
                  %d: memref<2x3xf32>, %e: memref<2x1xf32>, %f: memref<2x?xf32>,
                  %g: memref<2x?xf32>, %t: tensor<2x3xf32>) -> tensor<2x3xf32> {
  dl.concat ins(%a, %b : memref<1x3x4x4xf32>, memref<1x5x4x4xf32>) outs(%c : memref<1x8x4x4xf32>)
  dl.concat ins(%d, %e, %f : memref<2x3xf32>, memref<2x1xf32>, memref<2x?xf32>) outs(%g : memref<2x?xf32>) {axis = 1}
  %empty = tensor.empty() : tensor<2x3xf32>
  %r = dl.concat ins(%t : tensor<2x3xf32>) outs(%empty : tensor<2x3xf32>) {axis = 0} -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// dl.sigmoid, dl.silu, dl.hard_sigmoid, dl.hard_swish, dl.mul
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @activations
// CHECK: dl.sigmoid ins(%{{.*}} : memref<2x8xf32>) outs(%{{.*}} : memref<2x8xf32>)
// CHECK: dl.silu ins(%{{.*}} : memref<2x8xf32>) outs(%{{.*}} : memref<2x8xf32>)
// CHECK: dl.hard_sigmoid ins(%{{.*}} : memref<2x8xf32>) outs(%{{.*}} : memref<2x8xf32>)
// CHECK: dl.hard_swish ins(%{{.*}} : memref<2x8xf32>) outs(%{{.*}} : memref<2x8xf32>)
// CHECK: dl.mul ins(%{{.*}}, %{{.*}} : memref<1x4x3x3xf32>, memref<1x4x1x1xf32>) outs(%{{.*}} : memref<1x4x3x3xf32>)
// CHECK: dl.mul ins(%{{.*}}, %{{.*}} : tensor<2x8xf32>, tensor<2x8xf32>) outs(%{{.*}} : tensor<2x8xf32>) -> tensor<2x8xf32>
func.func @activations(%x: memref<2x8xf32>, %y: memref<2x8xf32>, %a: memref<1x4x3x3xf32>,
                       %s: memref<1x4x1x1xf32>, %t: tensor<2x8xf32>) -> tensor<2x8xf32> {
  dl.sigmoid ins(%x : memref<2x8xf32>) outs(%y : memref<2x8xf32>)
  dl.silu ins(%x : memref<2x8xf32>) outs(%y : memref<2x8xf32>)
  dl.hard_sigmoid ins(%x : memref<2x8xf32>) outs(%y : memref<2x8xf32>)
  dl.hard_swish ins(%x : memref<2x8xf32>) outs(%y : memref<2x8xf32>)
  dl.mul ins(%a, %s : memref<1x4x3x3xf32>, memref<1x4x1x1xf32>) outs(%a : memref<1x4x3x3xf32>)
  %r = dl.mul ins(%t, %t : tensor<2x8xf32>, tensor<2x8xf32>) outs(%t : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}
