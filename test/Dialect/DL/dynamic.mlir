// Tests that dl ops whose size relations involve dynamic (`?`) sizes verify: those relations are left to run time.
// RUN: dl-opt %s | FileCheck %s

//===----------------------------------------------------------------------===//
// dl.matmul
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul_all_dynamic
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<?x?xf32>, memref<?x?xf32>) outs(%{{.*}} : memref<?x?xf32>){{$}}
func.func @matmul_all_dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                              %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
            outs(%c : memref<?x?xf32>)
  return
}

// K dynamic in A only, M dynamic in C only, N dynamic in B only.
// CHECK-LABEL: func.func @matmul_mixed
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<4x?xf32>, memref<8x?xf32>) outs(%{{.*}} : memref<?x16xf32>){{$}}
func.func @matmul_mixed(%a: memref<4x?xf32>, %b: memref<8x?xf32>,
                        %c: memref<?x16xf32>) {
  dl.matmul ins(%a, %b : memref<4x?xf32>, memref<8x?xf32>)
            outs(%c : memref<?x16xf32>)
  return
}

// With both transposes, op(A) = 4 x ? and op(B) = 8 x 16 (K dynamic in A).
// CHECK-LABEL: func.func @matmul_mixed_transposed
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<?x4xf32>, memref<16x8xf32>) outs(%{{.*}} : memref<4x?xf32>) {transpose_a, transpose_b}
func.func @matmul_mixed_transposed(%a: memref<?x4xf32>, %b: memref<16x8xf32>,
                                   %c: memref<4x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x4xf32>, memref<16x8xf32>)
            outs(%c : memref<4x?xf32>) {transpose_a, transpose_b}
  return
}

//===----------------------------------------------------------------------===//
// dl.conv2d
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @conv2d_all_dynamic
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%{{.*}} : memref<?x?x?x?xf32>) {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
func.func @conv2d_all_dynamic(%in: memref<?x?x?x?xf32>, %f: memref<?x?x?x?xf32>,
                              %out: memref<?x?x?x?xf32>) {
  dl.conv2d ins(%in, %f : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>)
            outs(%out : memref<?x?x?x?xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// Dynamic input height and width with a static 7x7 filter and a static
// output: the output size cannot be checked, nor can "filter larger than
// input".
// CHECK-LABEL: func.func @conv2d_dynamic_input_spatial
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x?x?xf32>, memref<16x8x7x7xf32>) outs(%{{.*}} : memref<1x16x3x100xf32>){{$}}
func.func @conv2d_dynamic_input_spatial(%in: memref<1x8x?x?xf32>,
                                        %f: memref<16x8x7x7xf32>,
                                        %out: memref<1x16x3x100xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x?x?xf32>, memref<16x8x7x7xf32>)
            outs(%out : memref<1x16x3x100xf32>)
  return
}

// Dynamic filter height and width against a small static input.
// CHECK-LABEL: func.func @conv2d_dynamic_filter_spatial
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x2x2xf32>, memref<16x8x?x?xf32>) outs(%{{.*}} : memref<1x16x2x1xf32>){{$}}
func.func @conv2d_dynamic_filter_spatial(%in: memref<1x8x2x2xf32>,
                                         %f: memref<16x8x?x?xf32>,
                                         %out: memref<1x16x2x1xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x2x2xf32>, memref<16x8x?x?xf32>)
            outs(%out : memref<1x16x2x1xf32>)
  return
}

// Static input and filter, dynamic output sizes.
// CHECK-LABEL: func.func @conv2d_dynamic_output
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%{{.*}} : memref<?x?x?x?xf32>){{$}}
func.func @conv2d_dynamic_output(%in: memref<1x8x10x10xf32>,
                                 %f: memref<16x8x3x3xf32>,
                                 %out: memref<?x?x?x?xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>)
            outs(%out : memref<?x?x?x?xf32>)
  return
}

// Dynamic channels on one side of each channel relation.
// CHECK-LABEL: func.func @conv2d_dynamic_channels
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<2x?x10x10xf32>, memref<?x8x3x3xf32>) outs(%{{.*}} : memref<?x16x8x8xf32>){{$}}
func.func @conv2d_dynamic_channels(%in: memref<2x?x10x10xf32>,
                                   %f: memref<?x8x3x3xf32>,
                                   %out: memref<?x16x8x8xf32>) {
  dl.conv2d ins(%in, %f : memref<2x?x10x10xf32>, memref<?x8x3x3xf32>)
            outs(%out : memref<?x16x8x8xf32>)
  return
}

// Blocked layout: dynamic numbers of channel blocks and spatial sizes, static
// blocks.
// CHECK-LABEL: func.func @conv2d_blocked_dynamic_blocks
// CHECK: dl.conv2d ins(%{{.*}}, %{{.*}} : memref<?x?x?x?x4xf32>, memref<?x?x3x3x4x8xf32>) outs(%{{.*}} : memref<?x?x?x?x8xf32>) {padding = array<i64: 1, 1, 1, 1>}
func.func @conv2d_blocked_dynamic_blocks(%in: memref<?x?x?x?x4xf32>,
                                         %f: memref<?x?x3x3x4x8xf32>,
                                         %out: memref<?x?x?x?x8xf32>) {
  dl.conv2d ins(%in, %f : memref<?x?x?x?x4xf32>, memref<?x?x3x3x4x8xf32>)
            outs(%out : memref<?x?x?x?x8xf32>)
            {padding = array<i64: 1, 1, 1, 1>}
  return
}

