// Which convolutions dl-block-conv-layouts moves to the blocked layout, the
// blocks it picks, that the convolution keeps its attributes, and which
// activations stay blocked between dl ops (and which may not).
// RUN: dl-opt %s --dl-set-target="vector-bits=256" --dl-block-conv-layouts --split-input-file | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-block-conv-layouts="block-c=16 block-k=8" --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-block-conv-layouts --split-input-file | FileCheck %s --check-prefix=AVX512
// RUN: not dl-opt %s --dl-block-conv-layouts="block-k=-1" 2>&1 | FileCheck %s --check-prefix=INVALID

// INVALID: error: dl-block-conv-layouts: block-c and block-k must be >= 0

// 64 -> 64 channels in blocks of 32 (256-bit vectors): pack input and filter, convolve in the
// blocked layout, unpack into the original output, free the copies.
// CHECK-LABEL: func @three_by_three
// CHECK-SAME: (%[[IN:.*]]: memref<1x64x56x56xf32>, %[[F:.*]]: memref<64x64x3x3xf32>, %[[OUT:.*]]: memref<1x64x56x56xf32>)
// CHECK: %[[BIN:.*]] = memref.alloc() : memref<1x2x56x56x32xf32>
// CHECK: dl.pack ins(%[[IN]] : memref<1x64x56x56xf32>) outs(%[[BIN]] : memref<1x2x56x56x32xf32>)
// CHECK: %[[BF:.*]] = memref.alloc() : memref<2x2x3x3x32x32xf32>
// CHECK: dl.pack ins(%[[F]] : memref<64x64x3x3xf32>) outs(%[[BF]] : memref<2x2x3x3x32x32xf32>)
// CHECK: %[[BOUT:.*]] = memref.alloc() : memref<1x2x56x56x32xf32>
// CHECK: dl.conv2d ins(%[[BIN]], %[[BF]] : {{.*}}) outs(%[[BOUT]] : memref<1x2x56x56x32xf32>)
// CHECK-SAME: padding = array<i64: 1, 1, 1, 1>
// CHECK-DAG: memref.dealloc %[[BIN]] :
// CHECK-DAG: memref.dealloc %[[BF]] :
// CHECK: dl.unpack ins(%[[BOUT]] : memref<1x2x56x56x32xf32>) outs(%[[OUT]] : memref<1x64x56x56xf32>)
// CHECK-NEXT: memref.dealloc %[[BOUT]] :
// With 512-bit vectors the blocks are 64 channels (four registers).
// AVX512-LABEL: func @three_by_three
// AVX512: dl.conv2d {{.*}} : memref<1x1x56x56x64xf32>, memref<1x1x3x3x64x64xf32>) outs({{.*}} : memref<1x1x56x56x64xf32>)
// SMALL-LABEL: func @three_by_three
// SMALL: dl.conv2d {{.*}} : memref<1x4x56x56x16xf32>, memref<8x4x3x3x16x8xf32>) outs({{.*}} : memref<1x8x56x56x8xf32>)
func.func @three_by_three(%in: memref<1x64x56x56xf32>, %f: memref<64x64x3x3xf32>, %out: memref<1x64x56x56xf32>) {
  dl.conv2d ins(%in, %f : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>) outs(%out : memref<1x64x56x56xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// conv1 of ResNet-50: 3 input channels are one block; stride and padding
// carry over. 48 output channels: the largest divisor not above 32 is 24.
// CHECK-LABEL: func @conv1
// CHECK: dl.conv2d {{.*}} : memref<2x1x224x224x3xf32>, memref<2x1x7x7x3x24xf32>) outs({{.*}} : memref<2x2x112x112x24xf32>)
// CHECK-SAME: {padding = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>}
// SMALL-LABEL: func @conv1
// SMALL: dl.conv2d {{.*}} : memref<2x1x224x224x3xf32>, memref<6x1x7x7x3x8xf32>) outs({{.*}} : memref<2x6x112x112x8xf32>)
func.func @conv1(%in: memref<2x3x224x224xf32>, %f: memref<48x3x7x7xf32>, %out: memref<2x48x112x112xf32>) {
  dl.conv2d ins(%in, %f : memref<2x3x224x224xf32>, memref<48x3x7x7xf32>) outs(%out : memref<2x48x112x112xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
  return
}

// -----

// Channel counts without a block of at least half the limit are padded: 67
// input channels (limit 32 with 256-bit vectors) in 3 blocks of 23, 37
// output channels, the vector dimension, in 5 blocks of one 8-float vector
// (blocks of 24 would take 6 vectors). With limits 16 and 8: input blocks of
// 14, output blocks of 8. The packs zero the padding, the unpack reads the
// 37 channels back.
// CHECK-LABEL: func @padded
// CHECK: dl.pack ins(%{{.*}} : memref<1x67x18x18xf32>) outs(%{{.*}} : memref<1x3x18x18x23xf32>)
// CHECK: dl.pack ins(%{{.*}} : memref<37x67x3x3xf32>) outs(%{{.*}} : memref<5x3x3x3x23x8xf32>)
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x5x16x16x8xf32>)
// CHECK: dl.unpack ins(%{{.*}} : memref<1x5x16x16x8xf32>) outs(%{{.*}} : memref<1x37x16x16xf32>)
// SMALL-LABEL: func @padded
// SMALL: dl.conv2d {{.*}} : memref<1x5x18x18x14xf32>, memref<5x5x3x3x14x8xf32>) outs(%{{.*}} : memref<1x5x16x16x8xf32>)
func.func @padded(%in: memref<1x67x18x18xf32>, %f: memref<37x67x3x3xf32>, %out: memref<1x37x16x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x67x18x18xf32>, memref<37x67x3x3xf32>) outs(%out : memref<1x37x16x16xf32>)
  return
}

// -----

// Output rows of 3 columns: a call's register tile is 3 rows by its block's
// vectors, and 8 accumulators are needed to cover the FMAs' latency. 112
// output channels (limit 64, 16-float vectors) take 2 blocks of 56 (4
// vectors, 12 accumulators), not 7 blocks of one vector (3 accumulators),
// which the same convolution with 16-column rows takes. With 8-float
// vectors (limit 32) and no masked partial vectors (AVX2), blocks are whole
// vectors: 4 blocks of 32 (the last padded), not 5 of 24.
// AVX512-LABEL: func @short_rows
// AVX512: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x2x6x3x56xf32>)
// AVX512: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x7x6x16x16xf32>)
// CHECK-LABEL: func @short_rows
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x4x6x3x32xf32>)
// CHECK: dl.conv2d {{.*}} outs(%{{.*}} : memref<1x5x6x16x24xf32>)
func.func @short_rows(%in: memref<1x64x8x5xf32>, %f: memref<112x64x3x3xf32>, %out: memref<1x112x6x3xf32>,
                      %in2: memref<1x64x8x18xf32>, %out2: memref<1x112x6x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x64x8x5xf32>, memref<112x64x3x3xf32>) outs(%out : memref<1x112x6x3xf32>)
  dl.conv2d ins(%in2, %f : memref<1x64x8x18xf32>, memref<112x64x3x3xf32>) outs(%out2 : memref<1x112x6x16xf32>)
  return
}

