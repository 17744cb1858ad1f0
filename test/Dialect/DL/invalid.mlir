// Tests every verifier error of the dl ops and of the dl.run_shape argument attribute.
// RUN: dl-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// dl.matmul
//===----------------------------------------------------------------------===//

func.func @matmul_a_rank(%a: memref<2x4x8xf32>, %b: memref<8x16xf32>,
                         %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op expects A of rank 2, got rank 3}}
  dl.matmul ins(%a, %b : memref<2x4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @matmul_b_rank(%a: memref<4x8xf32>, %b: memref<8xf32>,
                         %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op expects B of rank 2 or 4, got rank 1}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8xf32>)
            outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @matmul_blocked_b_transposed(%a: memref<4x8xf32>, %b: memref<2x2x4x8xf32>,
                                       %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op a blocked B (rank 4) takes neither transpose_b nor pack_b}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<2x2x4x8xf32>)
            outs(%c : memref<4x16xf32>) {transpose_b}
  return
}

// -----

func.func @matmul_blocked_b_packed(%a: memref<4x8xf32>, %b: memref<2x2x4x8xf32>,
                                   %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op a blocked B (rank 4) takes neither transpose_b nor pack_b}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<2x2x4x8xf32>)
            outs(%c : memref<4x16xf32>) {pack_blocks = array<i64: 4, 8, 4>, pack_b}
  return
}

// -----

func.func @matmul_blocked_b_other_blocks(%a: memref<4x8xf32>, %b: memref<2x2x4x8xf32>,
                                         %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_blocks' bn and bk (16, 4) must be the blocks of the blocked B (8, 4)}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<2x2x4x8xf32>)
            outs(%c : memref<4x16xf32>) {pack_blocks = array<i64: 4, 16, 4>}
  return
}

// -----

func.func @matmul_blocked_b_dynamic_block(%a: memref<4x8xf32>, %b: memref<2x2x?x8xf32>,
                                          %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op B's K block size must be static}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<2x2x?x8xf32>)
            outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @matmul_blocked_b_k(%a: memref<4x12xf32>, %b: memref<2x2x4x8xf32>,
                              %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op K of op(A) (12) does not match K of op(B) (8)}}
  dl.matmul ins(%a, %b : memref<4x12xf32>, memref<2x2x4x8xf32>)
            outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @matmul_blocked_b_n(%a: memref<4x8xf32>, %b: memref<3x2x4x8xf32>,
                              %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op N of op(B) (24) does not match columns of C (16)}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<3x2x4x8xf32>)
            outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @matmul_c_rank(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                         %c: memref<1x4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op expects C of rank 2, got rank 3}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<1x4x16xf32>)
  return
}

// -----

func.func @matmul_not_f32(%a: memref<4x8xf64>, %b: memref<8x16xf32>,
                          %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op operand #0 must be f32 memref or ranked tensor, but got 'memref<4x8xf64>'}}
  dl.matmul ins(%a, %b : memref<4x8xf64>, memref<8x16xf32>)
            outs(%c : memref<4x16xf32>)
  return
}

// -----

func.func @matmul_not_f32_output(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                                 %c: memref<4x16xi32>) {
  // expected-error @+1 {{'dl.matmul' op operand #2 must be f32 memref or ranked tensor, but got 'memref<4x16xi32>'}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<4x16xi32>)
  return
}

// -----

func.func @matmul_k(%a: memref<4x8xf32>, %b: memref<16x16xf32>,
                    %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op K of op(A) (8) does not match K of op(B) (16)}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<16x16xf32>)
            outs(%c : memref<4x16xf32>)
  return
}

// -----

// Without transpose_a, A = 4x8 would have K = 8 and match B; with it K = 4.
func.func @matmul_k_transpose_a(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                                %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op K of op(A) (4) does not match K of op(B) (8)}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<8x16xf32>) {transpose_a}
  return
}

// -----

// Without transpose_b, B = 8x16 would have K = 8 and match A; with it K = 16.
func.func @matmul_k_transpose_b(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                                %c: memref<4x8xf32>) {
  // expected-error @+1 {{'dl.matmul' op K of op(A) (8) does not match K of op(B) (16)}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<4x8xf32>) {transpose_b}
  return
}

// -----

func.func @matmul_m(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                    %c: memref<5x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op M of op(A) (4) does not match rows of C (5)}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<5x16xf32>)
  return
}

// -----

func.func @matmul_m_transpose_a(%a: memref<8x4xf32>, %b: memref<8x16xf32>,
                                %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op M of op(A) (4) does not match rows of C (8)}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<8x16xf32>)
            outs(%c : memref<8x16xf32>) {transpose_a}
  return
}

// -----

func.func @matmul_n(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                    %c: memref<4x8xf32>) {
  // expected-error @+1 {{'dl.matmul' op N of op(B) (16) does not match columns of C (8)}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<4x8xf32>)
  return
}

// -----

func.func @matmul_n_transpose_b(%a: memref<4x8xf32>, %b: memref<16x8xf32>,
                                %c: memref<4x8xf32>) {
  // expected-error @+1 {{'dl.matmul' op N of op(B) (16) does not match columns of C (8)}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<16x8xf32>)
            outs(%c : memref<4x8xf32>) {transpose_b}
  return
}

// -----

func.func @matmul_both_transposes(%a: memref<8x4xf32>, %b: memref<16x6xf32>,
                                  %c: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op K of op(A) (8) does not match K of op(B) (6)}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<16x6xf32>)
            outs(%c : memref<4x16xf32>) {transpose_a, transpose_b}
  return
}

// -----

func.func @matmul_c_is_a(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  // expected-error @+1 {{'dl.matmul' op output must not be the same buffer as an input}}
  dl.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>)
            outs(%a : memref<4x4xf32>)
  return
}

// -----

func.func @matmul_c_is_b(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  // expected-error @+1 {{'dl.matmul' op output must not be the same buffer as an input}}
  dl.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>)
            outs(%b : memref<4x4xf32>) {beta = 1.0 : f32}
  return
}

// -----

func.func @matmul_alpha_not_f32(%a: memref<4x8xf32>, %b: memref<8x16xf32>,
                                %c: memref<4x16xf32>) {
  // The custom parser reports the attribute at its own location, two lines down.
  // expected-error @+2 {{'dl.matmul' op attribute 'alpha' failed to satisfy constraint: 32-bit float attribute}}
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
            outs(%c : memref<4x16xf32>) {alpha = 2.0 : f64}
  return
}

//===----------------------------------------------------------------------===//
// dl.conv2d
//===----------------------------------------------------------------------===//

// -----

func.func @conv_layout_plain_input_blocked_filter(
    %in: memref<1x8x10x10xf32>, %f: memref<4x2x3x3x4x4xf32>,
    %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects the plain layout (input, filter, output of ranks 4, 4, 4) or the blocked layout (ranks 5, 6, 5), got ranks 4, 6, 4}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<4x2x3x3x4x4xf32>)
            outs(%out : memref<1x16x8x8xf32>)
  return
}

// -----

func.func @conv_layout_blocked_plain_output(
    %in: memref<1x2x10x10x4xf32>, %f: memref<4x2x3x3x4x4xf32>,
    %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects the plain layout (input, filter, output of ranks 4, 4, 4) or the blocked layout (ranks 5, 6, 5), got ranks 5, 6, 4}}
  dl.conv2d ins(%in, %f : memref<1x2x10x10x4xf32>, memref<4x2x3x3x4x4xf32>)
            outs(%out : memref<1x16x8x8xf32>)
  return
}

// -----

func.func @conv_layout_rank3(%in: memref<8x10x10xf32>, %f: memref<16x8x3xf32>,
                             %out: memref<16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects the plain layout (input, filter, output of ranks 4, 4, 4) or the blocked layout (ranks 5, 6, 5), got ranks 3, 3, 3}}
  dl.conv2d ins(%in, %f : memref<8x10x10xf32>, memref<16x8x3xf32>)
            outs(%out : memref<16x8x8xf32>)
  return
}

// -----

func.func @conv_not_f32(%in: memref<1x8x10x10xf16>, %f: memref<16x8x3x3xf32>,
                        %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op operand #0 must be f32 memref or ranked tensor, but got 'memref<1x8x10x10xf16>'}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf16>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>)
  return
}

// -----

func.func @conv_filter_not_f32(%in: memref<1x8x10x10xf32>,
                               %f: memref<16x8x3x3xbf16>,
                               %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op operand #1 must be f32 memref or ranked tensor, but got 'memref<16x8x3x3xbf16>'}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xbf16>)
            outs(%out : memref<1x16x8x8xf32>)
  return
}

// -----

func.func @conv_strides_count(%in: memref<1x8x10x10xf32>,
                              %f: memref<16x8x3x3xf32>,
                              %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects 2 strides, got 3}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>) {strides = array<i64: 1, 1, 1>}
  return
}

// -----

func.func @conv_strides_empty(%in: memref<1x8x10x10xf32>,
                              %f: memref<16x8x3x3xf32>,
                              %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects 2 strides, got 0}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>) {strides = array<i64>}
  return
}

// -----

func.func @conv_dilations_count(%in: memref<1x8x10x10xf32>,
                                %f: memref<16x8x3x3xf32>,
                                %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects 2 dilations, got 1}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>) {dilations = array<i64: 1>}
  return
}

// -----

func.func @conv_paddings_count(%in: memref<1x8x10x10xf32>,
                               %f: memref<16x8x3x3xf32>,
                               %out: memref<1x16x10x10xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects 4 paddings [top, left, bottom, right], got 2}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x10x10xf32>) {padding = array<i64: 1, 1>}
  return
}

// -----

func.func @conv_stride_zero(%in: memref<1x8x10x10xf32>,
                            %f: memref<16x8x3x3xf32>,
                            %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects strides > 0}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>) {strides = array<i64: 1, 0>}
  return
}

// -----

func.func @conv_stride_negative(%in: memref<1x8x10x10xf32>,
                                %f: memref<16x8x3x3xf32>,
                                %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects strides > 0}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>) {strides = array<i64: -1, 1>}
  return
}

// -----

func.func @conv_dilation_zero(%in: memref<1x8x10x10xf32>,
                              %f: memref<16x8x3x3xf32>,
                              %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects dilations > 0}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>) {dilations = array<i64: 0, 1>}
  return
}

// -----

func.func @conv_dilation_negative(%in: memref<1x8x10x10xf32>,
                                  %f: memref<16x8x3x3xf32>,
                                  %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects dilations > 0}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>) {dilations = array<i64: 1, -2>}
  return
}

// -----

func.func @conv_padding_negative(%in: memref<1x8x10x10xf32>,
                                 %f: memref<16x8x3x3xf32>,
                                 %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects paddings >= 0}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>)
            {padding = array<i64: 1, 1, -1, 1>}
  return
}

// -----

func.func @conv_batch(%in: memref<1x8x10x10xf32>, %f: memref<16x8x3x3xf32>,
                      %out: memref<2x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op input batch (1) does not match output batch (2)}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<2x16x8x8xf32>)
  return
}

// -----

func.func @conv_input_channels(%in: memref<1x8x10x10xf32>,
                               %f: memref<16x4x3x3xf32>,
                               %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op input channels (8) does not match filter input channels (4)}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x4x3x3xf32>)
            outs(%out : memref<1x16x8x8xf32>)
  return
}

// -----

func.func @conv_output_channels(%in: memref<1x8x10x10xf32>,
                                %f: memref<16x8x3x3xf32>,
                                %out: memref<1x8x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op filter output channels (16) does not match output channels (8)}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x8x8x8xf32>)
  return
}

// -----

func.func @conv_blocked_batch(%in: memref<1x2x10x10x4xf32>,
                              %f: memref<4x2x3x3x4x4xf32>,
                              %out: memref<3x4x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op input batch (1) does not match output batch (3)}}
  dl.conv2d ins(%in, %f : memref<1x2x10x10x4xf32>, memref<4x2x3x3x4x4xf32>)
            outs(%out : memref<3x4x8x8x4xf32>)
  return
}

// -----

