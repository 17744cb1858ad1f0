// Which convolutions dl-merge-conv-rows runs on views with merged rows, how
// many rows it merges, and which it leaves (not pointwise, long rows,
// scheduled, plain layout, activations whose rows do not collapse).
// RUN: dl-opt %s --dl-merge-conv-rows --split-input-file | FileCheck %s
// RUN: dl-opt %s --dl-merge-conv-rows="min-rows=1" --split-input-file | FileCheck %s --check-prefix=NONE
// RUN: not dl-opt %s --dl-merge-conv-rows="min-rows=0" 2>&1 | FileCheck %s --check-prefix=INVALID

// INVALID: error: dl-merge-conv-rows: min-rows must be >= 1
// NONE-NOT: memref.expand_shape

// 7-pixel rows: all 7 merge into one row of 49, on the input and the output.
// CHECK-LABEL: func @seven
// CHECK-SAME: (%[[IN:.*]]: memref<1x64x7x7x32xf32>, %[[F:.*]]: memref<16x64x1x1x32x32xf32>, %[[OUT:.*]]: memref<1x16x7x7x32xf32>)
// CHECK: %[[IP:.*]] = memref.collapse_shape %[[IN]] {{\[\[}}0], [1], [2, 3], [4]] : memref<1x64x7x7x32xf32> into memref<1x64x49x32xf32>
// CHECK: %[[IR:.*]] = memref.expand_shape %[[IP]] {{\[\[}}0], [1], [2, 3], [4]] output_shape [1, 64, 1, 49, 32] : memref<1x64x49x32xf32> into memref<1x64x1x49x32xf32>
// CHECK: %[[OP:.*]] = memref.collapse_shape %[[OUT]] {{.*}} into memref<1x16x49x32xf32>
// CHECK: %[[OR:.*]] = memref.expand_shape %[[OP]] {{.*}} into memref<1x16x1x49x32xf32>
// CHECK: dl.conv2d ins(%[[IR]], %[[F]] : memref<1x64x1x49x32xf32>, memref<16x64x1x1x32x32xf32>) outs(%[[OR]] : memref<1x16x1x49x32xf32>)
func.func @seven(%in: memref<1x64x7x7x32xf32>, %f: memref<16x64x1x1x32x32xf32>, %out: memref<1x16x7x7x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x64x7x7x32xf32>, memref<16x64x1x1x32x32xf32>) outs(%out : memref<1x16x7x7x32xf32>)
  return
}

// -----

// 14-pixel rows: 2 would make 28 < 32 pixels; 7 (the next divisor of 14)
// make 98. Two images: the batch dimension stays.
// CHECK-LABEL: func @fourteen
// CHECK: dl.conv2d ins({{.*}} : memref<2x32x2x98x32xf32>, memref<8x32x1x1x32x32xf32>) outs({{.*}} : memref<2x8x2x98x32xf32>)
func.func @fourteen(%in: memref<2x32x14x14x32xf32>, %f: memref<8x32x1x1x32x32xf32>, %out: memref<2x8x14x14x32xf32>) {
  dl.conv2d ins(%in, %f : memref<2x32x14x14x32xf32>, memref<8x32x1x1x32x32xf32>) outs(%out : memref<2x8x14x14x32xf32>)
  return
}

// -----

// 28-pixel rows: 2 merge into 56.
// CHECK-LABEL: func @twenty_eight
// CHECK: dl.conv2d ins({{.*}} : memref<1x4x14x56x32xf32>, {{.*}}) outs({{.*}} : memref<1x4x14x56x32xf32>)
func.func @twenty_eight(%in: memref<1x4x28x28x32xf32>, %f: memref<4x4x1x1x32x32xf32>, %out: memref<1x4x28x28x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x28x28x32xf32>, memref<4x4x1x1x32x32xf32>) outs(%out : memref<1x4x28x28x32xf32>)
  return
}

// -----

