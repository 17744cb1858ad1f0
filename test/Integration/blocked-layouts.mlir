// Plain-layout convolution chains that dl-block-conv-layouts keeps blocked
// between convolutions (element-wise ops on blocked copies, packs replaced,
// plain intermediates erased) match the reference lowering, sequential and
// with 2 threads; 48 channels make blocks of 24.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s

// CHECK: chain: max_abs_err={{.*}} ok
func.func @chain(%x: memref<2x48x9x9xf32>, %w1: memref<48x48x3x3xf32>, %w2: memref<32x48x1x1xf32>, %out: memref<2x32x9x9xf32>) {
  %t = memref.alloc() : memref<2x48x9x9xf32>
  dl.conv2d ins(%x, %w1 : memref<2x48x9x9xf32>, memref<48x48x3x3xf32>) outs(%t : memref<2x48x9x9xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.relu ins(%t : memref<2x48x9x9xf32>) outs(%t : memref<2x48x9x9xf32>)
  dl.conv2d ins(%t, %w2 : memref<2x48x9x9xf32>, memref<32x48x1x1xf32>) outs(%out : memref<2x32x9x9xf32>)
  memref.dealloc %t : memref<2x48x9x9xf32>
  return
}

// CHECK: bn_relu_add: max_abs_err={{.*}} ok
func.func @bn_relu_add(%x: memref<2x48x9x9xf32>, %w1: memref<48x48x3x3xf32>, %w2: memref<32x48x1x1xf32>,
                       %gamma: memref<48xf32>, %beta: memref<48xf32>, %mean: memref<48xf32>, %var: memref<48xf32>,
                       %bias: memref<48xf32>, %out: memref<2x32x9x9xf32>) {
  %c = memref.alloc() : memref<2x48x9x9xf32>
  %n = memref.alloc() : memref<2x48x9x9xf32>
  %s = memref.alloc() : memref<2x48x9x9xf32>
  dl.conv2d ins(%x, %w1 : memref<2x48x9x9xf32>, memref<48x48x3x3xf32>) outs(%c : memref<2x48x9x9xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_inference ins(%c, %gamma, %beta, %mean, %var : memref<2x48x9x9xf32>, memref<48xf32>, memref<48xf32>, memref<48xf32>, memref<48xf32>)
      outs(%n : memref<2x48x9x9xf32>)
  dl.bias_add ins(%n, %bias : memref<2x48x9x9xf32>, memref<48xf32>) outs(%n : memref<2x48x9x9xf32>)
  dl.relu6 ins(%n : memref<2x48x9x9xf32>) outs(%n : memref<2x48x9x9xf32>)
  dl.add ins(%n, %c : memref<2x48x9x9xf32>, memref<2x48x9x9xf32>) outs(%s : memref<2x48x9x9xf32>)
  dl.conv2d ins(%s, %w2 : memref<2x48x9x9xf32>, memref<32x48x1x1xf32>) outs(%out : memref<2x32x9x9xf32>)
  memref.dealloc %c : memref<2x48x9x9xf32>
  memref.dealloc %n : memref<2x48x9x9xf32>
  memref.dealloc %s : memref<2x48x9x9xf32>
  return
}

// The intermediate %y is an argument (kept plain), %t goes through batch
// norm in training form (not run blocked).
// CHECK: kept: max_abs_err={{.*}} ok
func.func @kept(%x: memref<1x48x9x9xf32>, %w: memref<48x48x3x3xf32>, %y: memref<1x48x9x9xf32>,
                %gamma: memref<48xf32>, %beta: memref<48xf32>, %mean: memref<48xf32>, %var: memref<48xf32>) {
  %t = memref.alloc() : memref<1x48x9x9xf32>
  dl.conv2d ins(%x, %w : memref<1x48x9x9xf32>, memref<48x48x3x3xf32>) outs(%y : memref<1x48x9x9xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%y, %w : memref<1x48x9x9xf32>, memref<48x48x3x3xf32>) outs(%t : memref<1x48x9x9xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_training ins(%t, %gamma, %beta : memref<1x48x9x9xf32>, memref<48xf32>, memref<48xf32>)
      outs(%t, %mean, %var : memref<1x48x9x9xf32>, memref<48xf32>, memref<48xf32>)
  dl.conv2d ins(%t, %w : memref<1x48x9x9xf32>, memref<48x48x3x3xf32>) outs(%y : memref<1x48x9x9xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  memref.dealloc %t : memref<1x48x9x9xf32>
  return
}

// The residual add reads the argument %x through its packed copy, the ReLU
// runs in place on the blocked sum, one unpack writes %out.
// CHECK: residual: max_abs_err={{.*}} ok
func.func @residual(%x: memref<2x48x9x9xf32>, %w: memref<48x48x3x3xf32>,
                    %gamma: memref<48xf32>, %beta: memref<48xf32>, %mean: memref<48xf32>, %var: memref<48xf32>,
                    %out: memref<2x48x9x9xf32>) {
  %t = memref.alloc() : memref<2x48x9x9xf32>
  dl.conv2d ins(%x, %w : memref<2x48x9x9xf32>, memref<48x48x3x3xf32>) outs(%t : memref<2x48x9x9xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_inference ins(%t, %gamma, %beta, %mean, %var : memref<2x48x9x9xf32>, memref<48xf32>, memref<48xf32>, memref<48xf32>, memref<48xf32>)
      outs(%t : memref<2x48x9x9xf32>)
  dl.add ins(%t, %x : memref<2x48x9x9xf32>, memref<2x48x9x9xf32>) outs(%out : memref<2x48x9x9xf32>)
  dl.relu ins(%out : memref<2x48x9x9xf32>) outs(%out : memref<2x48x9x9xf32>)
  memref.dealloc %t : memref<2x48x9x9xf32>
  return
}