// -----

// A few output channels fill a few lanes of the blocked kernels' vectors:
// such a convolution stays plain, vectorized along its output pixels
// (pixel_vectors), when its rows fill more of their vectors than its
// channels would. One output channel of 7 columns: pixels (7 of 8 lanes
// against 1). One output channel of one column: blocks of one (kernels of
// one-float rows still beat loops). 3 output channels: pixels with 8 and
// with 16 lanes, blocked at block-k=8 (kernels of 2-float vectors, which 3
// channels fill). Left alone: a convolution already blocked; one already
// marked pixel_vectors.
// CHECK-LABEL: func @left_alone
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x9x9xf32>, memref<1x8x3x3xf32>) outs(%{{.*}} : memref<1x1x7x7xf32>) {pixel_vectors}
// CHECK: dl.pack ins(%{{.*}} : memref<1x8x9x3xf32>) outs(%{{.*}} : memref<1x1x9x3x8xf32>)
// CHECK: dl.pack ins(%{{.*}} : memref<1x8x3x3xf32>) outs(%{{.*}} : memref<1x1x3x3x8x1xf32>)
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x9x9xf32>, memref<3x8x3x3xf32>) outs(%{{.*}} : memref<1x3x7x7xf32>) {pixel_vectors}
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x9x9x8xf32>, memref<2x1x3x3x8x8xf32>)
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x9x9xf32>, memref<16x8x3x3xf32>) outs(%{{.*}} : memref<1x16x7x7xf32>) {pixel_vectors}
// CHECK-NOT: dl.unpack ins(%{{.*}} : memref<1x2x7x7x8xf32>)
// AVX512-LABEL: func @left_alone
// AVX512: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x9x9xf32>, memref<3x8x3x3xf32>) outs(%{{.*}} : memref<1x3x7x7xf32>) {pixel_vectors}
// SMALL-LABEL: func @left_alone
// SMALL: dl.conv2d {{.*}} : memref<1x1x9x9x8xf32>, memref<1x1x3x3x8x3xf32>) outs(%{{.*}} : memref<1x1x7x7x3xf32>)
func.func @left_alone(%in: memref<1x8x9x9xf32>, %f: memref<1x8x3x3xf32>, %out: memref<1x1x7x7xf32>,
                      %nin: memref<1x8x9x3xf32>, %nout: memref<1x1x7x1xf32>,
                      %f3: memref<3x8x3x3xf32>, %out3: memref<1x3x7x7xf32>,
                      %bin: memref<1x1x9x9x8xf32>, %bf: memref<2x1x3x3x8x8xf32>, %bout: memref<1x2x7x7x8xf32>,
                      %f16: memref<16x8x3x3xf32>, %out16: memref<1x16x7x7xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x9x9xf32>, memref<1x8x3x3xf32>) outs(%out : memref<1x1x7x7xf32>)
  dl.conv2d ins(%nin, %f : memref<1x8x9x3xf32>, memref<1x8x3x3xf32>) outs(%nout : memref<1x1x7x1xf32>)
  dl.conv2d ins(%in, %f3 : memref<1x8x9x9xf32>, memref<3x8x3x3xf32>) outs(%out3 : memref<1x3x7x7xf32>)
  dl.conv2d ins(%bin, %bf : memref<1x1x9x9x8xf32>, memref<2x1x3x3x8x8xf32>) outs(%bout : memref<1x2x7x7x8xf32>)
  dl.conv2d ins(%in, %f16 : memref<1x8x9x9xf32>, memref<16x8x3x3xf32>) outs(%out16 : memref<1x16x7x7xf32>) {pixel_vectors}
  return
}

