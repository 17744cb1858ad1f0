// GEMMs whose one block of rows dl-decide-parallelism divides into blocks
// for the threads (their columns too few or too uneven to keep them busy),
// against the reference lowering at 2 and 3 threads: the parts of a GEMM
// split along N, blocks of rows that the threads share unevenly (3 threads,
// 4 blocks), a transposed A with alpha and beta. The remarks show each was
// divided.
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=3 | FileCheck %s
// RUN: dl-compile %s --threads=2 --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS
// RUN: dl-compile %s --threads=3 --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS

// REMARKS-COUNT-2: loc("parts"): dl-decide-parallelism: C's 64 rows computed in blocks of
// REMARKS: loc("transposed_scaled"): dl-decide-parallelism: C's 64 rows computed in blocks of

// CHECK: parts: max_abs_err={{.*}} ok
func.func @parts(%a: memref<64x219xf32>, %b: memref<219x190xf32>, %c: memref<64x190xf32>) {
  dl.matmul ins(%a, %b : memref<64x219xf32>, memref<219x190xf32>) outs(%c : memref<64x190xf32>) loc("parts")
  return
}

// CHECK: transposed_scaled: max_abs_err={{.*}} ok
func.func @transposed_scaled(%a: memref<219x64xf32>, %b: memref<219x62xf32>, %c: memref<64x62xf32>) {
  dl.matmul ins(%a, %b : memref<219x64xf32>, memref<219x62xf32>) outs(%c : memref<64x62xf32>)
      {alpha = 0.5 : f32, beta = 2.0 : f32, transpose_a} loc("transposed_scaled")
  return
}
