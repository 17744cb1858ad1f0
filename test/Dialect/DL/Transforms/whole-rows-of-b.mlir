// A GEMM of a few rows whose B, beyond the L2, is read once and whose N has
// no good block (1223, a prime) keeps N whole (dl-split-gemm-remainders:
// a part of the last 7 columns would read one line of each of B's rows
// again, at memory latency) and reads B in blocks of whole rows
// (dl-pack-gemm-operands), one block a call; but a B from memory (more than
// 16 L2s) read by 8 rows or more takes as many blocks a call as
// max-batch-bytes allows for the calls' tiles of 128 columns (11 rows:
// 8 blocks of 32; the NEAR B keeps one a call). A B of more than 16 L2s (here
// 20-24 MB against 512 KiB) read by fewer than 8 rows takes the largest
// divisor of K up to 16 rows, at least 4; where K has none (3502 = 2 x 17 x
// 103, 3499 a prime), its whole blocks of 16 rows are streamed and the rest
// is a part of its own, split along N into 64-column blocks and a remainder
// (never blocks of one column of the prime N). A nearer B (prefix NEAR, a 4 MiB
// L2), or one of 8 rows or more, takes the largest divisor of K up to 512 /
// M rows within 32 to 128: 11 rows 32-row blocks, K = 3502 with 2 rows
// blocks of 103, 3499 whole
// blocks of 32 rows. With 64 rows (C beyond an eighth of the L2), or a B
// within the L2, N splits into whole blocks and a remainder as before.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=512K,L3=32M" --dl-split-gemm-remainders --dl-pack-gemm-operands | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=4M,L3=32M" --dl-split-gemm-remainders --dl-pack-gemm-operands | FileCheck %s --check-prefix=NEAR

// CHECK-LABEL: func.func @few_rows
// CHECK-COUNT-1: dl.matmul
// CHECK-SAME: outs(%{{.*}} : memref<11x1223xf32>) {batch_blocks = 8 : i64, pack_blocks = array<i64: 11, 1223, 32>}
// CHECK-NOT: dl.matmul
// CHECK: return
// NEAR-LABEL: func.func @few_rows
// NEAR-COUNT-1: dl.matmul
// NEAR-SAME: outs(%{{.*}} : memref<11x1223xf32>) {batch_blocks = 1 : i64, pack_blocks = array<i64: 11, 1223, 32>}
// NEAR-NOT: dl.matmul
// NEAR: return
func.func @few_rows(%a: memref<11x4096xf32>, %b: memref<4096x1223xf32>, %c: memref<11x1223xf32>) {
  dl.matmul ins(%a, %b : memref<11x4096xf32>, memref<4096x1223xf32>) outs(%c : memref<11x1223xf32>)
  return
}

