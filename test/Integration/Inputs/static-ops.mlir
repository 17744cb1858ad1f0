func.func @gemm(%a: memref<509x40xf32>, %b: memref<40x96xf32>, %c: memref<509x96xf32>) {
  dl.matmul ins(%a, %b : memref<509x40xf32>, memref<40x96xf32>) outs(%c : memref<509x96xf32>)
  return
}
func.func @conv(%x: memref<3x19x9x9xf32>, %w: memref<33x19x3x3xf32>, %y: memref<3x33x9x9xf32>) {
  dl.conv2d ins(%x, %w : memref<3x19x9x9xf32>, memref<33x19x3x3xf32>) outs(%y : memref<3x33x9x9xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}
