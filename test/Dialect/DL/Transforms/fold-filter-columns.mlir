// Which blocked convolutions dl-fold-filter-columns folds (one input-channel
// block whose channels times the 16-float vectors of the output-channel block
// are under 8 vector FMAs, or under 64 over an output row's columns, a filter
// wider than one column, a copy within the target's L2) and what it makes of
// them: a copy of the
// input with the S pixels of each output column's filter row as channels
// (zeros outside the image), the filter viewed as one column, unit column
// stride and dilation, no column padding.
// RUN: dl-opt %s --dl-set-target="cache-sizes=L1=32K,L2=512K,L3=32M" --dl-fold-filter-columns --split-input-file | FileCheck %s

// 2 channels times 16, 3x3, no padding: no zeros to write. Its 14 K
// multiply-adds do not pay for a parallel region: one thread copies.
// CHECK-LABEL: func.func @unpadded
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: memref<1x1x9x9x2xf32>, %[[F:[a-z0-9_]+]]: memref<1x1x3x3x2x16xf32>, %[[OUT:[a-z0-9_]+]]: memref<1x1x7x7x16xf32>)
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x1x9x7x6xf32>
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[H:.*]] = 0 to 9 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 7 {
// CHECK-NEXT: affine.for %[[S:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[CH:.*]] = 0 to 2 {
// CHECK-NEXT: %[[X:.*]] = affine.load %[[IN]][%[[N]], 0, %[[H]], %[[OW]] + %[[S]], %[[CH]]]
// CHECK-NEXT: affine.store %[[X]], %[[COPY]][%[[N]], 0, %[[H]], %[[OW]], %[[S]] * 2 + %[[CH]]]
// CHECK: } {dl.sequential}
// CHECK: %[[J:.*]] = memref.collapse_shape %[[F]] {{\[}}[0], [1], [2], [3, 4], [5]] : memref<1x1x3x3x2x16xf32> into memref<1x1x3x6x16xf32>
// CHECK: %[[F1:.*]] = memref.expand_shape %[[J]] {{\[}}[0], [1], [2], [3, 4], [5]] {{.*}} : memref<1x1x3x6x16xf32> into memref<1x1x3x1x6x16xf32>
// CHECK: dl.conv2d ins(%[[COPY]], %[[F1]] : memref<1x1x9x7x6xf32>, memref<1x1x3x1x6x16xf32>) outs(%[[OUT]] : memref<1x1x7x7x16xf32>){{$}}
// CHECK: memref.dealloc %[[COPY]]
func.func @unpadded(%in: memref<1x1x9x9x2xf32>, %f: memref<1x1x3x3x2x16xf32>, %out: memref<1x1x7x7x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x9x9x2xf32>, memref<1x1x3x3x2x16xf32>) outs(%out : memref<1x1x7x7x16xf32>)
  return
}

// -----

// Padding 2 on every side, column stride 2, row stride 2, 5x5, one channel:
// columns outside the image are written as zeros, the row padding and row
// stride stay on the convolution.
// CHECK-LABEL: func.func @padded_strided
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x1x11x6x5xf32>
// CHECK: affine.if #[[SET:.*]](%{{.*}}, %{{.*}}, %[[OW:.*]], %[[S:.*]], %{{.*}}) {
// CHECK-NEXT: affine.load %{{.*}}[%{{.*}}, 0, %{{.*}}, %[[OW]] * 2 + %[[S]] - 2, %{{.*}}]
// CHECK-NEXT: affine.store
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: affine.store %[[ZERO]], %[[COPY]]
// CHECK: dl.conv2d ins(%[[COPY]], %{{.*}} : memref<2x1x11x6x5xf32>, memref<1x1x5x1x5x15xf32>)
// CHECK-SAME: {padding = array<i64: 2, 0, 2, 0>, strides = array<i64: 2, 1>}
func.func @padded_strided(%in: memref<2x1x11x11x1xf32>, %f: memref<1x1x5x5x1x15xf32>, %out: memref<2x1x6x6x15xf32>) {
  dl.conv2d ins(%in, %f : memref<2x1x11x11x1xf32>, memref<1x1x5x5x1x15xf32>) outs(%out : memref<2x1x6x6x15xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>}
  return
}

// -----

// Column dilation 2: the copy reads every other column of the window.
// CHECK-LABEL: func.func @dilated
// CHECK: affine.load %{{.*}}[%{{.*}}, 0, %{{.*}}, %[[OW:.*]] + %[[S:.*]] * 2, %{{.*}}]
// CHECK: dl.conv2d {{.*}} : memref<1x1x8x4x9xf32>, memref<1x1x3x1x9x16xf32>)
// CHECK-SAME: dilations = array<i64: 2, 1>
func.func @dilated(%in: memref<1x1x8x8x3xf32>, %f: memref<1x1x3x3x3x16xf32>, %out: memref<1x1x4x4x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x8x8x3xf32>, memref<1x1x3x3x3x16xf32>) outs(%out : memref<1x1x4x4x16xf32>)
      {dilations = array<i64: 2, 2>}
  return
}

