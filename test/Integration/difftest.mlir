// The differential tester (utils/dl-difftest.py) on a fixed set of seeds:
// random ops and shapes (1, primes, block multiples +- 1; strides 1-3,
// paddings 0-3; static and dynamic; 1 and 2 threads; with and without the
// tile solver) through the optimized pipeline against the reference
// lowering. Longer runs: utils/dl-difftest.py --count N --seed S.
// RUN: %python %S/../../utils/dl-difftest.py --dl-compile dl-compile --seed 1 --count 60 --work-dir %t | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK-NOT: FAILED
// CHECK: difftest: 60 cases, {{[0-9]+}} modules, 0 mismatches, 0 failures (seeds 1..60,

// Cases it found, reduced.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s --check-prefix=FOUND
// RUN: dl-compile %s --run --threads=2 | FileCheck %s --check-prefix=FOUND

// A blocked convolution with a static output and a dynamic number of input
// channel blocks got a schedule whose cb loop ran to ShapedType::kDynamic.
// FOUND: conv_dynamic_channel_blocks: {{.*}} ok
func.func @conv_dynamic_channel_blocks(
    %x: memref<3x1x14x?x16xf32> {dl.run_shape = array<i64: 3, 1, 14, 15, 16>},
    %w: memref<1x?x5x3x16x4xf32> {dl.run_shape = array<i64: 1, 1, 5, 3, 16, 4>},
    %y: memref<3x1x13x5x4xf32>) {
  dl.conv2d ins(%x, %w : memref<3x1x14x?x16xf32>, memref<1x?x5x3x16x4xf32>) outs(%y : memref<3x1x13x5x4xf32>)
      {strides = array<i64: 1, 3>, padding = array<i64: 2, 1, 1, 3>, dilations = array<i64: 1, 2>}
  return
}

// Outlined batch-reduce kernels over a padded copy with dynamic sizes: the
// expanded strided metadata left affine.apply ops that reached LLVM.
// FOUND: conv_dynamic_padded: {{.*}} ok
func.func @conv_dynamic_padded(
    %x: memref<?x?x17x4x4xf32> {dl.run_shape = array<i64: 1, 2, 17, 4, 4>},
    %w: memref<?x?x?x?x4x8xf32> {dl.run_shape = array<i64: 3, 2, 3, 5, 4, 8>},
    %y: memref<1x3x6x2x8xf32>) {
  dl.conv2d ins(%x, %w : memref<?x?x17x4x4xf32>, memref<?x?x?x?x4x8xf32>) outs(%y : memref<1x3x6x2x8xf32>)
      {strides = array<i64: 3, 2>, padding = array<i64: 2, 3, 1, 0>}
  return
}

// A generic GEMM whose sizes are dynamic in A and B but static in C: its
// blocks must be bounded by the static sizes, and no pass may take it for
// a static GEMM (the ranking gave it a schedule).
// FOUND: gemm_static_c: {{.*}} ok
func.func @gemm_static_c(%a: memref<?x4xf32> {dl.run_shape = array<i64: 16, 4>},
                         %b: memref<4x?xf32> {dl.run_shape = array<i64: 4, 2>},
                         %c: memref<16x2xf32>) {
  dl.matmul ins(%a, %b : memref<?x4xf32>, memref<4x?xf32>) outs(%c : memref<16x2xf32>)
  return
}

// M static in A only: blocks of 11 rows, not 64.
// FOUND: gemm_static_a: {{.*}} ok
func.func @gemm_static_a(%a: memref<11x?xf32> {dl.run_shape = array<i64: 11, 37>},
                         %b: memref<?x?xf32> {dl.run_shape = array<i64: 37, 70>},
                         %c: memref<?x?xf32> {dl.run_shape = array<i64: 11, 70>}) {
  dl.matmul ins(%a, %b : memref<11x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {alpha = 0.5 : f32}
  return
}
