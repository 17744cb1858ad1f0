// The lowering of dl.matmul: scaling of C by beta, then the (i, j, k) nest,
// tagged as a GEMM band when it is one (no transpose, alpha = 1).
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s

// beta = 0 (default): C is zeroed, never read; alpha = 1 multiplies nothing.
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<4x3xf32>, %[[B:[a-z0-9_]+]]: memref<3x5xf32>, %[[C:[a-z0-9_]+]]: memref<4x5xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: affine.for %[[I0:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J0:.*]] = 0 to 5 {
// CHECK-NEXT: affine.store %[[ZERO]], %[[C]][%[[I0]], %[[J0]]]
// CHECK: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: %[[AV:.*]] = affine.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT: %[[BV:.*]] = affine.load %[[B]][%[[K]], %[[J]]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[AV]], %[[BV]]
// CHECK-NEXT: %[[CV:.*]] = affine.load %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[CV]], %[[P]]
// CHECK-NEXT: affine.store %[[S]], %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: } {dl.gemm_band}
// CHECK-NOT: dl.
func.func @plain(%a: memref<4x3xf32>, %b: memref<3x5xf32>, %c: memref<4x5xf32>) {
  dl.matmul ins(%a, %b : memref<4x3xf32>, memref<3x5xf32>) outs(%c : memref<4x5xf32>)
  return
}

// alpha, beta and transposes: C = 0.5 * C, then C += 2 * A[i][k] * B^T.
// CHECK-LABEL: func.func @scaled_transposed
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<4x3xf32>, %[[B:[a-z0-9_]+]]: memref<5x3xf32>, %[[C:[a-z0-9_]+]]: memref<4x5xf32>)
// CHECK-DAG: %[[BETA:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[ALPHA:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[OLD:.*]] = affine.load %[[C]]
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[BETA]], %[[OLD]]
// CHECK-NEXT: affine.store %[[SCALED]], %[[C]]
// CHECK: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: affine.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT: affine.load %[[B]][%[[J]], %[[K]]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf
// CHECK-NEXT: arith.mulf %[[ALPHA]], %[[P]]
// CHECK-NOT: dl.gemm_band
// CHECK-LABEL: func.func @accumulate
func.func @scaled_transposed(%a: memref<4x3xf32>, %b: memref<5x3xf32>, %c: memref<4x5xf32>) {
  dl.matmul ins(%a, %b : memref<4x3xf32>, memref<5x3xf32>) outs(%c : memref<4x5xf32>)
      {alpha = 2.0 : f32, beta = 0.5 : f32, transpose_b}
  return
}

// beta = 1: no scaling nest. transpose_a reads A[k][i].
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<3x4xf32>
// CHECK-NOT: arith.constant
// CHECK: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 3 {
// CHECK-NEXT: affine.load %[[A]][%[[K]], %[[I]]]
func.func @accumulate(%a: memref<3x4xf32>, %b: memref<3x5xf32>, %c: memref<4x5xf32>) {
  dl.matmul ins(%a, %b : memref<3x4xf32>, memref<3x5xf32>) outs(%c : memref<4x5xf32>)
      {beta = 1.0 : f32, transpose_a}
  return
}

// Dynamic sizes bound the loops with memref.dim symbols (their relations
// are checked by dl-insert-size-checks, not here).
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<?x?xf32>, %[[B:[a-z0-9_]+]]: memref<?x?xf32>, %[[C:[a-z0-9_]+]]: memref<?x?xf32>)
// CHECK-NOT: cf.assert
// CHECK-DAG: %[[M:.*]] = memref.dim %[[C]], %{{.*}}
// CHECK-DAG: %[[N:.*]] = memref.dim %[[C]], %{{.*}}
// CHECK-DAG: %[[K:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: affine.store %{{.*}}, %[[C]]
// CHECK: affine.for %{{.*}} = 0 to %[[M]] {
// CHECK-NEXT: affine.for %{{.*}} = 0 to %[[N]] {
// CHECK-NEXT: affine.for %{{.*}} = 0 to %[[K]] {
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// A blocked B (N/bn x K/bk x bk x bn, packed ahead of time) is read at
// B[j / bn][k / bk][k % bk][j % bn]: no GEMM band in the plain nest.
// CHECK-LABEL: func.func @blocked_b
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<4x6xf32>, %[[B:[a-z0-9_]+]]: memref<3x2x3x2xf32>, %[[C:[a-z0-9_]+]]: memref<4x6xf32>)
// CHECK: affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 6 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 6 {
// CHECK-NEXT: affine.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT: affine.load %[[B]][%[[J]] floordiv 2, %[[K]] floordiv 3, %[[K]] mod 3, %[[J]] mod 2]
// CHECK-NOT: dl.gemm_band
func.func @blocked_b(%a: memref<4x6xf32>, %b: memref<3x2x3x2xf32>, %c: memref<4x6xf32>) {
  dl.matmul ins(%a, %b : memref<4x6xf32>, memref<3x2x3x2xf32>) outs(%c : memref<4x6xf32>)
      {beta = 1.0 : f32}
  return
}