// Left as they are: rows of 56 pixels already; a 3x3 filter, a stride of 2
// and padding (the input rows are not the output rows); a schedule (its row
// tiles refer to the 7 rows); the plain layout; an input with a strided
// layout (rows 448 floats apart while a row holds 224: not contiguous).
// CHECK-LABEL: func @left
// CHECK-NOT: memref.expand_shape
// CHECK: dl.conv2d ins({{.*}} : memref<1x2x56x56x32xf32>
// CHECK: dl.conv2d ins({{.*}} : memref<1x2x9x9x32xf32>, memref<2x2x3x3x32x32xf32>) outs({{.*}} : memref<1x2x7x7x32xf32>)
// CHECK: dl.conv2d ins({{.*}} : memref<1x2x13x13x32xf32>, memref<2x2x1x1x32x32xf32>) outs({{.*}} : memref<1x2x7x7x32xf32>)
// CHECK: dl.conv2d ins({{.*}} : memref<1x2x7x7x32xf32>, memref<2x2x1x1x32x32xf32>) outs({{.*}} : memref<1x2x9x9x32xf32>)
// CHECK: dl.conv2d ins({{.*}} : memref<1x2x7x7x32xf32>, memref<2x2x1x1x32x32xf32>) outs({{.*}} : memref<1x2x7x7x32xf32>)
// CHECK-SAME: schedule
// CHECK: dl.conv2d ins({{.*}} : memref<1x64x7x7xf32>
// CHECK: dl.conv2d ins({{.*}} : memref<1x2x7x7x32xf32, strided<[6272, 3136, 448, 32, 1]>>
func.func @left(%big: memref<1x2x56x56x32xf32>, %bigout: memref<1x2x56x56x32xf32>,
                %f1: memref<2x2x1x1x32x32xf32>, %f3: memref<2x2x3x3x32x32xf32>,
                %in9: memref<1x2x9x9x32xf32>, %in13: memref<1x2x13x13x32xf32>,
                %in: memref<1x2x7x7x32xf32>, %out: memref<1x2x7x7x32xf32>, %out9: memref<1x2x9x9x32xf32>,
                %plainin: memref<1x64x7x7xf32>, %plainf: memref<64x64x1x1xf32>, %plainout: memref<1x64x7x7xf32>,
                %strided: memref<1x2x7x7x32xf32, strided<[6272, 3136, 448, 32, 1]>>) {
  dl.conv2d ins(%big, %f1 : memref<1x2x56x56x32xf32>, memref<2x2x1x1x32x32xf32>) outs(%bigout : memref<1x2x56x56x32xf32>)
  dl.conv2d ins(%in9, %f3 : memref<1x2x9x9x32xf32>, memref<2x2x3x3x32x32xf32>) outs(%out : memref<1x2x7x7x32xf32>)
  dl.conv2d ins(%in13, %f1 : memref<1x2x13x13x32xf32>, memref<2x2x1x1x32x32xf32>) outs(%out : memref<1x2x7x7x32xf32>)
      {strides = array<i64: 2, 2>}
  dl.conv2d ins(%in, %f1 : memref<1x2x7x7x32xf32>, memref<2x2x1x1x32x32xf32>) outs(%out9 : memref<1x2x9x9x32xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%in, %f1 : memref<1x2x7x7x32xf32>, memref<2x2x1x1x32x32xf32>) outs(%out : memref<1x2x7x7x32xf32>)
      {schedule = #dl.schedule<[n, kb, oh]>}
  dl.conv2d ins(%plainin, %plainf : memref<1x64x7x7xf32>, memref<64x64x1x1xf32>) outs(%plainout : memref<1x64x7x7xf32>)
  dl.conv2d ins(%strided, %f1 : memref<1x2x7x7x32xf32, strided<[6272, 3136, 448, 32, 1]>>, memref<2x2x1x1x32x32xf32>) outs(%out : memref<1x2x7x7x32xf32>)
  return
}
