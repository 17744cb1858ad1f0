// Which convolutions dl-block-conv-layouts moves to the blocked layout, the
// blocks it picks, and that the convolution keeps its attributes.
// RUN: dl-opt %s --dl-block-conv-layouts --split-input-file | FileCheck %s
// RUN: dl-opt %s --dl-block-conv-layouts="block-c=16 block-k=8" --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: not dl-opt %s --dl-block-conv-layouts="block-k=0" 2>&1 | FileCheck %s --check-prefix=INVALID

// INVALID: error: dl-block-conv-layouts: block-c and block-k must be >= 1

// 64 -> 64 channels in blocks of 32: pack input and filter, convolve in the
// blocked layout, unpack into the original output, free the copies.
// CHECK-LABEL: func @three_by_three
// CHECK-SAME: (%[[IN:.*]]: memref<1x64x56x56xf32>, %[[F:.*]]: memref<64x64x3x3xf32>, %[[OUT:.*]]: memref<1x64x56x56xf32>)
// CHECK: %[[BIN:.*]] = memref.alloc() : memref<1x2x56x56x32xf32>
// CHECK: dl.pack ins(%[[IN]] : memref<1x64x56x56xf32>) outs(%[[BIN]] : memref<1x2x56x56x32xf32>)
// CHECK: %[[BF:.*]] = memref.alloc() : memref<2x2x3x3x32x32xf32>
// CHECK: dl.pack ins(%[[F]] : memref<64x64x3x3xf32>) outs(%[[BF]] : memref<2x2x3x3x32x32xf32>)
// CHECK: %[[BOUT:.*]] = memref.alloc() : memref<1x2x56x56x32xf32>
// CHECK: dl.conv2d ins(%[[BIN]], %[[BF]] : {{.*}}) outs(%[[BOUT]] : memref<1x2x56x56x32xf32>)
// CHECK-SAME: padding = array<i64: 1, 1, 1, 1>
// CHECK: dl.unpack ins(%[[BOUT]] : memref<1x2x56x56x32xf32>) outs(%[[OUT]] : memref<1x64x56x56xf32>)
// CHECK-DAG: memref.dealloc %[[BIN]]
// CHECK-DAG: memref.dealloc %[[BF]]
// CHECK-DAG: memref.dealloc %[[BOUT]]
// SMALL-LABEL: func @three_by_three
// SMALL: dl.conv2d {{.*}} : memref<1x4x56x56x16xf32>, memref<8x4x3x3x16x8xf32>) outs({{.*}} : memref<1x8x56x56x8xf32>)
func.func @three_by_three(%in: memref<1x64x56x56xf32>, %f: memref<64x64x3x3xf32>, %out: memref<1x64x56x56xf32>) {
  dl.conv2d ins(%in, %f : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>) outs(%out : memref<1x64x56x56xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// conv1 of ResNet-50: 3 input channels are one block; stride and padding
// carry over. 48 output channels: the largest divisor not above 32 is 24.
// CHECK-LABEL: func @conv1
// CHECK: dl.conv2d {{.*}} : memref<2x1x224x224x3xf32>, memref<2x1x7x7x3x24xf32>) outs({{.*}} : memref<2x2x112x112x24xf32>)
// CHECK-SAME: {padding = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>}
// SMALL-LABEL: func @conv1
// SMALL: dl.conv2d {{.*}} : memref<2x1x224x224x3xf32>, memref<6x1x7x7x3x8xf32>) outs({{.*}} : memref<2x6x112x112x8xf32>)
func.func @conv1(%in: memref<2x3x224x224xf32>, %f: memref<48x3x7x7xf32>, %out: memref<2x48x112x112xf32>) {
  dl.conv2d ins(%in, %f : memref<2x3x224x224xf32>, memref<48x3x7x7xf32>) outs(%out : memref<2x48x112x112xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
  return
}

// -----

// Left alone: 37 output channels have no block between 2 and 32; dynamic
// sizes; a convolution already blocked.
// CHECK-LABEL: func @left_alone
// CHECK-NOT: dl.pack
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x9x9xf32>, memref<37x8x3x3xf32>)
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<?x8x9x9xf32>, memref<16x8x3x3xf32>)
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x9x9x8xf32>, memref<2x1x3x3x8x8xf32>)
// CHECK-NOT: dl.unpack
func.func @left_alone(%in: memref<1x8x9x9xf32>, %f: memref<37x8x3x3xf32>, %out: memref<1x37x7x7xf32>,
                      %din: memref<?x8x9x9xf32>, %df: memref<16x8x3x3xf32>, %dout: memref<?x16x7x7xf32>,
                      %bin: memref<1x1x9x9x8xf32>, %bf: memref<2x1x3x3x8x8xf32>, %bout: memref<1x2x7x7x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x9x9xf32>, memref<37x8x3x3xf32>) outs(%out : memref<1x37x7x7xf32>)
  dl.conv2d ins(%din, %df : memref<?x8x9x9xf32>, memref<16x8x3x3xf32>) outs(%dout : memref<?x16x7x7xf32>)
  dl.conv2d ins(%bin, %bf : memref<1x1x9x9x8xf32>, memref<2x1x3x3x8x8xf32>) outs(%bout : memref<1x2x7x7x8xf32>)
  return
}
