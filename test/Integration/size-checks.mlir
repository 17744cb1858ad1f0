// Dynamic sizes that are inconsistent at run time stop at the run-time checks
// of convert-dl-to-affine instead of reading or writing out of bounds: under
// dl-compile --run (the JIT reports the failed check and exits 1), and in an
// object linked into a C program (the check aborts it). Consistent dynamic
// sizes run and match the reference.
// RUN: dl-compile %s --run --threads=1 --function=consistent | FileCheck %s --check-prefix=OK
// RUN: dl-compile %s --run --threads=2 --function=consistent | FileCheck %s --check-prefix=OK
// RUN: not dl-compile %s --run --threads=1 --function=matmul_k 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: not dl-compile %s --run --threads=2 --function=conv_output 2>&1 | FileCheck %s --check-prefix=CONV
// RUN: dl-compile %s --run --threads=2 --function=consistent_pointwise --function=consistent_pointwise_in_place | FileCheck %s --check-prefix=OK-POINTWISE
// RUN: not dl-compile %s --run --threads=1 --function=conv_pointwise_output 2>&1 | FileCheck %s --check-prefix=POINTWISE
// RUN: not dl-compile %s --run --threads=1 --function=conv_filter 2>&1 | FileCheck %s --check-prefix=FILTER
// RUN: not dl-compile %s --run --threads=1 --function=add_shape 2>&1 | FileCheck %s --check-prefix=ADD
// RUN: not dl-compile %s --run --threads=1 --function=pack_blocks 2>&1 | FileCheck %s --check-prefix=PACK
// RUN: not dl-compile %s --run --threads=1 --function=bias_channels 2>&1 | FileCheck %s --check-prefix=BIAS
// RUN: dl-compile %s --emit=obj --threads=1 --function=dynamic_matmul -o %t.o
// RUN: cc %S/Inputs/dynamic-matmul-main.c %t.o -o %t.exe %dl_libs/libDLRuntime.so -Wl,-rpath,%dl_libs -lm
// RUN: not --crash %t.exe | FileCheck %s --check-prefix=FROMC

