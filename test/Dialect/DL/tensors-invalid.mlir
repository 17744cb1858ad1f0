// The verifier of the tensor form: operands all tensors or all buffers, one
// result per `outs` tensor of the same type, buffers only where a pass
// writes them, the size relations as on buffers.
// RUN: dl-opt %s -split-input-file -verify-diagnostics

func.func @mixed(%a: tensor<4x8xf32>, %b: memref<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'dl.matmul' op failed to verify that operands are all tensors or all buffers}}
  %r = dl.matmul ins(%a, %b : tensor<4x8xf32>, memref<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

func.func @missing_result(%x: tensor<16xf32>, %y: tensor<16xf32>) {
  // expected-error @+1 {{'dl.relu' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  dl.relu ins(%x : tensor<16xf32>) outs(%y : tensor<16xf32>)
  return
}

// -----

func.func @result_on_buffers(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-error @+1 {{'dl.relu' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %r = "dl.relu"(%x, %y) : (memref<16xf32>, memref<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @result_type(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{'dl.relu' op expected type of operand #1 ('tensor<16xf32>') to match type of corresponding result ('tensor<8x2xf32>')}}
  %r = "dl.relu"(%x, %y) : (tensor<16xf32>, tensor<16xf32>) -> tensor<8x2xf32>
  return %r : tensor<8x2xf32>
}

// -----

// The row statistics are set by dl-fuse-epilogues, on buffers.
func.func @row_statistics(%x: tensor<1x1x4x4x8xf32>, %f: tensor<1x1x1x1x8x8xf32>, %y: tensor<1x1x4x4x8xf32>, %s: memref<1x4x2x8xf32>) -> tensor<1x1x4x4x8xf32> {
  // expected-error @+1 {{'dl.conv2d' op failed to verify that operands are all tensors or all buffers}}
  %r = dl.conv2d ins(%x, %f : tensor<1x1x4x4x8xf32>, tensor<1x1x1x1x8x8xf32>) outs(%y : tensor<1x1x4x4x8xf32>) row_statistics(%s : memref<1x4x2x8xf32>) -> tensor<1x1x4x4x8xf32>
  return %r : tensor<1x1x4x4x8xf32>
}

// -----

// The size relations hold on tensors as on buffers.
func.func @sizes(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'dl.matmul' op}}
  %r = dl.matmul ins(%a, %b : tensor<4x8xf32>, tensor<7x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