func.func @conv_blocked_input_channel_blocks(%in: memref<1x2x10x10x4xf32>,
                                             %f: memref<4x1x3x3x4x4xf32>,
                                             %out: memref<1x4x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op input channel blocks (2) does not match filter input channel blocks (1)}}
  dl.conv2d ins(%in, %f : memref<1x2x10x10x4xf32>, memref<4x1x3x3x4x4xf32>)
            outs(%out : memref<1x4x8x8x4xf32>)
  return
}

// -----

func.func @conv_blocked_output_channel_blocks(%in: memref<1x2x10x10x4xf32>,
                                              %f: memref<4x2x3x3x4x4xf32>,
                                              %out: memref<1x2x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op filter output channel blocks (4) does not match output channel blocks (2)}}
  dl.conv2d ins(%in, %f : memref<1x2x10x10x4xf32>, memref<4x2x3x3x4x4xf32>)
            outs(%out : memref<1x2x8x8x4xf32>)
  return
}

// -----

func.func @conv_blocked_input_block(%in: memref<1x2x10x10x4xf32>,
                                    %f: memref<4x2x3x3x8x4xf32>,
                                    %out: memref<1x4x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op input channel block (4) does not match filter input channel block (8)}}
  dl.conv2d ins(%in, %f : memref<1x2x10x10x4xf32>, memref<4x2x3x3x8x4xf32>)
            outs(%out : memref<1x4x8x8x4xf32>)
  return
}

// -----

func.func @conv_blocked_output_block(%in: memref<1x2x10x10x4xf32>,
                                     %f: memref<4x2x3x3x4x4xf32>,
                                     %out: memref<1x4x8x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op filter output channel block (4) does not match output channel block (8)}}
  dl.conv2d ins(%in, %f : memref<1x2x10x10x4xf32>, memref<4x2x3x3x4x4xf32>)
            outs(%out : memref<1x4x8x8x8xf32>)
  return
}

// -----

func.func @conv_filter_height_zero(%in: memref<1x8x10x10xf32>,
                                   %f: memref<16x8x0x3xf32>,
                                   %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects a filter height >= 1}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x0x3xf32>)
            outs(%out : memref<1x16x8x8xf32>)
  return
}

// -----

func.func @conv_filter_width_zero(%in: memref<1x8x10x10xf32>,
                                  %f: memref<16x8x3x0xf32>,
                                  %out: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects a filter width >= 1}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x0xf32>)
            outs(%out : memref<1x16x8x8xf32>)
  return
}

// -----

// A zero filter size is rejected even when the input size is dynamic.
func.func @conv_filter_height_zero_dynamic_input(%in: memref<1x8x?x10xf32>,
                                                 %f: memref<16x8x0x3xf32>,
                                                 %out: memref<1x16x?x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects a filter height >= 1}}
  dl.conv2d ins(%in, %f : memref<1x8x?x10xf32>, memref<16x8x0x3xf32>)
            outs(%out : memref<1x16x?x8xf32>)
  return
}

// -----

func.func @conv_filter_taller_than_input(%in: memref<1x8x2x10xf32>,
                                         %f: memref<16x8x3x3xf32>,
                                         %out: memref<1x16x1x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op filter height (3, dilated 3) is larger than the padded input height (2)}}
  dl.conv2d ins(%in, %f : memref<1x8x2x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x1x8xf32>)
  return
}

// -----

// The padding counts: 2 + 1 + 1 = 4 >= 3 would be fine, 1 + 0 + 1 = 2 is not.
func.func @conv_filter_taller_than_padded_input(%in: memref<1x8x1x10xf32>,
                                                %f: memref<16x8x3x3xf32>,
                                                %out: memref<1x16x1x10xf32>) {
  // expected-error @+1 {{'dl.conv2d' op filter height (3, dilated 3) is larger than the padded input height (2)}}
  dl.conv2d ins(%in, %f : memref<1x8x1x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x1x10xf32>)
            {padding = array<i64: 0, 1, 1, 1>}
  return
}

// -----

// Dilation 2 makes the 3-wide filter span 5 > 4.
func.func @conv_filter_wider_than_input(%in: memref<1x8x10x4xf32>,
                                        %f: memref<16x8x3x3xf32>,
                                        %out: memref<1x16x8x1xf32>) {
  // expected-error @+1 {{'dl.conv2d' op filter width (3, dilated 5) is larger than the padded input width (4)}}
  dl.conv2d ins(%in, %f : memref<1x8x10x4xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x8x1xf32>) {dilations = array<i64: 1, 2>}
  return
}

// -----

func.func @conv_output_height(%in: memref<1x8x10x10xf32>,
                              %f: memref<16x8x3x3xf32>,
                              %out: memref<1x16x7x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op output height (7) does not match the height implied by input, filter, stride, padding and dilation (8)}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x7x8xf32>)
  return
}

// -----

// (10 + 1 + 1 - 3) / 2 + 1 = 5.
func.func @conv_output_width(%in: memref<1x8x10x10xf32>,
                             %f: memref<16x8x3x3xf32>,
                             %out: memref<1x16x5x6xf32>) {
  // expected-error @+1 {{'dl.conv2d' op output width (6) does not match the width implied by input, filter, stride, padding and dilation (5)}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<1x16x5x6xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

func.func @conv_blocked_output_height(%in: memref<1x2x10x10x4xf32>,
                                      %f: memref<4x2x3x3x4x4xf32>,
                                      %out: memref<1x4x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op output height (8) does not match the height implied by input, filter, stride, padding and dilation (10)}}
  dl.conv2d ins(%in, %f : memref<1x2x10x10x4xf32>, memref<4x2x3x3x4x4xf32>)
            outs(%out : memref<1x4x8x8x4xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

func.func @conv_output_is_input(%in: memref<1x8x10x10xf32>,
                                %f: memref<8x8x1x1xf32>) {
  // expected-error @+1 {{'dl.conv2d' op output must not be the same buffer as an input}}
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<8x8x1x1xf32>)
            outs(%in : memref<1x8x10x10xf32>)
  return
}

// -----

func.func @conv_output_is_filter(%in: memref<1x1x1x1xf32>,
                                 %f: memref<1x1x1x1xf32>) {
  // expected-error @+1 {{'dl.conv2d' op output must not be the same buffer as an input}}
  dl.conv2d ins(%in, %f : memref<1x1x1x1xf32>, memref<1x1x1x1xf32>)
            outs(%f : memref<1x1x1x1xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.batch_norm_inference
//===----------------------------------------------------------------------===//

// -----

func.func @bn_inference_rank3(%in: memref<8x4x4xf32>, %v: memref<8xf32>,
                              %out: memref<8x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op expects input of rank 4 or 5, got rank 3}}
  dl.batch_norm_inference ins(%in, %v, %v, %v, %v : memref<8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<8x4x4xf32>)
  return
}

// -----

func.func @bn_inference_rank6(%in: memref<1x2x4x4x4x1xf32>, %v: memref<8xf32>,
                              %out: memref<1x2x4x4x4x1xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op expects input of rank 4 or 5, got rank 6}}
  dl.batch_norm_inference ins(%in, %v, %v, %v, %v : memref<1x2x4x4x4x1xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<1x2x4x4x4x1xf32>)
  return
}

// -----

func.func @bn_inference_vector_rank(%in: memref<2x8x4x4xf32>,
                                    %g: memref<8x1xf32>, %v: memref<8xf32>,
                                    %out: memref<2x8x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op operand #1 must be rank-1 f32 memref or tensor, but got 'memref<8x1xf32>'}}
  dl.batch_norm_inference ins(%in, %g, %v, %v, %v : memref<2x8x4x4xf32>,
                              memref<8x1xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
  return
}

// -----

func.func @bn_inference_vector_not_f32(%in: memref<2x8x4x4xf32>,
                                       %m: memref<8xf64>, %v: memref<8xf32>,
                                       %out: memref<2x8x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op operand #3 must be rank-1 f32 memref or tensor, but got 'memref<8xf64>'}}
  dl.batch_norm_inference ins(%in, %v, %v, %m, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf64>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
  return
}

// -----

func.func @bn_inference_output_size(%in: memref<2x8x4x4xf32>,
                                    %v: memref<8xf32>,
                                    %out: memref<2x8x4x5xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op input size 3 (4) does not match output size 3 (5)}}
  dl.batch_norm_inference ins(%in, %v, %v, %v, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x5xf32>)
  return
}

// -----

func.func @bn_inference_output_rank(%in: memref<2x8x4x4xf32>,
                                    %v: memref<8xf32>,
                                    %out: memref<2x2x4x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op input rank (4) does not match output rank (5)}}
  dl.batch_norm_inference ins(%in, %v, %v, %v, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x2x4x4x4xf32>)
  return
}

// -----

func.func @bn_inference_gamma(%in: memref<2x8x4x4xf32>, %g: memref<4xf32>,
                              %v: memref<8xf32>, %out: memref<2x8x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op gamma size (4) does not match the number of channels (8)}}
  dl.batch_norm_inference ins(%in, %g, %v, %v, %v : memref<2x8x4x4xf32>,
                              memref<4xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
  return
}

// -----

func.func @bn_inference_beta(%in: memref<2x8x4x4xf32>, %b: memref<4xf32>,
                             %v: memref<8xf32>, %out: memref<2x8x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op beta size (4) does not match the number of channels (8)}}
  dl.batch_norm_inference ins(%in, %v, %b, %v, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<4xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
  return
}

// -----

func.func @bn_inference_mean(%in: memref<2x8x4x4xf32>, %m: memref<16xf32>,
                             %v: memref<8xf32>, %out: memref<2x8x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op mean size (16) does not match the number of channels (8)}}
  dl.batch_norm_inference ins(%in, %v, %v, %m, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<16xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
  return
}

// -----

func.func @bn_inference_variance(%in: memref<2x8x4x4xf32>, %var: memref<1xf32>,
                                 %v: memref<8xf32>, %out: memref<2x8x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op variance size (1) does not match the number of channels (8)}}
  dl.batch_norm_inference ins(%in, %v, %v, %v, %var : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<1xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
  return
}

// -----

// Blocked: 2 blocks of 4 channels is 8 channels, not 4.
func.func @bn_inference_blocked_gamma(%in: memref<2x2x4x4x4xf32>,
                                      %g: memref<4xf32>, %v: memref<8xf32>,
                                      %out: memref<2x2x4x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op gamma size (4) does not match the number of channels (8)}}
  dl.batch_norm_inference ins(%in, %g, %v, %v, %v : memref<2x2x4x4x4xf32>,
                              memref<4xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x2x4x4x4xf32>)
  return
}

// -----

func.func @bn_inference_blocked_dynamic_block(%in: memref<2x2x4x4x?xf32>,
                                              %v: memref<8xf32>,
                                              %out: memref<2x2x4x4x?xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op channel block size must be static}}
  dl.batch_norm_inference ins(%in, %v, %v, %v, %v : memref<2x2x4x4x?xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x2x4x4x?xf32>)
  return
}

// -----

func.func @bn_inference_blocked_zero_block(%in: memref<2x2x4x4x0xf32>,
                                           %v: memref<0xf32>,
                                           %out: memref<2x2x4x4x0xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op channel block size must be >= 1, got 0}}
  dl.batch_norm_inference ins(%in, %v, %v, %v, %v : memref<2x2x4x4x0xf32>,
                              memref<0xf32>, memref<0xf32>, memref<0xf32>,
                              memref<0xf32>)
                          outs(%out : memref<2x2x4x4x0xf32>)
  return
}

// -----

func.func @bn_inference_negative_epsilon(%in: memref<2x8x4x4xf32>,
                                         %v: memref<8xf32>,
                                         %out: memref<2x8x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op expects epsilon >= 0, got -1.000000e-03}}
  dl.batch_norm_inference ins(%in, %v, %v, %v, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
                          {epsilon = -1.0e-3 : f32}
  return
}

// -----