// -----

// With masked partial vectors (AVX-512), a convolution of unit column
// stride stays plain with up to a vector's lanes of output channels (taps
// load their input vectors whole) where its rows fill more of their
// vectors: 12 channels of 54 columns (54 of 64 lanes against 12 of 16).
// Blocked: 12 channels at column stride 2 (its taps would shuffle, so only
// under half a vector), 15 channels of 14 columns (14 of 16 lanes against
// 15 of 16), and 16 channels (a whole vector).
// AVX512-LABEL: func @unit_stride_pixels
// AVX512: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<2x16x56x56xf32>, memref<12x16x3x3xf32>) outs(%{{.*}} : memref<2x12x54x54xf32>) {pixel_vectors}
// AVX512: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<2x1x56x56x16xf32>, memref<1x1x3x3x16x12xf32>) outs(%{{.*}} : memref<2x1x27x27x12xf32>)
// AVX512: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x16x16x16xf32>, memref<1x1x3x3x16x15xf32>) outs(%{{.*}} : memref<1x1x14x14x15xf32>)
// AVX512: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<2x1x56x56x16xf32>, memref<1x1x3x3x16x16xf32>) outs(%{{.*}} : memref<2x1x54x54x16xf32>)
func.func @unit_stride_pixels(%in: memref<2x16x56x56xf32>, %f12: memref<12x16x3x3xf32>, %out12: memref<2x12x54x54xf32>,
                              %out12s: memref<2x12x27x27xf32>,
                              %sin: memref<1x16x16x16xf32>, %f15: memref<15x16x3x3xf32>, %out15: memref<1x15x14x14xf32>,
                              %f16: memref<16x16x3x3xf32>, %out16: memref<2x16x54x54xf32>) {
  dl.conv2d ins(%in, %f12 : memref<2x16x56x56xf32>, memref<12x16x3x3xf32>) outs(%out12 : memref<2x12x54x54xf32>)
  dl.conv2d ins(%in, %f12 : memref<2x16x56x56xf32>, memref<12x16x3x3xf32>) outs(%out12s : memref<2x12x27x27xf32>) {strides = array<i64: 2, 2>}
  dl.conv2d ins(%sin, %f15 : memref<1x16x16x16xf32>, memref<15x16x3x3xf32>) outs(%out15 : memref<1x15x14x14xf32>)
  dl.conv2d ins(%in, %f16 : memref<2x16x56x56xf32>, memref<16x16x3x3xf32>) outs(%out16 : memref<2x16x54x54xf32>)
  return
}

// -----

// Output rows too short for pixel vectors and the blocked kernels (3
// pixels: under dl-im2col-convs' 5 vectors) are blocked in one block of the
// output channels, which dl-im2col-convs runs as one GEMM on the input
// windows (Integration/padded-channels.mlir checks that the remark on the
// channels' lanes is not made for it). Rows of 5 pixels stay plain.
// CHECK-LABEL: func @rows_for_a_gemm
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<3x4x8x8x22xf32>, memref<1x4x7x7x22x2xf32>) outs(%{{.*}} : memref<3x1x3x3x2xf32>)
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<4x11x9x9xf32>, memref<2x11x1x1xf32>) outs(%{{.*}} : memref<4x2x5x5xf32>) {pixel_vectors, strides = array<i64: 2, 2>}
// AVX512-LABEL: func @rows_for_a_gemm
// AVX512: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<3x2x8x8x44xf32>, memref<1x2x7x7x44x2xf32>) outs(%{{.*}} : memref<3x1x3x3x2xf32>)
// AVX512: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<4x11x9x9xf32>, memref<2x11x1x1xf32>) outs(%{{.*}} : memref<4x2x5x5xf32>) {pixel_vectors, strides = array<i64: 2, 2>}
func.func @rows_for_a_gemm(%in: memref<3x88x8x8xf32>, %f: memref<2x88x7x7xf32>, %out: memref<3x2x3x3xf32>,
                           %in5: memref<4x11x9x9xf32>, %f5: memref<2x11x1x1xf32>, %out5: memref<4x2x5x5xf32>) {
  dl.conv2d ins(%in, %f : memref<3x88x8x8xf32>, memref<2x88x7x7xf32>) outs(%out : memref<3x2x3x3xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>}
  dl.conv2d ins(%in5, %f5 : memref<4x11x9x9xf32>, memref<2x11x1x1xf32>) outs(%out5 : memref<4x2x5x5xf32>) {strides = array<i64: 2, 2>}
  return
}

