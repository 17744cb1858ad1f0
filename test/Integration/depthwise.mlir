// dl-compile --run on depthwise convolutions: plain (strides, padding,
// dilation, a dynamic batch) and inside a MobileNetV2-style block, where
// dl-block-conv-layouts runs it on the blocked copy of its input (blocks of
// 48, and a padded copy of 67 channels in 5 blocks of 16); checked against
// the reference lowering (test/Python checks both against numpy).
// RUN: dl-compile %s --run | FileCheck %s
// RUN: dl-compile %s --run --threads 1 | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-block-conv-layouts | FileCheck %s --check-prefix=LAYOUT

// CHECK: plain: max_abs_err={{.*}} ok
func.func @plain(%x: memref<2x5x9x11xf32>, %f: memref<3x3x5xf32>, %y: memref<2x5x5x6xf32>,
                 %f5: memref<5x5x5xf32>, %z: memref<2x5x7x9xf32>) {
  dl.depthwise_conv2d ins(%x, %f : memref<2x5x9x11xf32>, memref<3x3x5xf32>)
                      outs(%y : memref<2x5x5x6xf32>)
                      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  dl.depthwise_conv2d ins(%x, %f5 : memref<2x5x9x11xf32>, memref<5x5x5xf32>)
                      outs(%z : memref<2x5x7x9xf32>)
                      {padding = array<i64: 3, 3, 3, 3>, dilations = array<i64: 2, 2>}
  return
}

// LAYOUT-LABEL: func.func @block
// LAYOUT: dl.conv2d ins({{.*}}) outs(%[[E:.*]] : memref<1x3x14x14x48xf32>)
// LAYOUT: dl.depthwise_conv2d ins(%[[E]], %{{.*}} : memref<1x3x14x14x48xf32>, memref<3x3x144xf32>) outs(%[[D:.*]] : memref<1x3x7x7x48xf32>)
// LAYOUT: dl.conv2d ins(%[[D]], %{{.*}} : memref<1x3x7x7x48xf32>, memref<1x3x1x1x48x24xf32>)
// CHECK: block: max_abs_err={{.*}} ok
func.func @block(%x: memref<1x16x14x14xf32>, %w1: memref<144x16x1x1xf32>,
                 %dw: memref<3x3x144xf32>, %b: memref<144xf32>,
                 %w2: memref<24x144x1x1xf32>, %y: memref<1x24x7x7xf32>) {
  %a = memref.alloc() : memref<1x144x14x14xf32>
  dl.conv2d ins(%x, %w1 : memref<1x16x14x14xf32>, memref<144x16x1x1xf32>)
            outs(%a : memref<1x144x14x14xf32>)
  dl.relu6 ins(%a : memref<1x144x14x14xf32>) outs(%a : memref<1x144x14x14xf32>)
  %d = memref.alloc() : memref<1x144x7x7xf32>
  dl.depthwise_conv2d ins(%a, %dw : memref<1x144x14x14xf32>, memref<3x3x144xf32>)
                      outs(%d : memref<1x144x7x7xf32>)
                      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  dl.bias_add ins(%d, %b : memref<1x144x7x7xf32>, memref<144xf32>) outs(%d : memref<1x144x7x7xf32>)
  dl.relu6 ins(%d : memref<1x144x7x7xf32>) outs(%d : memref<1x144x7x7xf32>)
  dl.conv2d ins(%d, %w2 : memref<1x144x7x7xf32>, memref<24x144x1x1xf32>)
            outs(%y : memref<1x24x7x7xf32>)
  memref.dealloc %a : memref<1x144x14x14xf32>
  memref.dealloc %d : memref<1x144x7x7xf32>
  return
}

