// Bands whose trip counts are known only at run time (the partial blocks of
// a GEMM with dynamic sizes, bounded by a min with the block or by a
// remainder `K mod bk`) become calls to kernels dispatched with those sizes
// (`dl.gemm_dispatch sizes(...)`, the attributes m, n, k their bounds). The
// batch loop over the whole K blocks (a min with batch_blocks) gives the
// batch-reduce call its count; the rest of K is one call. Either call falls
// back to its loops when the runtime has no kernel.
// RUN: dl-opt %s --pass-pipeline='builtin.module(convert-dl-to-affine,canonicalize,dl-outline-microkernels{report-fallbacks},cse)' --verify-diagnostics | FileCheck %s

// CHECK-DAG: #[[ROWS:.+]] = affine_map<(d0)[s0] -> (2, d0 * -2 + s0)>
// CHECK-DAG: #[[COLS:.+]] = affine_map<(d0)[s0] -> (8, d0 * -8 + s0)>
// CHECK-DAG: #[[BATCHES:.+]] = affine_map<()[s0] -> ((s0 floordiv 4) ceildiv 2)>
// CHECK-LABEL: func.func @dynamic
// CHECK: affine.for %{{.+}} = 0 to #[[BATCHES]]()
// CHECK-NEXT: %[[M:.+]] = affine.min #[[ROWS]](%[[IB:[^)]+]])
// CHECK-NEXT: %[[N:.+]] = affine.min #[[COLS]](%[[JB:[^)]+]])
// CHECK: %[[BR:.+]] = dl.gemm_dispatch sizes(%[[M]], %[[N]], %{{.+}}) {k = 4 : i64, lda = 4 : i64, ldb = 8 : i64, ldc = 8 : i64, m = 2 : i64, n = 8 : i64, stride_a = 8 : i64, stride_b = 32 : i64}
// CHECK: %[[COUNT:.+]] = affine.min
// CHECK: scf.if
// CHECK-NEXT: %[[FIRST:.+]] = affine.apply
// CHECK-NEXT: dl.gemm_invoke %[[BR]](%{{.+}}[%[[IB]], %[[FIRST]], %{{.+}}, %{{.+}}], %{{.+}}[%[[JB]], %[[FIRST]], %{{.+}}, %{{.+}}], %{{.+}}[%[[IB]], %[[JB]], %{{.+}}, %{{.+}}]) batch(%[[COUNT]])
// CHECK-NEXT: } else {
// CHECK: %[[M2:.+]] = affine.min #[[ROWS]](%[[IB]])
// CHECK-NEXT: %[[N2:.+]] = affine.min #[[COLS]](%[[JB]])
// CHECK-NEXT: %[[REST:.+]] = affine.min
// CHECK-NEXT: %[[G:.+]] = dl.gemm_dispatch sizes(%[[M2]], %[[N2]], %[[REST]]) {k = 3 : i64, lda = 4 : i64, ldb = 8 : i64, ldc = 8 : i64, m = 2 : i64, n = 8 : i64}
// CHECK: scf.if
// CHECK-NEXT: dl.gemm_invoke %[[G]](
// CHECK-NOT: batch
// CHECK-SAME: memref<?x1x2x4xf32>, memref<?x1x4x8xf32>, memref<?x?x2x8xf32>
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
      {pack_a, pack_b, pack_c, pad_blocks, pack_blocks = array<i64: 2, 8, 4>,
       batch_blocks = 2}
  return
}
