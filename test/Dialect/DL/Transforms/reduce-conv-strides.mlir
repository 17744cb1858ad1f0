// Which convolutions dl-reduce-conv-strides gives a dense copy of the pixels
// they read (blocked, 1x1, unpadded, strided), the copy's sizes and indices,
// and which it leaves (unit stride, padding, a 3x3 filter, plain layout).
// RUN: dl-opt %s --dl-reduce-conv-strides --split-input-file | FileCheck %s

// Strides (2, 3): a 1x2x3x2x4 copy of input[n][cb][oh * 2][ow * 3][c],
// freed after the convolution, which runs at unit stride.
// CHECK-LABEL: func @strided
// CHECK-SAME: (%[[IN:.*]]: memref<1x2x5x6x4xf32>, %[[F:.*]]: memref<1x2x1x1x4x4xf32>, %[[OUT:.*]]: memref<1x1x3x2x4xf32>)
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x2x3x2x4xf32>
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT: %[[X:.*]] = affine.load %[[IN]][%[[N]], %[[CB]], %[[OH]] * 2, %[[OW]] * 3, %[[C]]] : memref<1x2x5x6x4xf32>
// CHECK-NEXT: affine.store %[[X]], %[[COPY]][%[[N]], %[[CB]], %[[OH]], %[[OW]], %[[C]]] : memref<1x2x3x2x4xf32>
// CHECK: dl.conv2d ins(%[[COPY]], %[[F]] : memref<1x2x3x2x4xf32>, memref<1x2x1x1x4x4xf32>) outs(%[[OUT]] : memref<1x1x3x2x4xf32>)
// CHECK-NOT: strides
// CHECK-NEXT: memref.dealloc %[[COPY]] : memref<1x2x3x2x4xf32>
func.func @strided(%in: memref<1x2x5x6x4xf32>, %f: memref<1x2x1x1x4x4xf32>, %out: memref<1x1x3x2x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x5x6x4xf32>, memref<1x2x1x1x4x4xf32>) outs(%out : memref<1x1x3x2x4xf32>)
      {strides = array<i64: 2, 3>}
  return
}

// -----

// Dynamic sizes: N and W (stride 1) from the input, the rows
// (H - 1) floordiv 2 + 1, so the copy reads in bounds whatever the output's
// run-time sizes (the lowering checks those against the copy's).
// CHECK: #[[ROWS:.*]] = affine_map<(d0) -> ((d0 - 1) floordiv 2 + 1)>
// CHECK-LABEL: func @dynamic
// CHECK-SAME: (%[[IN:.*]]: memref<?x1x?x?x4xf32>,
// CHECK: %[[N:.*]] = memref.dim %[[IN]], %c0
// CHECK: %[[H:.*]] = memref.dim %[[IN]], %c2
// CHECK: %[[OH:.*]] = affine.apply #[[ROWS]](%[[H]])
// CHECK: %[[W:.*]] = memref.dim %[[IN]], %c3
// CHECK: %[[COPY:.*]] = memref.alloc(%[[N]], %[[OH]], %[[W]]) {alignment = 64 : i64} : memref<?x1x?x?x4xf32>
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}(%[[N]])
// CHECK: affine.for %{{.*}} = 0 to 1
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}(%[[OH]])
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}(%[[W]])
// CHECK: affine.load %[[IN]][%{{.*}}, %{{.*}}, %{{.*}} * 2, %{{.*}}, %{{.*}}]
// CHECK: dl.conv2d ins(%[[COPY]],
func.func @dynamic(%in: memref<?x1x?x?x4xf32>, %f: memref<1x1x1x1x4x4xf32>, %out: memref<?x1x?x?x4xf32>) {
  dl.conv2d ins(%in, %f : memref<?x1x?x?x4xf32>, memref<1x1x1x1x4x4xf32>) outs(%out : memref<?x1x?x?x4xf32>)
      {strides = array<i64: 2, 1>}
  return
}

// -----

// Left as they are.
// CHECK-LABEL: func @left
// CHECK-NOT: memref.alloc
// CHECK-NOT: affine.for
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x1x8x8x4xf32>)
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x1x5x5x4xf32>) {padding = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 2>}
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x1x3x3x4xf32>) {strides = array<i64: 2, 2>}
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x4x4x4xf32>) {strides = array<i64: 2, 2>}
// CHECK-NOT: memref.dealloc
func.func @left(%in: memref<1x1x8x8x4xf32>, %f: memref<1x1x1x1x4x4xf32>, %f3: memref<1x1x3x3x4x4xf32>,
                %out3: memref<1x1x3x3x4xf32>, %out5: memref<1x1x5x5x4xf32>, %out8: memref<1x1x8x8x4xf32>,
                %pin: memref<1x4x8x8xf32>, %pf: memref<4x4x1x1xf32>, %pout: memref<1x4x4x4xf32>) {
  // Unit stride.
  dl.conv2d ins(%in, %f : memref<1x1x8x8x4xf32>, memref<1x1x1x1x4x4xf32>) outs(%out8 : memref<1x1x8x8x4xf32>)
  // Padded.
  dl.conv2d ins(%in, %f : memref<1x1x8x8x4xf32>, memref<1x1x1x1x4x4xf32>) outs(%out5 : memref<1x1x5x5x4xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 0, 0>}
  // A 3x3 filter.
  dl.conv2d ins(%in, %f3 : memref<1x1x8x8x4xf32>, memref<1x1x3x3x4x4xf32>) outs(%out3 : memref<1x1x3x3x4xf32>)
      {strides = array<i64: 2, 2>}
  // Plain layout.
  dl.conv2d ins(%pin, %pf : memref<1x4x8x8xf32>, memref<4x4x1x1xf32>) outs(%pout : memref<1x4x4x4xf32>)
      {strides = array<i64: 2, 2>}
  return
}
