// dl-compile --remarks reaches dl-im2col-convs: a convolution with one
// output pixel per image whose copy of the input windows would take 100
// MiB (above max-copy-bytes, 64 MiB) keeps its direct lowering and says so.
// RUN: dl-compile %s --remarks -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: dl-im2col-convs: output rows of 1 pixels (1 vectors a call) kept: the copy of the input windows would take 102760448 bytes, above max-copy-bytes (67108864)
func.func @large_copy(%x: memref<1024x8x7x7x64xf32>, %w: memref<1x8x7x7x64x3xf32>, %y: memref<1024x1x1x1x3xf32>) {
  dl.conv2d ins(%x, %w : memref<1024x8x7x7x64xf32>, memref<1x8x7x7x64x3xf32>) outs(%y : memref<1024x1x1x1x3xf32>)
  return
}
