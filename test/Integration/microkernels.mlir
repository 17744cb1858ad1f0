// Outlined microkernels against the reference lowering, on even and odd
// shapes, sequential and with 2 threads, and with kernel calls that reduce
// over fewer blocks (max-batch-bytes: the default order's K loop tiled by
// batch_blocks, outer batch loops kept around the calls). The FileCheck of
// the emitted module proves the kernels are called (one dispatch per band
// form).
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 --max-batch-bytes=4096 | FileCheck %s
// RUN: dl-compile %s --run --threads=1 --rank=false --max-batch-bytes=4096 | FileCheck %s
// RUN: dl-compile %s --run --microkernels=false | FileCheck %s
// RUN: dl-compile %s --emit=mlir --threads=2 | FileCheck %s --check-prefix=CALLS

// CALLS-DAG: llvm.call @dl_brgemm_dispatch
// CALLS-DAG: llvm.call @dl_gemm_dispatch
// CALLS-DAG: llvm.call @dl_brgemm_offs_dispatch
// CALLS-DAG: llvm.call @dl_brgemm_invoke
// CALLS-DAG: llvm.call @dl_gemm_invoke
// CALLS-DAG: llvm.call @dl_brgemm_offs_invoke
// CALLS-DAG: omp.parallel

// Tiled GEMM, strided batch-reduce over K tiles.
// CHECK: gemm_even: max_abs_err={{.*}} ok
func.func @gemm_even(%a: memref<128x192xf32>, %b: memref<192x96xf32>, %c: memref<128x96xf32>) {
  dl.matmul ins(%a, %b : memref<128x192xf32>, memref<192x96xf32>) outs(%c : memref<128x96xf32>)
  return
}

// B blocked ahead of time (N/bn x K/bk x bk x bn): the kernels read its
// blocks in place, the reference nest at B[j / 64][k / 128][k % 128][j % 64].
// CHECK: gemm_blocked_b: max_abs_err={{.*}} ok
func.func @gemm_blocked_b(%a: memref<128x256xf32>, %b: memref<3x2x128x64xf32>, %c: memref<128x192xf32>) {
  dl.matmul ins(%a, %b : memref<128x256xf32>, memref<3x2x128x64xf32>) outs(%c : memref<128x192xf32>)
      {beta = 1.0 : f32}
  return
}

// Transposed, scaled, accumulating: the packed copies transpose op(A) and
// op(B) and apply alpha, then a strided batch-reduce over K blocks.
// CHECK: gemm_packed_transposed: max_abs_err={{.*}} ok
func.func @gemm_packed_transposed(%a: memref<160x96xf32>, %b: memref<64x160xf32>, %c: memref<96x64xf32>) {
  dl.matmul ins(%a, %b : memref<160x96xf32>, memref<64x160xf32>) outs(%c : memref<96x64xf32>)
      {alpha = 0.5 : f32, beta = 1.0 : f32, transpose_a, transpose_b,
       pack_blocks = array<i64: 32, 16, 32>, pack_a, pack_b}
  return
}

// Odd sizes: K is one block (no batch), so plain kernels of 67 x 15 x 33.
// CHECK: gemm_odd: max_abs_err={{.*}} ok
func.func @gemm_odd(%a: memref<67x33xf32>, %b: memref<33x45xf32>, %c: memref<67x45xf32>) {
  dl.matmul ins(%a, %b : memref<67x33xf32>, memref<33x45xf32>) outs(%c : memref<67x45xf32>)
      {beta = 1.0 : f32}
  return
}

// Padded 3x3 blocked convolution: offsets batch over (c_blk, r, s), odd
// spatial size 13.
// CHECK: conv3x3_padded: max_abs_err={{.*}} ok
func.func @conv3x3_padded(%in: memref<2x2x13x13x8xf32>, %f: memref<3x2x3x3x8x16xf32>, %out: memref<2x3x13x13x16xf32>) {
  dl.conv2d ins(%in, %f : memref<2x2x13x13x8xf32>, memref<3x2x3x3x8x16xf32>) outs(%out : memref<2x3x13x13x16xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// Padding rows only, dilation 2: no padded copy; the filter rows skip the
// padding (from ceildiv(2 - oh, 2) to ceildiv(9 - oh, 2)), so each call is
// a strided batch-reduce over a count that varies with oh.
// CHECK: conv3x1_row_padded: max_abs_err={{.*}} ok
func.func @conv3x1_row_padded(%in: memref<1x1x7x5x16xf32>, %f: memref<2x1x3x1x16x8xf32>, %out: memref<1x2x7x5x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x7x5x16xf32>, memref<2x1x3x1x16x8xf32>) outs(%out : memref<1x2x7x5x8xf32>)
      {padding = array<i64: 2, 0, 2, 0>, dilations = array<i64: 2, 1>}
  return
}

// Stride 2, asymmetric padding, dilation 2, odd channel block 3.
// CHECK: conv_strided: max_abs_err={{.*}} ok
func.func @conv_strided(%in: memref<1x1x11x9x3xf32>, %f: memref<2x1x3x3x3x8xf32>, %out: memref<1x2x4x3x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x11x9x3xf32>, memref<2x1x3x3x3x8xf32>) outs(%out : memref<1x2x4x3x8xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 1>, dilations = array<i64: 2, 2>}
  return
}

// 1x1 convolution with strides (2, 3), odd sizes: the kernels read a dense
// copy of the pixels used, at unit stride.
// CHECK: conv1x1_strided: max_abs_err={{.*}} ok
func.func @conv1x1_strided(%in: memref<2x2x13x11x16xf32>, %f: memref<3x2x1x1x16x8xf32>, %out: memref<2x3x7x4x8xf32>) {
  dl.conv2d ins(%in, %f : memref<2x2x13x11x16xf32>, memref<3x2x1x1x16x8xf32>) outs(%out : memref<2x3x7x4x8xf32>)
      {strides = array<i64: 2, 3>}
  return
}

// 1x1 convolution, 4 channel blocks: strided batch over c_blk; ow = 112 is
// tiled by 56.
// CHECK: conv1x1_wide: max_abs_err={{.*}} ok
func.func @conv1x1_wide(%in: memref<1x4x2x112x16xf32>, %f: memref<1x4x1x1x16x16xf32>, %out: memref<1x1x2x112x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x2x112x16xf32>, memref<1x4x1x1x16x16xf32>) outs(%out : memref<1x1x2x112x16xf32>)
  return
}
