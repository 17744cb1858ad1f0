// The lowering of the element-wise ops: one nest over the output.
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s

// CHECK-LABEL: func.func @relu
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: affine.for %[[I:.*]] = 0 to 7 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 3 {
// CHECK-NEXT: %[[X:.*]] = affine.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT: %[[Y:.*]] = arith.maxnumf %[[X]], %[[ZERO]]
// CHECK-NEXT: affine.store %[[Y]], %{{.*}}[%[[I]], %[[J]]]
func.func @relu(%x: memref<7x3xf32>, %y: memref<7x3xf32>) {
  dl.relu ins(%x : memref<7x3xf32>) outs(%y : memref<7x3xf32>)
  return
}

// CHECK-LABEL: func.func @relu6_in_place
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<?xf32>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-DAG: %[[N:.*]] = memref.dim %[[X]]
// CHECK: affine.for %[[I:.*]] = 0 to %[[N]] {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[LOW:.*]] = arith.maxnumf %[[V]], %[[ZERO]]
// CHECK-NEXT: %[[R:.*]] = arith.minnumf %[[LOW]], %[[SIX]]
// CHECK-NEXT: affine.store %[[R]], %[[X]][%[[I]]]
func.func @relu6_in_place(%x: memref<?xf32>) {
  dl.relu6 ins(%x : memref<?xf32>) outs(%x : memref<?xf32>)
  return
}

// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<2x3xf32>, %[[B:[a-z0-9_]+]]: memref<2x3xf32>, %[[C:[a-z0-9_]+]]: memref<2x3xf32>)
// CHECK: %[[AV:.*]] = affine.load %[[A]]
// CHECK-NEXT: %[[BV:.*]] = affine.load %[[B]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[AV]], %[[BV]]
// CHECK-NEXT: affine.store %[[S]], %[[C]]
func.func @add(%a: memref<2x3xf32>, %b: memref<2x3xf32>, %c: memref<2x3xf32>) {
  dl.add ins(%a, %b : memref<2x3xf32>, memref<2x3xf32>) outs(%c : memref<2x3xf32>)
  return
}

// Bias per column of a matrix, per channel of NCHW and of NCHW8c.
// CHECK-LABEL: func.func @bias
// CHECK-SAME: (%{{.*}}: memref<4x5xf32>, %[[B1:[a-z0-9_]+]]: memref<5xf32>, %{{.*}}: memref<4x5xf32>, %{{.*}}: memref<1x6x2x2xf32>, %[[B2:[a-z0-9_]+]]: memref<6xf32>, %{{.*}}: memref<1x2x2x2x8xf32>, %[[B3:[a-z0-9_]+]]: memref<16xf32>)
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 5 {
// CHECK: affine.load %[[B1]][%[[J]]]
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 6 {
// CHECK: affine.load %[[B2]][%[[C]]]
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %[[CI:.*]] = 0 to 8 {
// CHECK: affine.load %[[B3]][%[[CB]] * 8 + %[[CI]]]
func.func @bias(%m: memref<4x5xf32>, %b1: memref<5xf32>, %mo: memref<4x5xf32>,
                %x: memref<1x6x2x2xf32>, %b2: memref<6xf32>,
                %xb: memref<1x2x2x2x8xf32>, %b3: memref<16xf32>) {
  dl.bias_add ins(%m, %b1 : memref<4x5xf32>, memref<5xf32>) outs(%mo : memref<4x5xf32>)
  dl.bias_add ins(%x, %b2 : memref<1x6x2x2xf32>, memref<6xf32>) outs(%x : memref<1x6x2x2xf32>)
  dl.bias_add ins(%xb, %b3 : memref<1x2x2x2x8xf32>, memref<16xf32>) outs(%xb : memref<1x2x2x2x8xf32>)
  return
}
// CHECK-NOT: dl.