func.func @bn_inference_nan_epsilon(%in: memref<2x8x4x4xf32>,
                                    %v: memref<8xf32>,
                                    %out: memref<2x8x4x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_inference' op expects epsilon >= 0, got nan}}
  dl.batch_norm_inference ins(%in, %v, %v, %v, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>, memref<8xf32>,
                              memref<8xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
                          {epsilon = 0x7FC00000 : f32}
  return
}

//===----------------------------------------------------------------------===//
// dl.batch_norm_training
//===----------------------------------------------------------------------===//

// -----

func.func @bn_training_rank3(%in: memref<8x4x4xf32>, %v: memref<8xf32>,
                             %out: memref<8x4x4xf32>, %sm: memref<8xf32>,
                             %sv: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op expects input of rank 4 or 5, got rank 3}}
  dl.batch_norm_training ins(%in, %v, %v : memref<8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
  return
}

// -----

func.func @bn_training_output_size(%in: memref<2x8x4x4xf32>, %v: memref<8xf32>,
                                   %out: memref<1x8x4x4xf32>,
                                   %sm: memref<8xf32>, %sv: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op input size 0 (2) does not match output size 0 (1)}}
  dl.batch_norm_training ins(%in, %v, %v : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<1x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
  return
}

// -----

func.func @bn_training_output_rank(%in: memref<2x2x4x4x4xf32>,
                                   %v: memref<8xf32>,
                                   %out: memref<2x8x4x4xf32>,
                                   %sm: memref<8xf32>, %sv: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op input rank (5) does not match output rank (4)}}
  dl.batch_norm_training ins(%in, %v, %v : memref<2x2x4x4x4xf32>,
                             memref<8xf32>, memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
  return
}

// -----

func.func @bn_training_saved_mean_rank(%in: memref<2x8x4x4xf32>,
                                       %v: memref<8xf32>,
                                       %out: memref<2x8x4x4xf32>,
                                       %sm: memref<1x8xf32>,
                                       %sv: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op operand #4 must be rank-1 f32 memref or tensor, but got 'memref<1x8xf32>'}}
  dl.batch_norm_training ins(%in, %v, %v : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<1x8xf32>, memref<8xf32>)
  return
}

// -----

func.func @bn_training_gamma(%in: memref<2x8x4x4xf32>, %g: memref<7xf32>,
                             %v: memref<8xf32>, %out: memref<2x8x4x4xf32>,
                             %sm: memref<8xf32>, %sv: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op gamma size (7) does not match the number of channels (8)}}
  dl.batch_norm_training ins(%in, %g, %v : memref<2x8x4x4xf32>, memref<7xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
  return
}

// -----

func.func @bn_training_beta(%in: memref<2x8x4x4xf32>, %b: memref<9xf32>,
                            %v: memref<8xf32>, %out: memref<2x8x4x4xf32>,
                            %sm: memref<8xf32>, %sv: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op beta size (9) does not match the number of channels (8)}}
  dl.batch_norm_training ins(%in, %v, %b : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<9xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
  return
}

// -----

func.func @bn_training_saved_mean(%in: memref<2x8x4x4xf32>, %v: memref<8xf32>,
                                  %out: memref<2x8x4x4xf32>,
                                  %sm: memref<4xf32>, %sv: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op saved_mean size (4) does not match the number of channels (8)}}
  dl.batch_norm_training ins(%in, %v, %v : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<4xf32>, memref<8xf32>)
  return
}

// -----

func.func @bn_training_saved_variance(%in: memref<2x8x4x4xf32>,
                                      %v: memref<8xf32>,
                                      %out: memref<2x8x4x4xf32>,
                                      %sm: memref<8xf32>, %sv: memref<16xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op saved_variance size (16) does not match the number of channels (8)}}
  dl.batch_norm_training ins(%in, %v, %v : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<16xf32>)
  return
}

// -----

func.func @bn_training_blocked_saved_variance(%in: memref<2x2x4x4x4xf32>,
                                              %v: memref<8xf32>,
                                              %out: memref<2x2x4x4x4xf32>,
                                              %sm: memref<8xf32>,
                                              %sv: memref<2xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op saved_variance size (2) does not match the number of channels (8)}}
  dl.batch_norm_training ins(%in, %v, %v : memref<2x2x4x4x4xf32>,
                             memref<8xf32>, memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x2x4x4x4xf32>,
                              memref<8xf32>, memref<2xf32>)
  return
}

// -----

func.func @bn_training_blocked_dynamic_block(%in: memref<2x2x4x4x?xf32>,
                                             %v: memref<8xf32>,
                                             %out: memref<2x2x4x4x?xf32>,
                                             %sm: memref<8xf32>,
                                             %sv: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op channel block size must be static}}
  dl.batch_norm_training ins(%in, %v, %v : memref<2x2x4x4x?xf32>,
                             memref<8xf32>, memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x2x4x4x?xf32>,
                              memref<8xf32>, memref<8xf32>)
  return
}

// -----

func.func @bn_training_negative_epsilon(%in: memref<2x8x4x4xf32>,
                                        %v: memref<8xf32>,
                                        %out: memref<2x8x4x4xf32>,
                                        %sm: memref<8xf32>, %sv: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op expects epsilon >= 0, got -5.000000e-01}}
  dl.batch_norm_training ins(%in, %v, %v : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
                         {epsilon = -0.5 : f32}
  return
}

// -----

func.func @bn_training_same_saved_buffers(%in: memref<2x8x4x4xf32>,
                                          %v: memref<8xf32>,
                                          %out: memref<2x8x4x4xf32>,
                                          %s: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op saved_mean, saved_variance and inv_std must be different buffers}}
  dl.batch_norm_training ins(%in, %v, %v : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %s, %s : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
  return
}

func.func @bn_training_inv_std_is_mean(%in: memref<2x8x4x4xf32>,
                                       %g: memref<8xf32>, %b: memref<8xf32>,
                                       %out: memref<2x8x4x4xf32>,
                                       %m: memref<8xf32>, %v: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op saved_mean, saved_variance and inv_std must be different buffers}}
  dl.batch_norm_training ins(%in, %g, %b : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %m, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
                         inv_std(%m : memref<8xf32>)
  return
}

// -----

