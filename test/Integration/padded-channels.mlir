// Channel counts without a good block: dl-block-conv-layouts pads the last
// channel block (the packs zero it, the unpack reads the real channels
// back), and the padded blocked convolutions run on microkernels. Checked
// against the reference lowering (plain loops), sequential and with 2
// threads: primes in and out, 3 input channels with 24 output channels, a
// 1x1 convolution with a prime output count, a bias and ReLU between two
// padded convolutions (the ReLU runs on the padded copy, the bias does not),
// one output channel (vectorized along its output pixels), one output
// channel of one column (blocks of one), and dynamic packs and unpacks with
// a padded last block. Nothing falls back to loops; the one output channel
// of one column runs as a GEMM on its input windows (dl-im2col-convs), so
// no remark on the lanes its one channel fills.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 --solve-tiles | FileCheck %s
// RUN: dl-compile %s --run --threads=1 --vector-bits=256 | FileCheck %s
// RUN: dl-compile %s --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS

// REMARKS-NOT: kept as loops
// REMARKS-NOT: lanes of the microkernels' vectors

// CHECK: primes: max_abs_err={{.*}} ok
func.func @primes(%x: memref<1x67x15x15xf32>, %w: memref<71x67x3x3xf32>, %y: memref<1x71x15x15xf32>) {
  dl.conv2d ins(%x, %w : memref<1x67x15x15xf32>, memref<71x67x3x3xf32>) outs(%y : memref<1x71x15x15xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// CHECK: first_layer: max_abs_err={{.*}} ok
func.func @first_layer(%x: memref<2x3x32x32xf32>, %w: memref<24x3x3x3xf32>, %y: memref<2x24x16x16xf32>) {
  dl.conv2d ins(%x, %w : memref<2x3x32x32xf32>, memref<24x3x3x3xf32>) outs(%y : memref<2x24x16x16xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// CHECK: pointwise_prime: max_abs_err={{.*}} ok
func.func @pointwise_prime(%x: memref<1x130x14x14xf32>, %w: memref<131x130x1x1xf32>, %y: memref<1x131x14x14xf32>) {
  dl.conv2d ins(%x, %w : memref<1x130x14x14xf32>, memref<131x130x1x1xf32>) outs(%y : memref<1x131x14x14xf32>)
  return
}

// CHECK: chain: max_abs_err={{.*}} ok
func.func @chain(%x: memref<1x67x9x9xf32>, %w1: memref<67x67x3x3xf32>, %bias: memref<67xf32>,
                 %w2: memref<97x67x3x3xf32>, %y: memref<1x97x9x9xf32>) {
  %t = memref.alloc() : memref<1x67x9x9xf32>
  dl.conv2d ins(%x, %w1 : memref<1x67x9x9xf32>, memref<67x67x3x3xf32>) outs(%t : memref<1x67x9x9xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.bias_add ins(%t, %bias : memref<1x67x9x9xf32>, memref<67xf32>) outs(%t : memref<1x67x9x9xf32>)
  dl.relu ins(%t : memref<1x67x9x9xf32>) outs(%t : memref<1x67x9x9xf32>)
  dl.conv2d ins(%t, %w2 : memref<1x67x9x9xf32>, memref<97x67x3x3xf32>) outs(%y : memref<1x97x9x9xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  memref.dealloc %t : memref<1x67x9x9xf32>
  return
}

// CHECK: one_output_channel: max_abs_err={{.*}} ok
func.func @one_output_channel(%x: memref<1x5x8x8xf32>, %w: memref<1x5x3x3xf32>, %y: memref<1x1x6x6xf32>) {
  dl.conv2d ins(%x, %w : memref<1x5x8x8xf32>, memref<1x5x3x3xf32>) outs(%y : memref<1x1x6x6xf32>)
  return
}

// CHECK: one_output_column: max_abs_err={{.*}} ok
func.func @one_output_column(%x: memref<1x5x8x3xf32>, %w: memref<1x5x3x3xf32>, %y: memref<1x1x6x1xf32>) {
  dl.conv2d ins(%x, %w : memref<1x5x8x3xf32>, memref<1x5x3x3xf32>) outs(%y : memref<1x1x6x1xf32>)
  return
}

// A pack into a padded blocked tensor and back: the round trip restores the
// input (the padding channels are not read back).
// CHECK: pack_round_trip_dynamic: max_abs_err={{.*}} ok
func.func @pack_round_trip_dynamic(%x: memref<2x?x3x3xf32> {dl.run_shape = array<i64: 2, 13, 3, 3>},
                                   %b: memref<2x?x3x3x8xf32> {dl.run_shape = array<i64: 2, 2, 3, 3, 8>},
                                   %y: memref<2x13x3x3xf32>) {
  dl.pack ins(%x : memref<2x?x3x3xf32>) outs(%b : memref<2x?x3x3x8xf32>)
  dl.unpack ins(%b : memref<2x?x3x3x8xf32>) outs(%y : memref<2x13x3x3xf32>)
  return
}

// CHECK: filter_pack_padded: max_abs_err={{.*}} ok
func.func @filter_pack_padded(%w: memref<11x7x2x2xf32>, %b: memref<2x2x2x2x4x8xf32>) {
  dl.pack ins(%w : memref<11x7x2x2xf32>) outs(%b : memref<2x2x2x2x4x8xf32>)
  return
}