// CHECK-LABEL: func.func @few_divisors_of_k
// CHECK: dl.matmul {{.*}} : memref<2x3488xf32, strided<[3502, 1]>>, memref<3488x1693xf32, strided<[1693, 1]>>) outs(%{{.*}} : memref<2x1693xf32>) {batch_blocks = 1 : i64, pack_blocks = array<i64: 2, 1693, 16>}
// CHECK: dl.matmul {{.*}} : memref<2x14xf32, {{.*}}>, memref<14x1664xf32, {{.*}}>) outs({{.*}}) {beta = 1.000000e+00 : f32, pack_blocks = array<i64: 2, 64, 14>}
// CHECK: dl.matmul {{.*}} : memref<2x14xf32, {{.*}}>, memref<14x29xf32, {{.*}}>) outs({{.*}}) {beta = 1.000000e+00 : f32, pack_blocks = array<i64: 2, 29, 14>}
// CHECK: dl.matmul {{.*}} : memref<2x3488xf32, strided<[3499, 1]>>, memref<3488x1693xf32, strided<[1693, 1]>>) outs(%{{.*}} : memref<2x1693xf32>) {batch_blocks = 1 : i64, pack_blocks = array<i64: 2, 1693, 16>}
// CHECK: dl.matmul {{.*}} : memref<2x11xf32, {{.*}}>, memref<11x1664xf32, {{.*}}>) outs({{.*}}) {beta = 1.000000e+00 : f32, pack_blocks = array<i64: 2, 64, 11>}
// CHECK: dl.matmul {{.*}} : memref<2x11xf32, {{.*}}>, memref<11x29xf32, {{.*}}>) outs({{.*}}) {beta = 1.000000e+00 : f32, pack_blocks = array<i64: 2, 29, 11>}
// CHECK-NOT: dl.matmul
// NEAR-LABEL: func.func @few_divisors_of_k
// NEAR: dl.matmul {{.*}} : memref<2x3502xf32>, memref<3502x1693xf32>) outs(%{{.*}} : memref<2x1693xf32>) {batch_blocks = 1 : i64, pack_blocks = array<i64: 2, 1693, 103>}
// NEAR: dl.matmul {{.*}} : memref<2x3488xf32, strided<[3499, 1]>>, memref<3488x1693xf32, strided<[1693, 1]>>) outs(%{{.*}} : memref<2x1693xf32>) {batch_blocks = 1 : i64, pack_blocks = array<i64: 2, 1693, 109>}
// NEAR: dl.matmul {{.*}} : memref<2x11xf32, {{.*}}>, memref<11x1664xf32, {{.*}}>) outs({{.*}}) {beta = 1.000000e+00 : f32, pack_blocks = array<i64: 2, 64, 11>}
// NEAR: dl.matmul {{.*}} : memref<2x11xf32, {{.*}}>, memref<11x29xf32, {{.*}}>) outs({{.*}}) {beta = 1.000000e+00 : f32, pack_blocks = array<i64: 2, 29, 11>}
// NEAR-NOT: dl.matmul
// NEAR-LABEL: func.func @many_rows
func.func @few_divisors_of_k(%a: memref<2x3502xf32>, %b: memref<3502x1693xf32>, %c: memref<2x1693xf32>,
                             %a2: memref<2x3499xf32>, %b2: memref<3499x1693xf32>) {
  dl.matmul ins(%a, %b : memref<2x3502xf32>, memref<3502x1693xf32>) outs(%c : memref<2x1693xf32>)
  dl.matmul ins(%a2, %b2 : memref<2x3499xf32>, memref<3499x1693xf32>) outs(%c : memref<2x1693xf32>)
  return
}

// CHECK-LABEL: func.func @many_rows
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<64x1216xf32, strided<[1223, 1]>>)
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<64x7xf32, strided<[1223, 1], offset: 1216>>)
func.func @many_rows(%a: memref<64x4096xf32>, %b: memref<4096x1223xf32>, %c: memref<64x1223xf32>) {
  dl.matmul ins(%a, %b : memref<64x4096xf32>, memref<4096x1223xf32>) outs(%c : memref<64x1223xf32>)
  return
}

// CHECK-LABEL: func.func @b_in_l2
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<11x64xf32, strided<[67, 1]>>)
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<11x3xf32, strided<[67, 1], offset: 64>>)
func.func @b_in_l2(%a: memref<11x512xf32>, %b: memref<512x67xf32>, %c: memref<11x67xf32>) {
  dl.matmul ins(%a, %b : memref<11x512xf32>, memref<512x67xf32>) outs(%c : memref<11x67xf32>)
  return
}

// An N under 128 columns kept whole (65, no good block) is one block of all
// its columns, not of its largest divisor (13), each call over 128 rows.
// CHECK-LABEL: func.func @narrow_n
// CHECK-COUNT-1: dl.matmul
// CHECK-SAME: outs(%{{.*}} : memref<1x65xf32>) {batch_blocks = 4 : i64, pack_blocks = array<i64: 1, 65, 128>}
// CHECK-NOT: dl.matmul
// CHECK: return
func.func @narrow_n(%a: memref<1x2048xf32>, %b: memref<2048x65xf32>, %c: memref<1x65xf32>) {
  dl.matmul ins(%a, %b : memref<1x2048xf32>, memref<2048x65xf32>) outs(%c : memref<1x65xf32>)
  return
}
