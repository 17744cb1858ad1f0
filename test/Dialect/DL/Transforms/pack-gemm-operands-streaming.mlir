// Which GEMV-like GEMMs dl-pack-gemm-operands streams (stream_a) on AVX-512:
// up to 4 of 16 columns with 8 elements of K per column, 5 columns with K
// long enough; 6 to 8 columns only with
// enough rows of A (2 N while B's transposed copy fits half the L1, 4 N
// beyond), or 6-7 columns of one or two rows (LIBXSMM's slow kernels); the
// others run kernels reading whole rows of A. On AVX2 the rule is the old
// one: up to 7 columns stream with long rows, whatever M.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-pack-gemm-operands --split-input-file | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-pack-gemm-operands --split-input-file | FileCheck %s --check-prefix=AVX2

// 3 rows, 7 columns, B's copy (48 KB) beyond half the L1: kernels (needs 28 rows).
// CHECK-LABEL: func.func @few_rows
// CHECK: dl.matmul {{.*}} {pack_blocks = array<i64: 3, 7, 1722>}
// AVX2-LABEL: func.func @few_rows
// AVX2: {stream_a}
func.func @few_rows(%a: memref<3x1722xf32>, %b: memref<1722x7xf32>, %c: memref<3x7xf32>) {
  dl.matmul ins(%a, %b : memref<3x1722xf32>, memref<1722x7xf32>) outs(%c : memref<3x7xf32>)
  return
}

// -----

// 64 rows, 8 columns: A is 8 times B's rows, streamed.
// CHECK-LABEL: func.func @many_rows
// CHECK: {stream_a}
func.func @many_rows(%a: memref<64x1000xf32>, %b: memref<1000x8xf32>, %c: memref<64x8xf32>) {
  dl.matmul ins(%a, %b : memref<64x1000xf32>, memref<1000x8xf32>) outs(%c : memref<64x8xf32>)
  return
}

// -----

// 16 rows, 6 columns, K = 500: B's copy (12 KB) in half the L1, 2 N = 12
// rows suffice: streamed; with K = 2395 (57 KB) it needs 24: kernels.
// CHECK-LABEL: func.func @copy_in_l1
// CHECK: {stream_a}
// CHECK-LABEL: func.func @copy_beyond_l1
// CHECK-NOT: stream_a
// CHECK: pack_blocks = array<i64: 16, 6, 2395>
func.func @copy_in_l1(%a: memref<16x500xf32>, %b: memref<500x6xf32>, %c: memref<16x6xf32>) {
  dl.matmul ins(%a, %b : memref<16x500xf32>, memref<500x6xf32>) outs(%c : memref<16x6xf32>)
  return
}
func.func @copy_beyond_l1(%a: memref<16x2395xf32>, %b: memref<2395x6xf32>, %c: memref<16x6xf32>) {
  dl.matmul ins(%a, %b : memref<16x2395xf32>, memref<2395x6xf32>) outs(%c : memref<16x6xf32>)
  return
}

// -----

// Two rows: 7 columns stream (LIBXSMM's 7-column kernels of two rows are
// slow), 8 columns run kernels; 5 columns always stream.
// CHECK-LABEL: func.func @two_rows
// CHECK: outs(%{{.*}} : memref<2x7xf32>) {stream_a}
// CHECK: outs(%{{.*}} : memref<2x8xf32>) {pack_blocks = array<i64: 2, 8, 2395>}
// CHECK: outs(%{{.*}} : memref<8x5xf32>) {stream_a}
func.func @two_rows(%a: memref<2x2395xf32>, %b7: memref<2395x7xf32>, %c7: memref<2x7xf32>,
                    %b8: memref<2395x8xf32>, %c8: memref<2x8xf32>,
                    %a5: memref<8x2395xf32>, %b5: memref<2395x5xf32>, %c5: memref<8x5xf32>) {
  dl.matmul ins(%a, %b7 : memref<2x2395xf32>, memref<2395x7xf32>) outs(%c7 : memref<2x7xf32>)
  dl.matmul ins(%a, %b8 : memref<2x2395xf32>, memref<2395x8xf32>) outs(%c8 : memref<2x8xf32>)
  dl.matmul ins(%a5, %b5 : memref<8x2395xf32>, memref<2395x5xf32>) outs(%c5 : memref<8x5xf32>)
  return
}

// -----

// Up to 4 columns: streamed from 8 elements of K per column on (each dot
// product's reduction costs as much as a few steps of the kernels): 4
// columns with K = 29 and 3 with K = 16 run kernels, 4 with K = 32 and 2
// with K = 16 stream.
// CHECK-LABEL: func.func @short_rows
// CHECK: dl.matmul {{.*}}memref<29x4xf32>{{.*}}pack_blocks
// CHECK: dl.matmul {{.*}}memref<32x4xf32>{{.*}}{stream_a}
// CHECK: dl.matmul {{.*}}memref<16x3xf32>{{.*}}pack_blocks
// CHECK: dl.matmul {{.*}}memref<16x2xf32>{{.*}}{stream_a}
func.func @short_rows(%a29: memref<1200x29xf32>, %b4: memref<29x4xf32>, %a32: memref<1200x32xf32>, %b32: memref<32x4xf32>,
                      %a16: memref<1200x16xf32>, %b3: memref<16x3xf32>, %b2: memref<16x2xf32>,
                      %c4: memref<1200x4xf32>, %c3: memref<1200x3xf32>, %c2: memref<1200x2xf32>) {
  dl.matmul ins(%a29, %b4 : memref<1200x29xf32>, memref<29x4xf32>) outs(%c4 : memref<1200x4xf32>)
  dl.matmul ins(%a32, %b32 : memref<1200x32xf32>, memref<32x4xf32>) outs(%c4 : memref<1200x4xf32>)
  dl.matmul ins(%a16, %b3 : memref<1200x16xf32>, memref<16x3xf32>) outs(%c3 : memref<1200x3xf32>)
  dl.matmul ins(%a16, %b2 : memref<1200x16xf32>, memref<16x2xf32>) outs(%c2 : memref<1200x2xf32>)
  return
}