//===----------------------------------------------------------------------===//
// Batch normalization
//===----------------------------------------------------------------------===//

// Dynamic channels: parameter vectors of any size are accepted.
// CHECK-LABEL: func.func @batch_norm_inference_dynamic_channels
// CHECK: dl.batch_norm_inference ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?x?x?x?xf32>, memref<8xf32>, memref<?xf32>, memref<16xf32>, memref<?xf32>) outs(%{{.*}} : memref<2x?x4x?xf32>){{$}}
func.func @batch_norm_inference_dynamic_channels(%in: memref<?x?x?x?xf32>,
    %g: memref<8xf32>, %b: memref<?xf32>, %m: memref<16xf32>,
    %v: memref<?xf32>, %out: memref<2x?x4x?xf32>) {
  dl.batch_norm_inference ins(%in, %g, %b, %m, %v : memref<?x?x?x?xf32>,
                              memref<8xf32>, memref<?xf32>, memref<16xf32>,
                              memref<?xf32>)
                          outs(%out : memref<2x?x4x?xf32>)
  return
}

// Static channels, dynamic vectors.
// CHECK-LABEL: func.func @batch_norm_inference_dynamic_vectors
// CHECK: dl.batch_norm_inference ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<2x8x4x4xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) outs(%{{.*}} : memref<2x8x4x4xf32>){{$}}
func.func @batch_norm_inference_dynamic_vectors(%in: memref<2x8x4x4xf32>,
                                                %v: memref<?xf32>,
                                                %out: memref<2x8x4x4xf32>) {
  dl.batch_norm_inference ins(%in, %v, %v, %v, %v : memref<2x8x4x4xf32>,
                              memref<?xf32>, memref<?xf32>, memref<?xf32>,
                              memref<?xf32>)
                          outs(%out : memref<2x8x4x4xf32>)
  return
}

