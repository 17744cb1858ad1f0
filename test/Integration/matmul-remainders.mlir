// GEMMs of every awkward static shape through the optimized pipeline, against
// the reference lowering: prime sizes (split into whole blocks and
// remainders by dl-split-gemm-remainders), with transposes, alpha and beta,
// block multiples + 1, a blocked B with a prime M, skinny shapes and sizes
// of 1, B beyond the L2 read in whole rows, one row of C (a whole GEMM and
// a split's remainder) whose B rows of a partial vector are read in whole
// vectors (overlapping rows); sequential and with 2 and 3
// threads (chunks of the parallel loops that do not divide their iterations
// evenly). No band stays loops.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=3 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 --solve-tiles | FileCheck %s
// RUN: dl-compile %s --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS --allow-empty

// REMARKS-NOT: kept as loops

// CHECK: primes: max_abs_err={{.*}} ok
func.func @primes(%a: memref<307x313xf32>, %b: memref<313x311xf32>, %c: memref<307x311xf32>) {
  dl.matmul ins(%a, %b : memref<307x313xf32>, memref<313x311xf32>) outs(%c : memref<307x311xf32>)
  return
}

// CHECK: primes_transposed_scaled: max_abs_err={{.*}} ok
func.func @primes_transposed_scaled(%a: memref<131x71xf32>, %b: memref<67x131xf32>, %c: memref<71x67xf32>) {
  dl.matmul ins(%a, %b : memref<131x71xf32>, memref<67x131xf32>) outs(%c : memref<71x67xf32>)
      {alpha = 0.5 : f32, beta = 2.0 : f32, transpose_a, transpose_b}
  return
}

// CHECK: plus_one: max_abs_err={{.*}} ok
func.func @plus_one(%a: memref<65x129xf32>, %b: memref<129x257xf32>, %c: memref<65x257xf32>) {
  dl.matmul ins(%a, %b : memref<65x129xf32>, memref<129x257xf32>) outs(%c : memref<65x257xf32>) {beta = 1.0 : f32}
  return
}

// CHECK: blocked_b_prime_m: max_abs_err={{.*}} ok
func.func @blocked_b_prime_m(%a: memref<97x128xf32>, %b: memref<2x1x128x64xf32>, %c: memref<97x128xf32>) {
  dl.matmul ins(%a, %b : memref<97x128xf32>, memref<2x1x128x64xf32>) outs(%c : memref<97x128xf32>)
  return
}

// CHECK: gemv: max_abs_err={{.*}} ok
func.func @gemv(%a: memref<257x263xf32>, %b: memref<263x1xf32>, %c: memref<257x1xf32>) {
  dl.matmul ins(%a, %b : memref<257x263xf32>, memref<263x1xf32>) outs(%c : memref<257x1xf32>)
  return
}

// CHECK: row_times_matrix: max_abs_err={{.*}} ok
func.func @row_times_matrix(%a: memref<1x263xf32>, %b: memref<263x251xf32>, %c: memref<1x251xf32>) {
  dl.matmul ins(%a, %b : memref<1x263xf32>, memref<263x251xf32>) outs(%c : memref<1x251xf32>)
  return
}

// CHECK: outer_product: max_abs_err={{.*}} ok
func.func @outer_product(%a: memref<131x1xf32>, %b: memref<1x137xf32>, %c: memref<131x137xf32>) {
  dl.matmul ins(%a, %b : memref<131x1xf32>, memref<1x137xf32>) outs(%c : memref<131x137xf32>)
  return
}

// CHECK: skinny: max_abs_err={{.*}} ok
func.func @skinny(%a: memref<1031x7xf32>, %b: memref<7x13xf32>, %c: memref<1031x13xf32>) {
  dl.matmul ins(%a, %b : memref<1031x7xf32>, memref<7x13xf32>) outs(%c : memref<1031x13xf32>)
  return
}

// CHECK: scalar: max_abs_err={{.*}} ok
func.func @scalar(%a: memref<1x1xf32>, %b: memref<1x1xf32>, %c: memref<1x1xf32>) {
  dl.matmul ins(%a, %b : memref<1x1xf32>, memref<1x1xf32>) outs(%c : memref<1x1xf32>)
  return
}

// GEMV-like GEMMs stream A (stream_a): N = 8 with a 1.1 MiB A, N = 6 with
// rows 1 KiB apart (the transposed B's rows padded), and N = 3 with a K
// remainder, alpha and beta, a transposed B, a blocked B, and rows past the
// last group.
// CHECK: stream_n8: max_abs_err={{.*}} ok
func.func @stream_n8(%a: memref<371x800xf32>, %b: memref<800x8xf32>, %c: memref<371x8xf32>) {
  dl.matmul ins(%a, %b : memref<371x800xf32>, memref<800x8xf32>) outs(%c : memref<371x8xf32>)
  return
}