// -----

// Without masked partial vectors (AVX2) a convolution also stays plain
// (pixel_vectors) when all its output channels fit one register tile of one
// 16-float vector per row (6 accumulators of AVX2's 8 such vectors) and its
// rows fill 3/4 of their vectors: 6 channels of 14 columns. 7 channels
// (more than a tile) and 6 channels of 7 columns (7 of 16 lanes) are
// blocked in one whole vector.
// CHECK-LABEL: func @tile_of_pixels
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x16x16xf32>, memref<6x8x3x3xf32>) outs(%{{.*}} : memref<1x6x14x14xf32>) {pixel_vectors}
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x16x16x8xf32>, memref<1x1x3x3x8x8xf32>) outs(%{{.*}} : memref<1x1x14x14x8xf32>)
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x1x9x9x8xf32>, memref<1x1x3x3x8x8xf32>) outs(%{{.*}} : memref<1x1x7x7x8xf32>)
func.func @tile_of_pixels(%in: memref<1x8x16x16xf32>, %f6: memref<6x8x3x3xf32>, %out6: memref<1x6x14x14xf32>,
                          %f7: memref<7x8x3x3xf32>, %out7: memref<1x7x14x14xf32>,
                          %sin: memref<1x8x9x9xf32>, %sout: memref<1x6x7x7xf32>) {
  dl.conv2d ins(%in, %f6 : memref<1x8x16x16xf32>, memref<6x8x3x3xf32>) outs(%out6 : memref<1x6x14x14xf32>)
  dl.conv2d ins(%in, %f7 : memref<1x8x16x16xf32>, memref<7x8x3x3xf32>) outs(%out7 : memref<1x7x14x14xf32>)
  dl.conv2d ins(%sin, %f6 : memref<1x8x9x9xf32>, memref<6x8x3x3xf32>) outs(%sout : memref<1x6x7x7xf32>)
  return
}

// -----

