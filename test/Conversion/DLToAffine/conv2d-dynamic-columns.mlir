// A blocked convolution whose output width is dynamic runs each output row
// in blocks of 128 columns (the last one partial: a min with 128), so its
// band has a bounded trip count, and dl-outline-microkernels dispatches its
// kernels with the run-time rows (`sizes`). The filter rows move the input
// by its row stride, dynamic here: they stay a loop around the call, whose
// batch-reduce runs over the filter columns (static strides).
// RUN: dl-opt %s --convert-dl-to-affine | FileCheck %s --check-prefix=LOOPS
// RUN: dl-opt %s --pass-pipeline='builtin.module(convert-dl-to-affine,canonicalize,dl-outline-microkernels{report-fallbacks},cse)' --verify-diagnostics | FileCheck %s

// LOOPS-DAG: #[[BLOCKS:.+]] = affine_map<()[s0] -> (s0 ceildiv 128)>
// LOOPS-DAG: #[[PARTIAL:.+]] = affine_map<(d0)[s0] -> (128, d0 * -128 + s0)>
// LOOPS-LABEL: func.func @dynamic_columns
// LOOPS: %[[OW:.+]] = memref.dim %arg2, %c3
// LOOPS: affine.for %[[OWB:.+]] = 0 to #[[BLOCKS]]()[%[[OW]]] {
// LOOPS-NEXT: affine.for %[[R:.+]] = max
// LOOPS-NEXT: affine.for %[[S:.+]] = 0 to 3 {
// LOOPS-NEXT: affine.for %[[COL:.+]] = 0 to min #[[PARTIAL]](%[[OWB]])[%[[OW]]] {
// LOOPS-NEXT: affine.for %{{.+}} = 0 to 8 {
// LOOPS-NEXT: affine.for %[[K:.+]] = 0 to 16 {
// LOOPS: affine.load %{{.+}}[{{.+}}, %[[COL]] + %[[OWB]] * 128 + %[[S]], %{{.+}}] : memref<?x1x?x?x8xf32>
// LOOPS: affine.store %{{.+}}, %arg2[{{.+}}, %[[COL]] + %[[OWB]] * 128, %[[K]]] : memref<?x2x?x?x16xf32>
// LOOPS: } {dl.gemm_band}

// CHECK-DAG: #[[BLOCKS:.+]] = affine_map<()[s0] -> (s0 ceildiv 128)>
// CHECK-DAG: #[[PARTIAL:.+]] = affine_map<(d0)[s0] -> (128, d0 * -128 + s0)>
// CHECK-LABEL: func.func @dynamic_columns
// CHECK: affine.for %[[OWB:.+]] = 0 to #[[BLOCKS]]()
// CHECK-NEXT: affine.for %{{.+}} = max
// CHECK-NEXT: %[[M:.+]] = affine.min #[[PARTIAL]](%[[OWB]])
// CHECK: %[[KERNEL:.+]] = dl.gemm_dispatch sizes(%[[M]], %{{.+}}, %{{.+}}) {k = 8 : i64, lda = 8 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 128 : i64, n = 16 : i64, stride_a = 8 : i64, stride_b = 128 : i64}
// CHECK: dl.gemm_invoke %[[KERNEL]]({{.+}}) batch(%c3)
func.func @dynamic_columns(%x: memref<?x1x?x?x8xf32>, %w: memref<2x1x3x3x8x16xf32>,
                           %y: memref<?x2x?x?x16xf32>) {
  dl.conv2d ins(%x, %w : memref<?x1x?x?x8xf32>, memref<2x1x3x3x8x16xf32>)
            outs(%y : memref<?x2x?x?x16xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}