// -----

// Left alone: 3 channels times 64 (12 vector FMAs per tap and pixel, 84
// over the 7 output columns), 4 times 17 (2 vectors: 8 FMAs, 64 over 8
// columns), two input-channel blocks, a 1-column filter, the plain layout,
// dynamic sizes, a schedule.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: memref.alloc
// CHECK-COUNT-7: dl.conv2d ins(%arg
// CHECK-NOT: memref.alloc
func.func @untouched(%in: memref<1x1x9x9x3xf32>, %f: memref<1x1x3x3x3x64xf32>, %out: memref<1x1x7x7x64xf32>,
                     %in2: memref<1x2x9x9x2xf32>, %f2: memref<1x2x3x3x2x16xf32>, %out2: memref<1x1x7x7x16xf32>,
                     %f31: memref<1x1x3x1x2x16xf32>, %out31: memref<1x1x7x9x16xf32>, %in1: memref<1x1x9x9x2xf32>,
                     %pin: memref<1x2x9x9xf32>, %pf: memref<16x2x3x3xf32>, %pout: memref<1x16x7x7xf32>,
                     %din: memref<?x1x9x9x2xf32>, %dout: memref<?x1x7x7x16xf32>, %f1: memref<1x1x3x3x2x16xf32>,
                     %in4: memref<1x1x9x10x4xf32>, %f4: memref<1x1x3x3x4x17xf32>, %out4: memref<1x1x7x8x17xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x9x9x3xf32>, memref<1x1x3x3x3x64xf32>) outs(%out : memref<1x1x7x7x64xf32>)
  dl.conv2d ins(%in4, %f4 : memref<1x1x9x10x4xf32>, memref<1x1x3x3x4x17xf32>) outs(%out4 : memref<1x1x7x8x17xf32>)
  dl.conv2d ins(%in2, %f2 : memref<1x2x9x9x2xf32>, memref<1x2x3x3x2x16xf32>) outs(%out2 : memref<1x1x7x7x16xf32>)
  dl.conv2d ins(%in1, %f31 : memref<1x1x9x9x2xf32>, memref<1x1x3x1x2x16xf32>) outs(%out31 : memref<1x1x7x9x16xf32>)
  dl.conv2d ins(%pin, %pf : memref<1x2x9x9xf32>, memref<16x2x3x3xf32>) outs(%pout : memref<1x16x7x7xf32>)
  dl.conv2d ins(%din, %f1 : memref<?x1x9x9x2xf32>, memref<1x1x3x3x2x16xf32>) outs(%dout : memref<?x1x7x7x16xf32>)
  dl.conv2d ins(%in1, %f1 : memref<1x1x9x9x2xf32>, memref<1x1x3x3x2x16xf32>) outs(%out2 : memref<1x1x7x7x16xf32>)
      {schedule = #dl.schedule<[n, kb, oh]>}
  return
}

// -----

// 3 channels times 16 on a 100x100 image: 4 M multiply-adds pay for a
// parallel region, which dl-decide-parallelism will give the convolution:
// the copy's rows are left to dl-parallelize-outer-loops too.
// CHECK-LABEL: func.func @large
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x1x100x98x9xf32>
// CHECK-NOT: dl.sequential
// CHECK: dl.conv2d
func.func @large(%in: memref<1x1x100x100x3xf32>, %f: memref<1x1x3x3x3x16xf32>, %out: memref<1x1x98x98x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x100x100x3xf32>, memref<1x1x3x3x3x16xf32>) outs(%out : memref<1x1x98x98x16xf32>)
  return
}

// -----

// On a 200x200 image the copy (1.4 MB) would not stay in the 512 KiB L2 of
// the target: not folded (one Zen 5 core, folded and not: 0.211 and 0.198
// ms; at 2 threads 0.118 and 0.104).
// CHECK-LABEL: func.func @copy_beyond_l2
// CHECK-NOT: memref.alloc
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x200x200x3xf32>, memref<1x1x3x3x3x16xf32>)
func.func @copy_beyond_l2(%in: memref<1x1x200x200x3xf32>, %f: memref<1x1x3x3x3x16xf32>, %out: memref<1x1x198x198x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x200x200x3xf32>, memref<1x1x3x3x3x16xf32>) outs(%out : memref<1x1x198x198x16xf32>)
  return
}

// -----

// 4 channels times 17 (8 vector FMAs per pixel) over 7 output columns: 56
// FMAs a batch element, folded (4 x 3 = 12 channels).
// CHECK-LABEL: func.func @short_rows
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x1x9x7x12xf32>
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x9x7x12xf32>, memref<1x1x3x1x12x17xf32>)
func.func @short_rows(%in: memref<1x1x9x9x4xf32>, %f: memref<1x1x3x3x4x17xf32>, %out: memref<1x1x7x7x17xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x9x9x4xf32>, memref<1x1x3x3x4x17xf32>) outs(%out : memref<1x1x7x7x17xf32>)
  return
}
