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

// A plain GEMM band of dynamic sizes under a guard that bounds them (the
// small version of dl-parametric-versioning) is one call on the operands in
// place: its sizes and leading dimensions (the memrefs' dynamic strides) are
// run-time values, the attributes m, n, k the guard's bounds. Its zero fill
// runs the band's M and N loops, so the kernel overwrites C (beta_zero) and
// the fill moves to the fallback. In the guard's else branch the sizes have
// no bound: the band stays loops.
// CHECK-LABEL: func.func @in_place
// CHECK: affine.if
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[SA:.*]]:2 = memref.extract_strided_metadata %[[A:[^ ]+]]
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[SB:.*]]:2 = memref.extract_strided_metadata %[[B:[^ ]+]]
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[SC:.*]]:2 = memref.extract_strided_metadata %[[C:[^ ]+]]
// CHECK: %[[K:.+]] = dl.gemm_dispatch sizes(%{{.+}}, %{{.+}}, %{{.+}}) leading_dims(%[[SA]]#0, %[[SB]]#0, %[[SC]]#0) {beta_zero, k = 32 : i64, m = 64 : i64, n = 48 : i64}
// CHECK: scf.if
// CHECK-NEXT: dl.gemm_invoke %[[K]](%[[A]][%[[Z:.+]], %[[Z]]], %[[B]][%[[Z]], %[[Z]]], %[[C]][%[[Z]], %[[Z]]])
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.store %{{.+}}, %[[C]]
// CHECK: } else {
// CHECK-NOT: dl.gemm_dispatch
// CHECK: return
func.func @in_place(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  affine.if affine_set<()[s0, s1, s2] : (-s0 + 64 >= 0, -s1 + 48 >= 0, -s2 + 32 >= 0)>()[%m, %n, %k] {
    dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  } else {
    // expected-remark @below {{GEMM band kept as loops: a band loop has no constant trip count or bound, or a step other than 1}}
    dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  }
  return
}
