// GEMMs whose loops over M and N cannot keep the threads busy, their K
// blocks divided among the threads (split_k: dl-decide-parallelism decides,
// dl-split-k applies), against the reference lowering at 2 and 3 threads:
// equal chunks, chunks with blocks left over, a whole prime N read in rows
// of B, transposes with alpha and beta. The remarks show each was split.
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=3 | FileCheck %s
// RUN: dl-compile %s --threads=2 --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS
// RUN: dl-compile %s --threads=3 --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS

// REMARKS-COUNT-4: (split_k)

// CHECK: one_block_of_c: max_abs_err={{.*}} ok
func.func @one_block_of_c(%a: memref<49x4096xf32>, %b: memref<4096x38xf32>, %c: memref<49x38xf32>) {
  dl.matmul ins(%a, %b : memref<49x4096xf32>, memref<4096x38xf32>) outs(%c : memref<49x38xf32>)
  return
}

// CHECK: whole_prime_n: max_abs_err={{.*}} ok
func.func @whole_prime_n(%a: memref<2x3502xf32>, %b: memref<3502x1693xf32>, %c: memref<2x1693xf32>) {
  dl.matmul ins(%a, %b : memref<2x3502xf32>, memref<3502x1693xf32>) outs(%c : memref<2x1693xf32>)
  return
}

// CHECK: blocks_left_over: max_abs_err={{.*}} ok
func.func @blocks_left_over(%a: memref<12x4352xf32>, %b: memref<4352x20xf32>, %c: memref<12x20xf32>) {
  dl.matmul ins(%a, %b : memref<12x4352xf32>, memref<4352x20xf32>) outs(%c : memref<12x20xf32>)
  return
}

// CHECK: transposed_scaled: max_abs_err={{.*}} ok
func.func @transposed_scaled(%a: memref<4096x20xf32>, %b: memref<30x4096xf32>, %c: memref<20x30xf32>) {
  dl.matmul ins(%a, %b : memref<4096x20xf32>, memref<30x4096xf32>) outs(%c : memref<20x30xf32>)
      {alpha = 0.5 : f32, beta = 2.0 : f32, transpose_a, transpose_b}
  return
}
