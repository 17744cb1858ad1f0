// dl-compile --run on dl.concat: a DenseNet-style chain (convolutions
// reading the concatenation of the block's input and earlier outputs),
// several inputs along the last dimension, dynamic sizes along the axis,
// and the tensor form; checked against the reference lowering.
// RUN: dl-compile %s --run | FileCheck %s
// RUN: dl-compile %s --run --threads 1 | FileCheck %s

// CHECK: dense: max_abs_err={{.*}} ok
func.func @dense(%x: memref<1x64x14x14xf32>, %w1: memref<32x64x3x3xf32>,
                 %w2: memref<32x96x3x3xf32>, %w3: memref<16x128x1x1xf32>,
                 %y: memref<1x16x14x14xf32>) {
  %a = memref.alloc() : memref<1x32x14x14xf32>
  dl.conv2d ins(%x, %w1 : memref<1x64x14x14xf32>, memref<32x64x3x3xf32>)
            outs(%a : memref<1x32x14x14xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.relu ins(%a : memref<1x32x14x14xf32>) outs(%a : memref<1x32x14x14xf32>)
  %c1 = memref.alloc() : memref<1x96x14x14xf32>
  dl.concat ins(%x, %a : memref<1x64x14x14xf32>, memref<1x32x14x14xf32>)
            outs(%c1 : memref<1x96x14x14xf32>)
  %b = memref.alloc() : memref<1x32x14x14xf32>
  dl.conv2d ins(%c1, %w2 : memref<1x96x14x14xf32>, memref<32x96x3x3xf32>)
            outs(%b : memref<1x32x14x14xf32>) {padding = array<i64: 1, 1, 1, 1>}
  %c2 = memref.alloc() : memref<1x128x14x14xf32>
  dl.concat ins(%c1, %b : memref<1x96x14x14xf32>, memref<1x32x14x14xf32>)
            outs(%c2 : memref<1x128x14x14xf32>)
  dl.conv2d ins(%c2, %w3 : memref<1x128x14x14xf32>, memref<16x128x1x1xf32>)
            outs(%y : memref<1x16x14x14xf32>)
  memref.dealloc %a : memref<1x32x14x14xf32>
  memref.dealloc %b : memref<1x32x14x14xf32>
  memref.dealloc %c1 : memref<1x96x14x14xf32>
  memref.dealloc %c2 : memref<1x128x14x14xf32>
  return
}

// CHECK: columns: max_abs_err={{.*}} ok
func.func @columns(%a: memref<3x5xf32>, %b: memref<3x2xf32>, %d: memref<3x1xf32>,
                   %c: memref<3x8xf32>) {
  dl.concat ins(%a, %b, %d : memref<3x5xf32>, memref<3x2xf32>, memref<3x1xf32>)
            outs(%c : memref<3x8xf32>)
  return
}

// CHECK: dynamic: max_abs_err={{.*}} ok
func.func @dynamic(%a: memref<2x?x5x7xf32> {dl.run_shape = array<i64: 2, 3, 5, 7>},
                   %b: memref<2x?x5x7xf32> {dl.run_shape = array<i64: 2, 6, 5, 7>},
                   %c: memref<2x?x5x7xf32> {dl.run_shape = array<i64: 2, 9, 5, 7>}) {
  dl.concat ins(%a, %b : memref<2x?x5x7xf32>, memref<2x?x5x7xf32>)
            outs(%c : memref<2x?x5x7xf32>)
  return
}

// CHECK: tensors: max_abs_err={{.*}} ok
func.func @tensors(%a: tensor<4x6xf32>, %b: tensor<2x6xf32>) -> tensor<6x6xf32> {
  %e = tensor.empty() : tensor<6x6xf32>
  %r = dl.concat ins(%a, %b : tensor<4x6xf32>, tensor<2x6xf32>)
                 outs(%e : tensor<6x6xf32>) {axis = 0} -> tensor<6x6xf32>
  return %r : tensor<6x6xf32>
}
