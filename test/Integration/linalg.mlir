// linalg programs as torch-mlir and hand-written front ends produce them,
// through dl-compile: the raised code (dl ops) checked by --run against the
// same program not raised (its linalg ops lowered by upstream MLIR to
// loops). The batch normalization is matched by evaluating its body.
// RUN: dl-opt %s --convert-linalg-to-dl 2>/dev/null | FileCheck %s --check-prefix=RAISED
// RUN: dl-compile %s --run --threads=2 | FileCheck %s

// RAISED-LABEL: func.func @conv_bn_relu
// RAISED: dl.conv2d
// RAISED: dl.batch_norm_inference ins({{.*}}) outs({{.*}}) {epsilon = 9.99999974E-6 : f32}
// RAISED: dl.relu
// RAISED-LABEL: func.func @not_batch_norm
// RAISED: linalg.generic
// RAISED-LABEL: func.func @gemms
// RAISED: dl.matmul {{.*}}{transpose_a}
// RAISED: dl.matmul {{.*}} {beta = 1.000000e+00 : f32}

// CHECK: conv_bn_relu: max_abs_err={{.*}} ok
// CHECK: not_batch_norm: max_abs_err={{.*}} ok
// CHECK: gemms: max_abs_err={{.*}} ok

#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#channel = affine_map<(n, c, h, w) -> (c)>
func.func @conv_bn_relu(%x: tensor<2x8x9x9xf32>, %w: tensor<16x8x3x3xf32>,
                        %gamma: tensor<16xf32>, %beta: tensor<16xf32>,
                        %mean: tensor<16xf32>, %var: tensor<16xf32>) -> tensor<2x16x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x7x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x7x7xf32>) -> tensor<2x16x7x7xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x8x9x9xf32>, tensor<16x8x3x3xf32>) outs(%z : tensor<2x16x7x7xf32>) -> tensor<2x16x7x7xf32>
  // torch-mlir's inference batch norm: (x - mean) * rsqrt(var + eps) * gamma + beta.
  %bn = linalg.generic {indexing_maps = [#nchw, #channel, #channel, #channel, #channel, #nchw],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %var, %mean, %gamma, %beta : tensor<2x16x7x7xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
      outs(%e : tensor<2x16x7x7xf32>) {
  ^bb0(%in: f32, %v: f32, %m: f32, %g: f32, %b: f32, %out: f32):
    %eps = arith.constant 1.0e-5 : f32
    %d = arith.subf %in, %m : f32
    %s = arith.addf %v, %eps : f32
    %r = math.rsqrt %s : f32
    %n = arith.mulf %d, %r : f32
    %t = arith.mulf %n, %g : f32
    %y = arith.addf %t, %b : f32
    linalg.yield %y : f32
  } -> tensor<2x16x7x7xf32>
  %relu = linalg.generic {indexing_maps = [#nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bn : tensor<2x16x7x7xf32>) outs(%e : tensor<2x16x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x16x7x7xf32>
  return %relu : tensor<2x16x7x7xf32>
}

// Almost a batch normalization (no square root): not raised.
func.func @not_batch_norm(%x: tensor<1x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>,
                          %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %bn = linalg.generic {indexing_maps = [#nchw, #channel, #channel, #channel, #channel, #nchw],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g, %b, %m, %v : tensor<1x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %gg: f32, %bb: f32, %mm: f32, %vv: f32, %out: f32):
    %eps = arith.constant 1.0e-3 : f32
    %d = arith.subf %in, %mm : f32
    %s = arith.addf %vv, %eps : f32
    %n = arith.divf %d, %s : f32
    %t = arith.mulf %n, %gg : f32
    %y = arith.addf %t, %bb : f32
    linalg.yield %y : f32
  } -> tensor<1x4x3x3xf32>
  return %bn : tensor<1x4x3x3xf32>
}

// A^T B into a new tensor, then accumulated into an argument.
func.func @gemms(%a: tensor<24x40xf32>, %b: tensor<24x56xf32>, %b2: tensor<56x56xf32>, %c: tensor<40x56xf32>) -> tensor<40x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x56xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<40x56xf32>) -> tensor<40x56xf32>
  %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<24x40xf32>, tensor<24x56xf32>) outs(%z : tensor<40x56xf32>) -> tensor<40x56xf32>
  %q = linalg.matmul ins(%p, %b2 : tensor<40x56xf32>, tensor<56x56xf32>) outs(%c : tensor<40x56xf32>) -> tensor<40x56xf32>
  return %q : tensor<40x56xf32>
}
