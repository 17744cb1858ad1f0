// dl-compile --run on grouped convolutions (`groups`), checked against the
// reference lowering (test/Python checks from_torch's against PyTorch):
// dl-block-conv-layouts lays them out in blocks of one group (16, 32 or 24
// output channels per group) or of several groups with a block-diagonal
// filter (4 and 8 per group, and 13 groups of 8 in 7 blocks of 16, the last
// one padded), plain ones with dynamic images, strides and padding.
// RUN: dl-compile %s --run | FileCheck %s
// RUN: dl-compile %s --run --threads 1 | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-block-conv-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: dl-compile %s --emit=mlir | FileCheck %s --check-prefix=KERNEL

// Groups of 4 channels: blocks of 16 holding 4 groups, one block group each,
// the groups within the lanes of a block (group_lanes).
// LAYOUT-LABEL: func.func @several
// LAYOUT: dl.pack ins(%{{.*}} : memref<64x4x3x3xf32>) outs(%{{.*}} : memref<4x1x3x3x16x16xf32>) {groups = 16 : i64}
// LAYOUT: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<2x4x14x14x16xf32>, memref<4x1x3x3x16x16xf32>) outs(%{{.*}} : memref<2x4x14x14x16xf32>) {group_lanes = 4 : i64, groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>}
// CHECK: several: max_abs_err={{.*}} ok
// Groups within the lanes of a block: register tiles whose input vectors
// are permuted to the groups' lanes, no microkernel calls.
// KERNEL-LABEL: llvm.func @several
// KERNEL-NOT: llvm.call @dl_brgemm
// KERNEL: llvm.shufflevector
// KERNEL-NOT: llvm.call @dl_brgemm
// KERNEL: llvm.return
func.func @several(%x: memref<2x64x14x14xf32>, %w: memref<64x4x3x3xf32>,
                   %y: memref<2x64x14x14xf32>) {
  dl.conv2d ins(%x, %w : memref<2x64x14x14xf32>, memref<64x4x3x3xf32>)
            outs(%y : memref<2x64x14x14xf32>)
            {groups = 16 : i64, padding = array<i64: 1, 1, 1, 1>}
  return
}

