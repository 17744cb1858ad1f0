// dl-compile --run on the element-wise ops, in place and not, static and
// dynamic.
// RUN: dl-compile %s --run | FileCheck %s

// CHECK: activations: max_abs_err={{.*}} ok
func.func @activations(%x: memref<3x5x7x2xf32>, %r: memref<3x5x7x2xf32>, %r6: memref<3x5x7x2xf32>) {
  dl.relu ins(%x : memref<3x5x7x2xf32>) outs(%r : memref<3x5x7x2xf32>)
  dl.relu6 ins(%x : memref<3x5x7x2xf32>) outs(%r6 : memref<3x5x7x2xf32>)
  return
}

// CHECK: residual: max_abs_err={{.*}} ok
func.func @residual(%a: memref<1x6x4x4xf32>, %b: memref<1x6x4x4xf32>, %bias: memref<6xf32>,
                    %m: memref<9x13xf32>, %mb: memref<13xf32>,
                    %xb: memref<2x2x3x3x4xf32>, %cb: memref<8xf32>) {
  dl.add ins(%a, %b : memref<1x6x4x4xf32>, memref<1x6x4x4xf32>) outs(%a : memref<1x6x4x4xf32>)
  dl.bias_add ins(%a, %bias : memref<1x6x4x4xf32>, memref<6xf32>) outs(%a : memref<1x6x4x4xf32>)
  dl.bias_add ins(%m, %mb : memref<9x13xf32>, memref<13xf32>) outs(%m : memref<9x13xf32>)
  dl.bias_add ins(%xb, %cb : memref<2x2x3x3x4xf32>, memref<8xf32>) outs(%xb : memref<2x2x3x3x4xf32>)
  dl.relu6 ins(%xb : memref<2x2x3x3x4xf32>) outs(%xb : memref<2x2x3x3x4xf32>)
  return
}

// CHECK: dynamic: max_abs_err={{.*}} ok
func.func @dynamic(%x: memref<?x?xf32> {dl.run_shape = array<i64: 7, 11>},
                   %y: memref<?x?xf32> {dl.run_shape = array<i64: 7, 11>}) {
  dl.relu ins(%x : memref<?x?xf32>) outs(%y : memref<?x?xf32>)
  dl.add ins(%x, %y : memref<?x?xf32>, memref<?x?xf32>) outs(%y : memref<?x?xf32>)
  return
}
