// Packed operands copied in the nest into panel scratches (A per K tile and
// row block inside the parallel loop; A per K tile outside it; B per thread
// inside the parallel loop over rows that does not index it, and under rows
// tiled to one tile per thread), with alpha, beta and a transposed B, at 1
// and 2 threads, against the reference.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s

// CHECK: private_panel: max_abs_err={{.*}} ok
// CHECK: per_call: max_abs_err={{.*}} ok
// CHECK: private_b: max_abs_err={{.*}} ok
// CHECK: rows_tiled_private_b: max_abs_err={{.*}} ok
func.func @private_panel(%a: memref<256x384xf32>, %b: memref<384x128xf32>, %c: memref<256x128xf32>) {
  dl.matmul ins(%a, %b : memref<256x384xf32>, memref<384x128xf32>) outs(%c : memref<256x128xf32>)
      {alpha = 1.5 : f32, beta = 0.5 : f32, pack_blocks = array<i64: 64, 32, 64>, pack_a, pack_b,
       schedule = #dl.schedule<[k:2, i, j, k], parallel = 1>}
  return
}
func.func @per_call(%a: memref<64x384xf32>, %b: memref<128x384xf32>, %c: memref<64x128xf32>) {
  dl.matmul ins(%a, %b : memref<64x384xf32>, memref<128x384xf32>) outs(%c : memref<64x128xf32>)
      {transpose_b, pack_blocks = array<i64: 64, 32, 64>, pack_a, pack_b,
       schedule = #dl.schedule<[i, k:2, j, k], parallel = 2>}
  return
}
func.func @private_b(%a: memref<120x300xf32>, %b: memref<300x300xf32>, %c: memref<120x300xf32>) {
  dl.matmul ins(%a, %b : memref<120x300xf32>, memref<300x300xf32>) outs(%c : memref<120x300xf32>)
      {alpha = 1.5 : f32, beta = 0.5 : f32, batch_blocks = 3 : i64, pack_blocks = array<i64: 60, 60, 100>,
       pack_a, pack_b, panel_a, panel_b, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  return
}
func.func @rows_tiled_private_b(%a: memref<256x126xf32>, %b: memref<192x126xf32>, %c: memref<256x192xf32>) {
  dl.matmul ins(%a, %b : memref<256x126xf32>, memref<192x126xf32>) outs(%c : memref<256x192xf32>)
      {transpose_b, beta = 1.0 : f32, pack_blocks = array<i64: 64, 64, 126>, pack_b, panel_b,
       schedule = #dl.schedule<[i:2, j, i, k], parallel = 0>}
  return
}
