// The lowering of pooling and depthwise convolution: one nest over the
// output pixels, the window's loops clipped to the image by max/min bounds;
// the channel block innermost in the blocked layout, in vector register
// tiles where the widths are static.
// RUN: dl-opt %s --dl-set-target=vector-bits=512 --convert-dl-to-affine | FileCheck %s
// RUN: dl-opt %s --dl-set-target=vector-bits=256 --convert-dl-to-affine | FileCheck %s --check-prefix=AVX2

// CHECK-DAG: #[[DLB:.*]] = affine_map<(d0) -> (0, (d0 * -2 + 2) ceildiv 2)>
// CHECK-DAG: #[[DUB:.*]] = affine_map<(d0) -> (3, (d0 * -2 + 11) ceildiv 2)>
// CHECK-DAG: #[[LB:.*]] = affine_map<(d0) -> (0, d0 * -2 + 1)>
// CHECK-DAG: #[[UB:.*]] = affine_map<(d0) -> (3, d0 * -2 + 10)>
// CHECK-LABEL: func.func @max_plain
// CHECK: affine.for %[[N:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[C:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 5 {
// CHECK-NEXT: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: affine.for %[[R:.*]] = max #[[LB]](%[[OH]]) to min #[[UB]](%[[OH]]) iter_args(%[[RACC:.*]] = %[[NEG_INF]])
// CHECK-NEXT: affine.for %[[S:.*]] = max #[[LB]](%[[OW]]) to min #[[UB]](%[[OW]]) iter_args(%[[ACC:.*]] = %[[RACC]])
// CHECK-NEXT: %[[X:.*]] = affine.load %{{.*}}[%[[N]], %[[C]], %[[OH]] * 2 + %[[R]] - 1, %[[OW]] * 2 + %[[S]] - 1]
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[ACC]], %[[X]]
// CHECK-NEXT: affine.yield %[[M]]
// CHECK: affine.store %{{.*}}, %{{.*}}[%[[N]], %[[C]], %[[OH]], %[[OW]]]
func.func @max_plain(%x: memref<2x5x9x9xf32>, %y: memref<2x5x5x5xf32>) {
  dl.max_pool2d ins(%x : memref<2x5x9x9xf32>) outs(%y : memref<2x5x5x5xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 1, 1>}
  return
}

// Without count_include_pad the divisor is the clipped window's size.
// CHECK-LABEL: func.func @avg_exclude_padding
// CHECK: affine.for %[[OH:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 5 {
// CHECK-DAG: affine.min #{{.*}}(%[[OH]])
// CHECK-DAG: affine.max #{{.*}}(%[[OH]])
// CHECK: %[[COUNT:.*]] = arith.muli
// CHECK: %[[SCALE:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf
// CHECK: arith.mulf %{{.*}}, %[[SCALE]]
func.func @avg_exclude_padding(%x: memref<1x1x9x9xf32>, %y: memref<1x1x5x5xf32>) {
  dl.avg_pool2d ins(%x : memref<1x1x9x9xf32>) outs(%y : memref<1x1x5x5xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 1, 1>, count_include_pad = false}
  return
}

// Blocked with static widths: per 16-lane vector, the window reduced in
// iter_args, scaled and stored once.
// CHECK-LABEL: func.func @avg_blocked_global
// CHECK: %[[SCALE:.*]] = arith.constant 0.0204081628 : f32
// CHECK: affine.for %[[V:.*]] = 0 to 16 step 16 {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-NEXT: %[[SUM:.*]] = affine.for %{{.*}} = max #{{.*}} to min #{{.*}} iter_args(%{{.*}} = %[[ZERO]])
// CHECK-NEXT: affine.for %{{.*}} = 0 to 7 iter_args(
// CHECK-NEXT: affine.vector_load
// CHECK-NEXT: arith.addf %{{.*}} : vector<16xf32>
// CHECK: %[[SCALES:.*]] = vector.broadcast %[[SCALE]] : f32 to vector<16xf32>
// CHECK-NEXT: %[[AVG:.*]] = arith.mulf %[[SUM]], %[[SCALES]]
// CHECK-NEXT: affine.vector_store %[[AVG]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[V]]]
// The vectors are the target's registers: 8 lanes with AVX2.
// AVX2-LABEL: func.func @avg_blocked_global
// AVX2: affine.for %{{.*}} = 0 to 16 step 8 {
// AVX2-NEXT: arith.constant dense<0.000000e+00> : vector<8xf32>
func.func @avg_blocked_global(%x: memref<1x4x7x7x16xf32>, %y: memref<1x4x1x1x16xf32>) {
  dl.avg_pool2d ins(%x : memref<1x4x7x7x16xf32>) outs(%y : memref<1x4x1x1x16xf32>)
                {window = array<i64: 7, 7>}
  return
}

