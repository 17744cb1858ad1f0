// Output elements whose whole reduction is empty (output rows or columns
// that lie entirely in the padding: every filter tap reads a padding zero)
// are still written: the optimized pipeline, microkernels included, matches
// the reference lowering, which gives them 0. The first case is
// dl-difftest's seed 93352: its only output row reads rows -3..-1, and the
// outlined microkernel had computed one block from filter row 3 (past the
// filter) instead of none.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 --solve-tiles | FileCheck %s
// RUN: dl-compile %s --run --threads=1 --microkernels=false | FileCheck %s

// CHECK: top_rows_in_padding: max_abs_err={{.*}} ok
func.func @top_rows_in_padding(%x: memref<1x3x1x7x16xf32>, %w: memref<3x3x3x2x16x8xf32>, %y: memref<1x3x1x8x8xf32>) {
  dl.conv2d ins(%x, %w : memref<1x3x1x7x16xf32>, memref<3x3x3x2x16x8xf32>) outs(%y : memref<1x3x1x8x8xf32>)
      {strides = array<i64: 2, 1>, padding = array<i64: 3, 2, 0, 0>, dilations = array<i64: 1, 1>}
  return
}

// Output rows 2..4 read only the bottom padding.
// CHECK: bottom_rows_in_padding: max_abs_err={{.*}} ok
func.func @bottom_rows_in_padding(%x: memref<2x2x2x9x16xf32>, %w: memref<1x2x1x3x16x16xf32>, %y: memref<2x1x5x9x16xf32>) {
  dl.conv2d ins(%x, %w : memref<2x2x2x9x16xf32>, memref<1x2x1x3x16x16xf32>) outs(%y : memref<2x1x5x9x16xf32>)
      {padding = array<i64: 0, 1, 3, 1>}
  return
}

// Output columns 0 and 1 read only the left padding, 5 only the right.
// CHECK: columns_in_padding: max_abs_err={{.*}} ok
func.func @columns_in_padding(%x: memref<1x1x6x1x16xf32>, %w: memref<2x1x3x3x16x16xf32>, %y: memref<1x2x4x6x16xf32>) {
  dl.conv2d ins(%x, %w : memref<1x1x6x1x16xf32>, memref<2x1x3x3x16x16xf32>) outs(%y : memref<1x2x4x6x16xf32>)
      {padding = array<i64: 0, 4, 0, 3>}
  return
}

// A plain convolution (through dl-block-conv-layouts) with padding beyond the
// filter on every side: a frame of output rows and columns two wide is empty.
// CHECK: frame_in_padding_plain: max_abs_err={{.*}} ok
func.func @frame_in_padding_plain(%x: memref<1x16x3x3xf32>, %w: memref<32x16x3x3xf32>, %y: memref<1x32x9x9xf32>) {
  dl.conv2d ins(%x, %w : memref<1x16x3x3xf32>, memref<32x16x3x3xf32>) outs(%y : memref<1x32x9x9xf32>)
      {padding = array<i64: 4, 4, 4, 4>}
  return
}

// Strided and dilated: rows whose taps all skip past the input.
// CHECK: strided_dilated_in_padding: max_abs_err={{.*}} ok
func.func @strided_dilated_in_padding(%x: memref<1x1x2x2x16xf32>, %w: memref<1x1x2x2x16x16xf32>, %y: memref<1x1x4x4x16xf32>) {
  dl.conv2d ins(%x, %w : memref<1x1x2x2x16xf32>, memref<1x1x2x2x16x16xf32>) outs(%y : memref<1x1x4x4x16xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 5, 5, 3, 3>, dilations = array<i64: 2, 2>}
  return
}
