// Versions of ops with a dynamic batch size (dl-parametric-versioning),
// called from C at every size from 0 to 300 and at a few large ones:
// each size must run the versions that cover its rows exactly once. The GEMM
// accumulates (beta = 1) into a C filled with 1, so a row computed twice or
// not at all is wrong; the convolution's output starts as NaN, so an image
// not computed is wrong. Both are compared with a reference loop in C; the
// GEMM's versions from 2 rows on share one packed copy of B. A GEMM with
// every size dynamic runs its occupancy versions (at 2 threads: parallel
// over M, over N, or sequential) on both sides of each guard; so do two
// convolutions with dynamic images, height and width (blocked, their output
// rows in blocks of 128 columns, the last one partial).
// Chunks of at most 32 rows (6 versions), so that many sizes run the loop
// over the chunks too.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: dl-compile %s --emit=shared --threads=1 --max-versions=6 --function=versioned_gemm --function=versioned_conv --function=generic_gemm --function=generic_conv --function=generic_conv_strided -o %t.dir/libversions1.so
// RUN: cc %S/Inputs/versioning-main.c %t.dir/libversions1.so -o %t1.exe -Wl,-rpath,%t.dir -lm
// RUN: %t1.exe | FileCheck %s
// RUN: dl-compile %s --emit=shared --threads=2 --max-versions=6 --function=versioned_gemm --function=versioned_conv --function=generic_gemm --function=generic_conv --function=generic_conv_strided -o %t.dir/libversions2.so
// RUN: cc %S/Inputs/versioning-main.c %t.dir/libversions2.so -o %t2.exe -Wl,-rpath,%t.dir -lm
// RUN: %t2.exe | FileCheck %s
// The versions at sizes given by dl.run_shape, against the reference
// lowering, and the dynamic ops left to the generic version.
// RUN: dl-compile %s --run --threads=1 --function=gemm_prime --function=conv_prime --function=gemm_dynamic_n --function=conv_dynamic_nhw --function=conv_dynamic_all --function=conv_dynamic_all_strided | FileCheck %s --check-prefix=SHAPES
// RUN: dl-compile %s --run --threads=2 --function=gemm_prime --function=conv_prime --function=gemm_dynamic_n --function=conv_dynamic_nhw --function=conv_dynamic_all --function=conv_dynamic_all_strided | FileCheck %s --check-prefix=SHAPES
// A fully static module compiles to the same code with and without the pass.
// RUN: dl-compile %S/Inputs/static-ops.mlir --emit=mlir --threads=2 -o %t.dir/static-versioned.mlir
// RUN: dl-compile %S/Inputs/static-ops.mlir --emit=mlir --threads=2 --versioning=false -o %t.dir/static-unversioned.mlir
// RUN: diff %t.dir/static-versioned.mlir %t.dir/static-unversioned.mlir

// CHECK: gemm: 305 sizes ok
// CHECK: generic gemm: 147 sizes ok
// CHECK: conv: 21 sizes ok
// CHECK: generic conv: 48 sizes ok
// SHAPES: gemm_prime: {{.*}} ok
// SHAPES: conv_prime: {{.*}} ok
// SHAPES: gemm_dynamic_n: {{.*}} ok
// SHAPES: conv_dynamic_nhw: {{.*}} ok
// SHAPES: conv_dynamic_all: {{.*}} ok
// SHAPES: conv_dynamic_all_strided: {{.*}} ok

func.func @versioned_gemm(%a: memref<?x40xf32>, %b: memref<40x96xf32>,
                          %c: memref<?x96xf32>) {
  dl.matmul ins(%a, %b : memref<?x40xf32>, memref<40x96xf32>)
            outs(%c : memref<?x96xf32>) {beta = 1.0 : f32}
  return
}

// Every size dynamic: the generic version, versioned on occupancy at 2
// threads (parallel over M, over N, or sequential).
func.func @generic_gemm(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                        %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
            outs(%c : memref<?x?xf32>) {beta = 1.0 : f32}
  return
}

