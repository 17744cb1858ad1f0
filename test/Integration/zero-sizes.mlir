// Ops with a size of zero (no output channels, no columns of C, no input
// channels) compile and run at 2 threads: the layout, streaming and
// parallelism decisions have no block to pick and nothing to divide.
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// CHECK: zero_k: {{.*}} ok
// CHECK: zero_n: {{.*}} ok
// CHECK: zero_c: {{.*}} ok

func.func @zero_k(%x: memref<1x3x5x5xf32>, %w: memref<0x3x3x3xf32>, %y: memref<1x0x3x3xf32>) {
  dl.conv2d ins(%x, %w : memref<1x3x5x5xf32>, memref<0x3x3x3xf32>) outs(%y : memref<1x0x3x3xf32>)
  return
}
func.func @zero_n(%a: memref<5x32xf32>, %b: memref<32x0xf32>, %c: memref<5x0xf32>) {
  dl.matmul ins(%a, %b : memref<5x32xf32>, memref<32x0xf32>) outs(%c : memref<5x0xf32>)
  return
}
func.func @zero_c(%x: memref<1x0x5x5xf32>, %w: memref<4x0x3x3xf32>, %y: memref<1x4x3x3xf32>) {
  dl.conv2d ins(%x, %w : memref<1x0x5x5xf32>, memref<4x0x3x3xf32>) outs(%y : memref<1x4x3x3xf32>)
  return
}
