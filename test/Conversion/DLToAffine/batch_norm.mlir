// The lowering of batch normalization: one loop over the channel groups (a
// channel of NCHW, a channel block of NCHW{c}c), whose (h, w) are collapsed
// into runs read a vector at a time. Training carries the shifted sums in
// iter_args (4 chains of vectors, a scalar tail), computes one rsqrt per
// channel, then normalizes with the fused activation in one sweep; there is
// no separate ReLU nest. After dl-parallelize-outer-loops the group loop is
// the one parallel loop.
// RUN: dl-opt %s --convert-dl-to-affine --canonicalize | FileCheck %s
// RUN: dl-opt %s --convert-dl-to-affine --canonicalize --dl-parallelize-outer-loops=threads=2 | FileCheck %s --check-prefix=PAR

// CHECK-LABEL: func.func @training
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<2x3x4x5xf32>, %[[G:[a-z0-9_]+]]: memref<3xf32>, %[[B:[a-z0-9_]+]]: memref<3xf32>, %[[Y:[a-z0-9_]+]]: memref<2x3x4x5xf32>, %[[M:[a-z0-9_]+]]: memref<3xf32>, %[[V:[a-z0-9_]+]]: memref<3xf32>)
// m = N * H * W = 40
// CHECK-DAG: %[[COUNT:.*]] = arith.constant 4.000000e+01 : f32
// CHECK-DAG: %[[XR:.*]] = memref.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : memref<2x3x4x5xf32> into memref<2x3x20xf32>
// CHECK-DAG: %[[YR:.*]] = memref.collapse_shape %[[Y]] {{\[}}[0], [1], [2, 3]] : memref<2x3x4x5xf32> into memref<2x3x20xf32>
// CHECK: affine.for %[[C:.*]] = 0 to 3 {
// The shift: the channel's first element.
// CHECK-NEXT: %[[K:.*]] = affine.load %[[XR]][0, %[[C]], 0]
// CHECK-NEXT: %[[KV:.*]] = vector.broadcast %[[K]] : f32 to vector<16xf32>
// The statistics sweep: 4 chains of (sum, sum of squares) vectors and the
// tail's scalars, over the images.
// CHECK-NEXT: %[[SUMS:.*]]:10 = affine.for %[[N1:.*]] = 0 to 2 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, f32, f32) {
// CHECK: %[[XV:.*]] = affine.vector_load %[[XR]][%[[N1]], %[[C]], %{{.*}} * 16] : memref<2x3x20xf32>, vector<16xf32>
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[XV]], %[[KV]] : vector<16xf32>
// CHECK-NEXT: arith.addf %{{.*}}, %[[D]] : vector<16xf32>
// CHECK-NEXT: math.fma %[[D]], %[[D]], %{{.*}} : vector<16xf32>
// The tail: elements 16 to 19 of each run.
// CHECK: affine.for %[[T:.*]] = 16 to 20 iter_args
// CHECK-NEXT: affine.load %[[XR]][%[[N1]], %[[C]], %[[T]]]
// CHECK: vector.reduction <add>, %{{.*}}, %[[SUMS]]#8
// CHECK-NEXT: vector.reduction <add>, %{{.*}}, %[[SUMS]]#9
// CHECK-NEXT: %[[MS:.*]] = arith.divf %{{.*}}, %[[COUNT]] : f32
// CHECK-NEXT: %[[MEAN:.*]] = arith.addf %[[K]], %[[MS]] : f32
// CHECK: %[[VAR:.*]] = arith.maxnumf
// CHECK-NEXT: affine.store %[[MEAN]], %[[M]][%[[C]]]
// CHECK-NEXT: affine.store %[[VAR]], %[[V]][%[[C]]]
// One rsqrt per channel, outside the element loops.
// CHECK-NEXT: %[[SH:.*]] = arith.addf %[[VAR]]
// CHECK-NEXT: %[[INV:.*]] = math.rsqrt %[[SH]] : f32
// CHECK-NEXT: %[[GV:.*]] = affine.load %[[G]][%[[C]]]
// CHECK-NEXT: %[[SCALE:.*]] = arith.mulf %[[GV]], %[[INV]]
// The normalize sweep, ReLU fused: one store per element.
// CHECK: affine.for %[[N2:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 1 {
// CHECK-NEXT: %[[XN:.*]] = affine.vector_load %[[XR]][%[[N2]], %[[C]], %[[I]] * 16]
// CHECK-NEXT: %[[XC:.*]] = arith.subf %[[XN]]
// CHECK-NEXT: %[[YN:.*]] = math.fma %[[XC]]
// CHECK-NEXT: %[[YR6:.*]] = arith.maxnumf %[[YN]]
// CHECK-NEXT: affine.vector_store %[[YR6]], %[[YR]][%[[N2]], %[[C]], %[[I]] * 16]
// CHECK: affine.for %{{.*}} = 16 to 20 {
// CHECK-NOT: math.rsqrt
// CHECK-NOT: math.sqrt
// CHECK-NOT: arith.divf
// CHECK: return