// Between two convolutions the activation stays blocked: the ReLU runs on the
// first convolution's blocked result, the second convolution reads it, and
// the plain intermediate (only written now) is gone.
// CHECK-LABEL: func @chain
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<1x32x14x14xf32>)
// CHECK: dl.pack ins(%{{.*}} : memref<1x64x14x14xf32>)
// CHECK: dl.pack ins(%{{.*}} : memref<64x64x3x3xf32>)
// CHECK: %[[T:.*]] = memref.alloc() : memref<1x2x14x14x32xf32>
// CHECK: dl.conv2d {{.*}} outs(%[[T]] : memref<1x2x14x14x32xf32>)
// CHECK-NOT: dl.unpack
// CHECK: dl.relu ins(%[[T]] : memref<1x2x14x14x32xf32>) outs(%[[T]] : memref<1x2x14x14x32xf32>)
// CHECK-NOT: dl.pack ins(%{{.*}} : memref<1x64x14x14xf32>)
// CHECK: dl.pack ins(%{{.*}} : memref<32x64x1x1xf32>) outs(%[[W2:.*]] : memref<1x2x1x1x32x32xf32>)
// CHECK: %[[O:.*]] = memref.alloc() : memref<1x1x14x14x32xf32>
// CHECK: dl.conv2d ins(%[[T]], %[[W2]] : {{.*}}) outs(%[[O]] : memref<1x1x14x14x32xf32>)
// CHECK: memref.dealloc %[[T]] :
// CHECK: dl.unpack ins(%[[O]] : memref<1x1x14x14x32xf32>) outs(%[[OUT]] : memref<1x32x14x14xf32>)
// CHECK-NEXT: memref.dealloc %[[O]] :
// CHECK-NOT: memref<1x64x14x14xf32>
// CHECK: return
func.func @chain(%x: memref<1x64x14x14xf32>, %w1: memref<64x64x3x3xf32>, %w2: memref<32x64x1x1xf32>, %out: memref<1x32x14x14xf32>) {
  %t = memref.alloc() : memref<1x64x14x14xf32>
  dl.conv2d ins(%x, %w1 : memref<1x64x14x14xf32>, memref<64x64x3x3xf32>) outs(%t : memref<1x64x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.relu ins(%t : memref<1x64x14x14xf32>) outs(%t : memref<1x64x14x14xf32>)
  dl.conv2d ins(%t, %w2 : memref<1x64x14x14xf32>, memref<32x64x1x1xf32>) outs(%out : memref<1x32x14x14xf32>)
  memref.dealloc %t : memref<1x64x14x14xf32>
  return
}

// -----

// Batch norm into a second buffer and an in-place ReLU, both on blocked
// copies; the residual add reads two blocked copies.
// CHECK-LABEL: func @bn_relu_add
// CHECK: dl.conv2d {{.*}} outs(%[[C:.*]] : memref<1x2x14x14x32xf32>)
// CHECK: %[[N:.*]] = memref.alloc() : memref<1x2x14x14x32xf32>
// CHECK: dl.batch_norm_inference ins(%[[C]], {{.*}} : memref<1x2x14x14x32xf32>, memref<64xf32>, {{.*}}) outs(%[[N]] : memref<1x2x14x14x32xf32>)
// CHECK: dl.relu ins(%[[N]] : {{.*}}) outs(%[[N]] :
// CHECK: %[[S:.*]] = memref.alloc() : memref<1x2x14x14x32xf32>
// CHECK: dl.add ins(%[[N]], %[[C]] : {{.*}}) outs(%[[S]] :
// CHECK: dl.conv2d ins(%[[S]], {{.*}})
// CHECK-NOT: memref<1x64x14x14xf32>
// CHECK: return
func.func @bn_relu_add(%x: memref<1x64x14x14xf32>, %w1: memref<64x64x3x3xf32>, %w2: memref<32x64x1x1xf32>,
                       %gamma: memref<64xf32>, %beta: memref<64xf32>, %mean: memref<64xf32>, %var: memref<64xf32>,
                       %out: memref<1x32x14x14xf32>) {
  %c = memref.alloc() : memref<1x64x14x14xf32>
  %n = memref.alloc() : memref<1x64x14x14xf32>
  %s = memref.alloc() : memref<1x64x14x14xf32>
  dl.conv2d ins(%x, %w1 : memref<1x64x14x14xf32>, memref<64x64x3x3xf32>) outs(%c : memref<1x64x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_inference ins(%c, %gamma, %beta, %mean, %var : memref<1x64x14x14xf32>, memref<64xf32>, memref<64xf32>, memref<64xf32>, memref<64xf32>)
      outs(%n : memref<1x64x14x14xf32>)
  dl.relu ins(%n : memref<1x64x14x14xf32>) outs(%n : memref<1x64x14x14xf32>)
  dl.add ins(%n, %c : memref<1x64x14x14xf32>, memref<1x64x14x14xf32>) outs(%s : memref<1x64x14x14xf32>)
  dl.conv2d ins(%s, %w2 : memref<1x64x14x14xf32>, memref<32x64x1x1xf32>) outs(%out : memref<1x32x14x14xf32>)
  memref.dealloc %c : memref<1x64x14x14xf32>
  memref.dealloc %n : memref<1x64x14x14xf32>
  memref.dealloc %s : memref<1x64x14x14xf32>
  return
}

// -----

// %t is changed by an op that does not run on blocked copies (batch norm
// in training form): its unpack stays and the next convolution packs it
// again. The argument %y is unpacked (it is seen outside) and the next
// convolution reads its blocked copy. The filter is packed again after each
// write of an argument: arguments may alias each other.
// CHECK-LABEL: func @kept
// CHECK: dl.conv2d {{.*}} outs(%[[Y1:.*]] : memref<1x2x14x14x32xf32>)
// CHECK: dl.unpack ins(%[[Y1]] : {{.*}}) outs(%[[ARG:.*]] : memref<1x64x14x14xf32>)
// CHECK-NOT: dl.pack ins(%[[ARG]]
// CHECK: dl.pack ins(%{{.*}} : memref<64x64x3x3xf32>)
// CHECK: dl.conv2d ins(%[[Y1]],
// CHECK: dl.unpack {{.*}} outs(%[[T:.*]] : memref<1x64x14x14xf32>)
// CHECK: dl.batch_norm_training ins(%[[T]],
// CHECK: dl.pack ins(%[[T]] : memref<1x64x14x14xf32>)
// CHECK: dl.unpack
// CHECK-SAME: outs(%[[ARG]] : memref<1x64x14x14xf32>)
func.func @kept(%x: memref<1x64x14x14xf32>, %w: memref<64x64x3x3xf32>, %y: memref<1x64x14x14xf32>,
                %gamma: memref<64xf32>, %beta: memref<64xf32>, %mean: memref<64xf32>, %var: memref<64xf32>) {
  %t = memref.alloc() : memref<1x64x14x14xf32>
  dl.conv2d ins(%x, %w : memref<1x64x14x14xf32>, memref<64x64x3x3xf32>) outs(%y : memref<1x64x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%y, %w : memref<1x64x14x14xf32>, memref<64x64x3x3xf32>) outs(%t : memref<1x64x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_training ins(%t, %gamma, %beta : memref<1x64x14x14xf32>, memref<64xf32>, memref<64xf32>)
      outs(%t, %mean, %var : memref<1x64x14x14xf32>, memref<64xf32>, memref<64xf32>)
  dl.conv2d ins(%t, %w : memref<1x64x14x14xf32>, memref<64x64x3x3xf32>) outs(%y : memref<1x64x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  memref.dealloc %t : memref<1x64x14x14xf32>
  return
}

// -----

// Two functions in one module: each frees its own scratch, once.
// CHECK-LABEL: func @first
// CHECK-COUNT-3: memref.dealloc
// CHECK-NOT: memref.dealloc
// CHECK-LABEL: func @second
// CHECK-COUNT-3: memref.dealloc
// CHECK-NOT: memref.dealloc
func.func @first(%in: memref<1x8x9x9xf32>, %f: memref<16x8x3x3xf32>, %out: memref<1x16x7x7xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x9x9xf32>, memref<16x8x3x3xf32>) outs(%out : memref<1x16x7x7xf32>)
  return
}
func.func @second(%in: memref<1x8x9x9xf32>, %f: memref<16x8x3x3xf32>, %out: memref<1x16x7x7xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x9x9xf32>, memref<16x8x3x3xf32>) outs(%out : memref<1x16x7x7xf32>)
  return
}

// -----

// The add reads the argument %x through the blocked copy its pack made;
// the in-place ReLU after it runs on the blocked sum, and of the two
// unpacks into %out only the last remains.
// CHECK-LABEL: func @residual
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<1x64x14x14xf32>)
// CHECK: dl.pack ins(%{{.*}} : memref<1x64x14x14xf32>) outs(%[[XB:.*]] : memref<1x2x14x14x32xf32>)
// CHECK: dl.conv2d {{.*}} outs(%[[C:.*]] : memref<1x2x14x14x32xf32>)
// CHECK: dl.batch_norm_inference ins(%[[C]],
// CHECK: dl.add ins(%[[C]], %[[XB]] : {{.*}}) outs(%[[S:.*]] : memref<1x2x14x14x32xf32>)
// CHECK-NOT: dl.unpack
// CHECK: dl.relu ins(%[[S]] : {{.*}}) outs(%[[S]] :
// CHECK: dl.unpack ins(%[[S]] : {{.*}}) outs(%[[OUT]] :
// CHECK-NOT: dl.unpack
// CHECK: return
func.func @residual(%x: memref<1x64x14x14xf32>, %w: memref<64x64x3x3xf32>,
                    %gamma: memref<64xf32>, %beta: memref<64xf32>, %mean: memref<64xf32>, %var: memref<64xf32>,
                    %out: memref<1x64x14x14xf32>) {
  %t = memref.alloc() : memref<1x64x14x14xf32>
  dl.conv2d ins(%x, %w : memref<1x64x14x14xf32>, memref<64x64x3x3xf32>) outs(%t : memref<1x64x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.batch_norm_inference ins(%t, %gamma, %beta, %mean, %var : memref<1x64x14x14xf32>, memref<64xf32>, memref<64xf32>, memref<64xf32>, memref<64xf32>)
      outs(%t : memref<1x64x14x14xf32>)
  dl.add ins(%t, %x : memref<1x64x14x14xf32>, memref<1x64x14x14xf32>) outs(%out : memref<1x64x14x14xf32>)
  dl.relu ins(%out : memref<1x64x14x14xf32>) outs(%out : memref<1x64x14x14xf32>)
  memref.dealloc %t : memref<1x64x14x14xf32>
  return
}

// -----

// A write of another argument (%z may be %y) makes %y's blocked copy stale:
// the second convolution packs %y again.
// CHECK-LABEL: func @aliasing
// CHECK-SAME: %[[Y:[a-z0-9]+]]: memref<1x64x14x14xf32>, %[[Z:[a-z0-9]+]]: memref<1x64x14x14xf32>
// CHECK: dl.unpack {{.*}} outs(%[[Y]] :
// CHECK: dl.relu ins(%[[Z]] :
// CHECK: dl.pack ins(%[[Y]] : memref<1x64x14x14xf32>)
func.func @aliasing(%x: memref<1x64x14x14xf32>, %w: memref<64x64x3x3xf32>,
                    %y: memref<1x64x14x14xf32>, %z: memref<1x64x14x14xf32>, %out: memref<1x64x14x14xf32>) {
  dl.conv2d ins(%x, %w : memref<1x64x14x14xf32>, memref<64x64x3x3xf32>) outs(%y : memref<1x64x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.relu ins(%z : memref<1x64x14x14xf32>) outs(%z : memref<1x64x14x14xf32>)
  dl.conv2d ins(%y, %w : memref<1x64x14x14xf32>, memref<64x64x3x3xf32>) outs(%out : memref<1x64x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// One input channel: each batch element of a kernel call (a filter tap)
// adds one FMA per vector to its fixed cost, so fewer, wider output-channel
// blocks win: 71 channels (16-float vectors, limit 64) in 2 blocks of 48 (6
// vectors), not 5 blocks of 16 (5 vectors), which 64 input channels take.
// AVX512-LABEL: func @few_input_channels
// AVX512: dl.conv2d {{.*}} outs(%{{.*}} : memref<3x2x17x17x48xf32>)
// AVX512: dl.conv2d {{.*}} outs(%{{.*}} : memref<3x5x17x17x16xf32>)
func.func @few_input_channels(%in: memref<3x1x21x21xf32>, %f: memref<71x1x5x5xf32>, %out: memref<3x71x17x17xf32>,
                              %in64: memref<3x64x21x21xf32>, %f64: memref<71x64x5x5xf32>) {
  dl.conv2d ins(%in, %f : memref<3x1x21x21xf32>, memref<71x1x5x5xf32>) outs(%out : memref<3x71x17x17xf32>)
  dl.conv2d ins(%in64, %f64 : memref<3x64x21x21xf32>, memref<71x64x5x5xf32>) outs(%out : memref<3x71x17x17xf32>)
  return
}

// -----

// A plain convolution given an epilogue keeps its layout (its epilogue
// operands are plain).
// CHECK-LABEL: func.func @plain_with_epilogue
// CHECK-NOT: dl.pack
// CHECK: dl.conv2d {{.*}} memref<1x32x8x8xf32>, memref<32x32x3x3xf32>{{.*}} epilogue(%{{.*}} : memref<32xf32>)
// CHECK-NOT: dl.unpack
func.func @plain_with_epilogue(%in: memref<1x32x8x8xf32>, %f: memref<32x32x3x3xf32>,
                               %b: memref<32xf32>, %out: memref<1x32x8x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x32x8x8xf32>, memref<32x32x3x3xf32>)
      outs(%out : memref<1x32x8x8xf32>) epilogue(%b : memref<32xf32>)
      {padding = array<i64: 1, 1, 1, 1>, epilogue = [#dl.post_op<bias_add>]}
  return
}

// -----

// Dynamic images and spatial sizes (static channels and filter): blocked,
// the blocked copies allocated with the plain buffers' sizes; so is the
// ReLU after it, on the blocked copy. With one output channel the rows,
// whose width is known only at run time, are not vectorized instead
// (pixel_vectors needs static rows): blocked too. Dynamic channels take
// blocks of the limit (32 at 256-bit vectors), ceil(channels / 32) of them.
// CHECK-DAG: #[[BLOCKS:.+]] = affine_map<()[s0] -> (s0 ceildiv 32)>
// CHECK-LABEL: func @dynamic_images_and_rows
// CHECK: %[[N:.+]] = memref.dim %arg0, %c0
// CHECK: %[[H:.+]] = memref.dim %arg0, %c2
// CHECK: %[[W:.+]] = memref.dim %arg0, %c3
// CHECK: %[[IN:.+]] = memref.alloc(%[[N]], %[[H]], %[[W]]) : memref<?x1x?x?x8xf32>
// CHECK: dl.pack ins(%arg0 : memref<?x8x?x?xf32>) outs(%[[IN]] : memref<?x1x?x?x8xf32>)
// CHECK: dl.pack ins(%arg1 : memref<16x8x3x3xf32>) outs(%{{.+}} : memref<1x1x3x3x8x16xf32>)
// CHECK: %[[OUT:.+]] = memref.alloc(%{{.+}}, %{{.+}}, %{{.+}}) : memref<?x1x?x?x16xf32>
// CHECK: dl.conv2d ins(%[[IN]], %{{.+}} : memref<?x1x?x?x8xf32>, memref<1x1x3x3x8x16xf32>) outs(%[[OUT]] : memref<?x1x?x?x16xf32>)
// CHECK: dl.relu ins(%[[OUT]] : memref<?x1x?x?x16xf32>) outs(%[[OUT]] : memref<?x1x?x?x16xf32>)
// CHECK: dl.unpack ins(%[[OUT]] : memref<?x1x?x?x16xf32>) outs(%arg2 : memref<?x16x?x?xf32>)
// CHECK: dl.conv2d ins(%{{.+}}, %{{.+}} : memref<?x1x?x?x8xf32>, memref<1x1x3x3x8x1xf32>) outs(%{{.+}} : memref<?x1x?x?x1xf32>)
// CHECK-NOT: pixel_vectors
// CHECK-LABEL: func @dynamic_channels
// CHECK: %[[C:.+]] = memref.dim %arg0, %c1
// CHECK: %[[CB:.+]] = affine.apply #[[BLOCKS]]()[%[[C]]]
// CHECK: memref.alloc(%{{.+}}, %[[CB]], %{{.+}}, %{{.+}}) : memref<?x?x?x?x32xf32>
// CHECK: %[[K:.+]] = memref.dim %arg1, %c0
// CHECK: %[[KB:.+]] = affine.apply #[[BLOCKS]]()[%[[K]]]
// CHECK: %[[FC:.+]] = memref.dim %arg1, %c1
// CHECK: %[[FCB:.+]] = affine.apply #[[BLOCKS]]()[%[[FC]]]
// CHECK: memref.alloc(%[[KB]], %[[FCB]], %{{.+}}, %{{.+}}) : memref<?x?x?x?x32x32xf32>
// CHECK: dl.conv2d {{.*}} outs(%{{.+}} : memref<?x?x?x?x32xf32>)
// A static output of 3 channels, its input and filter dynamic: blocked
// (pixel_vectors needs static sizes), in a block of one whole vector.
// CHECK: dl.conv2d {{.*}} outs(%{{.+}} : memref<1x1x7x7x8xf32>)
// CHECK-NOT: pixel_vectors
func.func @dynamic_images_and_rows(%in: memref<?x8x?x?xf32>, %f: memref<16x8x3x3xf32>,
                                   %out: memref<?x16x?x?xf32>,
                                   %f1: memref<1x8x3x3xf32>, %out1: memref<?x1x?x?xf32>) {
  dl.conv2d ins(%in, %f : memref<?x8x?x?xf32>, memref<16x8x3x3xf32>) outs(%out : memref<?x16x?x?xf32>)
  dl.relu ins(%out : memref<?x16x?x?xf32>) outs(%out : memref<?x16x?x?xf32>)
  dl.conv2d ins(%in, %f1 : memref<?x8x?x?xf32>, memref<1x8x3x3xf32>) outs(%out1 : memref<?x1x?x?xf32>)
  return
}

func.func @dynamic_channels(%in: memref<?x?x?x?xf32>, %f: memref<?x?x?x?xf32>,
                            %out: memref<?x?x?x?xf32>, %out3: memref<1x3x7x7xf32>) {
  dl.conv2d ins(%in, %f : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%out : memref<?x?x?x?xf32>)
  dl.conv2d ins(%in, %f : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%out3 : memref<1x3x7x7xf32>)
  return
}

// -----

// An inverted residual block of 72 channels: the expansion's output
// channels in 5 blocks of 16 (the last padded), and the projection, which
// reads them through a bias, ReLU, depthwise convolution, bias and ReLU,
// takes that block as its input block (alone it would take 2 of 36), so the
// whole chain runs on one blocked copy. A bias on the padded copy reads a
// copy of it with zeros for the padding channels.
// AVX512-LABEL: func @inverted_residual
// AVX512: dl.conv2d ins({{.*}}) outs(%[[E:.*]] : memref<1x5x14x14x16xf32>)
// AVX512: %[[PB:.*]] = memref.alloc() : memref<80xf32>
// AVX512: affine.for %{{.*}} = 0 to 72 {
// AVX512: affine.for %{{.*}} = 72 to 80 {
// AVX512: dl.bias_add ins(%[[E]], %[[PB]] : memref<1x5x14x14x16xf32>, memref<80xf32>) outs(%[[E]] : memref<1x5x14x14x16xf32>)
// AVX512: dl.relu ins(%[[E]] : memref<1x5x14x14x16xf32>)
// AVX512: dl.depthwise_conv2d ins(%[[E]], %{{.*}} : memref<1x5x14x14x16xf32>, memref<3x3x72xf32>) outs(%[[D:.*]] : memref<1x5x14x14x16xf32>)
// AVX512: dl.bias_add ins(%[[D]], %{{.*}} : memref<1x5x14x14x16xf32>, memref<80xf32>)
// AVX512: dl.relu ins(%[[D]] : memref<1x5x14x14x16xf32>)
// AVX512-NOT: dl.unpack
// AVX512: dl.conv2d ins(%[[D]], %{{.*}} : memref<1x5x14x14x16xf32>, memref<1x5x1x1x16x24xf32>)
func.func @inverted_residual(%x: memref<1x24x14x14xf32>, %w1: memref<72x24x1x1xf32>,
                             %b1: memref<72xf32>, %dw: memref<3x3x72xf32>, %b2: memref<72xf32>,
                             %w2: memref<24x72x1x1xf32>, %y: memref<1x24x14x14xf32>) {
  %e = memref.alloc() : memref<1x72x14x14xf32>
  dl.conv2d ins(%x, %w1 : memref<1x24x14x14xf32>, memref<72x24x1x1xf32>) outs(%e : memref<1x72x14x14xf32>)
  dl.bias_add ins(%e, %b1 : memref<1x72x14x14xf32>, memref<72xf32>) outs(%e : memref<1x72x14x14xf32>)
  dl.relu ins(%e : memref<1x72x14x14xf32>) outs(%e : memref<1x72x14x14xf32>)
  %d = memref.alloc() : memref<1x72x14x14xf32>
  dl.depthwise_conv2d ins(%e, %dw : memref<1x72x14x14xf32>, memref<3x3x72xf32>) outs(%d : memref<1x72x14x14xf32>)
                      {padding = array<i64: 1, 1, 1, 1>}
  dl.bias_add ins(%d, %b2 : memref<1x72x14x14xf32>, memref<72xf32>) outs(%d : memref<1x72x14x14xf32>)
  dl.relu ins(%d : memref<1x72x14x14xf32>) outs(%d : memref<1x72x14x14xf32>)
  dl.conv2d ins(%d, %w2 : memref<1x72x14x14xf32>, memref<24x72x1x1xf32>) outs(%y : memref<1x24x14x14xf32>)
  memref.dealloc %e : memref<1x72x14x14xf32>
  memref.dealloc %d : memref<1x72x14x14xf32>
  return
}