// LAYOUT-LABEL: func.func @padded
// LAYOUT: dl.depthwise_conv2d ins(%{{.*}}, %{{.*}} : memref<1x5x9x9x16xf32>, memref<3x3x67xf32>) outs(%{{.*}} : memref<1x5x9x9x16xf32>)
// CHECK: padded: max_abs_err={{.*}} ok
func.func @padded(%x: memref<1x67x9x9xf32>, %w1: memref<67x67x1x1xf32>,
                  %dw: memref<3x3x67xf32>, %y: memref<1x67x9x9xf32>) {
  %a = memref.alloc() : memref<1x67x9x9xf32>
  dl.conv2d ins(%x, %w1 : memref<1x67x9x9xf32>, memref<67x67x1x1xf32>)
            outs(%a : memref<1x67x9x9xf32>)
  %d = memref.alloc() : memref<1x67x9x9xf32>
  dl.depthwise_conv2d ins(%a, %dw : memref<1x67x9x9xf32>, memref<3x3x67xf32>)
                      outs(%d : memref<1x67x9x9xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%d, %w1 : memref<1x67x9x9xf32>, memref<67x67x1x1xf32>)
            outs(%y : memref<1x67x9x9xf32>)
  memref.dealloc %a : memref<1x67x9x9xf32>
  memref.dealloc %d : memref<1x67x9x9xf32>
  return
}

// Blocks of 64 whole channels and static sizes: the interior columns run in
// register tiles (full tiles of 8 and a remainder), with a 5x5 window, a
// dilated strided one and asymmetric padding.
// LAYOUT-LABEL: func.func @tiles
// LAYOUT: dl.depthwise_conv2d ins(%{{.*}}, %{{.*}} : memref<2x1x23x29x64xf32>, memref<5x5x64xf32>) outs(%{{.*}} : memref<2x1x23x29x64xf32>)
// CHECK: tiles: max_abs_err={{.*}} ok
func.func @tiles(%x: memref<2x16x23x29xf32>, %w1: memref<64x16x1x1xf32>,
                 %f5: memref<5x5x64xf32>, %f3: memref<3x3x64xf32>,
                 %w2: memref<8x64x1x1xf32>, %y: memref<2x8x12x15xf32>) {
  %a = memref.alloc() : memref<2x64x23x29xf32>
  dl.conv2d ins(%x, %w1 : memref<2x16x23x29xf32>, memref<64x16x1x1xf32>)
            outs(%a : memref<2x64x23x29xf32>)
  %d = memref.alloc() : memref<2x64x23x29xf32>
  dl.depthwise_conv2d ins(%a, %f5 : memref<2x64x23x29xf32>, memref<5x5x64xf32>)
                      outs(%d : memref<2x64x23x29xf32>) {padding = array<i64: 2, 2, 2, 2>}
  %e = memref.alloc() : memref<2x64x11x14xf32>
  dl.depthwise_conv2d ins(%d, %f3 : memref<2x64x23x29xf32>, memref<3x3x64xf32>)
                      outs(%e : memref<2x64x11x14xf32>)
                      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>,
                       dilations = array<i64: 2, 2>}
  %g = memref.alloc() : memref<2x64x12x15xf32>
  dl.depthwise_conv2d ins(%e, %f3 : memref<2x64x11x14xf32>, memref<3x3x64xf32>)
                      outs(%g : memref<2x64x12x15xf32>) {padding = array<i64: 1, 0, 2, 3>}
  dl.conv2d ins(%g, %w2 : memref<2x64x12x15xf32>, memref<8x64x1x1xf32>)
            outs(%y : memref<2x8x12x15xf32>)
  memref.dealloc %a : memref<2x64x23x29xf32>
  memref.dealloc %d : memref<2x64x23x29xf32>
  memref.dealloc %e : memref<2x64x11x14xf32>
  memref.dealloc %g : memref<2x64x12x15xf32>
  return
}

