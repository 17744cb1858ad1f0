// Convolutions with a few input channels whose filter columns
// dl-fold-filter-columns folds into the channels, checked against the
// reference lowering at 1 and 2 threads: unpadded, padded on every side or
// on one, column strides 2 and 3, column dilation 2, several images, an
// asymmetric filter, and a blocked convolution written by hand; the last
// output columns reading past the image (zeros).
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-opt %s --dl-block-conv-layouts --dl-fold-filter-columns | FileCheck %s --check-prefix=FOLDED
// RUN: dl-compile %s --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS --allow-empty

// FOLDED-COUNT-8: memref.expand_shape
// REMARKS-NOT: kept as loops

// CHECK: one_channel: max_abs_err={{.*}} ok
func.func @one_channel(%x: memref<3x1x21x21xf32>, %w: memref<71x1x5x5xf32>, %y: memref<3x71x17x17xf32>) {
  dl.conv2d ins(%x, %w : memref<3x1x21x21xf32>, memref<71x1x5x5xf32>) outs(%y : memref<3x71x17x17xf32>)
  return
}
// CHECK: strided_padded: max_abs_err={{.*}} ok
func.func @strided_padded(%x: memref<1x1x11x11xf32>, %w: memref<15x1x5x5xf32>, %y: memref<1x15x6x6xf32>) {
  dl.conv2d ins(%x, %w : memref<1x1x11x11xf32>, memref<15x1x5x5xf32>) outs(%y : memref<1x15x6x6xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>}
  return
}
// CHECK: three_channels_stride_2: max_abs_err={{.*}} ok
func.func @three_channels_stride_2(%x: memref<1x3x14x14xf32>, %w: memref<27x3x5x5xf32>, %y: memref<1x27x5x5xf32>) {
  dl.conv2d ins(%x, %w : memref<1x3x14x14xf32>, memref<27x3x5x5xf32>) outs(%y : memref<1x27x5x5xf32>)
      {strides = array<i64: 2, 2>}
  return
}
// CHECK: right_padding_stride_3: max_abs_err={{.*}} ok
func.func @right_padding_stride_3(%x: memref<2x2x16x16xf32>, %w: memref<20x2x3x3xf32>, %y: memref<2x20x6x6xf32>) {
  dl.conv2d ins(%x, %w : memref<2x2x16x16xf32>, memref<20x2x3x3xf32>) outs(%y : memref<2x20x6x6xf32>)
      {strides = array<i64: 3, 3>, padding = array<i64: 0, 0, 2, 2>}
  return
}
// CHECK: dilated: max_abs_err={{.*}} ok
func.func @dilated(%x: memref<1x2x12x12xf32>, %w: memref<24x2x3x3xf32>, %y: memref<1x24x10x10xf32>) {
  dl.conv2d ins(%x, %w : memref<1x2x12x12xf32>, memref<24x2x3x3xf32>) outs(%y : memref<1x24x10x10xf32>)
      {dilations = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}
// CHECK: wide_filter: max_abs_err={{.*}} ok
func.func @wide_filter(%x: memref<1x1x9x74xf32>, %w: memref<48x1x1x7xf32>, %y: memref<1x48x9x70xf32>) {
  dl.conv2d ins(%x, %w : memref<1x1x9x74xf32>, memref<48x1x1x7xf32>) outs(%y : memref<1x48x9x70xf32>)
      {padding = array<i64: 0, 1, 0, 1>}
  return
}
// CHECK: two_channel_blocks_of_output: max_abs_err={{.*}} ok
func.func @two_channel_blocks_of_output(%x: memref<4x2x16x16xf32>, %w: memref<79x2x5x5xf32>, %y: memref<4x79x6x6xf32>) {
  dl.conv2d ins(%x, %w : memref<4x2x16x16xf32>, memref<79x2x5x5xf32>) outs(%y : memref<4x79x6x6xf32>)
      {strides = array<i64: 2, 2>}
  return
}
// CHECK: blocked: max_abs_err={{.*}} ok
func.func @blocked(%x: memref<2x1x10x10x3xf32>, %w: memref<2x1x3x3x3x16xf32>, %y: memref<2x2x10x10x16xf32>) {
  dl.conv2d ins(%x, %w : memref<2x1x10x10x3xf32>, memref<2x1x3x3x3x16xf32>) outs(%y : memref<2x2x10x10x16xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}