func.func @versioned_conv(%x: memref<?x3x6x5xf32>, %w: memref<8x3x3x3xf32>,
                          %y: memref<?x8x3x3xf32>) {
  dl.conv2d ins(%x, %w : memref<?x3x6x5xf32>, memref<8x3x3x3xf32>)
            outs(%y : memref<?x8x3x3xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

// Channels and filter static: blocked by dl-block-conv-layouts.
func.func @generic_conv(%x: memref<?x19x?x?xf32>, %w: memref<33x19x3x3xf32>,
                        %y: memref<?x33x?x?xf32>) {
  dl.conv2d ins(%x, %w : memref<?x19x?x?xf32>, memref<33x19x3x3xf32>)
            outs(%y : memref<?x33x?x?xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}

func.func @generic_conv_strided(%x: memref<?x19x?x?xf32>,
                                %w: memref<33x19x3x3xf32>,
                                %y: memref<?x33x?x?xf32>) {
  dl.conv2d ins(%x, %w : memref<?x19x?x?xf32>, memref<33x19x3x3xf32>)
            outs(%y : memref<?x33x?x?xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
  return
}

func.func @gemm_prime(%a: memref<?x300xf32> {dl.run_shape = array<i64: 509, 300>},
                      %b: memref<300x200xf32>,
                      %c: memref<?x200xf32> {dl.run_shape = array<i64: 509, 200>}) {
  dl.matmul ins(%a, %b : memref<?x300xf32>, memref<300x200xf32>)
            outs(%c : memref<?x200xf32>)
  return
}

func.func @conv_prime(%x: memref<?x19x9x9xf32> {dl.run_shape = array<i64: 7, 19, 9, 9>},
                      %w: memref<33x19x3x3xf32>,
                      %y: memref<?x33x9x9xf32> {dl.run_shape = array<i64: 7, 33, 9, 9>}) {
  dl.conv2d ins(%x, %w : memref<?x19x9x9xf32>, memref<33x19x3x3xf32>)
            outs(%y : memref<?x33x9x9xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}

func.func @gemm_dynamic_n(%a: memref<?x?xf32> {dl.run_shape = array<i64: 17, 23>},
                          %b: memref<?x?xf32> {dl.run_shape = array<i64: 23, 29>},
                          %c: memref<?x?xf32> {dl.run_shape = array<i64: 17, 29>}) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
            outs(%c : memref<?x?xf32>)
  return
}

func.func @conv_dynamic_nhw(%x: memref<?x24x?x?xf32> {dl.run_shape = array<i64: 2, 24, 5, 131>},
                            %w: memref<40x24x3x3xf32>,
                            %y: memref<?x40x?x?xf32> {dl.run_shape = array<i64: 2, 40, 5, 131>}) {
  dl.conv2d ins(%x, %w : memref<?x24x?x?xf32>, memref<40x24x3x3xf32>)
            outs(%y : memref<?x40x?x?xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}

// Every size dynamic: channels in blocks of 64 at 512-bit vectors, the last
// one padded (19 -> 33: one partial block each; 70 -> 130: two and three
// blocks, the last partial), a 5x3 filter, strides.
func.func @conv_dynamic_all(%x: memref<?x?x?x?xf32> {dl.run_shape = array<i64: 2, 19, 6, 131>},
                            %w: memref<?x?x?x?xf32> {dl.run_shape = array<i64: 33, 19, 3, 3>},
                            %y: memref<?x?x?x?xf32> {dl.run_shape = array<i64: 2, 33, 6, 131>}) {
  dl.conv2d ins(%x, %w : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>)
            outs(%y : memref<?x?x?x?xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}

func.func @conv_dynamic_all_strided(%x: memref<?x?x?x?xf32> {dl.run_shape = array<i64: 1, 70, 11, 9>},
                                    %w: memref<?x?x?x?xf32> {dl.run_shape = array<i64: 130, 70, 5, 3>},
                                    %y: memref<?x?x?x?xf32> {dl.run_shape = array<i64: 1, 130, 5, 6>}) {
  dl.conv2d ins(%x, %w : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>)
            outs(%y : memref<?x?x?x?xf32>)
            {strides = array<i64: 2, 2>, padding = array<i64: 1, 2, 1, 2>}
  return
}
