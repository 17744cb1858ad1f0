// The main job's example: a ResNet-50 block (res2a_branch2b: 3x3 convolution,
// 64 -> 64 channels, 56x56, padding 1) followed by batch normalization
// (inference form) and ReLU, plus a 256x512x256 matmul.
//
//   dl-compile examples/resnet_block.mlir --run --bench
//
// --run checks both functions against the reference lowering; --bench times
// them. The tensors are in the plain layouts (NCHW, KCRS); the compiler
// converts the convolution to the blocked layouts its microkernels need
// (see `dl-opt --dl-block-conv-layouts`).

func.func @resnet_block(%input: memref<1x64x56x56xf32>,
                        %filter: memref<64x64x3x3xf32>,
                        %gamma: memref<64xf32>, %beta: memref<64xf32>,
                        %mean: memref<64xf32>, %variance: memref<64xf32>,
                        %conv: memref<1x64x56x56xf32>,
                        %output: memref<1x64x56x56xf32>) {
  dl.conv2d ins(%input, %filter : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>)
            outs(%conv : memref<1x64x56x56xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_inference
      ins(%conv, %gamma, %beta, %mean, %variance : memref<1x64x56x56xf32>,
          memref<64xf32>, memref<64xf32>, memref<64xf32>, memref<64xf32>)
      outs(%output : memref<1x64x56x56xf32>) {epsilon = 1.0e-5 : f32}
  dl.relu ins(%output : memref<1x64x56x56xf32>)
          outs(%output : memref<1x64x56x56xf32>)
  return
}

func.func @matmul(%a: memref<256x256xf32>, %b: memref<256x512xf32>,
                  %c: memref<256x512xf32>) {
  dl.matmul ins(%a, %b : memref<256x256xf32>, memref<256x512xf32>)
            outs(%c : memref<256x512xf32>)
  return
}
