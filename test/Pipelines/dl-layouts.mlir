// The `dl-layouts` pipeline: the layout passes dl-to-llvm runs before the
// ranking, alone (what benchmarks/fidelity.py fixes schedules on). A 1x1
// convolution on 16-pixel rows runs on merged-rows views; a GEMM gets its
// blocks; neither gets a schedule.
// RUN: dl-opt %s --dl-layouts | FileCheck %s

// CHECK-LABEL: func.func @pointwise
// CHECK: %[[IN:.*]] = memref.expand_shape {{.*}} into memref<1x4x8x32x16xf32>
// CHECK: dl.conv2d ins(%[[IN]],
// CHECK-NOT: schedule
func.func @pointwise(%in: memref<1x4x16x16x16xf32>, %f: memref<8x4x1x1x16x16xf32>, %out: memref<1x8x16x16x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x16x16x16xf32>, memref<8x4x1x1x16x16xf32>) outs(%out : memref<1x8x16x16x16xf32>)
  return
}

// CHECK-LABEL: func.func @gemm
// CHECK: dl.matmul {{.*}}pack_blocks = array<i64:
// CHECK-NOT: schedule
func.func @gemm(%a: memref<256x128xf32>, %b: memref<128x256xf32>, %c: memref<256x256xf32>) {
  dl.matmul ins(%a, %b : memref<256x128xf32>, memref<128x256xf32>) outs(%c : memref<256x256xf32>)
  return
}
