// Which convolutions dl-reduce-conv-strides gives a dense copy of the pixels
// they read (blocked, 1x1, unpadded, strided, where the re-reads of lines
// shared with skipped pixels outweigh the copy's traffic), the copy's sizes
// and indices, and which it leaves (unit stride, padding, a 3x3 filter, plain
// layout, pixels filling whole lines, too few re-reads). A plain
// pixel_vectors convolution is copied where its rows are shorter than the
// strided vectors of its output columns (its lowering would copy windows).
// RUN: dl-opt %s --dl-reduce-conv-strides --split-input-file | FileCheck %s
// With 16-byte lines the 4-float pixels fill whole lines: nothing is copied.
// RUN: dl-opt %s --dl-reduce-conv-strides=cache-line-bytes=16 --split-input-file | FileCheck %s --check-prefix=LINE16
// RUN: not dl-opt %s --dl-reduce-conv-strides=cache-line-bytes=0 2>&1 | FileCheck %s --check-prefix=INVALID

// LINE16-NOT: memref.alloc
// INVALID: error: dl-reduce-conv-strides: cache-line-bytes must be > 0

// Strides (2, 3), 16-byte pixels: each re-read fetches 48 bytes per pixel
// (a 64-byte line holds 4 pixels, of which it reads 1 or 2), so 4
// output-channel blocks waste 4 * 32 > 48 + 16, the copy's traffic. A
// 1x2x3x2x4 copy of input[n][cb][oh * 2][ow * 3][c], freed after the
// convolution, which runs at unit stride.
// CHECK-LABEL: func @strided
// CHECK-SAME: (%[[IN:.*]]: memref<1x2x5x6x4xf32>, %[[F:.*]]: memref<4x2x1x1x4x4xf32>, %[[OUT:.*]]: memref<1x4x3x2x4xf32>)
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x2x3x2x4xf32>
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT: %[[X:.*]] = affine.load %[[IN]][%[[N]], %[[CB]], %[[OH]] * 2, %[[OW]] * 3, %[[C]]] : memref<1x2x5x6x4xf32>
// CHECK-NEXT: affine.store %[[X]], %[[COPY]][%[[N]], %[[CB]], %[[OH]], %[[OW]], %[[C]]] : memref<1x2x3x2x4xf32>
// CHECK: dl.conv2d ins(%[[COPY]], %[[F]] : memref<1x2x3x2x4xf32>, memref<4x2x1x1x4x4xf32>) outs(%[[OUT]] : memref<1x4x3x2x4xf32>)
// CHECK-NOT: strides
// CHECK-NEXT: memref.dealloc %[[COPY]] : memref<1x2x3x2x4xf32>
func.func @strided(%in: memref<1x2x5x6x4xf32>, %f: memref<4x2x1x1x4x4xf32>, %out: memref<1x4x3x2x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x5x6x4xf32>, memref<4x2x1x1x4x4xf32>) outs(%out : memref<1x4x3x2x4xf32>)
      {strides = array<i64: 2, 3>}
  return
}

// -----