func.func @bn_training_inv_std_size(%in: memref<2x8x4x4xf32>,
                                    %g: memref<8xf32>, %b: memref<8xf32>,
                                    %out: memref<2x8x4x4xf32>,
                                    %m: memref<8xf32>, %v: memref<8xf32>,
                                    %s: memref<4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op inv_std size (4) does not match the number of channels (8)}}
  dl.batch_norm_training ins(%in, %g, %b : memref<2x8x4x4xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %m, %v : memref<2x8x4x4xf32>,
                              memref<8xf32>, memref<8xf32>)
                         inv_std(%s : memref<4xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// dl.relu, dl.relu6
//===----------------------------------------------------------------------===//

// -----

func.func @relu_size(%in: memref<2x8x4x4xf32>, %out: memref<2x4x4x4xf32>) {
  // expected-error @+1 {{'dl.relu' op input size 1 (8) does not match output size 1 (4)}}
  dl.relu ins(%in : memref<2x8x4x4xf32>) outs(%out : memref<2x4x4x4xf32>)
  return
}

// -----

func.func @relu_rank(%in: memref<2x8x4x4xf32>, %out: memref<256xf32>) {
  // expected-error @+1 {{'dl.relu' op input rank (4) does not match output rank (1)}}
  dl.relu ins(%in : memref<2x8x4x4xf32>) outs(%out : memref<256xf32>)
  return
}

// -----

func.func @relu_not_f32(%in: memref<16xi32>, %out: memref<16xf32>) {
  // expected-error @+1 {{'dl.relu' op operand #0 must be f32 memref or ranked tensor, but got 'memref<16xi32>'}}
  dl.relu ins(%in : memref<16xi32>) outs(%out : memref<16xf32>)
  return
}

// -----

func.func @relu6_size(%in: memref<16xf32>, %out: memref<17xf32>) {
  // expected-error @+1 {{'dl.relu6' op input size 0 (16) does not match output size 0 (17)}}
  dl.relu6 ins(%in : memref<16xf32>) outs(%out : memref<17xf32>)
  return
}

// -----

func.func @relu6_rank(%in: memref<4x4xf32>, %out: memref<4x4x1xf32>) {
  // expected-error @+1 {{'dl.relu6' op input rank (2) does not match output rank (3)}}
  dl.relu6 ins(%in : memref<4x4xf32>) outs(%out : memref<4x4x1xf32>)
  return
}

// -----

func.func @relu6_not_f32(%in: memref<16xf32>, %out: memref<16xf16>) {
  // expected-error @+1 {{'dl.relu6' op operand #1 must be f32 memref or ranked tensor, but got 'memref<16xf16>'}}
  dl.relu6 ins(%in : memref<16xf32>) outs(%out : memref<16xf16>)
  return
}

//===----------------------------------------------------------------------===//
// dl.add
//===----------------------------------------------------------------------===//

// -----

func.func @add_rank_lhs_rhs(%l: memref<4x4xf32>, %r: memref<4x4x1xf32>,
                            %out: memref<4x4xf32>) {
  // expected-error @+1 {{'dl.add' op lhs rank (2) does not match rhs rank (3)}}
  dl.add ins(%l, %r : memref<4x4xf32>, memref<4x4x1xf32>)
         outs(%out : memref<4x4xf32>)
  return
}

// -----

func.func @add_size_lhs_rhs(%l: memref<4x4xf32>, %r: memref<4x5xf32>,
                            %out: memref<4x4xf32>) {
  // expected-error @+1 {{'dl.add' op lhs size 1 (4) does not match rhs size 1 (5)}}
  dl.add ins(%l, %r : memref<4x4xf32>, memref<4x5xf32>)
         outs(%out : memref<4x4xf32>)
  return
}

// -----

func.func @add_rank_output(%l: memref<4x4xf32>, %r: memref<4x4xf32>,
                           %out: memref<16xf32>) {
  // expected-error @+1 {{'dl.add' op lhs rank (2) does not match output rank (1)}}
  dl.add ins(%l, %r : memref<4x4xf32>, memref<4x4xf32>)
         outs(%out : memref<16xf32>)
  return
}

// -----

func.func @add_size_output(%l: memref<4x4xf32>, %r: memref<4x4xf32>,
                           %out: memref<3x4xf32>) {
  // expected-error @+1 {{'dl.add' op lhs size 0 (4) does not match output size 0 (3)}}
  dl.add ins(%l, %r : memref<4x4xf32>, memref<4x4xf32>)
         outs(%out : memref<3x4xf32>)
  return
}

// -----

func.func @add_not_f32(%l: memref<4x4xf32>, %r: memref<4x4xf64>,
                       %out: memref<4x4xf32>) {
  // expected-error @+1 {{'dl.add' op operand #1 must be f32 memref or ranked tensor, but got 'memref<4x4xf64>'}}
  dl.add ins(%l, %r : memref<4x4xf32>, memref<4x4xf64>)
         outs(%out : memref<4x4xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.bias_add
//===----------------------------------------------------------------------===//

// -----

func.func @bias_add_rank3(%in: memref<2x8x4xf32>, %b: memref<8xf32>,
                          %out: memref<2x8x4xf32>) {
  // expected-error @+1 {{'dl.bias_add' op expects input of rank 2 or 4 or 5, got rank 3}}
  dl.bias_add ins(%in, %b : memref<2x8x4xf32>, memref<8xf32>)
              outs(%out : memref<2x8x4xf32>)
  return
}

// -----

func.func @bias_add_rank1(%in: memref<8xf32>, %b: memref<8xf32>,
                          %out: memref<8xf32>) {
  // expected-error @+1 {{'dl.bias_add' op expects input of rank 2 or 4 or 5, got rank 1}}
  dl.bias_add ins(%in, %b : memref<8xf32>, memref<8xf32>)
              outs(%out : memref<8xf32>)
  return
}

// -----

func.func @bias_add_bias_rank(%in: memref<4x16xf32>, %b: memref<1x16xf32>,
                              %out: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.bias_add' op operand #1 must be rank-1 f32 memref or tensor, but got 'memref<1x16xf32>'}}
  dl.bias_add ins(%in, %b : memref<4x16xf32>, memref<1x16xf32>)
              outs(%out : memref<4x16xf32>)
  return
}

// -----

func.func @bias_add_output_size(%in: memref<4x16xf32>, %b: memref<16xf32>,
                                %out: memref<4x8xf32>) {
  // expected-error @+1 {{'dl.bias_add' op input size 1 (16) does not match output size 1 (8)}}
  dl.bias_add ins(%in, %b : memref<4x16xf32>, memref<16xf32>)
              outs(%out : memref<4x8xf32>)
  return
}

// -----

func.func @bias_add_output_rank(%in: memref<2x8x4x4xf32>, %b: memref<8xf32>,
                                %out: memref<2x2x4x4x4xf32>) {
  // expected-error @+1 {{'dl.bias_add' op input rank (4) does not match output rank (5)}}
  dl.bias_add ins(%in, %b : memref<2x8x4x4xf32>, memref<8xf32>)
              outs(%out : memref<2x2x4x4x4xf32>)
  return
}

// -----

// Rank 2: the bias is per column (dimension 1).
func.func @bias_add_rank2_size(%in: memref<4x16xf32>, %b: memref<4xf32>,
                               %out: memref<4x16xf32>) {
  // expected-error @+1 {{'dl.bias_add' op bias size (4) does not match the number of channels (16)}}
  dl.bias_add ins(%in, %b : memref<4x16xf32>, memref<4xf32>)
              outs(%out : memref<4x16xf32>)
  return
}

// -----

func.func @bias_add_rank4_size(%in: memref<2x8x4x4xf32>, %b: memref<4xf32>,
                               %out: memref<2x8x4x4xf32>) {
  // expected-error @+1 {{'dl.bias_add' op bias size (4) does not match the number of channels (8)}}
  dl.bias_add ins(%in, %b : memref<2x8x4x4xf32>, memref<4xf32>)
              outs(%out : memref<2x8x4x4xf32>)
  return
}

// -----

func.func @bias_add_rank5_size(%in: memref<2x2x4x4x4xf32>, %b: memref<4xf32>,
                               %out: memref<2x2x4x4x4xf32>) {
  // expected-error @+1 {{'dl.bias_add' op bias size (4) does not match the number of channels (8)}}
  dl.bias_add ins(%in, %b : memref<2x2x4x4x4xf32>, memref<4xf32>)
              outs(%out : memref<2x2x4x4x4xf32>)
  return
}

// -----

func.func @bias_add_rank5_dynamic_block(%in: memref<2x2x4x4x?xf32>,
                                        %b: memref<8xf32>,
                                        %out: memref<2x2x4x4x?xf32>) {
  // expected-error @+1 {{'dl.bias_add' op channel block size must be static}}
  dl.bias_add ins(%in, %b : memref<2x2x4x4x?xf32>, memref<8xf32>)
              outs(%out : memref<2x2x4x4x?xf32>)
  return
}

// -----

func.func @bias_add_rank5_zero_block(%in: memref<2x2x4x4x0xf32>,
                                     %b: memref<0xf32>,
                                     %out: memref<2x2x4x4x0xf32>) {
  // expected-error @+1 {{'dl.bias_add' op channel block size must be >= 1, got 0}}
  dl.bias_add ins(%in, %b : memref<2x2x4x4x0xf32>, memref<0xf32>)
              outs(%out : memref<2x2x4x4x0xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.pack, dl.unpack: activations (rank 4 <-> 5)
//===----------------------------------------------------------------------===//

// -----

func.func @pack_same_buffer(%a: memref<2x8x5x5xf32>) {
  // expected-error @+1 {{'dl.pack' op source and destination must be different buffers}}
  dl.pack ins(%a : memref<2x8x5x5xf32>) outs(%a : memref<2x8x5x5xf32>)
  return
}

// -----

func.func @unpack_same_buffer(%a: memref<2x2x5x5x4xf32>) {
  // expected-error @+1 {{'dl.unpack' op source and destination must be different buffers}}
  dl.unpack ins(%a : memref<2x2x5x5x4xf32>) outs(%a : memref<2x2x5x5x4xf32>)
  return
}

// -----

func.func @pack_plain_rank(%p: memref<8x5x5xf32>, %b: memref<1x2x5x5x4xf32>) {
  // expected-error @+1 {{'dl.pack' op expects a plain-layout side of rank 2 or 4, got rank 3}}
  dl.pack ins(%p : memref<8x5x5xf32>) outs(%b : memref<1x2x5x5x4xf32>)
  return
}

// -----

func.func @pack_blocked_rank(%p: memref<2x8x5x5xf32>, %b: memref<2x8x5x5xf32>) {
  // expected-error @+1 {{'dl.pack' op expects a blocked-layout side of rank 5 or 6, got rank 4}}
  dl.pack ins(%p : memref<2x8x5x5xf32>) outs(%b : memref<2x8x5x5xf32>)
  return
}

// -----

func.func @pack_blocked_rank7(%p: memref<2x8x5x5xf32>,
                              %b: memref<1x2x2x5x5x4x1xf32>) {
  // expected-error @+1 {{'dl.pack' op expects a blocked-layout side of rank 5 or 6, got rank 7}}
  dl.pack ins(%p : memref<2x8x5x5xf32>) outs(%b : memref<1x2x2x5x5x4x1xf32>)
  return
}

// -----

// dl.pack in the wrong direction: its source is the plain side.
func.func @pack_reversed(%b: memref<2x2x5x5x4xf32>, %p: memref<2x8x5x5xf32>) {
  // expected-error @+1 {{'dl.pack' op expects a plain-layout side of rank 2 or 4, got rank 5}}
  dl.pack ins(%b : memref<2x2x5x5x4xf32>) outs(%p : memref<2x8x5x5xf32>)
  return
}

// -----

// dl.unpack in the wrong direction: its destination is the plain side.
func.func @unpack_reversed(%p: memref<2x8x5x5xf32>, %b: memref<2x2x5x5x4xf32>) {
  // expected-error @+1 {{'dl.unpack' op expects a plain-layout side of rank 2 or 4, got rank 5}}
  dl.unpack ins(%p : memref<2x8x5x5xf32>) outs(%b : memref<2x2x5x5x4xf32>)
  return
}

// -----

func.func @unpack_blocked_rank(%b: memref<2x8x5xf32>, %p: memref<2x8x5x5xf32>) {
  // expected-error @+1 {{'dl.unpack' op expects a blocked-layout side of rank 5 or 6, got rank 3}}
  dl.unpack ins(%b : memref<2x8x5xf32>) outs(%p : memref<2x8x5x5xf32>)
  return
}

// -----

func.func @pack_not_f32(%p: memref<2x8x5x5xf16>, %b: memref<2x2x5x5x4xf32>) {
  // expected-error @+1 {{'dl.pack' op operand #0 must be f32 memref or ranked tensor, but got 'memref<2x8x5x5xf16>'}}
  dl.pack ins(%p : memref<2x8x5x5xf16>) outs(%b : memref<2x2x5x5x4xf32>)
  return
}

// -----

func.func @pack_blocks_too_few(%p: memref<2x10x5x5xf32>,
                               %b: memref<2x2x5x5x4xf32>) {
  // expected-error @+1 {{'dl.pack' op blocked input channels (blocks x block) (8) is less than plain input channels (10)}}
  dl.pack ins(%p : memref<2x10x5x5xf32>) outs(%b : memref<2x2x5x5x4xf32>)
  return
}

// -----

func.func @pack_dynamic_block(%p: memref<2x8x5x5xf32>,
                              %b: memref<2x2x5x5x?xf32>) {
  // expected-error @+1 {{'dl.pack' op input block size must be static}}
  dl.pack ins(%p : memref<2x8x5x5xf32>) outs(%b : memref<2x2x5x5x?xf32>)
  return
}

// -----

func.func @pack_zero_block(%p: memref<2x8x5x5xf32>, %b: memref<2x2x5x5x0xf32>) {
  // expected-error @+1 {{'dl.pack' op input block size must be >= 1, got 0}}
  dl.pack ins(%p : memref<2x8x5x5xf32>) outs(%b : memref<2x2x5x5x0xf32>)
  return
}

// -----

func.func @pack_blocks_times_block(%p: memref<2x8x5x5xf32>,
                                   %b: memref<2x3x5x5x4xf32>) {
  // A whole block of padding.
  // expected-error @+1 {{'dl.pack' op plain input channels plus the block less one (11) is less than blocked input channels (blocks x block) (12)}}
  dl.pack ins(%p : memref<2x8x5x5xf32>) outs(%b : memref<2x3x5x5x4xf32>)
  return
}

// -----

func.func @pack_batch(%p: memref<2x8x5x5xf32>, %b: memref<3x2x5x5x4xf32>) {
  // expected-error @+1 {{'dl.pack' op plain batch (2) does not match blocked batch (3)}}
  dl.pack ins(%p : memref<2x8x5x5xf32>) outs(%b : memref<3x2x5x5x4xf32>)
  return
}

// -----

func.func @pack_height(%p: memref<2x8x5x5xf32>, %b: memref<2x2x6x5x4xf32>) {
  // expected-error @+1 {{'dl.pack' op plain height (5) does not match blocked height (6)}}
  dl.pack ins(%p : memref<2x8x5x5xf32>) outs(%b : memref<2x2x6x5x4xf32>)
  return
}

// -----

func.func @pack_width(%p: memref<2x8x5x5xf32>, %b: memref<2x2x5x4x4xf32>) {
  // expected-error @+1 {{'dl.pack' op plain width (5) does not match blocked width (4)}}
  dl.pack ins(%p : memref<2x8x5x5xf32>) outs(%b : memref<2x2x5x4x4xf32>)
  return
}

// -----

func.func @unpack_blocks_too_few(%b: memref<2x2x5x5x3xf32>,
                                 %p: memref<2x8x5x5xf32>) {
  // expected-error @+1 {{'dl.unpack' op blocked input channels (blocks x block) (6) is less than plain input channels (8)}}
  dl.unpack ins(%b : memref<2x2x5x5x3xf32>) outs(%p : memref<2x8x5x5xf32>)
  return
}

// -----

func.func @unpack_dynamic_block(%b: memref<2x2x5x5x?xf32>,
                                %p: memref<2x8x5x5xf32>) {
  // expected-error @+1 {{'dl.unpack' op input block size must be static}}
  dl.unpack ins(%b : memref<2x2x5x5x?xf32>) outs(%p : memref<2x8x5x5xf32>)
  return
}

// -----

func.func @unpack_blocks_times_block(%b: memref<2x4x5x5x4xf32>,
                                     %p: memref<2x8x5x5xf32>) {
  // expected-error @+1 {{'dl.unpack' op plain input channels plus the block less one (11) is less than blocked input channels (blocks x block) (16)}}
  dl.unpack ins(%b : memref<2x4x5x5x4xf32>) outs(%p : memref<2x8x5x5xf32>)
  return
}

// -----

func.func @unpack_batch(%b: memref<1x2x5x5x4xf32>, %p: memref<2x8x5x5xf32>) {
  // expected-error @+1 {{'dl.unpack' op plain batch (2) does not match blocked batch (1)}}
  dl.unpack ins(%b : memref<1x2x5x5x4xf32>) outs(%p : memref<2x8x5x5xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.pack, dl.unpack: filters (rank 4 <-> 6)
//===----------------------------------------------------------------------===//

// -----

func.func @pack_filter_output_blocks_too_few(
    %p: memref<16x8x3x3xf32>, %b: memref<2x2x3x3x4x6xf32>) {
  // expected-error @+1 {{'dl.pack' op blocked output channels (blocks x block) (12) is less than plain output channels (16)}}
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<2x2x3x3x4x6xf32>)
  return
}

// -----

func.func @pack_filter_output_dynamic_block(%p: memref<16x8x3x3xf32>,
                                            %b: memref<2x2x3x3x4x?xf32>) {
  // expected-error @+1 {{'dl.pack' op output block size must be static}}
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<2x2x3x3x4x?xf32>)
  return
}

// -----

func.func @pack_filter_output_zero_block(%p: memref<16x8x3x3xf32>,
                                         %b: memref<2x2x3x3x4x0xf32>) {
  // expected-error @+1 {{'dl.pack' op output block size must be >= 1, got 0}}
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<2x2x3x3x4x0xf32>)
  return
}

// -----

func.func @pack_filter_output_blocks(%p: memref<16x8x3x3xf32>,
                                     %b: memref<4x2x3x3x4x8xf32>) {
  // expected-error @+1 {{'dl.pack' op plain output channels plus the block less one (23) is less than blocked output channels (blocks x block) (32)}}
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<4x2x3x3x4x8xf32>)
  return
}

// -----

func.func @pack_filter_input_blocks_too_few(
    %p: memref<16x8x3x3xf32>, %b: memref<2x2x3x3x3x8xf32>) {
  // expected-error @+1 {{'dl.pack' op blocked input channels (blocks x block) (6) is less than plain input channels (8)}}
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<2x2x3x3x3x8xf32>)
  return
}

// -----

func.func @pack_filter_input_dynamic_block(%p: memref<16x8x3x3xf32>,
                                           %b: memref<2x2x3x3x?x8xf32>) {
  // expected-error @+1 {{'dl.pack' op input block size must be static}}
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<2x2x3x3x?x8xf32>)
  return
}

// -----

func.func @pack_filter_input_blocks(%p: memref<16x8x3x3xf32>,
                                    %b: memref<2x1x3x3x4x8xf32>) {
  // expected-error @+1 {{'dl.pack' op blocked input channels (blocks x block) (4) is less than plain input channels (8)}}
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<2x1x3x3x4x8xf32>)
  return
}

