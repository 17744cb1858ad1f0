// dl-compile --run on pooling: plain (each kind, padding, ceil-mode style
// extra padding, global) and between convolutions, where dl-block-conv-layouts
// runs it on the blocked copies; checked against the reference lowering
// (test/Python checks both against PyTorch).
// RUN: dl-compile %s --run | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-block-conv-layouts | FileCheck %s --check-prefix=LAYOUT

// CHECK: pools: max_abs_err={{.*}} ok
func.func @pools(%x: memref<2x5x9x11xf32>, %m: memref<2x5x5x6xf32>,
                 %a: memref<2x5x4x5xf32>, %e: memref<2x5x4x5xf32>,
                 %g: memref<2x5x1x1xf32>, %c: memref<2x5x5x6xf32>) {
  dl.max_pool2d ins(%x : memref<2x5x9x11xf32>) outs(%m : memref<2x5x5x6xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 1, 1>}
  dl.avg_pool2d ins(%x : memref<2x5x9x11xf32>) outs(%a : memref<2x5x4x5xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 0, 0>}
  dl.avg_pool2d ins(%x : memref<2x5x9x11xf32>) outs(%e : memref<2x5x4x5xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 0, 0>, count_include_pad = false}
  dl.avg_pool2d ins(%x : memref<2x5x9x11xf32>) outs(%g : memref<2x5x1x1xf32>)
                {window = array<i64: 9, 11>}
  dl.max_pool2d ins(%x : memref<2x5x9x11xf32>) outs(%c : memref<2x5x5x6xf32>)
                {window = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                 padding = array<i64: 0, 0, 1, 1>}
  return
}

// LAYOUT-LABEL: func.func @stem
// LAYOUT: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x32x32x3xf32>, memref<1x1x7x7x3x64xf32>) outs(%[[C:.*]] : memref<1x1x16x16x64xf32>)
// LAYOUT: dl.relu ins(%[[C]] : memref<1x1x16x16x64xf32>) outs(%[[C]] : memref<1x1x16x16x64xf32>)
// LAYOUT: dl.max_pool2d ins(%[[C]] : memref<1x1x16x16x64xf32>) outs(%[[P:.*]] : memref<1x1x8x8x64xf32>)
// LAYOUT: dl.conv2d ins(%[[P]], %{{.*}} : memref<1x1x8x8x64xf32>, memref<1x1x3x3x64x64xf32>) outs(%[[O:.*]] : memref<1x1x8x8x64xf32>)
// LAYOUT: dl.avg_pool2d ins(%[[O]] : memref<1x1x8x8x64xf32>) outs(%[[G:.*]] : memref<1x1x1x1x64xf32>)
// LAYOUT: dl.unpack ins(%[[G]] : memref<1x1x1x1x64xf32>) outs(%{{.*}} : memref<1x64x1x1xf32>)
// CHECK: stem: max_abs_err={{.*}} ok
func.func @stem(%x: memref<1x3x32x32xf32>, %f: memref<64x3x7x7xf32>,
                %p: memref<1x64x8x8xf32>, %f2: memref<64x64x3x3xf32>,
                %g: memref<1x64x1x1xf32>) {
  %c = memref.alloc() : memref<1x64x16x16xf32>
  dl.conv2d ins(%x, %f : memref<1x3x32x32xf32>, memref<64x3x7x7xf32>)
            outs(%c : memref<1x64x16x16xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
  dl.relu ins(%c : memref<1x64x16x16xf32>) outs(%c : memref<1x64x16x16xf32>)
  dl.max_pool2d ins(%c : memref<1x64x16x16xf32>) outs(%p : memref<1x64x8x8xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 1, 1>}
  %o = memref.alloc() : memref<1x64x8x8xf32>
  dl.conv2d ins(%p, %f2 : memref<1x64x8x8xf32>, memref<64x64x3x3xf32>)
            outs(%o : memref<1x64x8x8xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.avg_pool2d ins(%o : memref<1x64x8x8xf32>) outs(%g : memref<1x64x1x1xf32>)
                {window = array<i64: 8, 8>}
  memref.dealloc %c : memref<1x64x16x16xf32>
  memref.dealloc %o : memref<1x64x8x8xf32>
  return
}

// A dynamic batch and image size.
// CHECK: dynamic: max_abs_err={{.*}} ok
func.func @dynamic(%x: memref<?x3x?x?xf32> {dl.run_shape = array<i64: 2, 3, 10, 7>},
                   %y: memref<?x3x?x?xf32> {dl.run_shape = array<i64: 2, 3, 5, 4>}) {
  dl.max_pool2d ins(%x : memref<?x3x?x?xf32>) outs(%y : memref<?x3x?x?xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 1, 1>}
  return
}

// Blocked pools in register tiles: blocks of 24 lanes (a vector of 16 and
// one of 8), windows clipped at both borders (interior columns in tiles of 8
// and a remainder), the divisor without count_include_pad, and a stride 1.
// CHECK: blocked: max_abs_err={{.*}} ok
func.func @blocked(%x: memref<2x2x11x29x24xf32>, %m: memref<2x2x6x15x24xf32>,
                   %e: memref<2x2x6x15x24xf32>, %s: memref<2x2x11x29x24xf32>,
                   %a: memref<2x2x5x13x24xf32>) {
  dl.max_pool2d ins(%x : memref<2x2x11x29x24xf32>) outs(%m : memref<2x2x6x15x24xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 1, 1>}
  dl.avg_pool2d ins(%x : memref<2x2x11x29x24xf32>) outs(%e : memref<2x2x6x15x24xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 1, 1>, count_include_pad = false}
  dl.max_pool2d ins(%x : memref<2x2x11x29x24xf32>) outs(%s : memref<2x2x11x29x24xf32>)
                {window = array<i64: 5, 5>, padding = array<i64: 2, 2, 2, 2>}
  dl.avg_pool2d ins(%x : memref<2x2x11x29x24xf32>) outs(%a : memref<2x2x5x13x24xf32>)
                {window = array<i64: 3, 5>, strides = array<i64: 2, 2>}
  return
}
