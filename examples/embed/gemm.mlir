// The module embed-dl compiles in its test: a GEMM on tensors and a
// convolution with bias and ReLU on buffers.
func.func @gemm(%a: tensor<96x80xf32>, %b: tensor<80x112xf32>,
                %c: tensor<96x112xf32>) -> tensor<96x112xf32> {
  %r = dl.matmul ins(%a, %b : tensor<96x80xf32>, tensor<80x112xf32>)
                 outs(%c : tensor<96x112xf32>) -> tensor<96x112xf32>
  return %r : tensor<96x112xf32>
}

func.func @conv_bias_relu(%x: memref<1x16x14x14xf32>, %f: memref<32x16x3x3xf32>,
                          %bias: memref<32xf32>, %y: memref<1x32x14x14xf32>) {
  dl.conv2d ins(%x, %f : memref<1x16x14x14xf32>, memref<32x16x3x3xf32>)
            outs(%y : memref<1x32x14x14xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  dl.bias_add ins(%y, %bias : memref<1x32x14x14xf32>, memref<32xf32>)
              outs(%y : memref<1x32x14x14xf32>)
  dl.relu ins(%y : memref<1x32x14x14xf32>) outs(%y : memref<1x32x14x14xf32>)
  return
}