// -----

func.func @pack_matrix_blocked_rank(%p: memref<12x16xf32>, %b: memref<2x3x4x8x1xf32>) {
  // expected-error @+1 {{'dl.pack' op expects a blocked-layout side of rank 4, got rank 5}}
  dl.pack ins(%p : memref<12x16xf32>) outs(%b : memref<2x3x4x8x1xf32>)
  return
}

// -----

func.func @pack_matrix_column_block(%p: memref<12x16xf32>, %b: memref<2x3x4x6xf32>) {
  // expected-error @+1 {{'dl.pack' op column block size (6) does not divide the matrix's columns (16)}}
  dl.pack ins(%p : memref<12x16xf32>) outs(%b : memref<2x3x4x6xf32>)
  return
}

// -----

func.func @pack_matrix_row_block(%p: memref<12x16xf32>, %b: memref<2x3x5x8xf32>) {
  // expected-error @+1 {{'dl.pack' op row block size (5) does not divide the matrix's rows (12)}}
  dl.pack ins(%p : memref<12x16xf32>) outs(%b : memref<2x3x5x8xf32>)
  return
}

// -----

func.func @unpack_matrix_rows(%p: memref<12x16xf32>, %b: memref<2x2x4x8xf32>) {
  // expected-error @+1 {{'dl.unpack' op blocked matrix rows (blocks x block) (8) does not match plain matrix rows (12)}}
  dl.unpack ins(%b : memref<2x2x4x8xf32>) outs(%p : memref<12x16xf32>)
  return
}

// -----

func.func @pack_filter_height(%p: memref<16x8x3x3xf32>,
                              %b: memref<2x2x1x3x4x8xf32>) {
  // expected-error @+1 {{'dl.pack' op plain filter height (3) does not match blocked filter height (1)}}
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<2x2x1x3x4x8xf32>)
  return
}

// -----

func.func @pack_filter_width(%p: memref<16x8x3x3xf32>,
                             %b: memref<2x2x3x5x4x8xf32>) {
  // expected-error @+1 {{'dl.pack' op plain filter width (3) does not match blocked filter width (5)}}
  dl.pack ins(%p : memref<16x8x3x3xf32>) outs(%b : memref<2x2x3x5x4x8xf32>)
  return
}

// -----

func.func @unpack_filter_same_buffer(%b: memref<2x2x3x3x4x8xf32>) {
  // expected-error @+1 {{'dl.unpack' op source and destination must be different buffers}}
  dl.unpack ins(%b : memref<2x2x3x3x4x8xf32>) outs(%b : memref<2x2x3x3x4x8xf32>)
  return
}

// -----

func.func @unpack_filter_output_blocks(%b: memref<2x2x3x3x4x8xf32>,
                                       %p: memref<8x8x3x3xf32>) {
  // expected-error @+1 {{'dl.unpack' op plain output channels plus the block less one (15) is less than blocked output channels (blocks x block) (16)}}
  dl.unpack ins(%b : memref<2x2x3x3x4x8xf32>) outs(%p : memref<8x8x3x3xf32>)
  return
}

// -----

func.func @unpack_filter_input_blocks(%b: memref<2x2x3x3x4x8xf32>,
                                      %p: memref<16x16x3x3xf32>) {
  // expected-error @+1 {{'dl.unpack' op blocked input channels (blocks x block) (8) is less than plain input channels (16)}}
  dl.unpack ins(%b : memref<2x2x3x3x4x8xf32>) outs(%p : memref<16x16x3x3xf32>)
  return
}

// -----

func.func @unpack_filter_height(%b: memref<2x2x3x3x4x8xf32>,
                                %p: memref<16x8x1x3xf32>) {
  // expected-error @+1 {{'dl.unpack' op plain filter height (1) does not match blocked filter height (3)}}
  dl.unpack ins(%b : memref<2x2x3x3x4x8xf32>) outs(%p : memref<16x8x1x3xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.run_shape and other dl.* function-argument attributes
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'dl.run_shape' must be an array<i64: ...>}}
func.func @run_shape_not_array(%a: memref<?xf32> {dl.run_shape = [4]}) {
  return
}

// -----

// expected-error @+1 {{'dl.run_shape' must be an array<i64: ...>}}
func.func @run_shape_i32_array(%a: memref<?xf32> {dl.run_shape = array<i32: 4>}) {
  return
}

// -----

// expected-error @+1 {{'dl.run_shape' must be an array<i64: ...>}}
func.func @run_shape_dense(%a: memref<?xf32> {dl.run_shape = dense<4> : tensor<1xi64>}) {
  return
}

// -----

// expected-error @+1 {{'dl.run_shape' on argument #1 which is not a ranked memref or tensor}}
func.func @run_shape_not_memref(%a: memref<?xf32>,
                                %n: index {dl.run_shape = array<i64: 4>}) {
  return
}

// -----

// expected-error @+1 {{'dl.run_shape' on argument #0 which is not a ranked memref or tensor}}
func.func @run_shape_unranked(%t: memref<*xf32> {dl.run_shape = array<i64: 4>}) {
  return
}

// -----

// expected-error @+1 {{'dl.run_shape' of argument #0 has 3 sizes for a rank-2 memref}}
func.func @run_shape_too_many(%a: memref<?x?xf32> {dl.run_shape = array<i64: 1, 2, 3>}) {
  return
}

// -----

// expected-error @+1 {{'dl.run_shape' of argument #2 has 1 sizes for a rank-4 memref}}
func.func @run_shape_too_few(%a: memref<4xf32>, %b: memref<4xf32>,
                             %c: memref<?x8x?x?xf32> {dl.run_shape = array<i64: 2>}) {
  return
}

// -----

// expected-error @+1 {{'dl.run_shape' of argument #0 has 0 sizes for a rank-1 memref}}
func.func @run_shape_empty(%a: memref<?xf32> {dl.run_shape = array<i64>}) {
  return
}

// -----

// expected-error @+1 {{'dl.run_shape' of argument #0 has a negative size}}
func.func @run_shape_negative(%a: memref<?x?xf32> {dl.run_shape = array<i64: 4, -1>}) {
  return
}

// -----

// expected-error @+1 {{'dl.run_shape' of argument #0 gives size 5 to dimension 1 of static size 8}}
func.func @run_shape_contradicts_static(%a: memref<?x8xf32> {dl.run_shape = array<i64: 4, 5>}) {
  return
}

// -----

// The name is currently printed with quotes ('"dl.foo"'); accept both forms.
// expected-error-re @+1 {{unknown dl argument attribute '{{"?}}dl.foo{{"?}}'}}
func.func @unknown_dl_arg_attr(%a: memref<?xf32> {dl.foo = array<i64: 4>}) {
  return
}

// -----

// The name is currently printed with quotes ('"dl.runshape"'); accept both forms.
// expected-error-re @+1 {{unknown dl argument attribute '{{"?}}dl.runshape{{"?}}'}}
func.func @misspelled_run_shape(%a: memref<?xf32> {dl.runshape = array<i64: 4>}) {
  return
}

// -----

// Blocked layouts need static blocks, for dl.conv2d as for the other ops.
func.func @conv2d_blocked_dynamic_channel_block(%in: memref<1x2x10x10x?xf32>,
                                                %f: memref<4x2x3x3x4x8xf32>,
                                                %out: memref<1x4x8x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op input channel block size must be static}}
  dl.conv2d ins(%in, %f : memref<1x2x10x10x?xf32>, memref<4x2x3x3x4x8xf32>)
            outs(%out : memref<1x4x8x8x8xf32>)
  return
}

// -----

func.func @conv2d_blocked_dynamic_output_block(%in: memref<1x2x10x10x4xf32>,
                                               %f: memref<4x2x3x3x4x8xf32>,
                                               %out: memref<1x4x8x8x?xf32>) {
  // expected-error @+1 {{'dl.conv2d' op output channel block size must be static}}
  dl.conv2d ins(%in, %f : memref<1x2x10x10x4xf32>, memref<4x2x3x3x4x8xf32>)
            outs(%out : memref<1x4x8x8x?xf32>)
  return
}

// -----

// saved statistics are written before gamma and beta are read.
func.func @batch_norm_training_saved_mean_is_gamma(%x: memref<2x8x4x4xf32>, %g: memref<8xf32>,
                                                   %b: memref<8xf32>, %y: memref<2x8x4x4xf32>,
                                                   %v: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op saved_mean, saved_variance and inv_std must not be gamma or beta}}
  dl.batch_norm_training ins(%x, %g, %b : memref<2x8x4x4xf32>, memref<8xf32>, memref<8xf32>)
                         outs(%y, %g, %v : memref<2x8x4x4xf32>, memref<8xf32>, memref<8xf32>)
  return
}

// -----

func.func @batch_norm_training_saved_variance_is_beta(%x: memref<2x8x4x4xf32>, %g: memref<8xf32>,
                                                      %b: memref<8xf32>, %y: memref<2x8x4x4xf32>,
                                                      %m: memref<8xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op saved_mean, saved_variance and inv_std must not be gamma or beta}}
  dl.batch_norm_training ins(%x, %g, %b : memref<2x8x4x4xf32>, memref<8xf32>, memref<8xf32>)
                         outs(%y, %m, %b : memref<2x8x4x4xf32>, memref<8xf32>, memref<8xf32>)
  return
}

// -----

// A declaration has no entry block: the signature gives the argument's type.
// expected-error @+1 {{'dl.run_shape' of argument #0 has 2 sizes for a rank-1 memref}}
func.func private @declaration_bad_run_shape(memref<?xf32> {dl.run_shape = array<i64: 4, 4>})

// -----

// Sizes whose padded extent overflows int64 are rejected, not wrapped.
func.func @conv2d_padding_overflow(%in: memref<1x1x8x8xf32>, %f: memref<1x1x3x3xf32>,
                                   %out: memref<1x1x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op filter height extent or padded input height overflows a 64-bit integer}}
  dl.conv2d ins(%in, %f : memref<1x1x8x8xf32>, memref<1x1x3x3xf32>) outs(%out : memref<1x1x8x8xf32>)
      {padding = array<i64: 9223372036854775807, 0, 9223372036854775807, 0>}
  return
}

// -----

func.func @conv2d_dilation_overflow(%in: memref<1x1x8x8xf32>, %f: memref<1x1x3x3xf32>,
                                    %out: memref<1x1x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op filter height extent or padded input height overflows a 64-bit integer}}
  dl.conv2d ins(%in, %f : memref<1x1x8x8xf32>, memref<1x1x3x3xf32>) outs(%out : memref<1x1x8x8xf32>)
      {dilations = array<i64: 4611686018427387904, 1>}
  return
}

