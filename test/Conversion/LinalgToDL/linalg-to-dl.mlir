// convert-linalg-to-dl: which linalg forms become which dl ops, on tensors
// and on buffers, and the remarks on the forms left as they are.
// RUN: dl-opt %s -split-input-file --convert-linalg-to-dl 2>/dev/null | FileCheck %s
// RUN: dl-opt %s -split-input-file --convert-linalg-to-dl 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// A GEMM into a zero-filled tensor writes the fill's destination.
// CHECK-LABEL: func.func @matmul_zero_fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<5x13xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[R:.*]] = dl.matmul ins(%{{.*}}, %{{.*}} : tensor<5x7xf32>, tensor<7x13xf32>) outs(%[[E]] : tensor<5x13xf32>) -> tensor<5x13xf32>
// CHECK: return %[[R]]
func.func @matmul_zero_fill(%a: tensor<5x7xf32>, %b: tensor<7x13xf32>) -> tensor<5x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x13xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<5x13xf32>) -> tensor<5x13xf32>
  %r = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x13xf32>) outs(%c : tensor<5x13xf32>) -> tensor<5x13xf32>
  return %r : tensor<5x13xf32>
}

// -----

// Any other output is accumulated into; transposed operands by their maps.
// CHECK-LABEL: func.func @matmul_accumulate_transpose_b
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : tensor<5x7xf32>, tensor<13x7xf32>) outs(%{{.*}} : tensor<5x13xf32>) {beta = 1.000000e+00 : f32, transpose_b} -> tensor<5x13xf32>
func.func @matmul_accumulate_transpose_b(%a: tensor<5x7xf32>, %b: tensor<13x7xf32>, %c: tensor<5x13xf32>) -> tensor<5x13xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<5x7xf32>, tensor<13x7xf32>) outs(%c : tensor<5x13xf32>) -> tensor<5x13xf32>
  return %r : tensor<5x13xf32>
}

// -----

// On buffers: a fill right before is an overwrite, otherwise accumulate.
// CHECK-LABEL: func.func @matmul_buffers
// CHECK: linalg.fill
// CHECK-NEXT: dl.matmul ins(%{{.*}}, %{{.*}} : memref<4x4xf32>, memref<4x4xf32>) outs(%{{.*}} : memref<4x4xf32>){{$}}
// CHECK-NEXT: dl.matmul ins(%{{.*}}, %{{.*}} : memref<4x4xf32>, memref<4x4xf32>) outs(%{{.*}} : memref<4x4xf32>) {beta = 1.000000e+00 : f32}
func.func @matmul_buffers(%a: memref<4x4xf32>, %c: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x4xf32>)
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// -----

// A batch of one GEMM on collapsed views; a batch of two stays.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<1x64x32xf32> into tensor<64x32xf32>
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<32x48xf32>) outs(%{{.*}} : tensor<64x48xf32>) -> tensor<64x48xf32>
// CHECK: tensor.expand_shape
// CHECK: linalg.batch_matmul
// REMARK: remark: left as linalg: it is a batch of 2 GEMMs (dl.matmul computes one)
func.func @batch_matmul(%a: tensor<1x64x32xf32>, %b: tensor<1x32x48xf32>, %a2: tensor<2x4x4xf32>) -> (tensor<1x64x48xf32>, tensor<2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x48xf32>) -> tensor<1x64x48xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x64x32xf32>, tensor<1x32x48xf32>) outs(%c : tensor<1x64x48xf32>) -> tensor<1x64x48xf32>
  %r2 = linalg.batch_matmul ins(%a2, %a2 : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%a2 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %r, %r2 : tensor<1x64x48xf32>, tensor<2x4x4xf32>
}

// -----

// NCHW with a zero padding copy: the padding becomes the op's.
// CHECK-LABEL: func.func @conv_nchw_padded
// CHECK-NOT: tensor.pad
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%{{.*}} : tensor<1x4x5x5xf32>) {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} -> tensor<1x4x5x5xf32>
func.func @conv_nchw_padded(%x: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x3x9x9xf32> to tensor<1x3x11x11xf32>
  %e = tensor.empty() : tensor<1x4x5x5xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<1x3x11x11xf32>, tensor<4x3x3x3xf32>) outs(%c : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  return %r : tensor<1x4x5x5xf32>
}

// -----

