// RUN: dl-opt %s --dl-decide-panels | FileCheck %s

// dl-decide-panels: a packed operand of a scheduled GEMM is copied in the
// nest (panel_a / panel_b) where each of its blocks is still copied once
// and some call re-reads the panel; the others keep the packed copy of the
// whole operand.

// [i, j, k]: A's blocks of a row block are copied before the j loop, whose
// 4 iterations re-read them; B's blocks are needed again under every i, so
// a panel of B would copy them 4 times.
// CHECK-LABEL: func.func @rows_outer
// CHECK: dl.matmul
// CHECK-SAME: pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, panel_a, schedule
func.func @rows_outer(%a: memref<256x512xf32>, %b: memref<512x256xf32>, %c: memref<256x256xf32>) {
  dl.matmul ins(%a, %b : memref<256x512xf32>, memref<512x256xf32>) outs(%c : memref<256x256xf32>) {pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// [j, i, k]: the other way round.
// CHECK-LABEL: func.func @columns_outer
// CHECK: dl.matmul
// CHECK-SAME: pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, panel_b, schedule
func.func @columns_outer(%a: memref<256x512xf32>, %b: memref<512x256xf32>, %c: memref<256x256xf32>) {
  dl.matmul ins(%a, %b : memref<256x512xf32>, memref<512x256xf32>) outs(%c : memref<256x256xf32>) {pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[j, i, k]>}
  return
}

// One column block: a panel of A would be read by one call only.
// CHECK-LABEL: func.func @one_column_block
// CHECK-NOT: panel_
// CHECK: return
func.func @one_column_block(%a: memref<256x512xf32>, %b: memref<512x64xf32>, %c: memref<256x64xf32>) {
  dl.matmul ins(%a, %b : memref<256x512xf32>, memref<512x64xf32>) outs(%c : memref<256x64xf32>) {pack_a, pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// A batch of 64 K blocks of 64 x 128 floats (2 MiB) would not stay in
// cache.
// CHECK-LABEL: func.func @batch_too_large
// CHECK-NOT: panel_
// CHECK: return
func.func @batch_too_large(%a: memref<128x8192xf32>, %b: memref<8192x128xf32>, %c: memref<128x128xf32>) {
  dl.matmul ins(%a, %b : memref<128x8192xf32>, memref<8192x128xf32>) outs(%c : memref<128x128xf32>) {pack_a, pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// Without a schedule, any outer loop may end up parallel: no panels.
// CHECK-LABEL: func.func @unscheduled
// CHECK-NOT: panel_
// CHECK: return
func.func @unscheduled(%a: memref<256x512xf32>, %b: memref<512x256xf32>, %c: memref<256x256xf32>) {
  dl.matmul ins(%a, %b : memref<256x512xf32>, memref<512x256xf32>) outs(%c : memref<256x256xf32>) {pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>}
  return
}
