// Small problems at 2 threads through the optimized pipeline, against the
// reference lowering: dl-decide-parallelism runs some on one thread
// (dl.sequential, their copies included), one on another loop than its
// schedule's (a convolution with three output-channel blocks), others in
// parallel (a GEMM with one row block, over its column blocks).
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 --rank=false | FileCheck %s
// RUN: dl-compile %s --run --threads=2 --solve-tiles | FileCheck %s
// RUN: dl-compile %s --threads=2 --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS

// REMARKS-DAG: remark: dl-decide-parallelism: runs on one thread: modeled {{.*}} us on one thread
// REMARKS-DAG: remark: dl-decide-parallelism: loop 2 (oh, 28 iterations) runs in parallel

// CHECK: gemm_64: max_abs_err={{.*}} ok
func.func @gemm_64(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  dl.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// CHECK: gemm_96: max_abs_err={{.*}} ok
func.func @gemm_96(%a: memref<96x96xf32>, %b: memref<96x96xf32>, %c: memref<96x96xf32>) {
  dl.matmul ins(%a, %b : memref<96x96xf32>, memref<96x96xf32>) outs(%c : memref<96x96xf32>)
  return
}

// CHECK: gemm_128_scaled: max_abs_err={{.*}} ok
func.func @gemm_128_scaled(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  dl.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>) {alpha = 0.5 : f32, beta = 2.0 : f32}
  return
}

// CHECK: gemm_one_row_block: max_abs_err={{.*}} ok
func.func @gemm_one_row_block(%a: memref<64x256xf32>, %b: memref<256x1024xf32>, %c: memref<64x1024xf32>) {
  dl.matmul ins(%a, %b : memref<64x256xf32>, memref<256x1024xf32>) outs(%c : memref<64x1024xf32>)
  return
}

// CHECK: first_layer_conv: max_abs_err={{.*}} ok
func.func @first_layer_conv(%in: memref<1x1x56x56x3xf32>, %f: memref<1x1x3x3x3x32xf32>, %out: memref<1x1x28x28x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x56x56x3xf32>, memref<1x1x3x3x3x32xf32>) outs(%out : memref<1x1x28x28x32xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// A given schedule whose parallel loop runs over 3 output-channel blocks:
// the 28 rows inside run in parallel instead.
// CHECK: conv_three_blocks: max_abs_err={{.*}} ok
func.func @conv_three_blocks(%in: memref<1x1x28x28x64xf32>, %f: memref<3x1x3x3x64x64xf32>, %out: memref<1x3x28x28x64xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x28x28x64xf32>, memref<3x1x3x3x64x64xf32>) outs(%out : memref<1x3x28x28x64xf32>)
      {padding = array<i64: 1, 1, 1, 1>, schedule = #dl.schedule<[n, kb, oh], parallel = 1>}
  return
}

// A small plain convolution (packed, run blocked, unpacked), then a small
// relu and bias: every op on one thread.
// CHECK: small_block: max_abs_err={{.*}} ok
func.func @small_block(%x: memref<1x16x8x8xf32>, %w: memref<16x16x3x3xf32>, %bias: memref<16xf32>, %y: memref<1x16x8x8xf32>) {
  dl.conv2d ins(%x, %w : memref<1x16x8x8xf32>, memref<16x16x3x3xf32>) outs(%y : memref<1x16x8x8xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.bias_add ins(%y, %bias : memref<1x16x8x8xf32>, memref<16xf32>) outs(%y : memref<1x16x8x8xf32>)
  dl.relu ins(%y : memref<1x16x8x8xf32>) outs(%y : memref<1x16x8x8xf32>)
  return
}
