// dl-im2col-convs: a blocked convolution with one output-channel block
// whose microkernel block of C (OW rows of ceil(kb / 16) vectors) holds
// fewer than min-vectors (5) vectors becomes a copy of its input windows
// and a dl.matmul on views of its filter and output; zeros where a window
// reads padding. Not with more vectors, nor with two output-channel
// blocks, nor a pointwise convolution at unit stride. Rows of 5 to 7 pixels
// of at most 8 output channels (half a vector) do so too where the windows
// are deep (at least 256 floats) and their copy fits the L2. The copy for a
// convolution whose work does not pay for a parallel region is
// dl.sequential.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-im2col-convs | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-im2col-convs | FileCheck %s --check-prefix=SEQUENTIAL
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-im2col-convs="max-copy-bytes=1000 report-fallbacks" --verify-diagnostics -o /dev/null
// RUN: not dl-opt %s --dl-im2col-convs=min-vectors=0 2>&1 | FileCheck %s --check-prefix=INVALID

// INVALID: error: dl-im2col-convs: min-vectors must be >= 1 and max-copy-bytes >= 0

// CHECK-LABEL: func.func @rows_of_two
// CHECK: %[[W:.*]] = memref.alloc() : memref<72x11600xf32>
// CHECK: affine.for %[[N:.*]] = 0 to 2 {
// CHECK: affine.for %[[OH:.*]] = 0 to 18 {
// CHECK: affine.for %[[OW:.*]] = 0 to 2 {
// CHECK: affine.for %[[CB:.*]] = 0 to 8 {
// CHECK: affine.for %[[R:.*]] = 0 to 5 {
// CHECK: affine.for %[[S:.*]] = 0 to 5 {
// CHECK: affine.for %[[C:.*]] = 0 to 58 {
// CHECK: %[[V:.*]] = affine.load %arg0[%[[N]], %[[CB]], %[[OH]] * 2 + %[[R]], %[[OW]] * 2 + %[[S]], %[[C]]]
// CHECK: affine.store %[[V]], %[[W]][(%[[N]] * 18 + %[[OH]]) * 2 + %[[OW]], ((%[[CB]] * 5 + %[[R]]) * 5 + %[[S]]) * 58 + %[[C]]]
// CHECK: %[[F:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2, 3, 4], [5]] : memref<1x8x5x5x58x7xf32> into memref<11600x7xf32>
// CHECK: %[[O:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1, 2, 3], [4]] : memref<2x1x18x2x7xf32> into memref<72x7xf32>
// CHECK: dl.matmul ins(%[[W]], %[[F]] : memref<72x11600xf32>, memref<11600x7xf32>) outs(%[[O]] : memref<72x7xf32>)
// CHECK: memref.dealloc %[[W]]
// CHECK-NOT: dl.conv2d
// SEQUENTIAL-LABEL: func.func @rows_of_two
// SEQUENTIAL-NOT: dl.sequential
// SEQUENTIAL: dl.matmul
func.func @rows_of_two(%in: memref<2x8x40x7x58xf32>, %f: memref<1x8x5x5x58x7xf32>, %out: memref<2x1x18x2x7xf32>) {
  // expected-remark @+1 {{dl-im2col-convs: output rows of 2 pixels (2 vectors a call) kept: the copy of the input windows would take 3340800 bytes, above max-copy-bytes (1000)}}
  dl.conv2d ins(%in, %f : memref<2x8x40x7x58xf32>, memref<1x8x5x5x58x7xf32>) outs(%out : memref<2x1x18x2x7xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// CHECK-LABEL: func.func @padded
// CHECK: memref.alloc() : memref<30x234xf32>
// CHECK: affine.if #{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {
// CHECK: affine.load %arg0
// CHECK: } else {
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: affine.store %[[ZERO]]
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<30x234xf32>, memref<234x5xf32>) outs(%{{.*}} : memref<30x5xf32>)
// SEQUENTIAL-LABEL: func.func @padded
// SEQUENTIAL: } {dl.sequential}
func.func @padded(%x: memref<3x2x5x3x13xf32>, %w: memref<1x2x3x3x13x5xf32>, %y: memref<3x1x5x2x5xf32>) {
  // expected-remark @+1 {{the copy of the input windows would take 28080 bytes}}
  dl.conv2d ins(%x, %w : memref<3x2x5x3x13xf32>, memref<1x2x3x3x13x5xf32>) outs(%y : memref<3x1x5x2x5xf32>)
      {strides = array<i64: 1, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// 4 rows of one vector (a 2-image 96 -> 5-channel 3x3 of stride 2).
// CHECK-LABEL: func.func @rows_of_four
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<32x864xf32>, memref<864x5xf32>) outs(%{{.*}} : memref<32x5xf32>)
// CHECK-NOT: dl.conv2d
func.func @rows_of_four(%x: memref<2x1x10x10x96xf32>, %w: memref<1x1x3x3x96x5xf32>, %y: memref<2x1x4x4x5xf32>) {
  // expected-remark @+1 {{output rows of 4 pixels (4 vectors a call) kept: the copy of the input windows would take 110592 bytes}}
  dl.conv2d ins(%x, %w : memref<2x1x10x10x96xf32>, memref<1x1x3x3x96x5xf32>) outs(%y : memref<2x1x4x4x5xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// 5 rows of one vector: kept.
// CHECK-LABEL: func.func @rows_of_five
// CHECK: dl.conv2d
func.func @rows_of_five(%x: memref<2x1x13x13x48xf32>, %w: memref<1x1x5x5x48x16xf32>, %y: memref<2x1x5x5x16xf32>) {
  dl.conv2d ins(%x, %w : memref<2x1x13x13x48xf32>, memref<1x1x5x5x48x16xf32>) outs(%y : memref<2x1x5x5x16xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// 7 rows of one vector.
// CHECK-LABEL: func.func @rows_of_seven
// CHECK: dl.conv2d
func.func @rows_of_seven(%x: memref<2x1x7x7x64xf32>, %w: memref<1x1x3x3x64x10xf32>, %y: memref<2x1x7x7x10xf32>) {
  dl.conv2d ins(%x, %w : memref<2x1x7x7x64xf32>, memref<1x1x3x3x64x10xf32>) outs(%y : memref<2x1x7x7x10xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// 5 rows of 3 output channels, windows of 176 x 3 x 3 floats (a 158 KB
// copy).
// CHECK-LABEL: func.func @deep_windows
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<25x1584xf32>, memref<1584x3xf32>) outs(%{{.*}} : memref<25x3xf32>)
// CHECK-NOT: dl.conv2d
func.func @deep_windows(%x: memref<1x1x11x11x176xf32>, %w: memref<1x1x3x3x176x3xf32>, %y: memref<1x1x5x5x3xf32>) {
  // expected-remark @+1 {{output rows of 5 pixels (5 vectors a call) kept: the copy of the input windows would take 158400 bytes}}
  dl.conv2d ins(%x, %w : memref<1x1x11x11x176xf32>, memref<1x1x3x3x176x3xf32>) outs(%y : memref<1x1x5x5x3xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// Windows of 12 x 3 x 3 floats: kept.
// CHECK-LABEL: func.func @shallow_windows
// CHECK: dl.conv2d
func.func @shallow_windows(%x: memref<1x1x11x11x12xf32>, %w: memref<1x1x3x3x12x3xf32>, %y: memref<1x1x5x5x3xf32>) {
  dl.conv2d ins(%x, %w : memref<1x1x11x11x12xf32>, memref<1x1x3x3x12x3xf32>) outs(%y : memref<1x1x5x5x3xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// Deep windows whose copy (4.4 MB) exceeds the L2: kept.
// CHECK-LABEL: func.func @deep_windows_beyond_the_l2
// CHECK: dl.conv2d
func.func @deep_windows_beyond_the_l2(%x: memref<4x1x71x11x176xf32>, %w: memref<1x1x3x3x176x3xf32>, %y: memref<4x1x35x5x3xf32>) {
  dl.conv2d ins(%x, %w : memref<4x1x71x11x176xf32>, memref<1x1x3x3x176x3xf32>) outs(%y : memref<4x1x35x5x3xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// CHECK-LABEL: func.func @two_channel_blocks
// CHECK: dl.conv2d
func.func @two_channel_blocks(%in: memref<1x2x7x7x16xf32>, %f: memref<2x2x5x5x16x8xf32>, %out: memref<1x2x2x2x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x7x7x16xf32>, memref<2x2x5x5x16x8xf32>) outs(%out : memref<1x2x2x2x8xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// CHECK-LABEL: func.func @pointwise
// CHECK: dl.conv2d
func.func @pointwise(%in: memref<1x2x2x2x16xf32>, %f: memref<1x2x1x1x16x8xf32>, %out: memref<1x1x2x2x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x2x2x16xf32>, memref<1x2x1x1x16x8xf32>) outs(%out : memref<1x1x2x2x8xf32>)
  return
}