// OK: consistent: max_abs_err={{.*}} ok
func.func @consistent(%x: memref<?x?x?x?xf32> {dl.run_shape = array<i64: 2, 3, 9, 7>},
                      %w: memref<?x?x?x?xf32> {dl.run_shape = array<i64: 5, 3, 3, 2>},
                      %y: memref<?x?x?x?xf32> {dl.run_shape = array<i64: 2, 5, 5, 4>},
                      %a: memref<?x?xf32> {dl.run_shape = array<i64: 13, 7>},
                      %b: memref<?x?xf32> {dl.run_shape = array<i64: 7, 5>},
                      %c: memref<?x?xf32> {dl.run_shape = array<i64: 13, 5>}) {
  dl.conv2d ins(%x, %w : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%y : memref<?x?x?x?xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// MATMUL: size-checks.mlir:[[@LINE+5]]:3: 'dl.matmul' op run-time size check failed: K of op(A) does not match K of op(B)
// MATMUL: error: stopped at a failed run-time check
func.func @matmul_k(%a: memref<?x?xf32> {dl.run_shape = array<i64: 8, 16>},
                    %b: memref<?x?xf32> {dl.run_shape = array<i64: 12, 4>},
                    %c: memref<?x?xf32> {dl.run_shape = array<i64: 8, 4>}) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// The output is one row too tall for a 3x3 filter over 8 rows.
// CONV: size-checks.mlir:[[@LINE+4]]:3: 'dl.conv2d' op run-time size check failed: output height does not match the height implied by input, filter, stride, padding and dilation
func.func @conv_output(%x: memref<1x3x?x8xf32> {dl.run_shape = array<i64: 1, 3, 8, 8>},
                       %w: memref<4x3x3x3xf32>,
                       %y: memref<1x4x?x6xf32> {dl.run_shape = array<i64: 1, 4, 7, 6>}) {
  dl.conv2d ins(%x, %w : memref<1x3x?x8xf32>, memref<4x3x3x3xf32>) outs(%y : memref<1x4x?x6xf32>)
  return
}

// A blocked strided 1x1 convolution with 8-float pixels (half a cache line)
// and 4 output-channel blocks reads a dense copy of its input's pixels
// (dl-reduce-conv-strides) sized from the input: in bounds, then the output
// is checked against it. With 3 blocks it reads them in place.
// OK-POINTWISE: consistent_pointwise: max_abs_err={{.*}} ok
// OK-POINTWISE: consistent_pointwise_in_place: max_abs_err={{.*}} ok
func.func @consistent_pointwise(%x: memref<?x2x?x?x8xf32> {dl.run_shape = array<i64: 2, 2, 9, 7, 8>},
                                %w: memref<4x2x1x1x8x8xf32>,
                                %y: memref<?x4x?x?x8xf32> {dl.run_shape = array<i64: 2, 4, 5, 4, 8>}) {
  dl.conv2d ins(%x, %w : memref<?x2x?x?x8xf32>, memref<4x2x1x1x8x8xf32>) outs(%y : memref<?x4x?x?x8xf32>)
      {strides = array<i64: 2, 2>}
  return
}
func.func @consistent_pointwise_in_place(%x: memref<?x2x?x?x8xf32> {dl.run_shape = array<i64: 2, 2, 9, 7, 8>},
                                         %w: memref<3x2x1x1x8x8xf32>,
                                         %y: memref<?x3x?x?x8xf32> {dl.run_shape = array<i64: 2, 3, 5, 4, 8>}) {
  dl.conv2d ins(%x, %w : memref<?x2x?x?x8xf32>, memref<3x2x1x1x8x8xf32>) outs(%y : memref<?x3x?x?x8xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// 8 rows at stride 2 give 4 output rows, not 5.
// POINTWISE: size-checks.mlir:[[@LINE+4]]:3: 'dl.conv2d' op run-time size check failed: output height does not match the height implied by input, filter, stride, padding and dilation
func.func @conv_pointwise_output(%x: memref<1x2x?x8x8xf32> {dl.run_shape = array<i64: 1, 2, 8, 8, 8>},
                                 %w: memref<3x2x1x1x8x8xf32>,
                                 %y: memref<1x3x?x4x8xf32> {dl.run_shape = array<i64: 1, 3, 5, 4, 8>}) {
  dl.conv2d ins(%x, %w : memref<1x2x?x8x8xf32>, memref<3x2x1x1x8x8xf32>) outs(%y : memref<1x3x?x4x8xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// FILTER: 'dl.conv2d' op run-time size check failed: the padded input width is less than the dilated filter width
func.func @conv_filter(%x: memref<1x3x8x?xf32> {dl.run_shape = array<i64: 1, 3, 8, 2>},
                       %w: memref<4x3x3x3xf32>,
                       %y: memref<1x4x6x?xf32> {dl.run_shape = array<i64: 1, 4, 6, 1>}) {
  dl.conv2d ins(%x, %w : memref<1x3x8x?xf32>, memref<4x3x3x3xf32>) outs(%y : memref<1x4x6x?xf32>)
  return
}

// ADD: 'dl.add' op run-time size check failed: lhs size 1 does not match rhs size 1
func.func @add_shape(%l: memref<4x?xf32> {dl.run_shape = array<i64: 4, 16>},
                     %r: memref<4x?xf32> {dl.run_shape = array<i64: 4, 8>},
                     %o: memref<4x16xf32>) {
  dl.add ins(%l, %r : memref<4x?xf32>, memref<4x?xf32>) outs(%o : memref<4x16xf32>)
  return
}

// PACK: 'dl.pack' op run-time size check failed: blocked input channels (blocks x block) is less than plain input channels
func.func @pack_blocks(%p: memref<1x?x4x4xf32> {dl.run_shape = array<i64: 1, 12, 4, 4>},
                       %b: memref<1x?x4x4x4xf32> {dl.run_shape = array<i64: 1, 2, 4, 4, 4>}) {
  dl.pack ins(%p : memref<1x?x4x4xf32>) outs(%b : memref<1x?x4x4x4xf32>)
  return
}

// BIAS: 'dl.bias_add' op run-time size check failed: bias size does not match the number of channels
func.func @bias_channels(%x: memref<2x?x3x3xf32> {dl.run_shape = array<i64: 2, 8, 3, 3>},
                         %bias: memref<?xf32> {dl.run_shape = array<i64: 6>},
                         %y: memref<2x?x3x3xf32> {dl.run_shape = array<i64: 2, 8, 3, 3>}) {
  dl.bias_add ins(%x, %bias : memref<2x?x3x3xf32>, memref<?xf32>) outs(%y : memref<2x?x3x3xf32>)
  return
}

// FROMC: consistent: ok
// FROMC-NEXT: size-checks.mlir:[[@LINE+3]]:3: 'dl.matmul' op run-time size check failed: K of op(A) does not match K of op(B)
// FROMC-NOT: returned
func.func @dynamic_matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
