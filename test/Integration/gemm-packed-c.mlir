// GEMMs computing C in packed blocks (pack_c), at 1 and 2 threads, against
// the reference: C tiled outermost by K ([k:2, i, j, k]: all of C copied in
// and out around the nest, rows parallel inside), per block of C inside the
// parallel loop ([i, j, k:2, k]), and per column panel ([j, k:3, i, k]), with
// beta 0.5, 0 and 1, alpha, and a transposed A. The last is a plain matmul
// whose blocks, packing and schedule the pipeline chooses (pack_c for its
// 4 K blocks of 2-block batches unless the ranking reduces a block of C in
// one call).
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s

// CHECK: k_outer: max_abs_err={{.*}} ok
// CHECK: per_block: max_abs_err={{.*}} ok
// CHECK: per_column_panel: max_abs_err={{.*}} ok
// CHECK: chosen: max_abs_err={{.*}} ok
func.func @k_outer(%a: memref<256x384xf32>, %b: memref<384x128xf32>, %c: memref<256x128xf32>) {
  dl.matmul ins(%a, %b : memref<256x384xf32>, memref<384x128xf32>) outs(%c : memref<256x128xf32>)
      {alpha = 1.5 : f32, beta = 0.5 : f32, pack_blocks = array<i64: 64, 32, 64>, pack_a, pack_b, pack_c,
       schedule = #dl.schedule<[k:2, i, j, k], parallel = 1>}
  return
}
func.func @per_block(%a: memref<128x256xf32>, %b: memref<256x96xf32>, %c: memref<128x96xf32>) {
  dl.matmul ins(%a, %b : memref<128x256xf32>, memref<256x96xf32>) outs(%c : memref<128x96xf32>)
      {pack_blocks = array<i64: 32, 32, 64>, pack_b, pack_c,
       schedule = #dl.schedule<[i, j, k:2, k], parallel = 0>}
  return
}
func.func @per_column_panel(%a: memref<192x64xf32>, %b: memref<192x64xf32>, %c: memref<64x64xf32>) {
  dl.matmul ins(%a, %b : memref<192x64xf32>, memref<192x64xf32>) outs(%c : memref<64x64xf32>)
      {beta = 1.0 : f32, transpose_a, pack_blocks = array<i64: 32, 32, 32>, pack_a, pack_c,
       schedule = #dl.schedule<[j, k:3, i, k], parallel = 0>}
  return
}
func.func @chosen(%a: memref<256x512xf32>, %b: memref<512x256xf32>, %c: memref<256x256xf32>) {
  dl.matmul ins(%a, %b : memref<256x512xf32>, memref<512x256xf32>) outs(%c : memref<256x256xf32>)
  return
}
