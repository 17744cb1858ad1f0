// A plain convolution with a few output channels vectorizes its output
// pixels (pixel_vectors), except a pointwise one with a column stride whose
// input is beyond the L2 (2 MiB here): its pixel vectors would gather every
// other pixel from memory, so it is blocked, and dl-reduce-conv-strides
// gives it a dense copy. One within the L2 keeps its pixel vectors.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-block-conv-layouts | FileCheck %s

// CHECK-LABEL: func.func @beyond_l2
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<4x4x28x28x64xf32>, memref<1x4x1x1x64x2xf32>) outs(%{{.*}} : memref<4x1x14x14x2xf32>)
// CHECK-NOT: pixel_vectors
func.func @beyond_l2(%in: memref<4x256x28x28xf32>, %f: memref<2x256x1x1xf32>, %out: memref<4x2x14x14xf32>) {
  dl.conv2d ins(%in, %f : memref<4x256x28x28xf32>, memref<2x256x1x1xf32>) outs(%out : memref<4x2x14x14xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// CHECK-LABEL: func.func @within_l2
// CHECK: dl.conv2d {{.*}} {pixel_vectors, strides = array<i64: 2, 2>}
func.func @within_l2(%in: memref<1x64x56x56xf32>, %f: memref<3x64x1x1xf32>, %out: memref<1x3x28x28xf32>) {
  dl.conv2d ins(%in, %f : memref<1x64x56x56xf32>, memref<3x64x1x1xf32>) outs(%out : memref<1x3x28x28xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// CHECK-LABEL: func.func @unit_stride_beyond_l2
// CHECK: dl.conv2d {{.*}} {pixel_vectors}
func.func @unit_stride_beyond_l2(%in: memref<4x256x28x28xf32>, %f: memref<2x256x1x1xf32>, %out: memref<4x2x28x28xf32>) {
  dl.conv2d ins(%in, %f : memref<4x256x28x28xf32>, memref<2x256x1x1xf32>) outs(%out : memref<4x2x28x28xf32>)
  return
}
