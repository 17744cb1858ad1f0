// RUN: dl-opt %s --dl-insert-size-checks --split-input-file | FileCheck %s

// Each size relation that involves a dynamic size becomes a cf.assert right
// before the op, whose message names the op's location and the relation.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<?x?xf32>, %[[B:[a-z0-9_]+]]: memref<?x?xf32>, %[[C:[a-z0-9_]+]]: memref<?x?xf32>)
// CHECK-DAG: %[[KA:.*]] = memref.dim %[[A]], %c1
// CHECK-DAG: %[[KB:.*]] = memref.dim %[[B]], %c0
// CHECK: %[[SAMEK:.*]] = arith.cmpi eq, %[[KA]], %[[KB]] : index
// CHECK-NEXT: cf.assert %[[SAMEK]], "{{.*}}insert-size-checks.mlir:[[@LINE+6]]:3: 'dl.matmul' op run-time size check failed: K of op(A) does not match K of op(B)"
// CHECK: cf.assert %{{.*}}, "{{.*}}: 'dl.matmul' op run-time size check failed: M of op(A) does not match rows of C"
// CHECK: cf.assert %{{.*}}, "{{.*}}: 'dl.matmul' op run-time size check failed: N of op(B) does not match columns of C"
// CHECK-NEXT: dl.matmul
// CHECK-NOT: cf.assert
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// With dynamic block counts, K and N of a blocked B are blocks x block.
// CHECK-LABEL: func.func @blocked_b
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: memref<?x?xf32>, %[[B:[a-z0-9_]+]]: memref<?x?x3x2xf32>
// CHECK-DAG: %[[KA:.*]] = memref.dim %[[A]], %c1
// CHECK-DAG: %[[KBLOCKS:.*]] = memref.dim %[[B]], %c1
// CHECK: %[[KB:.*]] = arith.muli %[[KBLOCKS]], %c3
// CHECK: %[[SAMEK:.*]] = arith.cmpi eq, %[[KA]], %[[KB]] : index
// CHECK-NEXT: cf.assert %[[SAMEK]], "{{.*}}: 'dl.matmul' op run-time size check failed: K of op(A) does not match K of op(B)"
// CHECK: cf.assert %{{.*}}, "{{.*}}: 'dl.matmul' op run-time size check failed: N of op(B) does not match columns of C"
func.func @blocked_b(%a: memref<?x?xf32>, %b: memref<?x?x3x2xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?x3x2xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// The channels are static (the verifier checked them); batch, heights and
// widths are not.
// CHECK-LABEL: func.func @conv
// CHECK: cf.assert %{{.*}}, "{{.*}}insert-size-checks.mlir:[[@LINE+8]]:3: 'dl.conv2d' op run-time size check failed: input batch does not match output batch"
// CHECK-NOT: channels
// CHECK: cf.assert %{{.*}}, "{{.*}}: the padded input height is less than the dilated filter height"
// CHECK: cf.assert %{{.*}}, "{{.*}}: output height does not match the height implied by input, filter, stride, padding and dilation"
// CHECK: cf.assert %{{.*}}, "{{.*}}: the padded input width is less than the dilated filter width"
// CHECK: cf.assert %{{.*}}, "{{.*}}: output width does not match the width implied by input, filter, stride, padding and dilation"
// CHECK-NEXT: dl.conv2d
func.func @conv(%in: memref<?x3x?x?xf32>, %f: memref<8x3x3x3xf32>, %out: memref<?x8x?x?xf32>) {
  dl.conv2d ins(%in, %f : memref<?x3x?x?xf32>, memref<8x3x3x3xf32>) outs(%out : memref<?x8x?x?xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// CHECK-LABEL: func.func @batch_norm_training
// CHECK: cf.assert %{{.*}}, "{{.*}}'dl.batch_norm_training' op run-time size check failed: input size 0 does not match output size 0"
// CHECK: dl.batch_norm_training
func.func @batch_norm_training(%x: memref<?x3x?x?xf32>, %g: memref<3xf32>, %b: memref<3xf32>,
                               %y: memref<?x3x?x?xf32>, %m: memref<3xf32>, %v: memref<3xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<?x3x?x?xf32>, memref<3xf32>, memref<3xf32>)
      outs(%y, %m, %v : memref<?x3x?x?xf32>, memref<3xf32>, memref<3xf32>)
  return
}

// -----

// In place, a size is related to itself: nothing to check.
// CHECK-LABEL: func.func @relu_in_place
// CHECK-NOT: cf.assert
// CHECK: dl.relu
func.func @relu_in_place(%x: memref<?x?xf32>) {
  dl.relu ins(%x : memref<?x?xf32>) outs(%x : memref<?x?xf32>)
  return
}

// -----

// Static sizes were verified: the function is unchanged.
// CHECK-LABEL: func.func @static
// CHECK-NEXT: dl.matmul
// CHECK-NEXT: return
func.func @static(%a: memref<4x3xf32>, %b: memref<3x5xf32>, %c: memref<4x5xf32>) {
  dl.matmul ins(%a, %b : memref<4x3xf32>, memref<3x5xf32>) outs(%c : memref<4x5xf32>)
  return
}