// -----

func.func @dispatch_small_ld() {
  // expected-error @+1 {{'dl.gemm_dispatch' op leading dimensions must be at least the row lengths (lda >= k, ldb >= n, ldc >= n)}}
  %k = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 3, ldb = 16, ldc = 16}
  return
}

// -----

func.func @dispatch_stream_c_accumulating() {
  // expected-error @+1 {{'dl.gemm_dispatch' op stream_c needs beta_zero (a C written, not read)}}
  %k = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, stream_c}
  return
}

// -----

func.func @dispatch_zero_size() {
  // expected-error @+1 {{'dl.gemm_dispatch' op attribute 'm' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %k = dl.gemm_dispatch {m = 0, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16}
  return
}

// -----

func.func @dispatch_two_leading_dims(%m: index) {
  // expected-error @+1 {{'dl.gemm_dispatch' op expected three run-time leading dimensions (lda, ldb, ldc), got 2}}
  %k = dl.gemm_dispatch leading_dims(%m, %m) {m = 8, n = 16, k = 4}
  return
}

// -----

func.func @dispatch_leading_dims_twice(%m: index) {
  // expected-error @+1 {{'dl.gemm_dispatch' op expected the leading dimensions either as the attributes lda, ldb, ldc or as three run-time values}}
  %k = dl.gemm_dispatch leading_dims(%m, %m, %m) {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16}
  return
}

// -----

func.func @dispatch_no_leading_dims() {
  // expected-error @+1 {{'dl.gemm_dispatch' op expected the leading dimensions either as the attributes lda, ldb, ldc or as three run-time values}}
  %k = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4}
  return
}

// -----

func.func @dispatch_two_sizes(%m: index) {
  // expected-error @+1 {{'dl.gemm_dispatch' op expected no run-time sizes or three (m, n, k), got 2}}
  %k = dl.gemm_dispatch sizes(%m, %m) {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16}
  return
}

// -----

func.func @dispatch_half_stride() {
  // expected-error @+1 {{'dl.gemm_dispatch' op stride_a and stride_b must be given together}}
  %k = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, stride_a = 4}
  return
}

// -----

func.func @dispatch_both_batch_forms() {
  // expected-error @+1 {{'dl.gemm_dispatch' op a batch-reduce is either strided or given by offsets, not both}}
  %k = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, stride_a = 4, stride_b = 4, batch_offsets}
  return
}

// -----

func.func @invoke_index_count(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %g = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16}
  // expected-error @+1 {{'dl.gemm_invoke' op expected one index per dimension of B}}
  dl.gemm_invoke %g(%a[%c0, %c0], %b[%c0], %c[%c0, %c0]) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>
  return
}

// -----

func.func @invoke_missing_batch(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %g = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, stride_a = 4, stride_b = 4}
  // expected-error @+1 {{'dl.gemm_invoke' op a batch count must be given exactly when the kernel is a batch-reduce kernel}}
  dl.gemm_invoke %g(%a[%c0, %c0], %b[%c0, %c0], %c[%c0, %c0]) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>
  return
}

// -----

func.func @invoke_offsets_for_strided(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>, %o: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %g = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, stride_a = 4, stride_b = 4}
  // expected-error @+1 {{'dl.gemm_invoke' op block offsets must be given exactly when the kernel takes them}}
  dl.gemm_invoke %g(%a[%c0, %c0], %b[%c0, %c0], %c[%c0, %c0]) batch(%c2) offsets(%o, %o) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>, memref<2xi64>, memref<2xi64>
  return
}

// -----

func.func @invoke_offsets_without_batch(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>, %o: memref<2xi64>, %g: i64) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dl.gemm_invoke' op block offsets need a batch count}}
  dl.gemm_invoke %g(%a[%c0, %c0], %b[%c0, %c0], %c[%c0, %c0]) offsets(%o, %o) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>, memref<2xi64>, memref<2xi64>
  return
}

// -----

func.func @pack_blocks_count(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_blocks must have 3 entries (bm, bn, bk), got 2}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 8, 16>}
  return
}

// -----

func.func @pack_blocks_not_divisor(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_blocks entry for N must be a positive divisor of 16, got 5}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 8, 5, 4>}
  return
}

// -----

func.func @pad_blocks_zero(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_blocks entry for K must be positive with pad_blocks, got 0}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_a, pack_b, pad_blocks, pack_blocks = array<i64: 8, 16, 0>}
  return
}

// -----

func.func @pad_blocks_partial_a_unpacked(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pad_blocks needs pack_b, a plain B, pack_a when bm or bk does not divide M or K, and pack_c when bm or bn does not divide M or N}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_b, pack_c, pad_blocks, pack_blocks = array<i64: 8, 16, 3>}
  return
}

// -----

func.func @pad_blocks_partial_c_unpacked(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pad_blocks needs pack_b, a plain B, pack_a when bm or bk does not divide M or K, and pack_c when bm or bn does not divide M or N}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_a, pack_b, pad_blocks, pack_blocks = array<i64: 3, 16, 4>}
  return
}

// -----

func.func @pack_blocks_dynamic(%a: memref<?x4xf32>, %b: memref<4x16xf32>, %c: memref<?x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_blocks needs a static M, or pad_blocks}}
  dl.matmul ins(%a, %b : memref<?x4xf32>, memref<4x16xf32>) outs(%c : memref<?x16xf32>) {pack_blocks = array<i64: 8, 16, 4>}
  return
}

// -----

func.func @pack_blocks_dynamic_c_unpacked(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_blocks with dynamic sizes needs pack_c and no schedule}}
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {pack_a, pack_b, pad_blocks, pack_blocks = array<i64: 8, 16, 4>}
  return
}

// -----

func.func @pack_blocks_dynamic_zero(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_blocks entry for K must be positive, got 0}}
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {pack_a, pack_b, pack_c, pad_blocks, pack_blocks = array<i64: 8, 16, 0>}
  return
}

// -----

func.func @batch_blocks_dynamic_zero(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'dl.matmul' op batch_blocks must be positive, got 0}}
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {pack_a, pack_b, pack_c, pad_blocks, pack_blocks = array<i64: 8, 16, 4>, batch_blocks = 0}
  return
}

// -----

func.func @stream_a_with_blocks(%a: memref<8x32xf32>, %b: memref<32x1xf32>, %c: memref<8x1xf32>) {
  // expected-error @+1 {{'dl.matmul' op stream_a needs static sizes, and neither pack_blocks nor transpose_a}}
  dl.matmul ins(%a, %b : memref<8x32xf32>, memref<32x1xf32>) outs(%c : memref<8x1xf32>) {stream_a, pack_blocks = array<i64: 8, 1, 32>}
  return
}

// -----

func.func @stream_a_dynamic(%a: memref<?x32xf32>, %b: memref<32x1xf32>, %c: memref<?x1xf32>) {
  // expected-error @+1 {{'dl.matmul' op stream_a needs static sizes, and neither pack_blocks nor transpose_a}}
  dl.matmul ins(%a, %b : memref<?x32xf32>, memref<32x1xf32>) outs(%c : memref<?x1xf32>) {stream_a}
  return
}

// -----

func.func @pack_a_without_blocks(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_a, pack_b, pack_c, pad_blocks, panel_a, panel_b and batch_blocks need pack_blocks}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_a}
  return
}

// -----

// Schedules are checked against the op's dimensions.

func.func @schedule_unknown_dim(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op schedule dimension 'x' is not one of i, j, k}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 4, 8, 2>, schedule = #dl.schedule<[x, j, k]>}
  return
}

// -----

func.func @schedule_without_blocks(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op a schedule needs static sizes and blocked loops}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {schedule = #dl.schedule<[i, j, k]>}
  return
}

// -----

func.func @schedule_k_not_last(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op the last loop of the schedule must be over 'k'}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 4, 8, 2>, schedule = #dl.schedule<[i, k, j]>}
  return
}

// -----

func.func @schedule_missing_dim(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op schedule misses dimension 'j' (needs all of i, j, k)}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 4, 8, 2>, schedule = #dl.schedule<[i, k]>}
  return
}

// -----

func.func @schedule_tile_not_dividing(%in: memref<1x2x8x8x4xf32>, %f: memref<6x2x1x1x4x4xf32>, %out: memref<1x6x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op tile 4 of schedule dimension 'kb' does not divide its extent 6}}
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<6x2x1x1x4x4xf32>) outs(%out : memref<1x6x8x8x4xf32>) {schedule = #dl.schedule<[kb:4, n, oh, kb]>}
  return
}

// -----

func.func @schedule_point_loop_missing(%in: memref<1x2x8x8x4xf32>, %f: memref<6x2x1x1x4x4xf32>, %out: memref<1x6x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op tile loop of schedule dimension 'kb' has no point loop}}
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<6x2x1x1x4x4xf32>) outs(%out : memref<1x6x8x8x4xf32>) {schedule = #dl.schedule<[kb:3, n, oh]>}
  return
}

// -----

func.func @schedule_twice_untiled(%in: memref<1x2x8x8x4xf32>, %f: memref<6x2x1x1x4x4xf32>, %out: memref<1x6x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op schedule dimension 'oh' has a loop after its point loop (every loop but the last of a dimension needs a tile: oh:<tile>)}}
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<6x2x1x1x4x4xf32>) outs(%out : memref<1x6x8x8x4xf32>) {schedule = #dl.schedule<[oh, kb, n, oh]>}
  return
}

// -----

func.func @schedule_plain_conv(%in: memref<1x8x8x8xf32>, %f: memref<8x8x1x1xf32>, %out: memref<1x8x8x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op a schedule needs static sizes and blocked loops}}
  dl.conv2d ins(%in, %f : memref<1x8x8x8xf32>, memref<8x8x1x1xf32>) outs(%out : memref<1x8x8x8xf32>) {schedule = #dl.schedule<[n, kb, oh]>}
  return
}

// -----

func.func @schedule_parallel_out_of_range(%in: memref<1x2x8x8x4xf32>, %f: memref<6x2x1x1x4x4xf32>, %out: memref<1x6x8x8x4xf32>) {
  // expected-error @+1 {{parallel loop 3 is not a loop of the schedule (0..2)}}
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<6x2x1x1x4x4xf32>) outs(%out : memref<1x6x8x8x4xf32>) {schedule = #dl.schedule<[n, kb, oh], parallel = 3>}
  return
}

// -----

func.func @schedule_zero_tile(%in: memref<1x2x8x8x4xf32>, %f: memref<6x2x1x1x4x4xf32>, %out: memref<1x6x8x8x4xf32>) {
  // expected-error @+1 {{tile of 'kb' must be >= 1}}
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<6x2x1x1x4x4xf32>) outs(%out : memref<1x6x8x8x4xf32>) {schedule = #dl.schedule<[kb:0, n, oh, kb]>}
  return
}

// -----

func.func @schedule_tile_not_dividing_enclosing_tile(%in: memref<1x2x8x8x4xf32>, %f: memref<8x2x1x1x4x4xf32>, %out: memref<1x8x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op tile 3 of schedule dimension 'kb' does not divide its enclosing tile 4}}
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<8x2x1x1x4x4xf32>) outs(%out : memref<1x8x8x8x4xf32>) {schedule = #dl.schedule<[kb:4, n, kb:3, oh, kb]>}
  return
}

// -----

func.func @schedule_input_channel_blocks_not_last(%in: memref<1x2x8x8x4xf32>, %f: memref<8x2x1x1x4x4xf32>, %out: memref<1x8x8x8x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op the last loop of the schedule must be over 'cb'}}
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<8x2x1x1x4x4xf32>) outs(%out : memref<1x8x8x8x4xf32>) {schedule = #dl.schedule<[n, cb, kb, oh]>}
  return
}

// -----

