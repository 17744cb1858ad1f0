// dl-fold-layout-transposes: transposes into buffers only dl.packs read,
// and out of buffers one dl.unpack writes, become memref.transpose views
// read or written by the layout copies; transposes whose operands something
// else may touch in between, or whose buffers have other users, stay.
// RUN: dl-opt %s --dl-fold-layout-transposes --split-input-file | FileCheck %s
// RUN: dl-opt %s --dl-fold-layout-transposes --dl-keep-constant-packs --split-input-file | FileCheck %s --check-prefix=CONSTANT

// An NHWC convolution in the blocked layout: the input and filter packs read
// views of the NHWC / FHWC arguments, the unpack writes a view of the NHWC
// result; no transpose and no NCHW buffer is left.
// CHECK-LABEL: func.func @nhwc
// CHECK-SAME: (%[[X:.*]]: memref<1x8x8x32xf32>, %[[W:.*]]: memref<32x3x3x32xf32> {dl.constant}, %[[Y:.*]]: memref<1x8x8x32xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: %[[XV:.*]] = memref.transpose %[[X]] (d0, d1, d2, d3) -> (d0, d3, d1, d2) : memref<1x8x8x32xf32> to memref<1x32x8x8xf32, strided<[2048, 1, 256, 32]>>
// CHECK: %[[WV:.*]] = memref.transpose %[[W]] (d0, d1, d2, d3) -> (d0, d3, d1, d2) : memref<32x3x3x32xf32> to memref<32x32x3x3xf32, strided<[288, 1, 96, 32]>>
// CHECK: dl.pack ins(%[[XV]] : memref<1x32x8x8xf32, strided<[2048, 1, 256, 32]>>)
// CHECK: dl.pack ins(%[[WV]] : memref<32x32x3x3xf32, strided<[288, 1, 96, 32]>>)
// CHECK: dl.conv2d
// CHECK: %[[YV:.*]] = memref.transpose %[[Y]] (d0, d1, d2, d3) -> (d0, d3, d1, d2) : memref<1x8x8x32xf32> to memref<1x32x8x8xf32, strided<[2048, 1, 256, 32]>>
// CHECK-NEXT: dl.unpack ins(%{{.*}} : memref<1x1x8x8x32xf32>) outs(%[[YV]] : memref<1x32x8x8xf32, strided<[2048, 1, 256, 32]>>)
// CHECK-NOT: linalg.transpose
// CHECK-NOT: memref<1x32x8x8xf32>)
// The filter's view is still a constant argument: packed once.
// CONSTANT-LABEL: func.func @nhwc
// CONSTANT: memref.get_global @__dl_packed_nhwc_0
// CONSTANT: scf.if
// CONSTANT-NEXT: dl.pack ins(%{{.*}} : memref<32x32x3x3xf32, strided<[288, 1, 96, 32]>>)
func.func @nhwc(%x: memref<1x8x8x32xf32>, %w: memref<32x3x3x32xf32> {dl.constant}, %y: memref<1x8x8x32xf32>) {
  %t = memref.alloc() : memref<1x32x8x8xf32>
  linalg.transpose ins(%x : memref<1x8x8x32xf32>) outs(%t : memref<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
  %tw = memref.alloc() : memref<32x32x3x3xf32>
  linalg.transpose ins(%w : memref<32x3x3x32xf32>) outs(%tw : memref<32x32x3x3xf32>) permutation = [0, 3, 1, 2]
  %xb = memref.alloc() : memref<1x1x8x8x32xf32>
  dl.pack ins(%t : memref<1x32x8x8xf32>) outs(%xb : memref<1x1x8x8x32xf32>)
  %wb = memref.alloc() : memref<1x1x3x3x32x32xf32>
  dl.pack ins(%tw : memref<32x32x3x3xf32>) outs(%wb : memref<1x1x3x3x32x32xf32>)
  %yb = memref.alloc() : memref<1x1x8x8x32xf32>
  dl.conv2d ins(%xb, %wb : memref<1x1x8x8x32xf32>, memref<1x1x3x3x32x32xf32>) outs(%yb : memref<1x1x8x8x32xf32>) {padding = array<i64: 1, 1, 1, 1>}
  memref.dealloc %wb : memref<1x1x3x3x32x32xf32>
  memref.dealloc %xb : memref<1x1x8x8x32xf32>
  %ty = memref.alloc() : memref<1x32x8x8xf32>
  dl.unpack ins(%yb : memref<1x1x8x8x32xf32>) outs(%ty : memref<1x32x8x8xf32>)
  memref.dealloc %yb : memref<1x1x8x8x32xf32>
  linalg.transpose ins(%ty : memref<1x32x8x8xf32>) outs(%y : memref<1x8x8x32xf32>) permutation = [0, 2, 3, 1]
  memref.dealloc %t : memref<1x32x8x8xf32>
  memref.dealloc %tw : memref<32x32x3x3xf32>
  memref.dealloc %ty : memref<1x32x8x8xf32>
  return
}

// -----

// The transposed source is written (by a relu into an argument, which may
// alias it) before the pack: the transpose stays.
// CHECK-LABEL: func.func @source_written
// CHECK: linalg.transpose
// CHECK: dl.relu
// CHECK: dl.pack ins(%{{.*}} : memref<1x32x8x8xf32>)
func.func @source_written(%x: memref<1x8x8x32xf32>, %z: memref<1x8x8x32xf32>, %xb: memref<1x1x8x8x32xf32>) {
  %t = memref.alloc() : memref<1x32x8x8xf32>
  linalg.transpose ins(%x : memref<1x8x8x32xf32>) outs(%t : memref<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
  dl.relu ins(%z : memref<1x8x8x32xf32>) outs(%z : memref<1x8x8x32xf32>)
  dl.pack ins(%t : memref<1x32x8x8xf32>) outs(%xb : memref<1x1x8x8x32xf32>)
  memref.dealloc %t : memref<1x32x8x8xf32>
  return
}

// -----

// Something other than a pack reads the transposed buffer: it stays.
// CHECK-LABEL: func.func @other_reader
// CHECK: linalg.transpose
// CHECK: dl.pack ins(%{{.*}} : memref<1x32x8x8xf32>)
func.func @other_reader(%x: memref<1x8x8x32xf32>, %xb: memref<1x1x8x8x32xf32>, %r: memref<1x32x8x8xf32>) {
  %t = memref.alloc() : memref<1x32x8x8xf32>
  linalg.transpose ins(%x : memref<1x8x8x32xf32>) outs(%t : memref<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
  dl.pack ins(%t : memref<1x32x8x8xf32>) outs(%xb : memref<1x1x8x8x32xf32>)
  dl.relu ins(%t : memref<1x32x8x8xf32>) outs(%r : memref<1x32x8x8xf32>)
  memref.dealloc %t : memref<1x32x8x8xf32>
  return
}

// -----

// The destination is read (by a relu of another argument, which may alias
// it) between the unpack and the transpose back: it stays.
// CHECK-LABEL: func.func @dest_read
// CHECK: dl.unpack ins(%{{.*}} : memref<1x1x8x8x32xf32>) outs(%{{.*}} : memref<1x32x8x8xf32>)
// CHECK: dl.relu
// CHECK: linalg.transpose
func.func @dest_read(%yb: memref<1x1x8x8x32xf32>, %y: memref<1x8x8x32xf32>, %z: memref<1x8x8x32xf32>, %r: memref<1x8x8x32xf32>) {
  %ty = memref.alloc() : memref<1x32x8x8xf32>
  dl.unpack ins(%yb : memref<1x1x8x8x32xf32>) outs(%ty : memref<1x32x8x8xf32>)
  dl.relu ins(%z : memref<1x8x8x32xf32>) outs(%r : memref<1x8x8x32xf32>)
  linalg.transpose ins(%ty : memref<1x32x8x8xf32>) outs(%y : memref<1x8x8x32xf32>) permutation = [0, 2, 3, 1]
  memref.dealloc %ty : memref<1x32x8x8xf32>
  return
}
