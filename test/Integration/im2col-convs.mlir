// Convolutions whose output rows are too short for the microkernels, run
// as a GEMM on a copy of their input windows (dl-im2col-convs), checked
// against the reference lowering at 1 and 2 threads and with 8-float
// vectors: no padding with strides 2 (rows of 2 pixels), padding on every
// side (zeros copied), asymmetric padding with a dilation, one output
// pixel per image, a strided pointwise convolution, a plain convolution
// that dl-block-conv-layouts blocks first, and a plain one of 2 output
// channels in rows of 3 pixels, which it blocks rather than vectorize its
// pixels.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=1 --vector-bits=256 | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-layouts | FileCheck %s --check-prefix=DECIDED

// DECIDED-NOT: dl.conv2d
// DECIDED-COUNT-7: dl.matmul

// CHECK: strided: max_abs_err={{.*}} ok
func.func @strided(%x: memref<2x4x20x7x24xf32>, %w: memref<1x4x5x5x24x7xf32>, %y: memref<2x1x8x2x7xf32>) {
  dl.conv2d ins(%x, %w : memref<2x4x20x7x24xf32>, memref<1x4x5x5x24x7xf32>) outs(%y : memref<2x1x8x2x7xf32>)
      {strides = array<i64: 2, 2>}
  return
}
// CHECK: padded: max_abs_err={{.*}} ok
func.func @padded(%x: memref<3x2x5x3x13xf32>, %w: memref<1x2x3x3x13x5xf32>, %y: memref<3x1x5x2x5xf32>) {
  dl.conv2d ins(%x, %w : memref<3x2x5x3x13xf32>, memref<1x2x3x3x13x5xf32>) outs(%y : memref<3x1x5x2x5xf32>)
      {strides = array<i64: 1, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}
// CHECK: dilated: max_abs_err={{.*}} ok
func.func @dilated(%x: memref<1x3x9x4x16xf32>, %w: memref<1x3x3x3x16x3xf32>, %y: memref<1x1x7x1x3xf32>) {
  dl.conv2d ins(%x, %w : memref<1x3x9x4x16xf32>, memref<1x3x3x3x16x3xf32>) outs(%y : memref<1x1x7x1x3xf32>)
      {strides = array<i64: 1, 2>, padding = array<i64: 2, 1, 0, 1>, dilations = array<i64: 2, 2>}
  return
}
// CHECK: one_pixel: max_abs_err={{.*}} ok
func.func @one_pixel(%x: memref<3x2x7x7x56xf32>, %w: memref<1x2x7x7x56x3xf32>, %y: memref<3x1x1x1x3xf32>) {
  dl.conv2d ins(%x, %w : memref<3x2x7x7x56xf32>, memref<1x2x7x7x56x3xf32>) outs(%y : memref<3x1x1x1x3xf32>)
      {strides = array<i64: 2, 2>}
  return
}
// CHECK: strided_pointwise: max_abs_err={{.*}} ok
func.func @strided_pointwise(%x: memref<2x3x6x3x32xf32>, %w: memref<1x3x1x1x32x6xf32>, %y: memref<2x1x3x2x6xf32>) {
  dl.conv2d ins(%x, %w : memref<2x3x6x3x32xf32>, memref<1x3x1x1x32x6xf32>) outs(%y : memref<2x1x3x2x6xf32>)
      {strides = array<i64: 2, 2>}
  return
}
// CHECK: plain: max_abs_err={{.*}} ok
func.func @plain(%x: memref<1x160x8x8xf32>, %w: memref<3x160x5x5xf32>, %y: memref<1x3x2x2xf32>) {
  dl.conv2d ins(%x, %w : memref<1x160x8x8xf32>, memref<3x160x5x5xf32>) outs(%y : memref<1x3x2x2xf32>)
      {strides = array<i64: 2, 2>}
  return
}
// CHECK: few_channels_short_rows: max_abs_err={{.*}} ok
func.func @few_channels_short_rows(%x: memref<3x88x8x8xf32>, %w: memref<2x88x7x7xf32>, %y: memref<3x2x3x3xf32>) {
  dl.conv2d ins(%x, %w : memref<3x88x8x8xf32>, memref<2x88x7x7xf32>) outs(%y : memref<3x2x3x3xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>}
  return
}
