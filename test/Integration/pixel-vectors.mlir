// Convolutions with a few output channels, vectorized along their output
// pixels (pixel_vectors, set by dl-block-conv-layouts), checked against the
// reference lowering at 1 and 2 threads and with 8-float vectors: taps read
// from the input (no padding, unit column stride), from per-row-tile
// windows (padding, strides 2 and 3, dilation, asymmetric padding, rows
// shorter than a vector), rows of several column tiles, output channels that
// do not divide the register tile's, rows that do not divide the row
// tile's, pointwise convolutions whose rows join into one, a stride on rows
// only, and strides 2 and 3 read directly from the input (the last vector
// of each strided tap ending at its last column), and, at a unit column
// stride, output channels beyond half a vector (two channel tiles).
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=1 --vector-bits=256 | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-block-conv-layouts | FileCheck %s --check-prefix=DECIDED
// RUN: dl-compile %s --vector-bits=512 --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS --allow-empty

// DECIDED-COUNT-13: pixel_vectors
// DECIDED-NOT: dl.pack
// REMARKS-NOT: kept as loops
// REMARKS-NOT: lanes of the microkernels' vectors

// CHECK: direct_rows_rest: max_abs_err={{.*}} ok
func.func @direct_rows_rest(%x: memref<1x16x9x40xf32>, %w: memref<2x16x3x3xf32>, %y: memref<1x2x7x38xf32>) {
  dl.conv2d ins(%x, %w : memref<1x16x9x40xf32>, memref<2x16x3x3xf32>) outs(%y : memref<1x2x7x38xf32>)
      {strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
  return
}
// CHECK: padded: max_abs_err={{.*}} ok
func.func @padded(%x: memref<2x5x17x17xf32>, %w: memref<3x5x3x3xf32>, %y: memref<2x3x17x17xf32>) {
  dl.conv2d ins(%x, %w : memref<2x5x17x17xf32>, memref<3x5x3x3xf32>) outs(%y : memref<2x3x17x17xf32>)
      {strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
  return
}
// CHECK: stride2_padded: max_abs_err={{.*}} ok
func.func @stride2_padded(%x: memref<1x6x30x30xf32>, %w: memref<6x6x3x3xf32>, %y: memref<1x6x15x15xf32>) {
  dl.conv2d ins(%x, %w : memref<1x6x30x30xf32>, memref<6x6x3x3xf32>) outs(%y : memref<1x6x15x15xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
  return
}
// CHECK: stride3_asymmetric: max_abs_err={{.*}} ok
func.func @stride3_asymmetric(%x: memref<1x4x23x41xf32>, %w: memref<1x4x5x2xf32>, %y: memref<1x1x8x14xf32>) {
  dl.conv2d ins(%x, %w : memref<1x4x23x41xf32>, memref<1x4x5x2xf32>) outs(%y : memref<1x1x8x14xf32>)
      {strides = array<i64: 3, 3>, padding = array<i64: 2, 0, 1, 1>, dilations = array<i64: 1, 1>}
  return
}
// CHECK: dilated: max_abs_err={{.*}} ok
func.func @dilated(%x: memref<1x3x20x36xf32>, %w: memref<5x3x3x3xf32>, %y: memref<1x5x20x36xf32>) {
  dl.conv2d ins(%x, %w : memref<1x3x20x36xf32>, memref<5x3x3x3xf32>) outs(%y : memref<1x5x20x36xf32>)
      {strides = array<i64: 1, 1>, padding = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>}
  return
}
// CHECK: narrow_rows: max_abs_err={{.*}} ok
func.func @narrow_rows(%x: memref<3x7x13x9xf32>, %w: memref<4x7x5x5xf32>, %y: memref<3x4x7x5xf32>) {
  dl.conv2d ins(%x, %w : memref<3x7x13x9xf32>, memref<4x7x5x5xf32>) outs(%y : memref<3x4x7x5xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>, dilations = array<i64: 1, 1>}
  return
}
// CHECK: column_tiles: max_abs_err={{.*}} ok
func.func @column_tiles(%x: memref<1x2x6x150xf32>, %w: memref<1x2x3x3xf32>, %y: memref<1x1x6x150xf32>) {
  dl.conv2d ins(%x, %w : memref<1x2x6x150xf32>, memref<1x2x3x3xf32>) outs(%y : memref<1x1x6x150xf32>)
      {strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
  return
}
// CHECK: channel_rest: max_abs_err={{.*}} ok
func.func @channel_rest(%x: memref<1x9x6x70xf32>, %w: memref<7x9x3x3xf32>, %y: memref<1x7x6x70xf32>) {
  dl.conv2d ins(%x, %w : memref<1x9x6x70xf32>, memref<7x9x3x3xf32>) outs(%y : memref<1x7x6x70xf32>)
      {strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
  return
}
// CHECK: pointwise_joined: max_abs_err={{.*}} ok
func.func @pointwise_joined(%x: memref<2x33x7x7xf32>, %w: memref<2x33x1x1xf32>, %y: memref<2x2x7x7xf32>) {
  dl.conv2d ins(%x, %w : memref<2x33x7x7xf32>, memref<2x33x1x1xf32>) outs(%y : memref<2x2x7x7xf32>)
      {strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
  return
}
// CHECK: pointwise_stride2: max_abs_err={{.*}} ok
func.func @pointwise_stride2(%x: memref<1x8x20x40xf32>, %w: memref<3x8x1x1xf32>, %y: memref<1x3x10x20xf32>) {
  dl.conv2d ins(%x, %w : memref<1x8x20x40xf32>, memref<3x8x1x1xf32>) outs(%y : memref<1x3x10x20xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
  return
}
// Rows shorter than the strided vectors: a dense copy (dl-reduce-conv-strides)
// at unit stride, whose rows join.
// CHECK: pointwise_stride2_short_rows: max_abs_err={{.*}} ok
func.func @pointwise_stride2_short_rows(%x: memref<2x20x19x19xf32>, %w: memref<3x20x1x1xf32>, %y: memref<2x3x10x10xf32>) {
  dl.conv2d ins(%x, %w : memref<2x20x19x19xf32>, memref<3x20x1x1xf32>) outs(%y : memref<2x3x10x10xf32>)
      {strides = array<i64: 2, 2>}
  return
}
// CHECK: stride_rows_only: max_abs_err={{.*}} ok
func.func @stride_rows_only(%x: memref<1x3x21x33xf32>, %w: memref<2x3x3x3xf32>, %y: memref<1x2x10x31xf32>) {
  dl.conv2d ins(%x, %w : memref<1x3x21x33xf32>, memref<2x3x3x3xf32>) outs(%y : memref<1x2x10x31xf32>)
      {strides = array<i64: 2, 1>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
  return
}

// CHECK: stride3_direct: max_abs_err={{.*}} ok
func.func @stride3_direct(%x: memref<1x5x10x60xf32>, %w: memref<2x5x3x3xf32>, %y: memref<1x2x3x20xf32>) {
  dl.conv2d ins(%x, %w : memref<1x5x10x60xf32>, memref<2x5x3x3xf32>) outs(%y : memref<1x2x3x20xf32>)
      {strides = array<i64: 3, 3>, padding = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
  return
}

// CHECK: channels_beyond_half: max_abs_err={{.*}} ok
func.func @channels_beyond_half(%x: memref<2x3x12x46xf32>, %w: memref<13x3x3x3xf32>, %y: memref<2x13x12x46xf32>) {
  dl.conv2d ins(%x, %w : memref<2x3x12x46xf32>, memref<13x3x3x3xf32>) outs(%y : memref<2x13x12x46xf32>)
      {strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
  return
}
