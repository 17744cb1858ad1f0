// dl-outline-microkernels splits a call's 4-vector rows of C into halves of
// 2 vectors where LIBXSMM's AVX-512 register passes would re-read B's blocks
// from the L2: a padded 3x3 convolution's runs of 13 and 14 output pixels
// (3 passes at 4 vectors, 1 at 2) with batches of 3 filter rows (48 KiB of
// B, 10.5 KiB of A). Each half is one call of n = 32, at columns 0 and 32 of
// the filter's and the output's channel block.
// RUN: dl-opt %s --pass-pipeline='builtin.module(dl-set-target{vector-bits=512 cache-sizes=L1=48K},convert-dl-to-affine,dl-outline-microkernels,cse)' --split-input-file | FileCheck %s --check-prefix=SPLIT
// With an L1 that holds A and B together, the passes re-read B from the L1:
// whole rows.
// RUN: dl-opt %s --pass-pipeline='builtin.module(dl-set-target{vector-bits=512 cache-sizes=L1=64K},convert-dl-to-affine,dl-outline-microkernels,cse)' --split-input-file | FileCheck %s --check-prefix=WHOLE
// AVX2's register blocking is not modeled: whole rows.
// RUN: dl-opt %s --pass-pipeline='builtin.module(dl-set-target{vector-bits=256 cache-sizes=L1=48K},convert-dl-to-affine,dl-outline-microkernels,cse)' --split-input-file | FileCheck %s --check-prefix=WHOLE
// RUN: not dl-opt %s --dl-set-target="cache-sizes=L1=0" --dl-outline-microkernels 2>&1 | FileCheck %s --check-prefix=INVALID

// INVALID: error: dl-set-target:

// SPLIT-LABEL: func.func @rows14
// SPLIT-SAME: (%[[IN:.*]]: memref<1x1x14x14x64xf32>, %[[F:.*]]: memref<1x1x3x3x64x64xf32>, %[[OUT:.*]]: memref<1x1x14x14x64xf32>)
// SPLIT: %[[K13:.*]] = dl.gemm_dispatch {k = 64 : i64, lda = 64 : i64, ldb = 64 : i64, ldc = 64 : i64, m = 13 : i64, n = 32 : i64, stride_a = 896 : i64, stride_b = 12288 : i64}
// SPLIT: dl.gemm_invoke %[[K13]](%[[IN]][{{.*}}], %[[F]][{{.*}}, %c0, %c0, %c0], %[[OUT]][{{.*}}, %c1, %c0])
// SPLIT-NEXT: %[[C32:.*]] = arith.constant 32 : index
// SPLIT-NEXT: dl.gemm_invoke %[[K13]](%[[IN]][{{.*}}], %[[F]][{{.*}}, %c0, %c0, %[[C32]]], %[[OUT]][{{.*}}, %c1, %[[C32]]])
// SPLIT-NEXT: } else {
// SPLIT: %[[K14:.*]] = dl.gemm_dispatch {{{.*}} m = 14 : i64, n = 32 : i64
// SPLIT: dl.gemm_invoke %[[K14]]({{.*}}, %[[F]][{{.*}}, %c1, %c0, %c0], %[[OUT]][{{.*}}, %c0, %c0])
// SPLIT-NEXT: %[[C32B:.*]] = arith.constant 32 : index
// SPLIT-NEXT: dl.gemm_invoke %[[K14]]({{.*}}, %[[F]][{{.*}}, %c1, %c0, %[[C32B]]], %[[OUT]][{{.*}}, %c0, %[[C32B]]])
// SPLIT-NEXT: } else {
// SPLIT: dl.gemm_invoke %[[K13]]({{.*}}, %[[F]][{{.*}}, %c2, %c0, %c0], %[[OUT]][{{.*}}, %c0, %c0])
// SPLIT-NEXT: %[[C32C:.*]] = arith.constant 32 : index
// SPLIT-NEXT: dl.gemm_invoke %[[K13]]({{.*}}, %[[F]][{{.*}}, %c2, %c0, %[[C32C]]], %[[OUT]][{{.*}}, %c0, %[[C32C]]])
// SPLIT-NEXT: } else {
// WHOLE-LABEL: func.func @rows14
// WHOLE: dl.gemm_dispatch {{{.*}} m = 13 : i64, n = 64 : i64
// WHOLE: dl.gemm_invoke
// WHOLE-NOT: dl.gemm_invoke
// WHOLE: dl.gemm_dispatch {{{.*}} m = 14 : i64, n = 64 : i64
func.func @rows14(%in: memref<1x1x14x14x64xf32>, %f: memref<1x1x3x3x64x64xf32>, %out: memref<1x1x14x14x64xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x14x14x64xf32>, memref<1x1x3x3x64x64xf32>) outs(%out : memref<1x1x14x14x64xf32>) {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
  return
}

// -----

// 56-pixel runs would take 4 passes per half (only up to 2 are split), and
// 7-pixel ones are one pass either way: whole rows.
// SPLIT-LABEL: func.func @rows56
// SPLIT-NOT: n = 32
// SPLIT: dl.gemm_dispatch {{{.*}} m = 56 : i64, n = 64 : i64
// SPLIT-NOT: n = 32
// SPLIT-LABEL: func.func @rows7
// SPLIT-NOT: n = 32
// SPLIT: dl.gemm_dispatch {{{.*}} m = 7 : i64, n = 64 : i64
// SPLIT-NOT: n = 32
// SPLIT: return
func.func @rows56(%in: memref<1x1x56x56x64xf32>, %f: memref<1x1x3x3x64x64xf32>, %out: memref<1x1x56x56x64xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x56x56x64xf32>, memref<1x1x3x3x64x64xf32>) outs(%out : memref<1x1x56x56x64xf32>) {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
  return
}
func.func @rows7(%in: memref<1x1x7x7x64xf32>, %f: memref<1x1x3x3x64x64xf32>, %out: memref<1x1x7x7x64xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x7x7x64xf32>, memref<1x1x3x3x64x64xf32>) outs(%out : memref<1x1x7x7x64xf32>) {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
  return
}