// Blocked: a dynamic number of blocks of a static block size.
// CHECK-LABEL: func.func @batch_norm_training_blocked_dynamic_blocks
// CHECK: dl.batch_norm_training ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<?x?x?x?x4xf32>, memref<8xf32>, memref<12xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : memref<?x?x?x?x4xf32>, memref<?xf32>, memref<4xf32>){{$}}
func.func @batch_norm_training_blocked_dynamic_blocks(
    %in: memref<?x?x?x?x4xf32>, %g: memref<8xf32>, %b: memref<12xf32>,
    %out: memref<?x?x?x?x4xf32>, %sm: memref<?xf32>, %sv: memref<4xf32>) {
  dl.batch_norm_training ins(%in, %g, %b : memref<?x?x?x?x4xf32>,
                             memref<8xf32>, memref<12xf32>)
                         outs(%out, %sm, %sv : memref<?x?x?x?x4xf32>,
                              memref<?xf32>, memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @batch_norm_training_dynamic
// CHECK: dl.batch_norm_training ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<?x8x?x?xf32>, memref<8xf32>, memref<8xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : memref<4x?x6x?xf32>, memref<8xf32>, memref<?xf32>){{$}}
func.func @batch_norm_training_dynamic(%in: memref<?x8x?x?xf32>,
                                       %g: memref<8xf32>,
                                       %out: memref<4x?x6x?xf32>,
                                       %sm: memref<8xf32>,
                                       %sv: memref<?xf32>) {
  dl.batch_norm_training ins(%in, %g, %g : memref<?x8x?x?xf32>, memref<8xf32>,
                             memref<8xf32>)
                         outs(%out, %sm, %sv : memref<4x?x6x?xf32>,
                              memref<8xf32>, memref<?xf32>)
  return
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @relu_dynamic
// CHECK: dl.relu ins(%{{.*}} : memref<?x8xf32>) outs(%{{.*}} : memref<4x?xf32>){{$}}
// CHECK: dl.relu6 ins(%{{.*}} : memref<?xf32>) outs(%{{.*}} : memref<16xf32>){{$}}
func.func @relu_dynamic(%a: memref<?x8xf32>, %b: memref<4x?xf32>,
                        %c: memref<?xf32>, %d: memref<16xf32>) {
  dl.relu ins(%a : memref<?x8xf32>) outs(%b : memref<4x?xf32>)
  dl.relu6 ins(%c : memref<?xf32>) outs(%d : memref<16xf32>)
  return
}

// CHECK-LABEL: func.func @add_dynamic
// CHECK: dl.add ins(%{{.*}}, %{{.*}} : memref<?x?x4x4xf32>, memref<2x8x?x4xf32>) outs(%{{.*}} : memref<2x?x4x?xf32>){{$}}
func.func @add_dynamic(%l: memref<?x?x4x4xf32>, %r: memref<2x8x?x4xf32>,
                       %out: memref<2x?x4x?xf32>) {
  dl.add ins(%l, %r : memref<?x?x4x4xf32>, memref<2x8x?x4xf32>)
         outs(%out : memref<2x?x4x?xf32>)
  return
}

// CHECK-LABEL: func.func @bias_add_dynamic
// CHECK: dl.bias_add ins(%{{.*}}, %{{.*}} : memref<?x?xf32>, memref<16xf32>) outs(%{{.*}} : memref<4x16xf32>){{$}}
// CHECK: dl.bias_add ins(%{{.*}}, %{{.*}} : memref<2x8x?x?xf32>, memref<?xf32>) outs(%{{.*}} : memref<?x8x4x4xf32>){{$}}
// CHECK: dl.bias_add ins(%{{.*}}, %{{.*}} : memref<?x?x4x4x4xf32>, memref<12xf32>) outs(%{{.*}} : memref<?x?x4x4x4xf32>){{$}}
func.func @bias_add_dynamic(%a: memref<?x?xf32>, %b16: memref<16xf32>,
                            %a2: memref<4x16xf32>,
                            %x: memref<2x8x?x?xf32>, %bd: memref<?xf32>,
                            %y: memref<?x8x4x4xf32>,
                            %z: memref<?x?x4x4x4xf32>, %b12: memref<12xf32>) {
  dl.bias_add ins(%a, %b16 : memref<?x?xf32>, memref<16xf32>)
              outs(%a2 : memref<4x16xf32>)
  dl.bias_add ins(%x, %bd : memref<2x8x?x?xf32>, memref<?xf32>)
              outs(%y : memref<?x8x4x4xf32>)
  dl.bias_add ins(%z, %b12 : memref<?x?x4x4x4xf32>, memref<12xf32>)
              outs(%z : memref<?x?x4x4x4xf32>)
  return
}

//===----------------------------------------------------------------------===//
// Layout changes
//===----------------------------------------------------------------------===//

// Dynamic plain channels: neither divisibility nor blocks x block can be
// checked.
// CHECK-LABEL: func.func @pack_dynamic_channels
// CHECK: dl.pack ins(%{{.*}} : memref<?x?x?x?xf32>) outs(%{{.*}} : memref<2x3x5x5x4xf32>){{$}}
// CHECK: dl.unpack ins(%{{.*}} : memref<?x?x?x?x4xf32>) outs(%{{.*}} : memref<2x8x5x5xf32>){{$}}
func.func @pack_dynamic_channels(%p: memref<?x?x?x?xf32>,
                                 %b: memref<2x3x5x5x4xf32>,
                                 %b2: memref<?x?x?x?x4xf32>,
                                 %p2: memref<2x8x5x5xf32>) {
  dl.pack ins(%p : memref<?x?x?x?xf32>) outs(%b : memref<2x3x5x5x4xf32>)
  dl.unpack ins(%b2 : memref<?x?x?x?x4xf32>) outs(%p2 : memref<2x8x5x5xf32>)
  return
}

// Filters: dynamic K, C and numbers of blocks, static blocks.
// CHECK-LABEL: func.func @pack_filter_dynamic
// CHECK: dl.pack ins(%{{.*}} : memref<?x8x?x3xf32>) outs(%{{.*}} : memref<2x?x3x?x4x8xf32>){{$}}
// CHECK: dl.unpack ins(%{{.*}} : memref<?x?x3x3x4x8xf32>) outs(%{{.*}} : memref<16x?x3x3xf32>){{$}}
func.func @pack_filter_dynamic(%p: memref<?x8x?x3xf32>,
                               %b: memref<2x?x3x?x4x8xf32>,
                               %b2: memref<?x?x3x3x4x8xf32>,
                               %p2: memref<16x?x3x3xf32>) {
  dl.pack ins(%p : memref<?x8x?x3xf32>) outs(%b : memref<2x?x3x?x4x8xf32>)
  dl.unpack ins(%b2 : memref<?x?x3x3x4x8xf32>) outs(%p2 : memref<16x?x3x3xf32>)
  return
}

//===----------------------------------------------------------------------===//
// dl.run_shape
//===----------------------------------------------------------------------===//

// Gives sizes to the dynamic dimensions; static ones must agree.
// CHECK-LABEL: func.func @run_shape_dynamic
// CHECK-SAME: (%{{.*}}: memref<?x?xf32> {dl.run_shape = array<i64: 64, 32>}, %{{.*}}: memref<32x?xf32> {dl.run_shape = array<i64: 32, 16>}, %{{.*}}: memref<?x?xf32>)
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<?x?xf32>, memref<32x?xf32>) outs(%{{.*}} : memref<?x?xf32>){{$}}
func.func @run_shape_dynamic(%a: memref<?x?xf32> {dl.run_shape = array<i64: 64, 32>},
                             %b: memref<32x?xf32> {dl.run_shape = array<i64: 32, 16>},
                             %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<32x?xf32>)
            outs(%c : memref<?x?xf32>)
  return
}
