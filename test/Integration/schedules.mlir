// Scheduled loop nests against the reference lowering: tiled and reordered
// outer loops of a blocked convolution and of a packed GEMM (K blocks tiled
// outside the block loops: C is accumulated over several brgemm calls),
// sequential and with the schedule's parallel loop on 2 threads; then
// --autotune-top-k times the best-ranked variants and keeps one; with
// --solve-tiles the Ipopt tile solver's candidates join the ranking, and
// with --rank=false as well its best is the schedule.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=1 --rank=false | FileCheck %s
// RUN: dl-compile %s --run --threads=2 --solve-tiles | FileCheck %s
// RUN: dl-compile %s --run --threads=1 --solve-tiles --rank=false | FileCheck %s
// RUN: dl-compile %s --run --threads=1 --autotune-top-k=3 --bench-min-time=0 --bench-min-reps=1 --function=conv_ranked --function=gemm_ranked 2>&1 | FileCheck %s --check-prefix=TUNE
// The autotuned variants are those of the pipeline's layouts: the 1x1
// conv's ranked schedule is set on its merged-rows views (dl-merge-conv-rows
// ran before the ranking, as in the pipeline).
// RUN: dl-compile %s --threads=1 --autotune-top-k=1 --bench-min-time=0 --bench-min-reps=1 --function=conv_ranked --emit=mlir --mlir-print-ir-before=convert-dl-to-affine -o /dev/null 2>&1 | FileCheck %s --check-prefix=TUNE-LAYOUT

// CHECK: conv_tiled: max_abs_err={{.*}} ok
func.func @conv_tiled(%in: memref<1x2x9x9x16xf32>, %f: memref<6x2x3x3x16x16xf32>, %out: memref<1x6x7x7x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x9x9x16xf32>, memref<6x2x3x3x16x16xf32>) outs(%out : memref<1x6x7x7x16xf32>)
      {schedule = #dl.schedule<[kb:3, oh, n, kb], parallel = 1>}
  return
}

// CHECK: conv_rows_tiled: max_abs_err={{.*}} ok
func.func @conv_rows_tiled(%in: memref<2x2x10x10x16xf32>, %f: memref<4x2x3x3x16x16xf32>, %out: memref<2x4x8x8x16xf32>) {
  dl.conv2d ins(%in, %f : memref<2x2x10x10x16xf32>, memref<4x2x3x3x16x16xf32>) outs(%out : memref<2x4x8x8x16xf32>)
      {schedule = #dl.schedule<[oh:4, kb, n, oh], parallel = 1>}
  return
}

// CHECK: gemm_k_outer: max_abs_err={{.*}} ok
func.func @gemm_k_outer(%a: memref<96x256xf32>, %b: memref<256x64xf32>, %c: memref<96x64xf32>) {
  dl.matmul ins(%a, %b : memref<96x256xf32>, memref<256x64xf32>) outs(%c : memref<96x64xf32>)
      {beta = 1.0 : f32, pack_blocks = array<i64: 32, 32, 32>, pack_a, pack_b,
       schedule = #dl.schedule<[k:4, j, i, k], parallel = 1>}
  return
}

// The parallel loop below a reduction tile loop and the zeroing of the
// result tile it accumulates into (the nest is not perfect down to it).
// CHECK: gemm_parallel_below_k: max_abs_err={{.*}} ok
func.func @gemm_parallel_below_k(%a: memref<64x256xf32>, %b: memref<256x96xf32>, %c: memref<64x96xf32>) {
  dl.matmul ins(%a, %b : memref<64x256xf32>, memref<256x96xf32>) outs(%c : memref<64x96xf32>)
      {pack_blocks = array<i64: 32, 32, 32>, pack_a, pack_b,
       schedule = #dl.schedule<[i, k:4, j, k], parallel = 2>}
  return
}
// CHECK: conv_parallel_below_cb: max_abs_err={{.*}} ok
func.func @conv_parallel_below_cb(%in: memref<1x4x8x8x16xf32>, %f: memref<6x4x3x3x16x16xf32>, %out: memref<1x6x8x8x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x8x8x16xf32>, memref<6x4x3x3x16x16xf32>) outs(%out : memref<1x6x8x8x16xf32>)
      {padding = array<i64: 1, 1, 1, 1>, schedule = #dl.schedule<[n, cb:2, kb, oh, cb], parallel = 2>}
  return
}

// Tiles at several levels and input-channel blocks split over two brgemm
// calls (the output accumulates across them), 3x3 taps with padding.
// CHECK: conv_multi_level: max_abs_err={{.*}} ok
func.func @conv_multi_level(%in: memref<1x4x8x8x16xf32>, %f: memref<8x4x3x3x16x16xf32>, %out: memref<1x8x8x8x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x8x8x16xf32>, memref<8x4x3x3x16x16xf32>) outs(%out : memref<1x8x8x8x16xf32>)
      {padding = array<i64: 1, 1, 1, 1>, schedule = #dl.schedule<[n, kb:4, cb:2, oh:4, kb:2, oh, kb, cb], parallel = 1>}
  return
}

// Ranked by the pipeline (or by --autotune-top-k).
// CHECK: conv_ranked: max_abs_err={{.*}} ok
// TUNE: autotune: variant 1/3:
// TUNE: autotune: variant 3/3:
// TUNE: autotune: kept variant
// TUNE: conv_ranked: max_abs_err={{.*}} ok
// TUNE-LAYOUT-LABEL: func.func @conv_ranked
// TUNE-LAYOUT: %[[IN:.*]] = memref.expand_shape {{.*}} into memref<1x4x8x32x16xf32>
// TUNE-LAYOUT: dl.conv2d ins(%[[IN]], {{.*}}schedule = #dl.schedule<
func.func @conv_ranked(%in: memref<1x4x16x16x16xf32>, %f: memref<8x4x1x1x16x16xf32>, %out: memref<1x8x16x16x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x16x16x16xf32>, memref<8x4x1x1x16x16xf32>) outs(%out : memref<1x8x16x16x16xf32>)
  return
}

// CHECK: gemm_ranked: max_abs_err={{.*}} ok
// TUNE: gemm_ranked: max_abs_err={{.*}} ok
func.func @gemm_ranked(%a: memref<256x128xf32>, %b: memref<128x256xf32>, %c: memref<256x256xf32>) {
  dl.matmul ins(%a, %b : memref<256x128xf32>, memref<128x256xf32>) outs(%c : memref<256x256xf32>)
  return
}
