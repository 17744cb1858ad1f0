// The lowering of dl.concat: one copy nest per input into its box of the
// output, at the sum of the sizes before it along the axis (a symbol when
// they are dynamic).
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s

// CHECK-LABEL: func.func @channels
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<2x3x5x7xf32>, %[[B:[a-z0-9_]+]]: memref<2x4x5x7xf32>, %[[C:[a-z0-9_]+]]: memref<2x7x5x7xf32>)
// CHECK: affine.for %[[N:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[CH:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[H:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 7 {
// CHECK-NEXT: %[[X:.*]] = affine.load %[[A]][%[[N]], %[[CH]], %[[H]], %[[W]]]
// CHECK-NEXT: affine.store %[[X]], %[[C]][%[[N]], %[[CH]], %[[H]], %[[W]]]
// CHECK: affine.for %[[N2:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[CH2:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[H2:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[W2:.*]] = 0 to 7 {
// CHECK-NEXT: %[[Y:.*]] = affine.load %[[B]][%[[N2]], %[[CH2]], %[[H2]], %[[W2]]]
// CHECK-NEXT: affine.store %[[Y]], %[[C]][%[[N2]], %[[CH2]] + 3, %[[H2]], %[[W2]]]
func.func @channels(%a: memref<2x3x5x7xf32>, %b: memref<2x4x5x7xf32>, %c: memref<2x7x5x7xf32>) {
  dl.concat ins(%a, %b : memref<2x3x5x7xf32>, memref<2x4x5x7xf32>) outs(%c : memref<2x7x5x7xf32>)
  return
}

// CHECK-LABEL: func.func @dynamic_rows
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<?x4xf32>, %[[B:[a-z0-9_]+]]: memref<?x4xf32>, %[[C:[a-z0-9_]+]]: memref<?x4xf32>)
// CHECK: %[[ROWS:.*]] = memref.dim %[[A]], %c0
// CHECK: affine.for %[[I:.*]] = 0 to %[[ROWS]] {
// CHECK: affine.store %{{.*}}, %[[C]][%[[I]], %{{.*}}]
// CHECK: affine.for %[[I2:.*]] = 0 to %{{.*}} {
// CHECK: affine.store %{{.*}}, %[[C]][%[[I2]] + symbol(%[[ROWS]]), %{{.*}}]
func.func @dynamic_rows(%a: memref<?x4xf32>, %b: memref<?x4xf32>, %c: memref<?x4xf32>) {
  dl.concat ins(%a, %b : memref<?x4xf32>, memref<?x4xf32>) outs(%c : memref<?x4xf32>) {axis = 0}
  return
}
