// The lowering of dl.pack / dl.unpack: a copy nest over the blocked tensor,
// in both directions.
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s

// CHECK-LABEL: func.func @activations
// CHECK-SAME: (%[[P:[a-z0-9_]+]]: memref<2x32x5x5xf32>, %[[BL:[a-z0-9_]+]]: memref<2x2x5x5x16xf32>)
// Pack: dest[n][cb][h][w][c] = src[n][cb * 16 + c][h][w].
// CHECK: affine.for %[[N:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[H:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 16 {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[P]][%[[N]], %[[CB]] * 16 + %[[C]], %[[H]], %[[W]]]
// CHECK-NEXT: affine.store %[[V]], %[[BL]][%[[N]], %[[CB]], %[[H]], %[[W]], %[[C]]]
// Unpack: dest[n][cb * 16 + c][h][w] = src[n][cb][h][w][c].
// CHECK: affine.for %[[N2:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[CB2:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[H2:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[W2:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[C2:.*]] = 0 to 16 {
// CHECK-NEXT: %[[U:.*]] = affine.load %[[BL]][%[[N2]], %[[CB2]], %[[H2]], %[[W2]], %[[C2]]]
// CHECK-NEXT: affine.store %[[U]], %[[P]][%[[N2]], %[[CB2]] * 16 + %[[C2]], %[[H2]], %[[W2]]]
func.func @activations(%p: memref<2x32x5x5xf32>, %b: memref<2x2x5x5x16xf32>) {
  dl.pack ins(%p : memref<2x32x5x5xf32>) outs(%b : memref<2x2x5x5x16xf32>)
  dl.unpack ins(%b : memref<2x2x5x5x16xf32>) outs(%p : memref<2x32x5x5xf32>)
  return
}

// Filters: dest[kb][cb][r][s][c][k] = src[kb * 8 + k][cb * 4 + c][r][s].
// CHECK-LABEL: func.func @filters
// CHECK-SAME: (%[[P:[a-z0-9_]+]]: memref<16x8x3x3xf32>, %[[BL:[a-z0-9_]+]]: memref<2x2x3x3x4x8xf32>)
// CHECK: affine.for %[[KB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[S:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[P]][%[[KB]] * 8 + %[[K]], %[[CB]] * 4 + %[[C]], %[[R]], %[[S]]]
// CHECK-NEXT: affine.store %[[V]], %[[BL]][%[[KB]], %[[CB]], %[[R]], %[[S]], %[[C]], %[[K]]]
// Unpack of a filter.
// CHECK: %[[F:.*]] = affine.load %[[BL]][%[[KB2:.*]], %[[CB2:.*]], %[[R2:.*]], %[[S2:.*]], %[[C2:.*]], %[[K2:.*]]]
// CHECK-NEXT: affine.store %[[F]], %[[P]][%[[KB2]] * 8 + %[[K2]], %[[CB2]] * 4 + %[[C2]], %[[R2]], %[[S2]]]
func.func @filters(%p: memref<16x8x3x3xf32>, %b: memref<2x2x3x3x4x8xf32>) {
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<2x2x3x3x4x8xf32>)
  dl.unpack ins(%b : memref<2x2x3x3x4x8xf32>) outs(%p : memref<16x8x3x3xf32>)
  return
}
// CHECK-NOT: dl.

// A padded last channel block (13 channels in 2 blocks of 8): the pack zeroes
// channels 5..7 of block 1, then copies the whole block and the 5 channels of
// the last one in two nests; the unpack copies the same two parts back.
// CHECK-LABEL: func.func @padded
// CHECK-SAME: (%[[P:[a-z0-9_]+]]: memref<1x13x2x2xf32>, %[[BL:[a-z0-9_]+]]: memref<1x2x2x2x8xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: affine.for %[[PC:.*]] = 0 to 3 {
// CHECK-NEXT: affine.store %[[ZERO]], %[[BL]][%{{.*}}, %{{.*}} + 1, %{{.*}}, %{{.*}}, %[[PC]] + 5]
// CHECK: affine.for %[[C:.*]] = 0 to 8 {
// CHECK-NEXT: affine.load %[[P]][%{{.*}}, %{{.*}} * 8 + %[[C]], %{{.*}}, %{{.*}}]
// CHECK: affine.for %[[LC:.*]] = 0 to 5 {
// CHECK-NEXT: affine.load %[[P]][%{{.*}}, (%{{.*}} + 1) * 8 + %[[LC]], %{{.*}}, %{{.*}}]
// CHECK-NEXT: affine.store %{{.*}}, %[[BL]][%{{.*}}, %{{.*}} + 1, %{{.*}}, %{{.*}}, %[[LC]]]
// CHECK: affine.for %{{.*}} = 0 to 8 {
// CHECK: affine.for %[[UC:.*]] = 0 to 5 {
// CHECK-NEXT: %[[U:.*]] = affine.load %[[BL]][%{{.*}}, %{{.*}} + 1, %{{.*}}, %{{.*}}, %[[UC]]]
// CHECK-NEXT: affine.store %[[U]], %[[P]][%{{.*}}, (%{{.*}} + 1) * 8 + %[[UC]], %{{.*}}, %{{.*}}]
// CHECK-NOT: affine.store %[[ZERO]]
func.func @padded(%p: memref<1x13x2x2xf32>, %b: memref<1x2x2x2x8xf32>) {
  dl.pack ins(%p : memref<1x13x2x2xf32>) outs(%b : memref<1x2x2x2x8xf32>)
  dl.unpack ins(%b : memref<1x2x2x2x8xf32>) outs(%p : memref<1x13x2x2xf32>)
  return
}
