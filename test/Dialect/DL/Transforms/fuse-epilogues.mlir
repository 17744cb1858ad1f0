// dl-fuse-epilogues: element-wise consumers of a convolution become steps of
// its epilogue, a ReLU after a batch normalization its activation; chains
// fuse step by step, in place or into a scratch the producer then writes
// instead. Refused fusions keep both ops and say why.
// RUN: dl-opt %s --dl-fuse-epilogues=report-fallbacks --split-input-file --verify-diagnostics | FileCheck %s

// A chain in place: bias, residual, ReLU.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[IN:.*]]: memref<1x2x5x5x16xf32>, %[[F:.*]]: memref<2x2x3x3x16x16xf32>, %[[B:.*]]: memref<32xf32>, %[[R:.*]]: memref<1x2x5x5x16xf32>, %[[OUT:.*]]: memref<1x2x5x5x16xf32>)
// CHECK-NEXT: dl.conv2d ins(%[[IN]], %[[F]] : {{.*}}) outs(%[[OUT]] : memref<1x2x5x5x16xf32>) epilogue(%[[B]], %[[R]] : memref<32xf32>, memref<1x2x5x5x16xf32>) {epilogue = [#dl.post_op<bias_add>, #dl.post_op<add>, #dl.post_op<relu>], padding = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT: return
func.func @chain(%in: memref<1x2x5x5x16xf32>, %f: memref<2x2x3x3x16x16xf32>,
                 %b: memref<32xf32>, %r: memref<1x2x5x5x16xf32>,
                 %out: memref<1x2x5x5x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x5x5x16xf32>, memref<2x2x3x3x16x16xf32>)
      outs(%out : memref<1x2x5x5x16xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.bias_add ins(%out, %b : memref<1x2x5x5x16xf32>, memref<32xf32>)
      outs(%out : memref<1x2x5x5x16xf32>)
  dl.add ins(%r, %out : memref<1x2x5x5x16xf32>, memref<1x2x5x5x16xf32>)
      outs(%out : memref<1x2x5x5x16xf32>)
  dl.relu ins(%out : memref<1x2x5x5x16xf32>) outs(%out : memref<1x2x5x5x16xf32>)
  return
}

// -----

// BN inference into another buffer: the convolution writes that buffer and
// its scratch goes; the BN's activation becomes a step too.
// CHECK-LABEL: func.func @batch_norm_out_of_place
// CHECK-SAME: %[[Y:[a-z0-9_]+]]: memref<1x1x4x4x8xf32>)
// CHECK-NOT: memref.alloc
// CHECK: dl.conv2d ins({{.*}}) outs(%[[Y]] : memref<1x1x4x4x8xf32>) epilogue(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) {epilogue = [#dl.post_op<batch_norm_inference>, #dl.post_op<relu6>], epilogue_epsilon = 9.99999974E-6 : f32}
// CHECK-NOT: memref.dealloc
// CHECK-NOT: dl.batch_norm_inference
func.func @batch_norm_out_of_place(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>,
                                   %g: memref<8xf32>, %b: memref<8xf32>,
                                   %m: memref<8xf32>, %v: memref<8xf32>,
                                   %y: memref<1x1x4x4x8xf32>) {
  %t = memref.alloc() : memref<1x1x4x4x8xf32>
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>)
      outs(%t : memref<1x1x4x4x8xf32>)
  dl.batch_norm_inference ins(%t, %g, %b, %m, %v : memref<1x1x4x4x8xf32>,
      memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>)
      outs(%y : memref<1x1x4x4x8xf32>)
      {epsilon = 1.0e-5 : f32, activation = #dl.activation<relu6>}
  memref.dealloc %t : memref<1x1x4x4x8xf32>
  return
}

// -----

// A convolution on merged rows (dl-merge-conv-rows' views): the residual
// gets the same views.
// CHECK-LABEL: func.func @merged_rows
// CHECK-SAME: %[[R:[a-z0-9_]+]]: memref<1x1x7x7x8xf32>, %[[OUT:[a-z0-9_]+]]: memref<1x1x7x7x8xf32>)
// CHECK: %[[RC:.*]] = memref.collapse_shape %[[R]] {{\[}}[0], [1], [2, 3], [4]]
// CHECK-NEXT: %[[RE:.*]] = memref.expand_shape %[[RC]] {{\[}}[0], [1], [2, 3], [4]] output_shape [1, 1, 1, 49, 8]
// CHECK-NEXT: dl.conv2d {{.*}} epilogue(%[[RE]] : memref<1x1x1x49x8xf32>) {epilogue = [#dl.post_op<add>]}
func.func @merged_rows(%in: memref<1x1x7x7x8xf32>, %f: memref<1x1x1x1x8x8xf32>,
                       %r: memref<1x1x7x7x8xf32>, %out: memref<1x1x7x7x8xf32>) {
  %ic = memref.collapse_shape %in [[0], [1], [2, 3], [4]] : memref<1x1x7x7x8xf32> into memref<1x1x49x8xf32>
  %ie = memref.expand_shape %ic [[0], [1], [2, 3], [4]] output_shape [1, 1, 1, 49, 8] : memref<1x1x49x8xf32> into memref<1x1x1x49x8xf32>
  %oc = memref.collapse_shape %out [[0], [1], [2, 3], [4]] : memref<1x1x7x7x8xf32> into memref<1x1x49x8xf32>
  %oe = memref.expand_shape %oc [[0], [1], [2, 3], [4]] output_shape [1, 1, 1, 49, 8] : memref<1x1x49x8xf32> into memref<1x1x1x49x8xf32>
  dl.conv2d ins(%ie, %f : memref<1x1x1x49x8xf32>, memref<1x1x1x1x8x8xf32>)
      outs(%oe : memref<1x1x1x49x8xf32>)
  dl.add ins(%out, %r : memref<1x1x7x7x8xf32>, memref<1x1x7x7x8xf32>)
      outs(%out : memref<1x1x7x7x8xf32>)
  return
}