// Groups of 32 channels in blocks of 32; 2 groups of 16 at stride 2.
// LAYOUT-LABEL: func.func @whole
// LAYOUT: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x4x9x9x32xf32>, memref<4x1x3x3x32x32xf32>) outs(%{{.*}} : memref<1x4x9x9x32xf32>) {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>}
// LAYOUT: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x2x9x9x16xf32>, memref<2x1x3x3x16x16xf32>) outs(%{{.*}} : memref<1x2x5x5x16xf32>) {groups = 2 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
// CHECK: whole: max_abs_err={{.*}} ok
// The blocked nest's bands are microkernel calls: each output block's first
// input block, (kb floordiv 1) * 1, is constant over the call.
// KERNEL-LABEL: llvm.func @whole
// KERNEL: llvm.call @dl_brgemm_offs_invoke
func.func @whole(%x: memref<1x128x9x9xf32>, %w: memref<128x32x3x3xf32>,
                 %y: memref<1x128x9x9xf32>, %x2: memref<1x32x9x9xf32>,
                 %w2: memref<32x16x3x3xf32>, %y2: memref<1x32x5x5xf32>) {
  dl.conv2d ins(%x, %w : memref<1x128x9x9xf32>, memref<128x32x3x3xf32>)
            outs(%y : memref<1x128x9x9xf32>)
            {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%x2, %w2 : memref<1x32x9x9xf32>, memref<32x16x3x3xf32>)
            outs(%y2 : memref<1x32x5x5xf32>)
            {groups = 2 : i64, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// 13 groups of 8 (RegNet's width): 7 blocks of 16, the last one half
// padding; 4 groups of 24 in blocks of 24; a 1x1 grouped convolution with
// twice as many output channels per group as input channels.
// LAYOUT-LABEL: func.func @padded
// LAYOUT: dl.pack ins(%{{.*}} : memref<104x8x3x3xf32>) outs(%{{.*}} : memref<7x1x3x3x16x16xf32>) {groups = 13 : i64}
// LAYOUT: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x7x10x10x16xf32>, memref<7x1x3x3x16x16xf32>) outs(%{{.*}} : memref<1x7x10x10x16xf32>) {group_lanes = 8 : i64, groups = 7 : i64, padding = array<i64: 1, 1, 1, 1>}
// LAYOUT: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x4x10x10x24xf32>, memref<4x1x3x3x24x24xf32>) outs(%{{.*}} : memref<1x4x10x10x24xf32>) {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>}
// LAYOUT: dl.pack ins(%{{.*}} : memref<64x4x1x1xf32>) outs(%{{.*}} : memref<4x1x1x1x8x16xf32>) {groups = 8 : i64}
// CHECK: padded: max_abs_err={{.*}} ok
func.func @padded(%x: memref<1x104x10x10xf32>, %w: memref<104x8x3x3xf32>,
                  %y: memref<1x104x10x10xf32>, %x2: memref<1x96x10x10xf32>,
                  %w2: memref<96x24x3x3xf32>, %y2: memref<1x96x10x10xf32>,
                  %x3: memref<1x32x10x10xf32>, %w3: memref<64x4x1x1xf32>,
                  %y3: memref<1x64x10x10xf32>) {
  dl.conv2d ins(%x, %w : memref<1x104x10x10xf32>, memref<104x8x3x3xf32>)
            outs(%y : memref<1x104x10x10xf32>)
            {groups = 13 : i64, padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%x2, %w2 : memref<1x96x10x10xf32>, memref<96x24x3x3xf32>)
            outs(%y2 : memref<1x96x10x10xf32>)
            {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%x3, %w3 : memref<1x32x10x10xf32>, memref<64x4x1x1xf32>)
            outs(%y3 : memref<1x64x10x10xf32>) {groups = 8 : i64}
  return
}

// Plain (a dynamic batch), with padding, dilation and column stride.
// CHECK: dynamic: max_abs_err={{.*}} ok
func.func @dynamic(%x: memref<?x12x11x13xf32> {dl.run_shape = array<i64: 3, 12, 11, 13>},
                   %w: memref<6x4x3x3xf32>,
                   %y: memref<?x6x5x4xf32> {dl.run_shape = array<i64: 3, 6, 5, 4>}) {
  dl.conv2d ins(%x, %w : memref<?x12x11x13xf32>, memref<6x4x3x3xf32>)
            outs(%y : memref<?x6x5x4xf32>)
            {groups = 3 : i64, strides = array<i64: 2, 3>, padding = array<i64: 2, 1, 1, 0>,
             dilations = array<i64: 2, 1>}
  return
}

// A ResNeXt bottleneck's chain: the dense convolution before the grouped one
// writes its blocks of 16 (by itself it would take 2 blocks of 64), and the
// one after reads them; the ReLUs run on the blocked copies.
// LAYOUT-LABEL: func.func @chain
// LAYOUT: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x8x8x64xf32>, memref<8x1x1x1x64x16xf32>) outs(%[[A:.*]] : memref<1x8x8x8x16xf32>)
// LAYOUT: dl.relu ins(%[[A]] : memref<1x8x8x8x16xf32>)
// LAYOUT: dl.conv2d ins(%[[A]], %{{.*}} : memref<1x8x8x8x16xf32>, memref<8x1x3x3x16x16xf32>) outs(%[[B:.*]] : memref<1x8x8x8x16xf32>) {group_lanes = 4 : i64, groups = 8 : i64
// LAYOUT: dl.relu ins(%[[B]] : memref<1x8x8x8x16xf32>)
// LAYOUT: dl.conv2d ins(%[[B]], %{{.*}} : memref<1x8x8x8x16xf32>, memref<1x8x1x1x16x64xf32>)
// CHECK: chain: max_abs_err={{.*}} ok
func.func @chain(%x: memref<1x64x8x8xf32>, %w1: memref<128x64x1x1xf32>,
                 %w2: memref<128x4x3x3xf32>, %w3: memref<64x128x1x1xf32>,
                 %y: memref<1x64x8x8xf32>) {
  %a = memref.alloc() : memref<1x128x8x8xf32>
  dl.conv2d ins(%x, %w1 : memref<1x64x8x8xf32>, memref<128x64x1x1xf32>)
            outs(%a : memref<1x128x8x8xf32>)
  dl.relu ins(%a : memref<1x128x8x8xf32>) outs(%a : memref<1x128x8x8xf32>)
  %b = memref.alloc() : memref<1x128x8x8xf32>
  dl.conv2d ins(%a, %w2 : memref<1x128x8x8xf32>, memref<128x4x3x3xf32>)
            outs(%b : memref<1x128x8x8xf32>)
            {groups = 32 : i64, padding = array<i64: 1, 1, 1, 1>}
  dl.relu ins(%b : memref<1x128x8x8xf32>) outs(%b : memref<1x128x8x8xf32>)
  dl.conv2d ins(%b, %w3 : memref<1x128x8x8xf32>, memref<64x128x1x1xf32>)
            outs(%y : memref<1x64x8x8xf32>)
  memref.dealloc %a : memref<1x128x8x8xf32>
  memref.dealloc %b : memref<1x128x8x8xf32>
  return
}
