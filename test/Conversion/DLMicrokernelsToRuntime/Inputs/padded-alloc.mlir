// A blocked 3x3 convolution with padding: its lowering allocates a padded
// copy of the input (memref.alloc, the runtime allocator).
func.func @padded(%in: memref<1x1x6x6x8xf32>, %f: memref<1x1x3x3x8x8xf32>, %out: memref<1x1x6x6x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x6x6x8xf32>, memref<1x1x3x3x8x8xf32>) outs(%out : memref<1x1x6x6x8xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}