// -----

// ReLU after batch normalization (training too) becomes its activation.
// CHECK-LABEL: func.func @training_relu
// CHECK: dl.batch_norm_training {{.*}} {activation = #dl.activation<relu>}
// CHECK-NOT: dl.relu
func.func @training_relu(%x: memref<2x3x4x5xf32>, %g: memref<3xf32>, %b: memref<3xf32>,
                         %y: memref<2x3x4x5xf32>, %m: memref<3xf32>, %v: memref<3xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
      outs(%y, %m, %v : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
  dl.relu ins(%y : memref<2x3x4x5xf32>) outs(%y : memref<2x3x4x5xf32>)
  return
}

// -----

// Refused: a batch normalization's statistics need its whole input, so only
// an activation fuses into it, never a later op into its statistics.
// CHECK-LABEL: func.func @training_add
// CHECK: dl.batch_norm_training
// CHECK-NOT: activation
// CHECK: dl.add
func.func @training_add(%x: memref<2x3x4x5xf32>, %g: memref<3xf32>, %b: memref<3xf32>,
                        %y: memref<2x3x4x5xf32>, %m: memref<3xf32>, %v: memref<3xf32>,
                        %r: memref<2x3x4x5xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
      outs(%y, %m, %v : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
  // expected-remark @below {{not fused into the dl.batch_norm_training that writes its input: a batch normalization fuses only an activation}}
  dl.add ins(%y, %r : memref<2x3x4x5xf32>, memref<2x3x4x5xf32>) outs(%y : memref<2x3x4x5xf32>)
  return
}

// -----

// Refused: the bias is written between the convolution and the bias add, so
// reading it in the convolution's epilogue would read the old values.
// CHECK-LABEL: func.func @operand_written_between
// CHECK: dl.conv2d
// CHECK-NOT: epilogue
// CHECK: dl.relu
// CHECK: dl.bias_add
func.func @operand_written_between(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>,
                                   %b: memref<8xf32>, %out: memref<1x1x4x4x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>)
      outs(%out : memref<1x1x4x4x8xf32>)
  dl.relu ins(%b : memref<8xf32>) outs(%b : memref<8xf32>)
  // expected-remark @below {{not fused into the dl.conv2d that writes its input: 'dl.relu' in between writes one of its operands}}
  dl.bias_add ins(%out, %b : memref<1x1x4x4x8xf32>, memref<8xf32>) outs(%out : memref<1x1x4x4x8xf32>)
  return
}

// -----

// Refused: the output of an out-of-place ReLU is read between, and the
// convolution's buffer is a function argument, not a scratch.
// CHECK-LABEL: func.func @not_scratch
// CHECK: dl.conv2d
// CHECK-NOT: epilogue
// CHECK: dl.relu
func.func @not_scratch(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>,
                       %t: memref<1x1x4x4x8xf32>, %out: memref<1x1x4x4x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>)
      outs(%t : memref<1x1x4x4x8xf32>)
  // expected-remark @below {{it writes another buffer and the producer's is not a local allocation}}
  dl.relu ins(%t : memref<1x1x4x4x8xf32>) outs(%out : memref<1x1x4x4x8xf32>)
  return
}

// -----

// Refused: a call in between may touch any buffer.
func.func private @opaque(memref<1x1x4x4x8xf32>)

// CHECK-LABEL: func.func @unknown_effects
// CHECK: dl.conv2d
// CHECK-NOT: epilogue
func.func @unknown_effects(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>,
                           %other: memref<1x1x4x4x8xf32>, %out: memref<1x1x4x4x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>)
      outs(%out : memref<1x1x4x4x8xf32>)
  func.call @opaque(%other) : (memref<1x1x4x4x8xf32>) -> ()
  // expected-remark @below {{'func.call' in between has unknown effects}}
  dl.relu ins(%out : memref<1x1x4x4x8xf32>) outs(%out : memref<1x1x4x4x8xf32>)
  return
}

