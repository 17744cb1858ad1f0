// Which padded convolutions dl-skip-padding-columns marks: skipped products
// (input-channel block x column products on padding) and the skipped padded
// copy (c-pass-cost x its vectors, per output row, output-channel vector and
// filter row, over the bandwidth share of the level holding the input and
// the copy) against extra accumulator passes (c-pass-cost x the runs'
// columns beyond one row). A 2 MiB L2 with the default bandwidths (the L2
// at half the L1's, the L3 at a quarter), whatever the machine that runs
// the test.
// RUN: dl-opt %s --dl-set-target="cache-sizes=L1=48K,L2=2M,L3=32M" --dl-skip-padding-columns --split-input-file | FileCheck %s
// RUN: dl-opt %s --dl-set-target="cache-sizes=L1=48K,L2=2M,L3=32M" --dl-skip-padding-columns="c-pass-cost=0" --split-input-file | FileCheck %s --check-prefix=FREE
// RUN: not dl-opt %s --dl-skip-padding-columns="c-pass-cost=-1" 2>&1 | FileCheck %s --check-prefix=INVALID

// INVALID: error: dl-skip-padding-columns: c-pass-cost must be >= 0

// 7x7 output, 3x3 filter, 64-channel blocks: 64 x 2 skipped products
// against 2 x (6 + 7 + 6 - 7) passes.
// CHECK-LABEL: func @res5a_branch2b
// CHECK: dl.conv2d {{.*}}skip_padding_columns
// FREE-LABEL: func @res5a_branch2b
// FREE: skip_padding_columns
func.func @res5a_branch2b(%in: memref<1x8x7x7x64xf32>, %f: memref<8x8x3x3x64x64xf32>, %out: memref<1x8x7x7x64xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x7x7x64xf32>, memref<8x8x3x3x64x64xf32>) outs(%out : memref<1x8x7x7x64xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// 28x28: 128 products against 2 x 52 passes.
// CHECK-LABEL: func @res3a_branch2b
// CHECK: skip_padding_columns
func.func @res3a_branch2b(%in: memref<1x2x28x28x64xf32>, %f: memref<2x2x3x3x64x64xf32>, %out: memref<1x2x28x28x64xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x28x28x64xf32>, memref<2x2x3x3x64x64xf32>) outs(%out : memref<1x2x28x28x64xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// 56x56: 128 products and a copy of 2 x 56 x 58 x 4 vectors over 56 x 3 x 4
// (38.7) from the L2 (the 0.8 MB input and its copy: 77.4) against 2 x 108
// passes; free passes tip it. Two images (3.3 MB, in the L3: 154.8) tip it
// too.
// CHECK-LABEL: func @res2a_branch2b
// CHECK-NOT: skip_padding_columns
// FREE-LABEL: func @res2a_branch2b
// FREE: skip_padding_columns
func.func @res2a_branch2b(%in: memref<1x1x56x56x64xf32>, %f: memref<1x1x3x3x64x64xf32>, %out: memref<1x1x56x56x64xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x56x56x64xf32>, memref<1x1x3x3x64x64xf32>) outs(%out : memref<1x1x56x56x64xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// CHECK-LABEL: func @res2a_branch2b_two_images
// CHECK: skip_padding_columns
func.func @res2a_branch2b_two_images(%in: memref<2x1x56x56x64xf32>, %f: memref<1x1x3x3x64x64xf32>, %out: memref<2x1x56x56x64xf32>) {
  dl.conv2d ins(%in, %f : memref<2x1x56x56x64xf32>, memref<1x1x3x3x64x64xf32>) outs(%out : memref<2x1x56x56x64xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// 56x56 to 16 channels (one output-channel vector): 128 products and a copy
// of 2 x 56 x 58 x 4 vectors over 56 x 3 x 1 (154.7, 309.3 from the L2)
// against 2 x 110 passes.
// CHECK-LABEL: func @one_vector_56x56
// CHECK: skip_padding_columns
func.func @one_vector_56x56(%in: memref<1x1x56x56x64xf32>, %f: memref<1x1x3x3x64x16xf32>, %out: memref<1x1x56x56x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x56x56x64xf32>, memref<1x1x3x3x64x16xf32>) outs(%out : memref<1x1x56x56x16xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// To 32 channels the copy is spread over two vectors (77.3, 154.7 from the
// L2): 282.7 against 220. (Were the copy in the L1, 205.3 would keep it.)
// CHECK-LABEL: func @two_vectors_56x56
// CHECK: skip_padding_columns
func.func @two_vectors_56x56(%in: memref<1x1x56x56x64xf32>, %f: memref<1x1x3x3x64x32xf32>, %out: memref<1x1x56x56x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x56x56x64xf32>, memref<1x1x3x3x64x32xf32>) outs(%out : memref<1x1x56x56x32xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// A 5x5 filter at stride 2 on 167 columns (padding 2): 4 products of 420
// on padding, but a copy of 2 x 167 x 171 x 3 vectors over 84 x 5 (408).
// CHECK-LABEL: func @strided_one_vector
// CHECK: skip_padding_columns
func.func @strided_one_vector(%in: memref<1x1x167x167x48xf32>, %f: memref<1x1x5x5x48x16xf32>, %out: memref<1x1x84x84x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x167x167x48xf32>, memref<1x1x5x5x48x16xf32>) outs(%out : memref<1x1x84x84x16xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 2, 2, 2, 2>}
  return
}

// -----

// conv1 (3 input channels, 7x7 filter at stride 2): 3 x 6 products and a
// copy of 2 x 224 x 230 x 3 / 16 vectors over 112 x 7 x 4 (6.2, 12.3 from the
// L2) against 2 x 332 passes.
// CHECK-LABEL: func @conv1
// CHECK-NOT: skip_padding_columns
func.func @conv1(%in: memref<1x1x224x224x3xf32>, %f: memref<1x1x7x7x3x64xf32>, %out: memref<1x1x112x112x64xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x224x224x3xf32>, memref<1x1x7x7x3x64xf32>) outs(%out : memref<1x1x112x112x64xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 3, 3, 3, 3>}
  return
}

// -----

// Left alone: padding in rows only, a dynamic width, the plain layout.
// CHECK-LABEL: func @left_alone
// CHECK-NOT: skip_padding_columns
// FREE-LABEL: func @left_alone
// FREE-NOT: skip_padding_columns
func.func @left_alone(%in: memref<1x8x7x7x64xf32>, %f: memref<8x8x3x1x64x64xf32>, %out: memref<1x8x7x7x64xf32>,
                      %din: memref<1x8x7x?x64xf32>, %dout: memref<1x8x7x?x64xf32>,
                      %pin: memref<1x64x7x7xf32>, %pf: memref<64x64x3x3xf32>, %pout: memref<1x64x7x7xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x7x7x64xf32>, memref<8x8x3x1x64x64xf32>) outs(%out : memref<1x8x7x7x64xf32>)
      {padding = array<i64: 1, 0, 1, 0>}
  dl.conv2d ins(%din, %f : memref<1x8x7x?x64xf32>, memref<8x8x3x1x64x64xf32>) outs(%dout : memref<1x8x7x?x64xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%pin, %pf : memref<1x64x7x7xf32>, memref<64x64x3x3xf32>) outs(%pout : memref<1x64x7x7xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}
