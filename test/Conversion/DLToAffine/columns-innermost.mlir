// A dl.matmul marked `dl.columns_innermost` (the generic version of a dynamic
// GEMM, dl-parametric-versioning) lowers to a plain nest over (i, k, j): the
// columns, unit stride in B and C, innermost. Each element of C still sums
// its products in k order. Not a GEMM band (the band is (i, j, k)).
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s

// CHECK-LABEL: func.func @ikj
// CHECK: affine.for %[[I:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: affine.for %[[J0:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: affine.store %{{.+}}, %arg2[%[[I]], %[[J0]]]
// CHECK: affine.for %[[I2:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: affine.for %[[K:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: affine.for %[[J:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: affine.load %arg0[%[[I2]], %[[K]]]
// CHECK-NEXT: affine.load %arg1[%[[K]], %[[J]]]
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: affine.load %arg2[%[[I2]], %[[J]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: affine.store %{{.+}}, %arg2[%[[I2]], %[[J]]]
// CHECK-NOT: dl.gemm_band
// CHECK: return
func.func @ikj(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {dl.columns_innermost}
  return
}