// PAR-LABEL: func.func @training
// PAR: affine.parallel (%{{.*}}) = (0) to (3) {
// PAR-NOT: affine.parallel
// PAR: math.rsqrt
// PAR-NOT: math.rsqrt
// PAR: return
func.func @training(%x: memref<2x3x4x5xf32>, %g: memref<3xf32>, %b: memref<3xf32>,
                    %y: memref<2x3x4x5xf32>, %m: memref<3xf32>, %v: memref<3xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
      outs(%y, %m, %v : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
      {activation = #dl.activation<relu>}
  return
}

// Blocked NCHW16c: a vector is a block's 16 channels, so the per-channel
// values are vectors too (no horizontal reduction, one rsqrt per block of
// channels); runs have no tail.
// CHECK-LABEL: func.func @inference_blocked
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<1x2x3x3x16xf32>, %[[G:[a-z0-9_]+]]: memref<32xf32>, %[[B:[a-z0-9_]+]]: memref<32xf32>, %[[M:[a-z0-9_]+]]: memref<32xf32>, %[[V:[a-z0-9_]+]]: memref<32xf32>, %[[Y:[a-z0-9_]+]]: memref<1x2x3x3x16xf32>)
// CHECK-DAG: %[[EPS:.*]] = arith.constant dense<9.99999974E-6> : vector<16xf32>
// CHECK-DAG: %[[SIX:.*]] = arith.constant dense<6.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[XR:.*]] = memref.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3], [4]] : memref<1x2x3x3x16xf32> into memref<1x2x9x16xf32>
// CHECK: affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT: %[[VV:.*]] = affine.vector_load %[[V]][%[[CB]] * 16] : memref<32xf32>, vector<16xf32>
// CHECK-NEXT: %[[SH:.*]] = arith.addf %[[VV]], %[[EPS]]
// CHECK-NEXT: %[[INV:.*]] = math.rsqrt %[[SH]] : vector<16xf32>
// CHECK-NEXT: %[[GV:.*]] = affine.vector_load %[[G]][%[[CB]] * 16]
// CHECK-NEXT: %[[SCALE:.*]] = arith.mulf %[[GV]], %[[INV]]
// CHECK-NEXT: %[[MV:.*]] = affine.vector_load %[[M]][%[[CB]] * 16]
// CHECK-NEXT: %[[BV:.*]] = affine.vector_load %[[B]][%[[CB]] * 16]
// CHECK-NEXT: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[P:.*]] = 0 to 9 {
// CHECK-NEXT: %[[XV:.*]] = affine.vector_load %[[XR]][%[[N]], %[[CB]], %[[P]], 0] : memref<1x2x9x16xf32>, vector<16xf32>
// CHECK-NEXT: %[[XC:.*]] = arith.subf %[[XV]], %[[MV]]
// CHECK-NEXT: %[[YV:.*]] = math.fma %[[XC]], %[[SCALE]], %[[BV]]
// CHECK-NEXT: %[[LOW:.*]] = arith.maxnumf %[[YV]]
// CHECK-NEXT: %[[YC:.*]] = arith.minnumf %[[LOW]], %[[SIX]]
// CHECK-NEXT: affine.vector_store %[[YC]], %{{.*}}[%[[N]], %[[CB]], %[[P]], 0]
func.func @inference_blocked(%x: memref<1x2x3x3x16xf32>, %g: memref<32xf32>, %b: memref<32xf32>,
                             %m: memref<32xf32>, %v: memref<32xf32>, %y: memref<1x2x3x3x16xf32>) {
  dl.batch_norm_inference ins(%x, %g, %b, %m, %v : memref<1x2x3x3x16xf32>, memref<32xf32>,
      memref<32xf32>, memref<32xf32>, memref<32xf32>) outs(%y : memref<1x2x3x3x16xf32>)
      {epsilon = 1.0e-5 : f32, activation = #dl.activation<relu6>}
  return
}

// Dynamic N, H, W: m and the run length are computed at run time, the
// shift is loaded only when the channel has elements, and the tail starts
// after the run's whole vectors.
// CHECK-LABEL: func.func @training_dynamic
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<?x3x?x?xf32>
// CHECK-DAG: %[[XR:.*]] = memref.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : memref<?x3x?x?xf32> into memref<?x3x?xf32>
// CHECK-DAG: %[[N:.*]] = memref.dim %[[XR]], %c0
// CHECK-DAG: %[[HW:.*]] = memref.dim %[[XR]], %c2
// CHECK: %[[M:.*]] = arith.muli %[[N]], %[[HW]]
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %[[M]] : index to i64
// CHECK-NEXT: arith.sitofp %[[I64]] : i64 to f32
// CHECK: affine.for %[[C:.*]] = 0 to 3 {
// CHECK-NEXT: affine.if #{{.*}}()[%[[N]], %[[HW]]] -> f32 {
// CHECK-NEXT: affine.load %[[XR]][0, %[[C]], 0]
// CHECK: affine.for %{{.*}} = 0 to %[[N]] iter_args
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}()[%[[HW]]] iter_args
// CHECK: affine.for %{{.*}} = #{{.*}}()[%[[HW]]] to %[[HW]] iter_args
func.func @training_dynamic(%x: memref<?x3x?x?xf32>, %g: memref<3xf32>, %b: memref<3xf32>,
                            %y: memref<?x3x?x?xf32>, %m: memref<3xf32>, %v: memref<3xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<?x3x?x?xf32>, memref<3xf32>, memref<3xf32>)
      outs(%y, %m, %v : memref<?x3x?x?xf32>, memref<3xf32>, memref<3xf32>)
  return
}

// A strided activation goes through contiguous copies.
// CHECK-LABEL: func.func @inference_strided
// CHECK: %[[IN:.*]] = memref.alloc() : memref<1x2x3x4xf32>
// CHECK: affine.for
// CHECK: memref.collapse_shape %[[IN]]
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<1x2x3x4xf32>
// CHECK: memref.collapse_shape %[[OUT]]
// CHECK: affine.vector_load
// CHECK: affine.load %[[OUT]]
// CHECK: memref.dealloc %[[IN]]
// CHECK: memref.dealloc %[[OUT]]
func.func @inference_strided(%x: memref<1x2x3x4xf32, strided<[48, 24, 8, 2]>>, %g: memref<2xf32>,
                             %b: memref<2xf32>, %m: memref<2xf32>, %v: memref<2xf32>,
                             %y: memref<1x2x3x4xf32, strided<[48, 24, 8, 2]>>) {
  dl.batch_norm_inference ins(%x, %g, %b, %m, %v : memref<1x2x3x4xf32, strided<[48, 24, 8, 2]>>,
      memref<2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>)
      outs(%y : memref<1x2x3x4xf32, strided<[48, 24, 8, 2]>>)
  return
}
