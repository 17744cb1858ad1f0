// Passes over a convolution's output in conv + BN training + ReLU, on the
// lowered IR: the convolution writes it (its tiles' statistics are taken
// right after each tile, in the same nest), then, fused, the batch
// normalization reads it once (the normalize sweep; its statistics are the
// rows' merged); unfused it reads it twice (the statistics sweep, then the
// normalize sweep).
// RUN: dl-opt %s --dl-fuse-epilogues --convert-dl-to-affine --canonicalize | FileCheck %s --check-prefix=FUSED
// RUN: dl-opt %s --convert-dl-to-affine --canonicalize | FileCheck %s --check-prefix=UNFUSED

// FUSED-LABEL: func.func @conv_bn_training_relu
// FUSED-SAME: %[[OUT:[a-z0-9_]+]]: memref<1x2x6x6x16xf32>)
// FUSED: %[[ROWS:.*]] = memref.alloc() : memref<1x6x2x32xf32>
// FUSED: {dl.gemm_band}
// FUSED: affine.vector_load %[[OUT]]
// FUSED: affine.vector_store %{{.*}}, %[[ROWS]]
// FUSED: %[[VIEW:.*]] = memref.collapse_shape %[[OUT]]
// No statistics sweep (its 4 chains of sums and squares): the rows merged.
// FUSED-NOT: vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
// FUSED: iter_args({{.*}}) -> (f32, vector<16xf32>, vector<16xf32>)
// FUSED: affine.vector_load %[[ROWS]]
// FUSED: math.rsqrt
// The normalize sweep, the one read of the output.
// FUSED: affine.vector_load %[[VIEW]]
// FUSED-NOT: iter_args
// FUSED: memref.dealloc %[[ROWS]]

// UNFUSED-LABEL: func.func @conv_bn_training_relu
// UNFUSED-SAME: %[[OUT:[a-z0-9_]+]]: memref<1x2x6x6x16xf32>)
// UNFUSED-NOT: memref<1x6x2x32xf32>
// UNFUSED: %[[VIEW:.*]] = memref.collapse_shape %[[OUT]]
// UNFUSED: iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// UNFUSED: affine.vector_load %[[VIEW]]
// UNFUSED: math.rsqrt
// UNFUSED: affine.vector_load %[[VIEW]]
func.func @conv_bn_training_relu(%in: memref<1x1x6x6x16xf32>, %f: memref<2x1x3x3x16x16xf32>,
                                 %g: memref<32xf32>, %b: memref<32xf32>,
                                 %y: memref<1x2x6x6x16xf32>, %m: memref<32xf32>,
                                 %v: memref<32xf32>, %out: memref<1x2x6x6x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x6x6x16xf32>, memref<2x1x3x3x16x16xf32>)
      outs(%out : memref<1x2x6x6x16xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_training ins(%out, %g, %b : memref<1x2x6x6x16xf32>, memref<32xf32>, memref<32xf32>)
      outs(%y, %m, %v : memref<1x2x6x6x16xf32>, memref<32xf32>, memref<32xf32>)
  dl.relu ins(%y : memref<1x2x6x6x16xf32>) outs(%y : memref<1x2x6x6x16xf32>)
  return
}