// Dynamic sizes: N from the input, the rows and columns
// (H - 1) floordiv 2 + 1, so the copy reads in bounds whatever the output's
// run-time sizes (the lowering checks those against the copy's). A dynamic
// count of output-channel blocks is taken as many re-reads.
// CHECK: #[[ROWS:.*]] = affine_map<(d0) -> ((d0 - 1) floordiv 2 + 1)>
// CHECK-LABEL: func @dynamic
// CHECK-SAME: (%[[IN:.*]]: memref<?x1x?x?x4xf32>,
// CHECK: %[[N:.*]] = memref.dim %[[IN]], %c0
// CHECK: %[[H:.*]] = memref.dim %[[IN]], %c2
// CHECK: %[[OH:.*]] = affine.apply #[[ROWS]](%[[H]])
// CHECK: %[[W:.*]] = memref.dim %[[IN]], %c3
// CHECK: %[[OW:.*]] = affine.apply #[[ROWS]](%[[W]])
// CHECK: %[[COPY:.*]] = memref.alloc(%[[N]], %[[OH]], %[[OW]]) {alignment = 64 : i64} : memref<?x1x?x?x4xf32>
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}(%[[N]])
// CHECK: affine.for %{{.*}} = 0 to 1
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}(%[[OH]])
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}(%[[OW]])
// CHECK: affine.load %[[IN]][%{{.*}}, %{{.*}}, %{{.*}} * 2, %{{.*}} * 2, %{{.*}}]
// CHECK: dl.conv2d ins(%[[COPY]],
func.func @dynamic(%in: memref<?x1x?x?x4xf32>, %f: memref<?x1x1x1x4x4xf32>, %out: memref<?x?x?x?x4xf32>) {
  dl.conv2d ins(%in, %f : memref<?x1x?x?x4xf32>, memref<?x1x1x1x4x4xf32>) outs(%out : memref<?x?x?x?x4xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// -----

// Left as they are.
// CHECK-LABEL: func @left
// CHECK-NOT: memref.alloc
// CHECK-NOT: affine.for
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x4x8x8x4xf32>)
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x4x5x5x4xf32>) {padding = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 2>}
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x4x3x3x4xf32>) {strides = array<i64: 2, 2>}
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x4x4x4xf32>) {strides = array<i64: 2, 2>}
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x4x4x8x4xf32>) {strides = array<i64: 2, 1>}
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x4x4x4x16xf32>) {strides = array<i64: 2, 2>}
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x3x4x4x4xf32>) {strides = array<i64: 2, 2>}
// CHECK-NOT: memref.dealloc
func.func @left(%in: memref<1x1x8x8x4xf32>, %f: memref<4x1x1x1x4x4xf32>, %f3: memref<4x1x3x3x4x4xf32>,
                %out3: memref<1x4x3x3x4xf32>, %out5: memref<1x4x5x5x4xf32>, %out8: memref<1x4x8x8x4xf32>,
                %pin: memref<1x4x8x8xf32>, %pf: memref<4x4x1x1xf32>, %pout: memref<1x4x4x4xf32>,
                %rows: memref<1x4x4x8x4xf32>,
                %win: memref<1x1x8x8x16xf32>, %wf: memref<4x1x1x1x16x16xf32>, %wout: memref<1x4x4x4x16xf32>,
                %f3k: memref<3x1x1x1x4x4xf32>, %out3k: memref<1x3x4x4x4xf32>) {
  // Unit stride.
  dl.conv2d ins(%in, %f : memref<1x1x8x8x4xf32>, memref<4x1x1x1x4x4xf32>) outs(%out8 : memref<1x4x8x8x4xf32>)
  // Padded.
  dl.conv2d ins(%in, %f : memref<1x1x8x8x4xf32>, memref<4x1x1x1x4x4xf32>) outs(%out5 : memref<1x4x5x5x4xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 0, 0>}
  // A 3x3 filter.
  dl.conv2d ins(%in, %f3 : memref<1x1x8x8x4xf32>, memref<4x1x3x3x4x4xf32>) outs(%out3 : memref<1x4x3x3x4xf32>)
      {strides = array<i64: 2, 2>}
  // Plain layout.
  dl.conv2d ins(%pin, %pf : memref<1x4x8x8xf32>, memref<4x4x1x1xf32>) outs(%pout : memref<1x4x4x4xf32>)
      {strides = array<i64: 2, 2>}
  // Strided rows only: the skipped rows' lines are never fetched.
  dl.conv2d ins(%in, %f : memref<1x1x8x8x4xf32>, memref<4x1x1x1x4x4xf32>) outs(%rows : memref<1x4x4x8x4xf32>)
      {strides = array<i64: 2, 1>}
  // 16-float pixels fill 64-byte lines: the skipped pixels' lines are never
  // fetched.
  dl.conv2d ins(%win, %wf : memref<1x1x8x8x16xf32>, memref<4x1x1x1x16x16xf32>) outs(%wout : memref<1x4x4x4x16xf32>)
      {strides = array<i64: 2, 2>}
  // 3 output-channel blocks: they waste 3 * (32 - 16) bytes a pixel, less
  // than the copy's 32 + 16.
  dl.conv2d ins(%in, %f3k : memref<1x1x8x8x4xf32>, memref<3x1x1x1x4x4xf32>) outs(%out3k : memref<1x3x4x4x4xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// -----

// Plain pixel_vectors: a 10-column output row at stride 2 reads up to column
// (16 - 1) * 2 = 30 of a 19-column row, so the lowering would copy a window
// per row tile: the 214 x 10 x 10 pixels it reads are copied instead, by one
// thread (the convolution's work does not pay for a parallel region), and
// the convolution runs at unit stride (its rows then join). With 64 columns
// (32 outputs: up to column 62) its vectors stay in the rows: left.
// CHECK-LABEL: func @pixel_vectors
// CHECK-SAME: (%[[IN:.*]]: memref<1x214x19x19xf32>,
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x214x10x10xf32>
// CHECK: affine.load %[[IN]][%{{.*}}, %{{.*}}, %{{.*}} * 2, %{{.*}} * 2]
// CHECK: } {dl.sequential}
// CHECK-NEXT: dl.conv2d ins(%[[COPY]], %{{.*}} : memref<1x214x10x10xf32>, memref<3x214x1x1xf32>) outs(%{{.*}} : memref<1x3x10x10xf32>) {pixel_vectors}
// CHECK-NEXT: memref.dealloc %[[COPY]]
// CHECK-NEXT: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x3x32x32xf32>) {pixel_vectors, strides = array<i64: 2, 2>}
// CHECK-NEXT: return
// The line size does not matter to it.
// LINE16-LABEL: func @pixel_vectors
// LINE16: memref.alloc() {alignment = 64 : i64} : memref<1x214x10x10xf32>
func.func @pixel_vectors(%in: memref<1x214x19x19xf32>, %f: memref<3x214x1x1xf32>, %out: memref<1x3x10x10xf32>,
                         %win: memref<1x214x64x64xf32>, %wout: memref<1x3x32x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x214x19x19xf32>, memref<3x214x1x1xf32>) outs(%out : memref<1x3x10x10xf32>)
      {pixel_vectors, strides = array<i64: 2, 2>}
  dl.conv2d ins(%win, %f : memref<1x214x64x64xf32>, memref<3x214x1x1xf32>) outs(%wout : memref<1x3x32x32xf32>)
      {pixel_vectors, strides = array<i64: 2, 2>}
  return
}
