// A GEMM's epilogue: applied to each block of C right after its last K block
// (after the copy back from packed C), or, without blocks, in one sweep over
// C after the nest. The bias is per column.
// RUN: dl-opt %s --convert-dl-to-affine --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @blocked
// CHECK-SAME: %[[BIAS:[a-z0-9_]+]]: memref<16xf32>, %[[C:[a-z0-9_]+]]: memref<16x16xf32>)
// The block of packed C set to zero, the K blocks around the band.
// CHECK: affine.store %{{.*}}, %{{.*}} : memref<2x2x8x8xf32>
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK: {dl.gemm_band}
// The copy back of the block, then the epilogue on it.
// CHECK: affine.store %{{.*}}, %[[C]]
// CHECK: affine.for %[[R:.*]] = 0 to 8 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT: %[[SUM:.*]] = affine.load %[[C]][%[[I:.*]] * 8 + %[[R]], %[[J:.*]] * 8 + %[[K]]]
// CHECK-NEXT: %[[B:.*]] = affine.load %[[BIAS]][%[[J]] * 8 + %[[K]]]
// CHECK-NEXT: %[[X:.*]] = arith.addf %[[SUM]], %[[B]]
// CHECK-NEXT: %[[Y:.*]] = arith.maxnumf %[[X]]
// CHECK-NEXT: affine.store %[[Y]], %[[C]][%[[I]] * 8 + %[[R]], %[[J]] * 8 + %[[K]]]
// CHECK-NOT: affine.load %[[BIAS]]
func.func @blocked(%a: memref<16x32xf32>, %b: memref<32x16xf32>, %bias: memref<16xf32>,
                   %c: memref<16x16xf32>) {
  dl.matmul ins(%a, %b : memref<16x32xf32>, memref<32x16xf32>) outs(%c : memref<16x16xf32>)
      epilogue(%bias : memref<16xf32>)
      {pack_blocks = array<i64: 8, 8, 8>, pack_a, pack_b, pack_c,
       epilogue = [#dl.post_op<bias_add>, #dl.post_op<relu>]}
  return
}

// CHECK-LABEL: func.func @plain
// CHECK-SAME: %[[R:[a-z0-9_]+]]: memref<5x3xf32>, %[[C:[a-z0-9_]+]]: memref<5x3xf32>)
// CHECK: arith.mulf
// CHECK: affine.for %[[I:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 3 {
// CHECK-NEXT: %[[SUM:.*]] = affine.load %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[RV:.*]] = affine.load %[[R]][%[[I]], %[[J]]]
// CHECK-NEXT: arith.addf %[[SUM]], %[[RV]]
// CHECK-NEXT: arith.maxnumf
// CHECK-NEXT: arith.minnumf
// CHECK-NEXT: affine.store
func.func @plain(%a: memref<5x7xf32>, %b: memref<7x3xf32>, %r: memref<5x3xf32>, %c: memref<5x3xf32>) {
  dl.matmul ins(%a, %b : memref<5x7xf32>, memref<7x3xf32>) outs(%c : memref<5x3xf32>)
      epilogue(%r : memref<5x3xf32>) {epilogue = [#dl.post_op<add>, #dl.post_op<relu6>]}
  return
}