// Max pooling in register tiles: the columns whose windows the padding
// clips (0 and 6) pixel by pixel over their clipped columns, the interior
// ones (1 to 5) in one tile of 5 columns over the whole window; the machine's
// maximum (fastmath: a NaN gives an unspecified value, as in oneDNN).
// CHECK-LABEL: func.func @max_blocked_tiles
// CHECK: affine.for %[[OH:.*]] = 0 to 5 {
// CHECK: affine.for %[[OW:.*]] = 0 to 1 {
// CHECK: arith.constant dense<0xFF800000> : vector<16xf32>
// CHECK-NEXT: affine.for %{{.*}} = max #{{.*}}(%[[OH]]) to min #{{.*}}(%[[OH]]) iter_args(
// CHECK-NEXT: affine.for %{{.*}} = max #{{.*}}(%[[OW]]) to min #{{.*}}(%[[OW]]) iter_args(
// CHECK: arith.maximumf %{{.*}} fastmath<nnan,nsz> : vector<16xf32>
// CHECK: affine.for %{{.*}} = 6 to 7 {
// CHECK: %[[FIRST:.*]] = arith.constant 1 : index
// CHECK: %{{.*}}:5 = affine.for %{{.*}} = max #{{.*}}(%[[OH]]) to min #{{.*}}(%[[OH]]) iter_args(
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 iter_args(
// CHECK-COUNT-5: arith.maximumf
// CHECK-COUNT-5: affine.vector_store
func.func @max_blocked_tiles(%x: memref<1x1x9x13x16xf32>, %y: memref<1x1x5x7x16xf32>) {
  dl.max_pool2d ins(%x : memref<1x1x9x13x16xf32>) outs(%y : memref<1x1x5x7x16xf32>)
                {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                 padding = array<i64: 1, 1, 1, 1>}
  return
}

// A depthwise convolution on a blocked copy that pads its 67 channels to 5
// blocks of 16, in register tiles: the filter's vectors are read masked
// (transfer_read, zeros past the 67 channels), so the padding lanes stay
// zero; dilation divides the clipped bounds of the border columns.
// CHECK-LABEL: func.func @depthwise_blocked_padded
// CHECK: affine.for %[[CB:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 5 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[V:.*]] = 0 to 16 step 16 {
// CHECK: affine.for %[[R:.*]] = max #[[DLB]](%[[OH]]) to min #[[DUB]](%[[OH]]) iter_args(
// CHECK-NEXT: affine.for %[[S:.*]] = max #[[DLB]](%[[OW]]) to min #[[DUB]](%[[OW]]) iter_args(
// CHECK-NEXT: %[[C:.*]] = affine.apply #{{.*}}(%[[CB]], %[[V]])
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[F:.*]] = vector.transfer_read %{{.*}}[%[[R]], %[[S]], %[[C]]], %[[ZERO]] : memref<3x3x67xf32>, vector<16xf32>
// CHECK-NEXT: %[[X:.*]] = affine.vector_load %{{.*}}[%{{.*}}, %[[CB]], %[[OH]] * 2 + %[[R]] * 2 - 2, %[[OW]] * 2 + %[[S]] * 2 - 2, %[[V]]]
// CHECK-NEXT: vector.fma %[[X]], %[[F]], %{{.*}} : vector<16xf32>
func.func @depthwise_blocked_padded(%x: memref<1x5x9x9x16xf32>, %f: memref<3x3x67xf32>,
                                    %y: memref<1x5x5x5x16xf32>) {
  dl.depthwise_conv2d ins(%x, %f : memref<1x5x9x9x16xf32>, memref<3x3x67xf32>)
                      outs(%y : memref<1x5x5x5x16xf32>)
                      {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>,
                       dilations = array<i64: 2, 2>}
  return
}