// -----

// BN training after a blocked convolution: the convolution writes the row
// statistics of its output into a scratch the BN merges; the normalization
// stays in the BN (it needs the statistics of the whole output) and the
// ReLU after it becomes its activation.
// CHECK-LABEL: func.func @training_statistics
// CHECK: %[[ROWS:.*]] = memref.alloc() : memref<2x5x2x32xf32>
// CHECK-NEXT: dl.conv2d {{.*}} outs(%[[OUT:[a-z0-9_]+]] : memref<2x2x5x5x16xf32>) row_statistics(%[[ROWS]] : memref<2x5x2x32xf32>)
// CHECK-NEXT: dl.batch_norm_training ins(%[[OUT]], {{.*}} row_statistics(%[[ROWS]] : memref<2x5x2x32xf32>) {activation = #dl.activation<relu>}
// CHECK-NEXT: memref.dealloc %[[ROWS]]
// CHECK-NOT: dl.relu
func.func @training_statistics(%in: memref<2x1x5x5x16xf32>, %f: memref<2x1x3x3x16x16xf32>,
                               %g: memref<32xf32>, %b: memref<32xf32>,
                               %out: memref<2x2x5x5x16xf32>, %y: memref<2x2x5x5x16xf32>,
                               %m: memref<32xf32>, %v: memref<32xf32>) {
  dl.conv2d ins(%in, %f : memref<2x1x5x5x16xf32>, memref<2x1x3x3x16x16xf32>)
      outs(%out : memref<2x2x5x5x16xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_training ins(%out, %g, %b : memref<2x2x5x5x16xf32>, memref<32xf32>, memref<32xf32>)
      outs(%y, %m, %v : memref<2x2x5x5x16xf32>, memref<32xf32>, memref<32xf32>)
  dl.relu ins(%y : memref<2x2x5x5x16xf32>) outs(%y : memref<2x2x5x5x16xf32>)
  return
}

// -----

// Refused: the plain-layout convolution has no output tiles to take the
// statistics of.
// CHECK-LABEL: func.func @training_statistics_plain
// CHECK-NOT: row_statistics
func.func @training_statistics_plain(%in: memref<1x3x5x5xf32>, %f: memref<4x3x1x1xf32>,
                                     %g: memref<4xf32>, %b: memref<4xf32>,
                                     %out: memref<1x4x5x5xf32>, %y: memref<1x4x5x5xf32>,
                                     %m: memref<4xf32>, %v: memref<4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x3x5x5xf32>, memref<4x3x1x1xf32>) outs(%out : memref<1x4x5x5xf32>)
  // expected-remark @below {{statistics not fused into the dl.conv2d that writes its input: the convolution has the plain layout}}
  dl.batch_norm_training ins(%out, %g, %b : memref<1x4x5x5xf32>, memref<4xf32>, memref<4xf32>)
      outs(%y, %m, %v : memref<1x4x5x5xf32>, memref<4xf32>, memref<4xf32>)
  return
}

// -----

// A GEMM's element-wise consumers (a bias per column, ReLU) become its
// epilogue too.
// CHECK-LABEL: func.func @linear
// CHECK-SAME: %[[BIAS:[a-z0-9_]+]]: memref<16xf32>, %[[C:[a-z0-9_]+]]: memref<8x16xf32>)
// CHECK-NEXT: dl.matmul {{.*}} outs(%[[C]] : memref<8x16xf32>) epilogue(%[[BIAS]] : memref<16xf32>) {epilogue = [#dl.post_op<bias_add>, #dl.post_op<relu>]}
// CHECK-NEXT: return
func.func @linear(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %bias: memref<16xf32>,
                  %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>)
  dl.bias_add ins(%c, %bias : memref<8x16xf32>, memref<16xf32>) outs(%c : memref<8x16xf32>)
  dl.relu ins(%c : memref<8x16xf32>) outs(%c : memref<8x16xf32>)
  return
}

// -----

// Refused: the residual add writes its other operand, which the convolution
// would zero before its epilogue reads it.
// CHECK-LABEL: func.func @residual_is_output
// CHECK: dl.conv2d
// CHECK-NOT: epilogue
// CHECK: dl.add
func.func @residual_is_output(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>,
                              %x: memref<1x1x4x4x8xf32>) {
  %t = memref.alloc() : memref<1x1x4x4x8xf32>
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>)
      outs(%t : memref<1x1x4x4x8xf32>)
  // expected-remark @below {{its output is also its other operand, which the producer would overwrite before reading it}}
  dl.add ins(%x, %t : memref<1x1x4x4x8xf32>, memref<1x1x4x4x8xf32>) outs(%x : memref<1x1x4x4x8xf32>)
  memref.dealloc %t : memref<1x1x4x4x8xf32>
  return
}
