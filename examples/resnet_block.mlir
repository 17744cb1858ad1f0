// The main job's example: a ResNet-50 block (res2a_branch2b: 3x3 convolution,
// 64 -> 64 channels, 56x56, padding 1) followed by batch normalization
// (inference form) and ReLU; a whole bottleneck block (res2b: 1x1, 3x3 and
// 1x1 convolutions, each with batch norm, ReLU after the first two and after
// the residual add); and a 256x512x256 matmul.
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

// res2b: 256 -> 64 (1x1) -> 64 (3x3) -> 256 (1x1) channels at 56x56. The
// intermediates are local buffers: the compiler keeps them in the blocked
// layout from the first convolution's input pack to the last one's unpack.
func.func @bottleneck(%input: memref<1x256x56x56xf32>,
                      %filter1: memref<64x256x1x1xf32>,
                      %filter2: memref<64x64x3x3xf32>,
                      %filter3: memref<256x64x1x1xf32>,
                      %gamma1: memref<64xf32>, %beta1: memref<64xf32>, %mean1: memref<64xf32>, %variance1: memref<64xf32>,
                      %gamma2: memref<64xf32>, %beta2: memref<64xf32>, %mean2: memref<64xf32>, %variance2: memref<64xf32>,
                      %gamma3: memref<256xf32>, %beta3: memref<256xf32>, %mean3: memref<256xf32>, %variance3: memref<256xf32>,
                      %output: memref<1x256x56x56xf32>) {
  %t1 = memref.alloc() : memref<1x64x56x56xf32>
  %t2 = memref.alloc() : memref<1x64x56x56xf32>
  %t3 = memref.alloc() : memref<1x256x56x56xf32>
  dl.conv2d ins(%input, %filter1 : memref<1x256x56x56xf32>, memref<64x256x1x1xf32>)
            outs(%t1 : memref<1x64x56x56xf32>)
  dl.batch_norm_inference
      ins(%t1, %gamma1, %beta1, %mean1, %variance1 : memref<1x64x56x56xf32>,
          memref<64xf32>, memref<64xf32>, memref<64xf32>, memref<64xf32>)
      outs(%t1 : memref<1x64x56x56xf32>) {epsilon = 1.0e-5 : f32}
  dl.relu ins(%t1 : memref<1x64x56x56xf32>) outs(%t1 : memref<1x64x56x56xf32>)
  dl.conv2d ins(%t1, %filter2 : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>)
            outs(%t2 : memref<1x64x56x56xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_inference
      ins(%t2, %gamma2, %beta2, %mean2, %variance2 : memref<1x64x56x56xf32>,
          memref<64xf32>, memref<64xf32>, memref<64xf32>, memref<64xf32>)
      outs(%t2 : memref<1x64x56x56xf32>) {epsilon = 1.0e-5 : f32}
  dl.relu ins(%t2 : memref<1x64x56x56xf32>) outs(%t2 : memref<1x64x56x56xf32>)
  dl.conv2d ins(%t2, %filter3 : memref<1x64x56x56xf32>, memref<256x64x1x1xf32>)
            outs(%t3 : memref<1x256x56x56xf32>)
  dl.batch_norm_inference
      ins(%t3, %gamma3, %beta3, %mean3, %variance3 : memref<1x256x56x56xf32>,
          memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>)
      outs(%t3 : memref<1x256x56x56xf32>) {epsilon = 1.0e-5 : f32}
  dl.add ins(%t3, %input : memref<1x256x56x56xf32>, memref<1x256x56x56xf32>)
         outs(%output : memref<1x256x56x56xf32>)
  dl.relu ins(%output : memref<1x256x56x56xf32>) outs(%output : memref<1x256x56x56xf32>)
  memref.dealloc %t1 : memref<1x64x56x56xf32>
  memref.dealloc %t2 : memref<1x64x56x56xf32>
  memref.dealloc %t3 : memref<1x256x56x56xf32>
  return
}

func.func @matmul(%a: memref<256x256xf32>, %b: memref<256x512xf32>,
                  %c: memref<256x512xf32>) {
  dl.matmul ins(%a, %b : memref<256x256xf32>, memref<256x512xf32>)
            outs(%c : memref<256x512xf32>)
  return
}