func.func @skip_padding_columns_plain(%in: memref<1x4x7x7xf32>, %f: memref<4x4x3x3xf32>, %out: memref<1x4x7x7xf32>) {
  // expected-error @+1 {{'dl.conv2d' op skip_padding_columns needs the blocked layout, left or right padding and static widths (input, filter, output)}}
  dl.conv2d ins(%in, %f : memref<1x4x7x7xf32>, memref<4x4x3x3xf32>) outs(%out : memref<1x4x7x7xf32>) {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
  return
}

// -----

func.func @skip_padding_columns_rows_only(%in: memref<1x1x7x7x4xf32>, %f: memref<1x1x3x1x4x4xf32>, %out: memref<1x1x7x7x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op skip_padding_columns needs the blocked layout, left or right padding and static widths (input, filter, output)}}
  dl.conv2d ins(%in, %f : memref<1x1x7x7x4xf32>, memref<1x1x3x1x4x4xf32>) outs(%out : memref<1x1x7x7x4xf32>) {padding = array<i64: 1, 0, 1, 0>, skip_padding_columns}
  return
}

// -----

func.func @skip_padding_columns_dynamic_width(%in: memref<1x1x7x?x4xf32>, %f: memref<1x1x3x3x4x4xf32>, %out: memref<1x1x7x?x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op skip_padding_columns needs the blocked layout, left or right padding and static widths (input, filter, output)}}
  dl.conv2d ins(%in, %f : memref<1x1x7x?x4xf32>, memref<1x1x3x3x4x4xf32>) outs(%out : memref<1x1x7x?x4xf32>) {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
  return
}

// -----

func.func @split_k_without_blocks(%a: memref<8x12xf32>, %b: memref<12x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op split_k needs pack_blocks, static sizes, a plain B, no pad_blocks and no epilogue}}
  dl.matmul ins(%a, %b : memref<8x12xf32>, memref<12x16xf32>) outs(%c : memref<8x16xf32>) {split_k = 2 : i64}
  return
}

// -----

func.func @split_k_more_chunks_than_blocks(%a: memref<8x12xf32>, %b: memref<12x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op split_k must be at least 2 and at most the 4 K blocks, got 5}}
  dl.matmul ins(%a, %b : memref<8x12xf32>, memref<12x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 8, 16, 3>, split_k = 5 : i64}
  return
}

// -----

func.func @split_k_one_chunk(%a: memref<8x12xf32>, %b: memref<12x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op split_k must be at least 2 and at most the 4 K blocks, got 1}}
  dl.matmul ins(%a, %b : memref<8x12xf32>, memref<12x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 8, 16, 3>, split_k = 1 : i64}
  return
}

// -----

func.func @batch_blocks_not_divisor(%a: memref<8x12xf32>, %b: memref<12x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op batch_blocks must be a positive divisor of the 4 K blocks, got 3}}
  dl.matmul ins(%a, %b : memref<8x12xf32>, memref<12x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 8, 16, 3>, batch_blocks = 3}
  return
}

// -----

func.func @pack_c_without_blocks(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_a, pack_b, pack_c, pad_blocks, panel_a, panel_b and batch_blocks need pack_blocks}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_c}
  return
}

// -----

func.func @panel_a_without_schedule(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op panel_a and panel_b need the operand's pack_a or pack_b, a schedule and no pad_blocks}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 8, 16, 4>, pack_a, panel_a}
  return
}

// -----

func.func @panel_b_without_pack_b(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op panel_a and panel_b need the operand's pack_a or pack_b, a schedule and no pad_blocks}}
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {pack_blocks = array<i64: 8, 16, 4>, pack_a, panel_b, schedule = #dl.schedule<[i, j, k]>}
  return
}

// -----

func.func @batch_blocks_without_blocks(%a: memref<8x12xf32>, %b: memref<12x16xf32>, %c: memref<8x16xf32>) {
  // expected-error @+1 {{'dl.matmul' op pack_a, pack_b, pack_c, pad_blocks, panel_a, panel_b and batch_blocks need pack_blocks}}
  dl.matmul ins(%a, %b : memref<8x12xf32>, memref<12x16xf32>) outs(%c : memref<8x16xf32>) {batch_blocks = 2}
  return
}

// -----

func.func @pixel_vectors_blocked(%in: memref<1x1x7x7x4xf32>, %f: memref<1x1x3x3x4x4xf32>, %out: memref<1x1x5x5x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op pixel_vectors needs the plain layout and static sizes (input, filter, output)}}
  dl.conv2d ins(%in, %f : memref<1x1x7x7x4xf32>, memref<1x1x3x3x4x4xf32>) outs(%out : memref<1x1x5x5x4xf32>) {pixel_vectors}
  return
}

// -----

func.func @pixel_vectors_dynamic(%in: memref<?x4x7x7xf32>, %f: memref<1x4x3x3xf32>, %out: memref<?x1x5x5xf32>) {
  // expected-error @+1 {{'dl.conv2d' op pixel_vectors needs the plain layout and static sizes (input, filter, output)}}
  dl.conv2d ins(%in, %f : memref<?x4x7x7xf32>, memref<1x4x3x3xf32>) outs(%out : memref<?x1x5x5xf32>) {pixel_vectors}
  return
}

// -----