// CHECK: stream_n6_conflicting: max_abs_err={{.*}} ok
func.func @stream_n6_conflicting(%a: memref<300x1024xf32>, %b: memref<1024x6xf32>, %c: memref<300x6xf32>) {
  dl.matmul ins(%a, %b : memref<300x1024xf32>, memref<1024x6xf32>) outs(%c : memref<300x6xf32>)
  return
}

// Narrow GEMMs (N 9 to 16) read A's rows whole, one block over all of K:
// N = 16 with an M remainder (371 = 320 + 51) and a prime K, N = 13 with
// rows 1 KiB apart (8-row blocks), alpha (A packed), a transposed B (B
// packed).
// CHECK: whole_rows_n16: max_abs_err={{.*}} ok
func.func @whole_rows_n16(%a: memref<371x811xf32>, %b: memref<811x16xf32>, %c: memref<371x16xf32>) {
  dl.matmul ins(%a, %b : memref<371x811xf32>, memref<811x16xf32>) outs(%c : memref<371x16xf32>)
  return
}

// CHECK: whole_rows_conflicting: max_abs_err={{.*}} ok
func.func @whole_rows_conflicting(%a: memref<72x256xf32>, %b: memref<256x13xf32>, %c: memref<72x13xf32>) {
  dl.matmul ins(%a, %b : memref<72x256xf32>, memref<256x13xf32>) outs(%c : memref<72x13xf32>)
  return
}

// CHECK: whole_rows_scaled: max_abs_err={{.*}} ok
func.func @whole_rows_scaled(%a: memref<96x101xf32>, %b: memref<101x11xf32>, %c: memref<96x11xf32>) {
  dl.matmul ins(%a, %b : memref<96x101xf32>, memref<101x11xf32>) outs(%c : memref<96x11xf32>)
      {alpha = 0.5 : f32, beta = -1.5 : f32}
  return
}

// CHECK: whole_rows_transposed_b: max_abs_err={{.*}} ok
func.func @whole_rows_transposed_b(%a: memref<64x70xf32>, %b: memref<12x70xf32>, %c: memref<64x12xf32>) {
  dl.matmul ins(%a, %b : memref<64x70xf32>, memref<12x70xf32>) outs(%c : memref<64x12xf32>) {transpose_b}
  return
}

// CHECK: stream_n3_scaled: max_abs_err={{.*}} ok
func.func @stream_n3_scaled(%a: memref<131x77xf32>, %b: memref<77x3xf32>, %c: memref<131x3xf32>) {
  dl.matmul ins(%a, %b : memref<131x77xf32>, memref<77x3xf32>) outs(%c : memref<131x3xf32>)
      {alpha = 0.5 : f32, beta = -1.5 : f32}
  return
}

// CHECK: stream_transposed_b: max_abs_err={{.*}} ok
func.func @stream_transposed_b(%a: memref<66x48xf32>, %b: memref<3x48xf32>, %c: memref<66x3xf32>) {
  dl.matmul ins(%a, %b : memref<66x48xf32>, memref<3x48xf32>) outs(%c : memref<66x3xf32>) {transpose_b}
  return
}

// CHECK: stream_blocked_b: max_abs_err={{.*}} ok
func.func @stream_blocked_b(%a: memref<29x64xf32>, %b: memref<1x2x32x4xf32>, %c: memref<29x4xf32>) {
  dl.matmul ins(%a, %b : memref<29x64xf32>, memref<1x2x32x4xf32>) outs(%c : memref<29x4xf32>)
  return
}

// A 646-column GEMM: 17 blocks of 38 columns would take 3 vectors each;
// whole 64-column blocks and a 6-column remainder take 41 instead of 51.
// CHECK: vector_split_n: max_abs_err={{.*}} ok
func.func @vector_split_n(%a: memref<64x96xf32>, %b: memref<96x646xf32>, %c: memref<64x646xf32>) {
  dl.matmul ins(%a, %b : memref<64x96xf32>, memref<96x646xf32>) outs(%c : memref<64x646xf32>)
  return
}

