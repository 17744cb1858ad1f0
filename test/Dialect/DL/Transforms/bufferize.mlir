// dl-bufferize: a tensor program becomes the buffer form the dl passes
// optimize (results that are `outs` arguments dropped, new results appended
// as arguments, temporaries freed); a buffer program is left as it is; the
// other passes reject tensor ops.
// RUN: dl-opt %s -split-input-file --dl-bufferize | FileCheck %s
// RUN: not dl-opt %s -split-input-file --dl-pack-gemm-operands 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not dl-opt %s -split-input-file --convert-dl-to-affine 2>&1 | FileCheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %[[A:.*]]: memref<64x32xf32>, %[[B:.*]]: memref<32x16xf32>, %[[C:.*]]: memref<64x16xf32>) {
// CHECK-NEXT: dl.matmul ins(%[[A]], %[[B]] : memref<64x32xf32>, memref<32x16xf32>) outs(%[[C]] : memref<64x16xf32>) {beta = 1.000000e+00 : f32}
// CHECK-NEXT: return
// PASS: error: 'dl.matmul' op is on tensors; 'dl-pack-gemm-operands' runs on buffers: bufferize first (dl-bufferize)
// LOWER: error: 'dl.matmul' op is on tensors; 'convert-dl-to-affine' runs on buffers: bufferize first (dl-bufferize)
func.func @gemm(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = dl.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) {beta = 1.0 : f32} -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// The conv writes a temporary, freed after the bias add; the bias add writes
// the result, the argument appended; the ReLU runs in place on it.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.*]]: memref<1x8x10x10xf32>, %[[F:.*]]: memref<16x8x3x3xf32>, %[[BIAS:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<1x16x8x8xf32>) {
// CHECK-NEXT: %[[T:.*]] = memref.alloc() {{.*}} : memref<1x16x8x8xf32>
// CHECK-NEXT: dl.conv2d ins(%[[X]], %[[F]] : {{.*}}) outs(%[[T]] : memref<1x16x8x8xf32>)
// CHECK-NEXT: dl.bias_add ins(%[[T]], %[[BIAS]] : {{.*}}) outs(%[[OUT]] : memref<1x16x8x8xf32>)
// CHECK-NEXT: dl.relu ins(%[[OUT]] : memref<1x16x8x8xf32>) outs(%[[OUT]] : memref<1x16x8x8xf32>)
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NEXT: return
func.func @chain(%x: tensor<1x8x10x10xf32>, %f: tensor<16x8x3x3xf32>, %bias: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %y = dl.conv2d ins(%x, %f : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %z = dl.bias_add ins(%y, %bias : tensor<1x16x8x8xf32>, tensor<16xf32>) outs(%e2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %w = dl.relu ins(%z : tensor<1x16x8x8xf32>) outs(%z : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %w : tensor<1x16x8x8xf32>
}

// -----

// A GEMM that accumulates into a tensor still read afterwards: C is copied
// into a new buffer first (beta != 0 reads it); with beta = 0 it is not.
// CHECK-LABEL: func.func @accumulate_copy(
// CHECK-SAME: %[[A:.*]]: memref<8x8xf32>, %[[C:.*]]: memref<8x8xf32>, %[[R1:.*]]: memref<8x8xf32>, %[[R2:.*]]: memref<8x8xf32>) {
// CHECK: memref.copy %[[C]], %[[R1]]
// CHECK-NEXT: dl.matmul ins(%[[A]], %[[A]] : {{.*}}) outs(%[[R1]] : memref<8x8xf32>) {beta = 1.000000e+00 : f32}
// CHECK-NOT: memref.copy
// CHECK: dl.matmul ins(%[[A]], %[[A]] : {{.*}}) outs(%[[R2]] : memref<8x8xf32>)
func.func @accumulate_copy(%a: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %r1 = dl.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) {beta = 1.0 : f32} -> tensor<8x8xf32>
  %r2 = dl.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r1, %r2, %c : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A buffer program, which frees its own buffers, is left as it is.
// CHECK-LABEL: func.func @buffers(
// CHECK-NEXT: %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: dl.relu
// CHECK-NEXT: dl.relu
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NEXT: return
func.func @buffers(%x: memref<16xf32>, %y: memref<16xf32>) {
  %t = memref.alloc() : memref<16xf32>
  dl.relu ins(%x : memref<16xf32>) outs(%t : memref<16xf32>)
  dl.relu ins(%t : memref<16xf32>) outs(%y : memref<16xf32>)
  memref.dealloc %t : memref<16xf32>
  return
}

// -----

// A GEMM on collapsed views of a batch of one (a raised linalg.batch_matmul)
// writes the appended result argument itself: no temporary, no copy.
// CHECK-LABEL: func.func @batch_of_one(
// CHECK-SAME: %[[A:.*]]: memref<1x8x4xf32>, %[[B:.*]]: memref<1x4x16xf32>, %[[C:.*]]: memref<1x8x16xf32>) {
// CHECK-NOT: memref.alloc
// CHECK: %[[CC:.*]] = memref.collapse_shape %[[C]]
// CHECK: dl.matmul ins({{.*}}) outs(%[[CC]] : memref<8x16xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @batch_of_one(%a: tensor<1x8x4xf32>, %b: tensor<1x4x16xf32>) -> tensor<1x8x16xf32> {
  %e = tensor.empty() : tensor<1x8x16xf32>
  %ca = tensor.collapse_shape %a [[0, 1], [2]] : tensor<1x8x4xf32> into tensor<8x4xf32>
  %cb = tensor.collapse_shape %b [[0, 1], [2]] : tensor<1x4x16xf32> into tensor<4x16xf32>
  %cc = tensor.collapse_shape %e [[0, 1], [2]] : tensor<1x8x16xf32> into tensor<8x16xf32>
  %r = dl.matmul ins(%ca, %cb : tensor<8x4xf32>, tensor<4x16xf32>) outs(%cc : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x = tensor.expand_shape %r [[0, 1], [2]] output_shape [1, 8, 16] : tensor<8x16xf32> into tensor<1x8x16xf32>
  return %x : tensor<1x8x16xf32>
}