func.func @epilogue_operand_count(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>, %out: memref<1x1x4x4x8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op epilogue expects 1 operands for its steps, got 0}}
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>) outs(%out : memref<1x1x4x4x8xf32>) {epilogue = [#dl.post_op<bias_add>, #dl.post_op<relu>]}
  return
}

// -----

func.func @epilogue_epsilon(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>, %out: memref<1x1x4x4x8xf32>, %v: memref<8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op epilogue_epsilon must be given exactly when the epilogue has a batch_norm_inference step}}
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>) outs(%out : memref<1x1x4x4x8xf32>) epilogue(%v, %v, %v, %v : memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) {epilogue = [#dl.post_op<batch_norm_inference>]}
  return
}

// -----

func.func @epilogue_rank(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>, %out: memref<1x1x4x4x8xf32>, %v: memref<8xf32>) {
  // expected-error @+1 {{'dl.conv2d' op epilogue step add expects operands of rank 5, got 1}}
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>) outs(%out : memref<1x1x4x4x8xf32>) epilogue(%v : memref<8xf32>) {epilogue = [#dl.post_op<add>]}
  return
}

// -----

func.func @epilogue_channels(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>, %out: memref<1x1x4x4x8xf32>, %v: memref<7xf32>) {
  // expected-error @+1 {{'dl.conv2d' op epilogue vector size (7) does not match the number of channels (8)}}
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>) outs(%out : memref<1x1x4x4x8xf32>) epilogue(%v : memref<7xf32>) {epilogue = [#dl.post_op<bias_add>]}
  return
}

// -----

func.func @row_statistics_shape(%in: memref<1x1x4x4x8xf32>, %f: memref<1x1x1x1x8x8xf32>, %out: memref<1x1x4x4x8xf32>, %rows: memref<1x4x2x4xf32>) {
  // expected-error @+1 {{'dl.conv2d' op row_statistics needs the blocked layout, a static output N x K/k x OH x OW x k and the shape N x OH x 2 x K}}
  dl.conv2d ins(%in, %f : memref<1x1x4x4x8xf32>, memref<1x1x1x1x8x8xf32>) outs(%out : memref<1x1x4x4x8xf32>) row_statistics(%rows : memref<1x4x2x4xf32>)
  return
}

// -----

func.func @row_statistics_groups(%x: memref<1x4x5x5xf32>, %g: memref<4xf32>, %b: memref<4xf32>, %y: memref<1x4x5x5xf32>, %m: memref<4xf32>, %v: memref<4xf32>, %rows: memref<1x3x2x4xf32>) {
  // expected-error @+1 {{'dl.batch_norm_training' op row_statistics has 3 groups, which do not split the 25 elements per channel evenly}}
  dl.batch_norm_training ins(%x, %g, %b : memref<1x4x5x5xf32>, memref<4xf32>, memref<4xf32>)
      outs(%y, %m, %v : memref<1x4x5x5xf32>, memref<4xf32>, memref<4xf32>) row_statistics(%rows : memref<1x3x2x4xf32>)
  return
}

// -----

func.func @matmul_epilogue_bias(%a: memref<4x3xf32>, %b: memref<3x5xf32>, %c: memref<4x5xf32>, %bias: memref<4xf32>) {
  // expected-error @+1 {{'dl.matmul' op epilogue vector size (4) does not match the number of channels (5)}}
  dl.matmul ins(%a, %b : memref<4x3xf32>, memref<3x5xf32>) outs(%c : memref<4x5xf32>) epilogue(%bias : memref<4xf32>) {epilogue = [#dl.post_op<bias_add>]}
  return
}

// -----

// expected-error @+1 {{'dl.target' belongs on a module}}
func.func @target_on_function() attributes {dl.target = #dl.target<vector_bits = 512, max_batch_bytes = 0, cache_bytes = [32768], latencies = [4.0, 300.0], bandwidths = [64.0, 8.0]>} {
  return
}

// -----

// expected-error @+1 {{'dl.target' must be a #dl.target}}
module attributes {dl.target = 512 : i64} {
}

// -----

// expected-error @+1 {{latencies must have 3 positive values (one per cache level, then memory)}}
module attributes {dl.target = #dl.target<vector_bits = 512, max_batch_bytes = 0, cache_bytes = [32768, 1048576], latencies = [4.0, 300.0], bandwidths = [64.0, 32.0, 8.0]>} {
}

// -----

// expected-error @+1 {{vector_bits must be >= 1, got 0}}
module attributes {dl.target = #dl.target<vector_bits = 0, max_batch_bytes = 0, cache_bytes = [32768], latencies = [4.0, 300.0], bandwidths = [64.0, 8.0]>} {
}

// -----

// expected-error @+1 {{near_write_line_ns must be >= 0}}
module attributes {dl.target = #dl.target<vector_bits = 512, max_batch_bytes = 0, cache_bytes = [32768], latencies = [4.0, 300.0], bandwidths = [64.0, 8.0], near_write_line_ns = -0.5>} {
}

//===----------------------------------------------------------------------===//
// dl.max_pool2d, dl.avg_pool2d
//===----------------------------------------------------------------------===//

// -----

func.func @pool_rank(%x: memref<4x8x8xf32>, %y: memref<4x4x4xf32>) {
  // expected-error @+1 {{'dl.max_pool2d' op expects input of rank 4 or 5, got rank 3}}
  dl.max_pool2d ins(%x : memref<4x8x8xf32>) outs(%y : memref<4x4x4xf32>)
                {window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
  return
}

// -----

func.func @pool_window_arity(%x: memref<1x4x8x8xf32>, %y: memref<1x4x4x4xf32>) {
  // expected-error @+1 {{'dl.avg_pool2d' op expects a window [height, width], got 1 sizes}}
  dl.avg_pool2d ins(%x : memref<1x4x8x8xf32>) outs(%y : memref<1x4x4x4xf32>)
                {window = array<i64: 2>}
  return
}

// -----

func.func @pool_padding(%x: memref<1x4x8x8xf32>, %y: memref<1x4x5x5xf32>) {
  // expected-error @+1 {{'dl.max_pool2d' op expects each padding in [0, window size), got 2 against a window height of 2}}
  dl.max_pool2d ins(%x : memref<1x4x8x8xf32>) outs(%y : memref<1x4x5x5xf32>)
                {window = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                 padding = array<i64: 2, 1, 1, 1>}
  return
}

// -----

func.func @pool_output_size(%x: memref<1x4x8x8xf32>, %y: memref<1x4x5x4xf32>) {
  // expected-error @+1 {{'dl.max_pool2d' op output height (5) does not match the height implied by input, window, stride and padding (4)}}
  dl.max_pool2d ins(%x : memref<1x4x8x8xf32>) outs(%y : memref<1x4x5x4xf32>)
                {window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
  return
}

// -----

func.func @pool_channels(%x: memref<1x4x8x8xf32>, %y: memref<1x3x4x4xf32>) {
  // expected-error @+1 {{'dl.avg_pool2d' op input channels (4) does not match output channels (3)}}
  dl.avg_pool2d ins(%x : memref<1x4x8x8xf32>) outs(%y : memref<1x3x4x4xf32>)
                {window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
  return
}

// -----

func.func @pool_in_place(%x: memref<1x4x8x8xf32>) {
  // expected-error @+1 {{'dl.max_pool2d' op output must not be the same buffer as an input}}
  dl.max_pool2d ins(%x : memref<1x4x8x8xf32>) outs(%x : memref<1x4x8x8xf32>)
                {window = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

func.func @pool_window_too_large(%x: memref<1x4x3x3xf32>, %y: memref<1x4x1x1xf32>) {
  // expected-error @+1 {{'dl.avg_pool2d' op the padded input height (3) is less than the window height (4)}}
  dl.avg_pool2d ins(%x : memref<1x4x3x3xf32>) outs(%y : memref<1x4x1x1xf32>)
                {window = array<i64: 4, 3>}
  return
}

//===----------------------------------------------------------------------===//
// dl.depthwise_conv2d
//===----------------------------------------------------------------------===//

// -----

func.func @depthwise_filter_rank(%x: memref<1x8x9x9xf32>, %f: memref<8x1x3x3xf32>, %y: memref<1x8x7x7xf32>) {
  // expected-error @+1 {{'dl.depthwise_conv2d' op expects filter of rank 3, got rank 4}}
  dl.depthwise_conv2d ins(%x, %f : memref<1x8x9x9xf32>, memref<8x1x3x3xf32>) outs(%y : memref<1x8x7x7xf32>)
  return
}

// -----

func.func @depthwise_channels(%x: memref<1x8x9x9xf32>, %f: memref<3x3x6xf32>, %y: memref<1x8x7x7xf32>) {
  // expected-error @+1 {{'dl.depthwise_conv2d' op input channels (8) does not match filter channels (6)}}
  dl.depthwise_conv2d ins(%x, %f : memref<1x8x9x9xf32>, memref<3x3x6xf32>) outs(%y : memref<1x8x7x7xf32>)
  return
}

// -----

func.func @depthwise_blocked_channels(%x: memref<1x2x9x9x4xf32>, %f: memref<3x3x4xf32>, %y: memref<1x2x7x7x4xf32>) {
  // expected-error @+1 {{'dl.depthwise_conv2d' op filter channels plus the block less one (7) is less than input channels (blocks x block) (8)}}
  dl.depthwise_conv2d ins(%x, %f : memref<1x2x9x9x4xf32>, memref<3x3x4xf32>) outs(%y : memref<1x2x7x7x4xf32>)
  return
}

// -----

func.func @depthwise_output_size(%x: memref<1x8x9x9xf32>, %f: memref<3x3x8xf32>, %y: memref<1x8x9x9xf32>) {
  // expected-error @+1 {{'dl.depthwise_conv2d' op output height (9) does not match the height implied by input, filter, stride, padding and dilation (7)}}
  dl.depthwise_conv2d ins(%x, %f : memref<1x8x9x9xf32>, memref<3x3x8xf32>) outs(%y : memref<1x8x9x9xf32>)
  return
}

// -----

func.func @depthwise_dilation(%x: memref<1x8x9x9xf32>, %f: memref<3x3x8xf32>, %y: memref<1x8x7x7xf32>) {
  // expected-error @+1 {{'dl.depthwise_conv2d' op expects dilations > 0}}
  dl.depthwise_conv2d ins(%x, %f : memref<1x8x9x9xf32>, memref<3x3x8xf32>) outs(%y : memref<1x8x7x7xf32>)
                      {dilations = array<i64: 0, 1>}
  return
}

//===----------------------------------------------------------------------===//
// dl.concat
//===----------------------------------------------------------------------===//

// -----

func.func @concat_no_inputs(%c: memref<1x8x4x4xf32>) {
  // expected-error @+1 {{'dl.concat' op expects at least one input}}
  "dl.concat"(%c) : (memref<1x8x4x4xf32>) -> ()
  return
}

// -----

func.func @concat_rank(%a: memref<1x3x4x4xf32>, %b: memref<3x16xf32>, %c: memref<1x8x4x4xf32>) {
  // expected-error @+1 {{'dl.concat' op input rank (2) does not match output rank (4)}}
  dl.concat ins(%a, %b : memref<1x3x4x4xf32>, memref<3x16xf32>) outs(%c : memref<1x8x4x4xf32>)
  return
}

// -----

func.func @concat_axis(%a: memref<1x3x4x4xf32>, %c: memref<1x3x4x4xf32>) {
  // expected-error @+1 {{'dl.concat' op expects an axis in [0, 4), got 4}}
  dl.concat ins(%a : memref<1x3x4x4xf32>) outs(%c : memref<1x3x4x4xf32>) {axis = 4}
  return
}

// -----

func.func @concat_negative_axis(%a: memref<1x3x4x4xf32>, %c: memref<1x3x4x4xf32>) {
  // expected-error @+1 {{'dl.concat' op expects an axis in [0, 4), got -1}}
  dl.concat ins(%a : memref<1x3x4x4xf32>) outs(%c : memref<1x3x4x4xf32>) {axis = -1}
  return
}

// -----

func.func @concat_sum(%a: memref<1x3x4x4xf32>, %b: memref<1x4x4x4xf32>, %c: memref<1x8x4x4xf32>) {
  // expected-error @+1 {{'dl.concat' op the inputs' sizes along the axis (7) does not match the output's size along it (8)}}
  dl.concat ins(%a, %b : memref<1x3x4x4xf32>, memref<1x4x4x4xf32>) outs(%c : memref<1x8x4x4xf32>)
  return
}

// -----

func.func @concat_other_size(%a: memref<1x3x4x4xf32>, %b: memref<1x5x4x5xf32>, %c: memref<1x8x4x4xf32>) {
  // expected-error @+1 {{'dl.concat' op size 3 of input #1 (5) does not match size 3 of the output (4)}}
  dl.concat ins(%a, %b : memref<1x3x4x4xf32>, memref<1x5x4x5xf32>) outs(%c : memref<1x8x4x4xf32>)
  return
}

// -----

func.func @concat_in_place(%a: memref<1x3x4x4xf32>, %c: memref<1x3x4x4xf32>) {
  // expected-error @+1 {{'dl.concat' op output must not be the same buffer as an input}}
  dl.concat ins(%c : memref<1x3x4x4xf32>) outs(%c : memref<1x3x4x4xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.sigmoid, dl.mul
//===----------------------------------------------------------------------===//

// -----

func.func @sigmoid_shape(%x: memref<2x8xf32>, %y: memref<2x9xf32>) {
  // expected-error @+1 {{'dl.sigmoid' op}}
  dl.sigmoid ins(%x : memref<2x8xf32>) outs(%y : memref<2x9xf32>)
  return
}

// -----

func.func @mul_broadcast(%a: memref<1x4x3x3xf32>, %s: memref<1x4x1x2xf32>) {
  // expected-error @+1 {{'dl.mul' op rhs size 2 along dimension 3 is neither 1 nor lhs's size 3}}
  dl.mul ins(%a, %s : memref<1x4x3x3xf32>, memref<1x4x1x2xf32>) outs(%a : memref<1x4x3x3xf32>)
  return
}

// -----

func.func @mul_rank(%a: memref<1x4x3x3xf32>, %s: memref<4xf32>) {
  // expected-error @+1 {{'dl.mul' op lhs rank (4) does not match rhs rank (1)}}
  dl.mul ins(%a, %s : memref<1x4x3x3xf32>, memref<4xf32>) outs(%a : memref<1x4x3x3xf32>)
  return
}

// -----

func.func @conv_groups_zero(%in: memref<1x8x5x5xf32>, %f: memref<8x8x3x3xf32>, %out: memref<1x8x3x3xf32>) {
  // expected-error @+1 {{'dl.conv2d' op expects groups >= 1, got 0}}
  dl.conv2d ins(%in, %f : memref<1x8x5x5xf32>, memref<8x8x3x3xf32>) outs(%out : memref<1x8x3x3xf32>) {groups = 0 : i64}
  return
}

// -----

func.func @conv_groups_channels(%in: memref<1x8x5x5xf32>, %f: memref<8x3x3x3xf32>, %out: memref<1x8x3x3xf32>) {
  // expected-error @+1 {{'dl.conv2d' op input channels (8) does not match groups (2) times filter input channels (6)}}
  dl.conv2d ins(%in, %f : memref<1x8x5x5xf32>, memref<8x3x3x3xf32>) outs(%out : memref<1x8x3x3xf32>) {groups = 2 : i64}
  return
}

// -----

func.func @conv_groups_output(%in: memref<1x16x5x5xf32>, %f: memref<6x4x3x3xf32>, %out: memref<1x6x3x3xf32>) {
  // expected-error @+1 {{'dl.conv2d' op groups (4) do not divide the filter's output channels (6)}}
  dl.conv2d ins(%in, %f : memref<1x16x5x5xf32>, memref<6x4x3x3xf32>) outs(%out : memref<1x6x3x3xf32>) {groups = 4 : i64}
  return
}

// -----

func.func @conv_groups_dynamic_filter(%in: memref<1x8x5x5xf32>, %f: memref<?x4x3x3xf32>, %out: memref<1x8x3x3xf32>) {
  // expected-error @+1 {{'dl.conv2d' op groups > 1 needs a static filter shape}}
  dl.conv2d ins(%in, %f : memref<1x8x5x5xf32>, memref<?x4x3x3xf32>) outs(%out : memref<1x8x3x3xf32>) {groups = 2 : i64}
  return
}

// -----

func.func @conv_groups_pixel_vectors(%in: memref<1x8x5x5xf32>, %f: memref<2x4x3x3xf32>, %out: memref<1x2x3x3xf32>) {
  // expected-error @+1 {{'dl.conv2d' op pixel_vectors needs groups = 1}}
  dl.conv2d ins(%in, %f : memref<1x8x5x5xf32>, memref<2x4x3x3xf32>) outs(%out : memref<1x2x3x3xf32>) {groups = 2 : i64, pixel_vectors}
  return
}

// -----

func.func @conv_groups_blocked(%in: memref<1x4x5x5x16xf32>, %f: memref<4x1x3x3x16x16xf32>, %out: memref<1x4x3x3x16xf32>) {
  // expected-error @+1 {{'dl.conv2d' op input channel blocks (4) does not match groups (2) times filter input channel blocks (2)}}
  dl.conv2d ins(%in, %f : memref<1x4x5x5x16xf32>, memref<4x1x3x3x16x16xf32>) outs(%out : memref<1x4x3x3x16xf32>) {groups = 2 : i64}
  return
}

// -----

func.func @pack_groups_activation(%in: memref<1x32x5x5xf32>, %out: memref<1x2x5x5x16xf32>) {
  // expected-error @+1 {{'dl.pack' op groups (2) must be 1, or above 1 for a filter of static sizes (rank 4 to rank 6)}}
  dl.pack ins(%in : memref<1x32x5x5xf32>) outs(%out : memref<1x2x5x5x16xf32>) {groups = 2 : i64}
  return
}

// -----

func.func @pack_groups_blocks(%f: memref<64x4x3x3xf32>, %out: memref<4x1x3x3x8x16xf32>) {
  // expected-error @+1 {{'dl.pack' op blocks of 16 output and 8 input channels, 1 input blocks per output block, do not hold whole groups of 4 output and 4 input channels}}
  dl.pack ins(%f : memref<64x4x3x3xf32>) outs(%out : memref<4x1x3x3x8x16xf32>) {groups = 16 : i64}
  return
}

// -----

func.func @conv_group_lanes_blocks(%in: memref<1x4x5x5x16xf32>, %f: memref<4x2x3x3x16x16xf32>, %out: memref<1x4x3x3x16xf32>) {
  // expected-error @+1 {{'dl.conv2d' op group_lanes needs the blocked layout, static sizes, one input block per output block of the same size, a group per output block, group_lanes dividing the block, and no schedule or row statistics}}
  dl.conv2d ins(%in, %f : memref<1x4x5x5x16xf32>, memref<4x2x3x3x16x16xf32>) outs(%out : memref<1x4x3x3x16xf32>) {groups = 2 : i64, group_lanes = 4 : i64}
  return
}
