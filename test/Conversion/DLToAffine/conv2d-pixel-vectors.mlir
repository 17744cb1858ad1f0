// The lowering of a plain convolution marked pixel_vectors: register tiles
// of output rows x output channels x 16-column vectors accumulated in
// vector.fma over (c, r, s), every input vector shared by the tile's
// channels and every broadcast weight by its vectors.
// RUN: dl-opt %s --dl-set-target=vector-bits=512 --convert-dl-to-affine --canonicalize | FileCheck %s
// RUN: dl-opt %s --dl-set-target=vector-bits=256 --convert-dl-to-affine --canonicalize | FileCheck %s --check-prefix=AVX2

// No padding, unit column stride: taps read the input. 18 columns: a vector
// at 0 and one ending at the last column (at 2); 2 channels x 2 rows x 2
// vectors = 8 accumulators.
// CHECK-LABEL: func.func @direct
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: memref<1x2x4x20xf32>, %[[F:[a-z0-9_]+]]: memref<2x2x3x3xf32>, %[[OUT:[a-z0-9_]+]]: memref<1x2x2x18xf32>)
// CHECK-NOT: memref.alloc
// CHECK: %{{.*}}:8 = affine.for %[[C:.*]] = 0 to 2 iter_args
// CHECK: %{{.*}}:8 = affine.for %[[R:.*]] = 0 to 3 iter_args
// CHECK: %{{.*}}:8 = affine.for %[[S:.*]] = 0 to 3 iter_args
// CHECK: affine.load %[[F]][{{.*}}, %[[C]], %[[R]], %[[S]]]
// CHECK: vector.broadcast
// CHECK: affine.load %[[F]][{{.*}} + 1, %[[C]], %[[R]], %[[S]]]
// CHECK: %[[X0:.*]] = affine.vector_load %[[IN]][%{{.*}}, %[[C]], %{{.*}} + %[[R]], %[[S]]] : memref<1x2x4x20xf32>, vector<16xf32>
// CHECK-COUNT-2: vector.fma %[[X0]]
// CHECK: %[[X1:.*]] = affine.vector_load %[[IN]][%{{.*}}, %[[C]], %{{.*}} + %[[R]], %[[S]] + 2]
// CHECK-COUNT-2: vector.fma %[[X1]]
// CHECK-COUNT-8: affine.vector_store %{{.*}}, %[[OUT]]
// AVX2's 16 registers hold 8 such vectors: tiles of 6 accumulators at
// most, of the fewest vectors among equals; here 1 vector x 2 channels x 2
// rows, the row's first vector in a loop over whole vectors, then the one
// ending at the last column.
// AVX2-LABEL: func.func @direct
// AVX2: %{{.*}}:4 = affine.for %{{.*}} = 0 to 2 iter_args
// AVX2-COUNT-4: affine.vector_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} * 16]
// AVX2: %{{.*}}:4 = affine.for %{{.*}} = 0 to 2 iter_args
// AVX2-COUNT-4: affine.vector_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, 2]
// AVX2-NOT: affine.vector_store
// AVX2-LABEL: func.func @window
func.func @direct(%in: memref<1x2x4x20xf32>, %f: memref<2x2x3x3xf32>, %out: memref<1x2x2x18xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x4x20xf32>, memref<2x2x3x3xf32>) outs(%out : memref<1x2x2x18xf32>) {pixel_vectors}
  return
}

// Padding and stride 2: per row tile (3 output rows), a window of the 7
// padded input rows it reads, zero outside the input, allocated and freed
// inside the tile loop; each tap loads 2 vectors, the second ending at the
// tap's last column (at 15 of 0..30), and shuffles their even columns into
// one. 3 columns: the lanes stored one by one.
// CHECK-LABEL: func.func @window
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[T:.*]] = 0 to 1 {
// CHECK-NEXT: %[[W:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x7x33xf32>
// CHECK: affine.if
// CHECK: affine.for %{{.*}} = 1 to 6 {
// CHECK-NEXT: affine.load %{{.*}}[%[[N]], %{{.*}}, %[[T]] * 6 + %{{.*}} - 1, %{{.*}} - 1] : memref<1x2x5x5xf32>
// CHECK: } else {
// CHECK: affine.vector_load %[[W]][%[[C:.*]], %[[R:.*]], %[[S:.*]]] :
// CHECK-NEXT: affine.vector_load %[[W]][%[[C]], %[[R]], %[[S]] + 15]
// CHECK-NEXT: vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK-NEXT: vector.shuffle {{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK-NEXT: vector.fma
// CHECK: affine.for %[[LANE:.*]] = 0 to 3 {
// CHECK-NEXT: vector.extract %{{.*}}[%[[LANE]]] : f32 from vector<16xf32>
// CHECK: memref.dealloc %[[W]]
func.func @window(%in: memref<1x2x5x5xf32>, %f: memref<1x2x3x3xf32>, %out: memref<1x1x3x3xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x5x5xf32>, memref<1x2x3x3xf32>) outs(%out : memref<1x1x3x3xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, pixel_vectors}
  return
}

// A pointwise convolution: the rows of input and output join into one row
// of 20 pixels (views), two vectors (at 0 and 4) per image.
// CHECK-LABEL: func.func @pointwise
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : memref<2x3x4x5xf32> into memref<2x3x20xf32>
// CHECK: %[[JOINED:.*]] = memref.expand_shape %[[ROWS]] {{.*}} into memref<2x3x1x20xf32>
// CHECK: memref.expand_shape {{.*}} into memref<2x1x1x20xf32>
// CHECK: affine.vector_load %[[JOINED]]
// CHECK: affine.vector_load %[[JOINED]][{{.*}} + 4]
func.func @pointwise(%in: memref<2x3x4x5xf32>, %f: memref<1x3x1x1xf32>, %out: memref<2x1x4x5xf32>) {
  dl.conv2d ins(%in, %f : memref<2x3x4x5xf32>, memref<1x3x1x1xf32>) outs(%out : memref<2x1x4x5xf32>) {pixel_vectors}
  return
}
