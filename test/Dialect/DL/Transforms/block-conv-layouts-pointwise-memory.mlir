// dl-block-conv-layouts: a pointwise unit-stride convolution whose input is
// beyond the L2 reads it in one block of all its channels (NCHW{C}c, each
// pixel's channels contiguous), where its kernel calls' A and B blocks stay
// within max-batch-bytes; otherwise the channels are blocked as usual.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-block-conv-layouts --split-input-file | FileCheck %s

// 96 -> 16 channels on 200x200 (15 MB of input): one block of 96.
// CHECK-LABEL: func @from_memory
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x200x200x96xf32>, memref<1x1x1x1x96x16xf32>)
func.func @from_memory(%in: memref<1x96x200x200xf32>, %f: memref<16x96x1x1xf32>, %out: memref<1x16x200x200xf32>) {
  dl.conv2d ins(%in, %f : memref<1x96x200x200xf32>, memref<16x96x1x1xf32>) outs(%out : memref<1x16x200x200xf32>)
  return
}

// -----

// The same on 20x20 (150 KB, in the L2): blocks of 48.
// CHECK-LABEL: func @in_l2
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x2x20x20x48xf32>, memref<1x2x1x1x48x16xf32>)
func.func @in_l2(%in: memref<1x96x20x20xf32>, %f: memref<16x96x1x1xf32>, %out: memref<1x16x20x20xf32>) {
  dl.conv2d ins(%in, %f : memref<1x96x20x20xf32>, memref<16x96x1x1xf32>) outs(%out : memref<1x16x20x20xf32>)
  return
}

// -----

// 512 -> 64 channels on 56x56: a call over all 512 channels would read
// (128 + 64) x 512 floats, beyond the 256 KiB of max-batch-bytes: blocks of
// 64.
// CHECK-LABEL: func @wide_batch
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x56x56x64xf32>, memref<1x8x1x1x64x64xf32>)
func.func @wide_batch(%in: memref<1x512x56x56xf32>, %f: memref<64x512x1x1xf32>, %out: memref<1x64x56x56xf32>) {
  dl.conv2d ins(%in, %f : memref<1x512x56x56xf32>, memref<64x512x1x1xf32>) outs(%out : memref<1x64x56x56xf32>)
  return
}

// -----

// A 3x3 convolution keeps its blocks.
// CHECK-LABEL: func @three_by_three
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x2x202x202x48xf32>
func.func @three_by_three(%in: memref<1x96x202x202xf32>, %f: memref<16x96x3x3xf32>, %out: memref<1x16x200x200xf32>) {
  dl.conv2d ins(%in, %f : memref<1x96x202x202xf32>, memref<16x96x3x3xf32>) outs(%out : memref<1x16x200x200xf32>)
  return
}