// Static sizes and whole vectors of channels: the columns whose windows the
// image clips (0 and 12) pixel by pixel, the interior ones (1 to 11) in
// register tiles of 8 pixels and then one of 3, per 16-channel vector: the
// clipped rows and the taps accumulate in iter_args and are stored once.
// CHECK-LABEL: func.func @depthwise_tiles
// CHECK: affine.for %[[OH:.*]] = 0 to 9 {
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK: affine.for %{{.*}} = 12 to 13 {
// CHECK: affine.for %[[T:.*]] = 0 to 1 {
// CHECK-NEXT: %[[COL:.*]] = affine.apply #{{.*}}(%[[T]])
// CHECK: affine.for %[[V:.*]] = 0 to 32 step 16 {
// CHECK-NEXT: arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-NEXT: %[[SUMS:.*]]:8 = affine.for %[[R:.*]] = max #{{.*}}(%[[OH]]) to min #{{.*}}(%[[OH]]) iter_args(
// CHECK-NEXT: %{{.*}}:8 = affine.for %[[S:.*]] = 0 to 3 iter_args(
// CHECK-NEXT: %[[TAP:.*]] = affine.vector_load %{{.*}}[%[[R]], %[[S]], %{{.*}} * 32 + %[[V]]] : memref<3x3x64xf32>, vector<16xf32>
// CHECK-NEXT: %[[X:.*]] = affine.vector_load %{{.*}}[%{{.*}}, %{{.*}}, %[[OH]] + %[[R]] - 1, %[[COL]] + %[[S]] - 1, %[[V]]]
// CHECK-NEXT: vector.fma %[[X]], %[[TAP]], %{{.*}} : vector<16xf32>
// CHECK-COUNT-7: vector.fma
// CHECK: affine.vector_store %[[SUMS]]#0, %{{.*}}[%{{.*}}, %{{.*}}, %[[OH]], %[[COL]], %[[V]]]
// CHECK-COUNT-7: affine.vector_store
// CHECK: %[[REST:.*]] = arith.constant 9 : index
// CHECK: affine.for %{{.*}} = 0 to 32 step 16 {
// CHECK-NEXT: arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-NEXT: %{{.*}}:3 = affine.for
func.func @depthwise_tiles(%x: memref<1x2x9x13x32xf32>, %f: memref<3x3x64xf32>,
                           %y: memref<1x2x9x13x32xf32>) {
  dl.depthwise_conv2d ins(%x, %f : memref<1x2x9x13x32xf32>, memref<3x3x64xf32>)
                      outs(%y : memref<1x2x9x13x32xf32>)
                      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// A block of 24 channels: a vector of 16 and one of the last 8 lanes.
// CHECK-LABEL: func.func @depthwise_tail_lanes
// CHECK: affine.for %[[V:.*]] = 0 to 16 step 16 {
// CHECK: affine.vector_load %{{.*}} : memref<3x3x48xf32>, vector<16xf32>
// CHECK: %[[TAIL:.*]] = arith.constant 16 : index
// CHECK: affine.vector_load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}} * 24 + %[[TAIL]]] : memref<3x3x48xf32>, vector<8xf32>
// CHECK: vector.fma %{{.*}} : vector<8xf32>
func.func @depthwise_tail_lanes(%x: memref<1x2x9x13x24xf32>, %f: memref<3x3x48xf32>,
                                %y: memref<1x2x9x13x24xf32>) {
  dl.depthwise_conv2d ins(%x, %f : memref<1x2x9x13x24xf32>, memref<3x3x48xf32>)
                      outs(%y : memref<1x2x9x13x24xf32>)
                      {padding = array<i64: 1, 1, 1, 1>}
  return
}
