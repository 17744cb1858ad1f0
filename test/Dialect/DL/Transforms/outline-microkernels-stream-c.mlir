// dl-outline-microkernels: a call that overwrites its block of C (beta_zero)
// stores it past the caches (stream_c) where C is at least as large as the
// last cache level and 32 L2s (here 1 MiB: L2 32 KiB, L3 256 KiB), so its
// blocks leave the caches before anything reads them, and where nothing in
// the loop nest around the band reads C (an epilogue on each block of a
// scheduled GEMM). An epilogue in a sweep of its own after the nest reads C
// from memory either way.
// RUN: dl-opt %s --pass-pipeline='builtin.module(dl-set-target{cache-sizes=L1=8K,L2=32K,L3=256K},convert-dl-to-affine,func.func(dl-tile-gemm-bands{max-block=64}),dl-outline-microkernels,cse)' | FileCheck %s

// CHECK-LABEL: func.func @large_c
// CHECK: dl.gemm_dispatch {beta_zero, {{.*}}, stream_c}
func.func @large_c(%a: memref<512x64xf32>, %b: memref<64x512xf32>, %c: memref<512x512xf32>) {
  dl.matmul ins(%a, %b : memref<512x64xf32>, memref<64x512xf32>) outs(%c : memref<512x512xf32>)
  return
}

// 512 KiB of C, beyond the last level but under 32 L2s: no.
// CHECK-LABEL: func.func @small_c
// CHECK: dl.gemm_dispatch
// CHECK-NOT: stream_c
// CHECK-SAME: }
func.func @small_c(%a: memref<256x64xf32>, %b: memref<64x512xf32>, %c: memref<256x512xf32>) {
  dl.matmul ins(%a, %b : memref<256x64xf32>, memref<64x512xf32>) outs(%c : memref<256x512xf32>)
  return
}

// CHECK-LABEL: func.func @epilogue_per_block
// CHECK: dl.gemm_dispatch
// CHECK-NOT: stream_c
// CHECK-SAME: }
// CHECK: arith.maxnumf
func.func @epilogue_per_block(%a: memref<512x64xf32>, %b: memref<64x512xf32>, %c: memref<512x512xf32>) {
  dl.matmul ins(%a, %b : memref<512x64xf32>, memref<64x512xf32>) outs(%c : memref<512x512xf32>) {epilogue = [#dl.post_op<relu>], pack_blocks = array<i64: 64, 64, 64>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// CHECK-LABEL: func.func @epilogue_after
// CHECK: dl.gemm_dispatch {beta_zero, {{.*}}, stream_c}
// CHECK: arith.maxnumf
func.func @epilogue_after(%a: memref<512x64xf32>, %b: memref<64x512xf32>, %c: memref<512x512xf32>) {
  dl.matmul ins(%a, %b : memref<512x64xf32>, memref<64x512xf32>) outs(%c : memref<512x512xf32>) {epilogue = [#dl.post_op<relu>]}
  return
}
