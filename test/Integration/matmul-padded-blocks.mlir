// GEMMs with pad_blocks (dl-split-gemm-remainders{pad}: blocks that do not
// divide the sizes, operands zero-padded to whole blocks) through the
// optimized pipeline, against the reference lowering: primes with
// transposes, alpha and beta, K padded alone (C not packed), and M and N
// padded by one row and column; sequential, with 2 threads and with the
// tile solver. No band stays loops.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 --solve-tiles | FileCheck %s
// RUN: dl-compile %s --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS --allow-empty

// REMARKS-NOT: kept as loops

// CHECK: primes_transposed_scaled: max_abs_err={{.*}} ok
func.func @primes_transposed_scaled(%a: memref<131x71xf32>, %b: memref<67x131xf32>, %c: memref<71x67xf32>) {
  dl.matmul ins(%a, %b : memref<131x71xf32>, memref<67x131xf32>) outs(%c : memref<71x67xf32>) {alpha = 2.0 : f32, beta = 3.0 : f32, transpose_a, transpose_b, pack_a, pack_b, pack_c, pad_blocks, pack_blocks = array<i64: 36, 34, 66>}
  return
}

// CHECK: k_padded: max_abs_err={{.*}} ok
func.func @k_padded(%a: memref<128x519xf32>, %b: memref<519x64xf32>, %c: memref<128x64xf32>) {
  dl.matmul ins(%a, %b : memref<128x519xf32>, memref<519x64xf32>) outs(%c : memref<128x64xf32>) {beta = 1.0 : f32, pack_a, pack_b, pad_blocks, pack_blocks = array<i64: 64, 64, 104>}
  return
}

// CHECK: one_past_blocks: max_abs_err={{.*}} ok
func.func @one_past_blocks(%a: memref<129x97xf32>, %b: memref<97x65xf32>, %c: memref<129x65xf32>) {
  dl.matmul ins(%a, %b : memref<129x97xf32>, memref<97x65xf32>) outs(%c : memref<129x65xf32>) {pack_a, pack_b, pack_c, pad_blocks, pack_blocks = array<i64: 43, 33, 97>}
  return
}