// A few rows and 6 to 8 columns with long rows: kernels reading whole rows
// of A in place (dl-pack-gemm-operands' streamsManyRows), alpha and beta
// included; two rows of 7 columns and many rows of 8 stream.
// CHECK: few_rows_narrow: max_abs_err={{.*}} ok
func.func @few_rows_narrow(%a: memref<3x1722xf32>, %b: memref<1722x7xf32>, %c: memref<3x7xf32>,
                           %a2: memref<16x2395xf32>, %b2: memref<2395x6xf32>, %c2: memref<16x6xf32>,
                           %a3: memref<2x600xf32>, %b3: memref<600x7xf32>, %c3: memref<2x7xf32>,
                           %a4: memref<5x300xf32>, %b4: memref<300x8xf32>, %c4: memref<5x8xf32>,
                           %a5: memref<70x300xf32>, %c5: memref<70x8xf32>) {
  dl.matmul ins(%a, %b : memref<3x1722xf32>, memref<1722x7xf32>) outs(%c : memref<3x7xf32>)
  dl.matmul ins(%a2, %b2 : memref<16x2395xf32>, memref<2395x6xf32>) outs(%c2 : memref<16x6xf32>) {alpha = 0.5 : f32, beta = 2.0 : f32}
  dl.matmul ins(%a3, %b3 : memref<2x600xf32>, memref<600x7xf32>) outs(%c3 : memref<2x7xf32>)
  dl.matmul ins(%a4, %b4 : memref<5x300xf32>, memref<300x8xf32>) outs(%c4 : memref<5x8xf32>) {beta = 1.0 : f32}
  dl.matmul ins(%a5, %b4 : memref<70x300xf32>, memref<300x8xf32>) outs(%c5 : memref<70x8xf32>)
  return
}

// A few rows and a prime N reading a B beyond the L2 once, in blocks of
// whole rows (N not split).
// CHECK: whole_rows_of_b_prime_n: max_abs_err={{.*}} ok
func.func @whole_rows_of_b_prime_n(%a: memref<5x1024xf32>, %b: memref<1024x1223xf32>, %c: memref<5x1223xf32>) {
  dl.matmul ins(%a, %b : memref<5x1024xf32>, memref<1024x1223xf32>) outs(%c : memref<5x1223xf32>)
  return
}

// One row and an N under 128 columns kept whole, B beyond the L2 read in
// one block of all 65 columns, 128 rows a call; and one with a prime K
// (2039): its whole blocks of 32 rows streamed, 128 at a time, and its last
// 23 rows a part of their own.
// CHECK: whole_rows_of_b_narrow_n: max_abs_err={{.*}} ok
func.func @whole_rows_of_b_narrow_n(%a: memref<1x2048xf32>, %b: memref<2048x65xf32>, %c: memref<1x65xf32>) {
  dl.matmul ins(%a, %b : memref<1x2048xf32>, memref<2048x65xf32>) outs(%c : memref<1x65xf32>)
  return
}

// CHECK: whole_rows_of_b_prime_k: max_abs_err={{.*}} ok
func.func @whole_rows_of_b_prime_k(%a: memref<2x2039xf32>, %b: memref<2039x131xf32>, %c: memref<2x131xf32>) {
  dl.matmul ins(%a, %b : memref<2x2039xf32>, memref<2039x131xf32>) outs(%c : memref<2x131xf32>) {beta = 1.0 : f32}
  return
}

// Streamed with a K rest of 13 (one masked vector step), and 3 columns
// with K = 29 in kernels.
// CHECK: stream_k_rest: max_abs_err={{.*}} ok
func.func @stream_k_rest(%a: memref<37x29xf32>, %b: memref<29x2xf32>, %c: memref<37x2xf32>) {
  dl.matmul ins(%a, %b : memref<37x29xf32>, memref<29x2xf32>) outs(%c : memref<37x2xf32>)
  return
}
// CHECK: kernels_short_k: max_abs_err={{.*}} ok
func.func @kernels_short_k(%a: memref<37x29xf32>, %b: memref<29x4xf32>, %c: memref<37x4xf32>) {
  dl.matmul ins(%a, %b : memref<37x29xf32>, memref<29x4xf32>) outs(%c : memref<37x4xf32>)
  return
}

// CHECK: one_row_partial_vector: max_abs_err={{.*}} ok
func.func @one_row_partial_vector(%a: memref<1x983xf32>, %b: memref<983x11xf32>, %c: memref<1x11xf32>) {
  dl.matmul ins(%a, %b : memref<1x983xf32>, memref<983x11xf32>) outs(%c : memref<1x11xf32>)
  return
}

// CHECK: one_row_remainder_scaled: max_abs_err={{.*}} ok
func.func @one_row_remainder_scaled(%a: memref<97x281xf32>, %b: memref<281x15xf32>, %c: memref<97x15xf32>) {
  dl.matmul ins(%a, %b : memref<97x281xf32>, memref<281x15xf32>) outs(%c : memref<97x15xf32>) {alpha = 0.5 : f32, beta = 2.0 : f32}
  return
}