// NHWC/HWCF accumulating into an argument: transposes to NCHW/FCHW, the
// convolution into a new tensor, back to NHWC, added to the output.
// CHECK-LABEL: func.func @conv_nhwc_hwcf_accumulate
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x7x7x3xf32>) outs(%{{.*}} : tensor<1x3x7x7xf32>) permutation = [0, 3, 1, 2]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x1x3x8xf32>) outs(%{{.*}} : tensor<8x3x1x1xf32>) permutation = [3, 2, 0, 1]
// CHECK: dl.conv2d ins({{.*}}) outs(%{{.*}} : tensor<1x8x7x7xf32>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x8x7x7xf32>) outs(%{{.*}} : tensor<1x7x7x8xf32>) permutation = [0, 2, 3, 1]
// CHECK: dl.add ins(%{{.*}}, %{{.*}} : tensor<1x7x7x8xf32>, tensor<1x7x7x8xf32>) outs(%{{.*}} : tensor<1x7x7x8xf32>)
func.func @conv_nhwc_hwcf_accumulate(%x: tensor<1x7x7x3xf32>, %w: tensor<1x1x3x8xf32>, %y: tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x7x7x3xf32>, tensor<1x1x3x8xf32>) outs(%y : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  return %r : tensor<1x7x7x8xf32>
}

// -----

// On buffers, accumulating: the convolution into a temporary, then added.
// CHECK-LABEL: func.func @conv_buffers
// CHECK: %[[T:.*]] = memref.alloc() : memref<1x4x6x6xf32>
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x2x8x8xf32>, memref<4x2x3x3xf32>) outs(%[[T]] : memref<1x4x6x6xf32>)
// CHECK: dl.add ins(%[[T]], %{{.*}} : memref<1x4x6x6xf32>, memref<1x4x6x6xf32>)
// CHECK: memref.dealloc %[[T]]
func.func @conv_buffers(%x: memref<1x2x8x8xf32>, %w: memref<4x2x3x3xf32>, %y: memref<1x4x6x6xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x2x8x8xf32>, memref<4x2x3x3xf32>) outs(%y : memref<1x4x6x6xf32>)
  return
}

// -----

// Element-wise bodies: max(x, 0), a select, clamps [0, 6] and [0, +max],
// linalg.max with zeros, adds and a bias along the columns.
// CHECK-LABEL: func.func @elementwise
// CHECK: dl.relu ins
// CHECK: dl.relu ins
// CHECK: dl.relu6 ins
// CHECK: dl.relu ins
// CHECK: dl.relu ins
// CHECK: dl.add ins
// CHECK: dl.bias_add ins(%{{.*}}, %{{.*}} : tensor<4x6xf32>, tensor<6xf32>)
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @elementwise(%x: tensor<4x6xf32>, %v: tensor<6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %big = arith.constant 3.40282347E+38 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %zero, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  %select = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %gt, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %relu6 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    %n = arith.minimumf %m, %six : f32
    linalg.yield %n : f32
  } -> tensor<4x6xf32>
  %clamp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.minimumf %in, %big : f32
    %m = arith.maximumf %n, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %max = linalg.max ins(%x, %zeros : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %add = linalg.add ins(%x, %relu : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %bias = linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%v, %x : tensor<6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%b: f32, %in: f32, %out: f32):
    %s = arith.addf %b, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %relu, %select, %relu6, %clamp, %max, %add, %bias : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// Left as they are, with the reason.
// CHECK-LABEL: func.func @left
// CHECK-NOT: dl.
// REMARK: remark: left as linalg: its element type is not f32
// REMARK: remark: left as linalg: it has dynamic sizes
// REMARK: remark: left as linalg: its body is not a ReLU, a ReLU6 (or clamp), an add, a bias add or a batch normalization
// REMARK: remark: left as linalg: its body reads the output
// REMARK-NOT: remark
#id1 = affine_map<(d0) -> (d0)>
func.func @left(%i: tensor<4x4xi32>, %x: tensor<1x2x?x8xf32>, %w: tensor<4x2x3x3xf32>, %y: tensor<1x4x?x6xf32>, %v: tensor<8xf32>) -> (tensor<4x4xi32>, tensor<1x4x?x6xf32>, tensor<8xf32>, tensor<8xf32>) {
  %m = linalg.matmul ins(%i, %i : tensor<4x4xi32>, tensor<4x4xi32>) outs(%i : tensor<4x4xi32>) -> tensor<4x4xi32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x2x?x8xf32>, tensor<4x2x3x3xf32>) outs(%y : tensor<1x4x?x6xf32>) -> tensor<1x4x?x6xf32>
  %e = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%v : tensor<8xf32>) outs(%v : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.tanh %in : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%v : tensor<8xf32>) outs(%v : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %m, %c, %e, %a : tensor<4x4xi32>, tensor<1x4x?x6xf32>, tensor<8xf32>, tensor<8xf32>
}
