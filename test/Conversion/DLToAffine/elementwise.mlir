// The lowering of the element-wise ops: one nest over the output, its
// innermost dimension in 16-float vectors (a narrower one for the last
// lanes) where its size is static: each input loaded as a vector, or
// broadcast from one element where it does not move along that dimension;
// scalar loops otherwise.
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s

// CHECK-LABEL: func.func @relu
// CHECK: affine.for %[[I:.*]] = 0 to 7 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 32 step 16 {
// CHECK-NEXT: %[[X:.*]] = affine.vector_load %{{.*}}[%[[I]], %[[J]]] : memref<7x35xf32>, vector<16xf32>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-NEXT: %[[Y:.*]] = arith.maxnumf %[[X]], %[[ZERO]] : vector<16xf32>
// CHECK-NEXT: affine.vector_store %[[Y]], %{{.*}}[%[[I]], %[[J]]] : memref<7x35xf32>, vector<16xf32>
// CHECK: %[[TAIL:.*]] = arith.constant 32 : index
// CHECK-NEXT: affine.vector_load %{{.*}}[%[[I]], %[[TAIL]]] : memref<7x35xf32>, vector<3xf32>
// CHECK: affine.vector_store %{{.*}} : memref<7x35xf32>, vector<3xf32>
func.func @relu(%x: memref<7x35xf32>, %y: memref<7x35xf32>) {
  dl.relu ins(%x : memref<7x35xf32>) outs(%y : memref<7x35xf32>)
  return
}

// A dynamic innermost size: scalar loops.
// CHECK-LABEL: func.func @relu6_in_place
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<?xf32>)
// CHECK-DAG: %[[N:.*]] = memref.dim %[[X]]
// CHECK: affine.for %[[I:.*]] = 0 to %[[N]] {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[LOW:.*]] = arith.maxnumf %[[V]], %[[ZERO]]
// CHECK-NEXT: %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT: %[[R:.*]] = arith.minnumf %[[LOW]], %[[SIX]]
// CHECK-NEXT: affine.store %[[R]], %[[X]][%[[I]]]
func.func @relu6_in_place(%x: memref<?xf32>) {
  dl.relu6 ins(%x : memref<?xf32>) outs(%x : memref<?xf32>)
  return
}

// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<2x3xf32>, %[[B:[a-z0-9_]+]]: memref<2x3xf32>, %[[C:[a-z0-9_]+]]: memref<2x3xf32>)
// CHECK: %[[AV:.*]] = affine.vector_load %[[A]]{{.*}} vector<3xf32>
// CHECK-NEXT: %[[BV:.*]] = affine.vector_load %[[B]]{{.*}} vector<3xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[AV]], %[[BV]] : vector<3xf32>
// CHECK-NEXT: affine.vector_store %[[S]], %[[C]]
func.func @add(%a: memref<2x3xf32>, %b: memref<2x3xf32>, %c: memref<2x3xf32>) {
  dl.add ins(%a, %b : memref<2x3xf32>, memref<2x3xf32>) outs(%c : memref<2x3xf32>)
  return
}

// Bias per column of a matrix (a vector of the bias), per channel of NCHW
// (one element broadcast along the rows), and of NCHW8c (the block's vector
// of the bias).
// CHECK-LABEL: func.func @bias
// CHECK-SAME: (%{{.*}}: memref<4x5xf32>, %[[B1:[a-z0-9_]+]]: memref<5xf32>, %{{.*}}: memref<4x5xf32>, %{{.*}}: memref<1x6x2x2xf32>, %[[B2:[a-z0-9_]+]]: memref<6xf32>, %{{.*}}: memref<1x2x2x2x8xf32>, %[[B3:[a-z0-9_]+]]: memref<16xf32>)
// CHECK: affine.for %{{.*}} = 0 to 4 {
// CHECK: affine.vector_load %[[B1]][%{{.*}}] : memref<5xf32>, vector<5xf32>
// CHECK: affine.for %[[C:.*]] = 0 to 6 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK: %[[S:.*]] = affine.load %[[B2]][%[[C]]] : memref<6xf32>
// CHECK-NEXT: vector.broadcast %[[S]] : f32 to vector<2xf32>
// CHECK: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 {
// CHECK: affine.vector_load %[[B3]][%[[CB]] * 8 + %{{.*}}] : memref<16xf32>, vector<8xf32>
func.func @bias(%m: memref<4x5xf32>, %b1: memref<5xf32>, %mo: memref<4x5xf32>,
                %x: memref<1x6x2x2xf32>, %b2: memref<6xf32>,
                %xb: memref<1x2x2x2x8xf32>, %b3: memref<16xf32>) {
  dl.bias_add ins(%m, %b1 : memref<4x5xf32>, memref<5xf32>) outs(%mo : memref<4x5xf32>)
  dl.bias_add ins(%x, %b2 : memref<1x6x2x2xf32>, memref<6xf32>) outs(%x : memref<1x6x2x2xf32>)
  dl.bias_add ins(%xb, %b3 : memref<1x2x2x2x8xf32>, memref<16xf32>) outs(%xb : memref<1x2x2x2x8xf32>)
  return
}

// A product with per-channel scales (squeeze-and-excitation): on NCHW one
// scale broadcast along the rows, on NCHW16c the block's vector of scales.
// CHECK-LABEL: func.func @scales
// CHECK: %[[S:.*]] = affine.load %{{.*}}[0, %{{.*}}, 0, 0] : memref<1x4x1x1xf32>
// CHECK-NEXT: %[[V:.*]] = vector.broadcast %[[S]] : f32 to vector<16xf32>
// CHECK: arith.mulf %{{.*}}, %[[V]] : vector<16xf32>
// CHECK: affine.vector_load %{{.*}}[0, %{{.*}}, 0, 0, %{{.*}}] : memref<1x2x1x1x16xf32>, vector<16xf32>
func.func @scales(%x: memref<1x4x5x16xf32>, %s: memref<1x4x1x1xf32>,
                  %xb: memref<1x2x5x5x16xf32>, %sb: memref<1x2x1x1x16xf32>) {
  dl.mul ins(%x, %s : memref<1x4x5x16xf32>, memref<1x4x1x1xf32>) outs(%x : memref<1x4x5x16xf32>)
  dl.mul ins(%xb, %sb : memref<1x2x5x5x16xf32>, memref<1x2x1x1x16xf32>) outs(%xb : memref<1x2x5x5x16xf32>)
  return
}
// CHECK-NOT: dl.
