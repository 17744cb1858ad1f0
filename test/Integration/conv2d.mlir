// dl-compile --run on dl.conv2d: 1x1, 3x3 and 7x7 filters, stride 2,
// padding > 0 (symmetric and not), dilation, channel counts that are not
// multiples of 16, the blocked layout, and dynamic sizes.
// RUN: dl-compile %s --run | FileCheck %s

// CHECK: pointwise: max_abs_err={{.*}} ok
func.func @pointwise(%in: memref<2x5x9x9xf32>, %f: memref<7x5x1x1xf32>, %out: memref<2x7x9x9xf32>) {
  dl.conv2d ins(%in, %f : memref<2x5x9x9xf32>, memref<7x5x1x1xf32>) outs(%out : memref<2x7x9x9xf32>)
  return
}

// CHECK: pointwise_stride2: max_abs_err={{.*}} ok
func.func @pointwise_stride2(%in: memref<1x17x13x13xf32>, %f: memref<9x17x1x1xf32>, %out: memref<1x9x7x7xf32>) {
  dl.conv2d ins(%in, %f : memref<1x17x13x13xf32>, memref<9x17x1x1xf32>) outs(%out : memref<1x9x7x7xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// CHECK: three_by_three_pad1: max_abs_err={{.*}} ok
func.func @three_by_three_pad1(%in: memref<1x19x11x11xf32>, %f: memref<13x19x3x3xf32>, %out: memref<1x13x11x11xf32>) {
  dl.conv2d ins(%in, %f : memref<1x19x11x11xf32>, memref<13x19x3x3xf32>) outs(%out : memref<1x13x11x11xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// conv1 of ResNet-50 at a small size: 7x7, stride 2, padding 3.
// CHECK: seven_by_seven_stride2_pad3: max_abs_err={{.*}} ok
func.func @seven_by_seven_stride2_pad3(%in: memref<1x3x23x23xf32>, %f: memref<8x3x7x7xf32>, %out: memref<1x8x12x12xf32>) {
  dl.conv2d ins(%in, %f : memref<1x3x23x23xf32>, memref<8x3x7x7xf32>) outs(%out : memref<1x8x12x12xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
  return
}

// CHECK: asymmetric_dilated: max_abs_err={{.*}} ok
func.func @asymmetric_dilated(%in: memref<1x4x10x12xf32>, %f: memref<6x4x3x2xf32>, %out: memref<1x6x4x12xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x10x12xf32>, memref<6x4x3x2xf32>) outs(%out : memref<1x6x4x12xf32>)
      {strides = array<i64: 2, 1>, padding = array<i64: 0, 1, 1, 1>, dilations = array<i64: 2, 2>}
  return
}

// CHECK: blocked: max_abs_err={{.*}} ok
func.func @blocked(%in: memref<2x2x9x9x16xf32>, %f: memref<3x2x3x3x16x16xf32>, %out: memref<2x3x5x5x16xf32>) {
  dl.conv2d ins(%in, %f : memref<2x2x9x9x16xf32>, memref<3x2x3x3x16x16xf32>) outs(%out : memref<2x3x5x5x16xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// Plain in, packed to blocked, convolved, unpacked: the blocked path end to end.
// CHECK: packed_pipeline: max_abs_err={{.*}} ok
func.func @packed_pipeline(%in: memref<1x32x7x7xf32>, %f: memref<16x32x3x3xf32>,
                           %inb: memref<1x4x7x7x8xf32>, %fb: memref<2x4x3x3x8x8xf32>,
                           %outb: memref<1x2x7x7x8xf32>, %out: memref<1x16x7x7xf32>) {
  dl.pack ins(%in : memref<1x32x7x7xf32>) outs(%inb : memref<1x4x7x7x8xf32>)
  dl.pack ins(%f : memref<16x32x3x3xf32>) outs(%fb : memref<2x4x3x3x8x8xf32>)
  dl.conv2d ins(%inb, %fb : memref<1x4x7x7x8xf32>, memref<2x4x3x3x8x8xf32>) outs(%outb : memref<1x2x7x7x8xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.unpack ins(%outb : memref<1x2x7x7x8xf32>) outs(%out : memref<1x16x7x7xf32>)
  return
}

// CHECK: dynamic: max_abs_err={{.*}} ok
func.func @dynamic(%in: memref<?x3x?x?xf32> {dl.run_shape = array<i64: 2, 3, 10, 9>},
                   %f: memref<5x3x3x3xf32>,
                   %out: memref<?x5x?x?xf32> {dl.run_shape = array<i64: 2, 5, 5, 5>}) {
  dl.conv2d ins(%in, %f : memref<?x3x?x?xf32>, memref<5x3x3x3xf32>) outs(%out : memref<?x5x?x?xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}
