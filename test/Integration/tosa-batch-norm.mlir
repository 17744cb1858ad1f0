// TOSA's batch normalization (inference) and per-channel bias, written as
// element-wise ops on 1 x C x 1 x 1 broadcast operands, through the stock
// mlir-opt-22 to linalg and linalg's element-wise fusion (one generic per
// chain): convert-linalg-to-dl matches the fused bodies by evaluating them
// and reads the broadcast operands as channel vectors (collapsed views).
// --run checks the result against the same program not raised.
// RUN: mlir-opt %s --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),linalg-fuse-elementwise-ops,canonicalize)' -o %t.mlir
// RUN: dl-opt %t.mlir --convert-linalg-to-dl | FileCheck %s --check-prefix=RAISED
// RUN: dl-compile %t.mlir --run --threads=2 | FileCheck %s

// RAISED-LABEL: func.func @bn
// RAISED: %[[GAMMA:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : tensor<1x16x1x1xf32> into tensor<16xf32>
// RAISED: dl.batch_norm_inference ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
// RAISED-NOT: linalg.generic
// RAISED-LABEL: func.func @bias
// RAISED: dl.bias_add ins(%{{.*}}, %{{.*}} : tensor<2x16x8x8xf32>, tensor<16xf32>)
// RAISED-NOT: linalg.generic

// CHECK: bn: max_abs_err={{.*}} ok
// CHECK: bias: max_abs_err={{.*}} ok

func.func @bn(%x: tensor<2x16x8x8xf32>, %mean: tensor<1x16x1x1xf32>, %var: tensor<1x16x1x1xf32>,
              %g: tensor<1x16x1x1xf32>, %b: tensor<1x16x1x1xf32>) -> tensor<2x16x8x8xf32> {
  %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %d = tosa.sub %x, %mean : (tensor<2x16x8x8xf32>, tensor<1x16x1x1xf32>) -> tensor<2x16x8x8xf32>
  %v = tosa.add %var, %eps : (tensor<1x16x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x16x1x1xf32>
  %r = tosa.rsqrt %v : (tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  %n = tosa.mul %d, %r, %shift : (tensor<2x16x8x8xf32>, tensor<1x16x1x1xf32>, tensor<1xi8>) -> tensor<2x16x8x8xf32>
  %s = tosa.mul %n, %g, %shift : (tensor<2x16x8x8xf32>, tensor<1x16x1x1xf32>, tensor<1xi8>) -> tensor<2x16x8x8xf32>
  %y = tosa.add %s, %b : (tensor<2x16x8x8xf32>, tensor<1x16x1x1xf32>) -> tensor<2x16x8x8xf32>
  return %y : tensor<2x16x8x8xf32>
}

func.func @bias(%x: tensor<2x16x8x8xf32>, %b: tensor<1x16x1x1xf32>) -> tensor<2x16x8x8xf32> {
  %y = tosa.add %x, %b : (tensor<2x16x8x8xf32>, tensor<1x16x1x1xf32>) -> tensor<2x16x8x8xf32>
  return %y : tensor<2x16x8x8xf32>
}