// Blocks of 40 channels (MNASNet's): register tiles of two 16-lane vectors
// and one of the last 8 lanes.
// LAYOUT-LABEL: func.func @tail_lanes
// LAYOUT: dl.depthwise_conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x15x15x40xf32>, memref<5x5x40xf32>)
// CHECK: tail_lanes: max_abs_err={{.*}} ok
func.func @tail_lanes(%x: memref<1x16x15x15xf32>, %w1: memref<40x16x1x1xf32>,
                      %f: memref<5x5x40xf32>, %w2: memref<16x40x1x1xf32>,
                      %y: memref<1x16x8x8xf32>) {
  %a = memref.alloc() : memref<1x40x15x15xf32>
  dl.conv2d ins(%x, %w1 : memref<1x16x15x15xf32>, memref<40x16x1x1xf32>)
            outs(%a : memref<1x40x15x15xf32>)
  %d = memref.alloc() : memref<1x40x8x8xf32>
  dl.depthwise_conv2d ins(%a, %f : memref<1x40x15x15xf32>, memref<5x5x40xf32>)
                      outs(%d : memref<1x40x8x8xf32>)
                      {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>}
  dl.conv2d ins(%d, %w2 : memref<1x40x8x8xf32>, memref<16x40x1x1xf32>)
            outs(%y : memref<1x16x8x8xf32>)
  memref.dealloc %a : memref<1x40x15x15xf32>
  memref.dealloc %d : memref<1x40x8x8xf32>
  return
}

// CHECK: dynamic: max_abs_err={{.*}} ok
func.func @dynamic(%x: memref<?x4x?x?xf32> {dl.run_shape = array<i64: 3, 4, 8, 7>},
                   %f: memref<3x3x4xf32>,
                   %y: memref<?x4x?x?xf32> {dl.run_shape = array<i64: 3, 4, 8, 7>}) {
  dl.depthwise_conv2d ins(%x, %f : memref<?x4x?x?xf32>, memref<3x3x4xf32>)
                      outs(%y : memref<?x4x?x?xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}

// An inverted residual block of 72 channels (5 blocks of 16, the last
// padded): the expansion, biases, ReLUs, depthwise convolution and
// projection all run on one blocked copy, the biases padded with zeros.
// CHECK: inverted_residual: max_abs_err={{.*}} ok
func.func @inverted_residual(%x: memref<1x24x14x14xf32>, %w1: memref<72x24x1x1xf32>,
                             %b1: memref<72xf32>, %dw: memref<3x3x72xf32>, %b2: memref<72xf32>,
                             %w2: memref<24x72x1x1xf32>, %y: memref<1x24x14x14xf32>) {
  %e = memref.alloc() : memref<1x72x14x14xf32>
  dl.conv2d ins(%x, %w1 : memref<1x24x14x14xf32>, memref<72x24x1x1xf32>) outs(%e : memref<1x72x14x14xf32>)
  dl.bias_add ins(%e, %b1 : memref<1x72x14x14xf32>, memref<72xf32>) outs(%e : memref<1x72x14x14xf32>)
  dl.relu ins(%e : memref<1x72x14x14xf32>) outs(%e : memref<1x72x14x14xf32>)
  %d = memref.alloc() : memref<1x72x14x14xf32>
  dl.depthwise_conv2d ins(%e, %dw : memref<1x72x14x14xf32>, memref<3x3x72xf32>) outs(%d : memref<1x72x14x14xf32>)
                      {padding = array<i64: 1, 1, 1, 1>}
  dl.bias_add ins(%d, %b2 : memref<1x72x14x14xf32>, memref<72xf32>) outs(%d : memref<1x72x14x14xf32>)
  dl.relu ins(%d : memref<1x72x14x14xf32>) outs(%d : memref<1x72x14x14xf32>)
  dl.conv2d ins(%d, %w2 : memref<1x72x14x14xf32>, memref<24x72x1x1xf32>) outs(%y : memref<1x24x14x14xf32>)
  memref.dealloc %e : memref<1x72x14x14xf32>
  memref.dealloc %d : memref<1x72x14x14xf32>
  return
}
