// Occupancy versions of the generic nests (dynamic sizes the static
// versions do not take), with the numbers of the digest's acceptance checks
// (../shared/docs/papers/002-parametric-versioning.md §5.3): 16 threads,
// a loop runs in parallel with at least `occupancy` iterations per thread.
// RUN: dl-opt %s --split-input-file --dl-parametric-versioning="threads=16 occupancy=1" | FileCheck %s
// RUN: dl-opt %s --split-input-file --dl-parametric-versioning="threads=16 occupancy=1 guards=chain" | FileCheck %s --check-prefix=CHAIN
// RUN: dl-opt %s --split-input-file --dl-parametric-versioning="threads=16 occupancy=2" | FileCheck %s --check-prefix=OCC2
// RUN: dl-opt %s --split-input-file --dl-parametric-versioning="threads=16 occupancy=1/2" | FileCheck %s --check-prefix=HALF
// RUN: dl-opt %s --split-input-file --dl-parametric-versioning="threads=16 occupancy=1 max-versions=2" | FileCheck %s --check-prefix=CAP
// RUN: dl-opt %s --split-input-file --dl-parametric-versioning="threads=1" | FileCheck %s --check-prefix=ONE
// RUN: not dl-opt %s --split-input-file --dl-parametric-versioning="threads=2 occupancy=0" 2>&1 | FileCheck %s --check-prefix=BADOCC
// RUN: not dl-opt %s --split-input-file --dl-parametric-versioning="threads=2 guards=balanced" 2>&1 | FileCheck %s --check-prefix=BADGUARDS

// GEMM with M, N and K dynamic (B transposed: its nest keeps k innermost,
// the dot products of rows): parallel over M unless M < 16, then over N
// unless N < 16, then sequential. The guards are a tree that tests M <= 15
// once, on the output's sizes only (K, a reduction, is never a parameter);
// each version carries its context.
// CHECK-DAG: #[[M15:.+]] = affine_set<()[s0, s1] : (-s0 + 15 >= 0)>
// CHECK-DAG: #[[N15:.+]] = affine_set<()[s0, s1] : (-s1 + 15 >= 0)>
// CHECK-DAG: #[[MN15:.+]] = affine_set<()[s0, s1] : (-s0 + 15 >= 0, -s1 + 15 >= 0)>
// CHECK-DAG: #[[ALL:.+]] = affine_set<()[s0, s1] : (0 >= 0)>
// CHECK-LABEL: func.func @gemm_mnk
// CHECK: %[[M:.+]] = memref.dim %arg2, %c0
// CHECK: %[[N:.+]] = memref.dim %arg2, %c1
// CHECK: affine.if #[[M15]]()[%[[M]], %[[N]]] {
// CHECK-NEXT: affine.if #[[N15]]()[%[[M]], %[[N]]] {
// CHECK-NEXT: dl.matmul {{.*}} {dl.sequential, dl.version_context = #[[MN15]], transpose_b}
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.matmul {{.*}} {dl.parallel_depth = 1 : i64, dl.version_context = #[[M15]], transpose_b}
// CHECK-NEXT: } {dl.version_guard}
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.matmul {{.*}} {dl.parallel_depth = 0 : i64, dl.version_context = #[[ALL]], transpose_b}
// CHECK-NEXT: } {dl.version_guard}
// CHECK-NOT: dl.matmul
// CHECK: return

// The chain tests each context whole, M <= 15 twice.
// CHAIN-LABEL: func.func @gemm_mnk
// CHAIN: affine.if #{{.+}}()[%{{.+}}, %{{.+}}] {
// CHAIN-NEXT: dl.matmul {{.*}} {dl.sequential
// CHAIN-NEXT: } else {
// CHAIN-NEXT: affine.if #{{.+}}()[%{{.+}}, %{{.+}}] {
// CHAIN-NEXT: dl.matmul {{.*}} {dl.parallel_depth = 1 : i64
// CHAIN-NEXT: } else {
// CHAIN-NEXT: dl.matmul {{.*}} {dl.parallel_depth = 0 : i64

// Occupancy a/b: t < (a/b) * 16, i.e. 16a - b t - 1 >= 0.
// OCC2: affine_set<()[s0, s1] : (-s0 + 31 >= 0)>
// HALF: affine_set<()[s0, s1] : (-s0 + 7 >= 0)>

// max-versions=2: parallel over M, else over N; no sequential version.
// CAP-LABEL: func.func @gemm_mnk
// CAP: affine.if
// CAP-NEXT: dl.matmul {{.*}} {dl.parallel_depth = 1 : i64
// CAP-NEXT: } else {
// CAP-NEXT: dl.matmul {{.*}} {dl.parallel_depth = 0 : i64
// CAP-NOT: dl.sequential
// CAP: return

// One thread: nothing to version.
// ONE-LABEL: func.func @gemm_mnk
// ONE-NOT: affine.if
// ONE: dl.matmul
// ONE-NOT: dl.parallel_depth
// ONE-NOT: dl.sequential

// BADOCC: occupancy must be a or a/b with integers from 1 to 2^20, got '0'
// BADGUARDS: guards must be tree, chain or auto, got 'balanced'
func.func @gemm_mnk(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                    %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
            outs(%c : memref<?x?xf32>) {transpose_b}
  return
}

// -----

// A static trip count decides the test: 8 rows fail it (no guard on M),
// 64 pass it (one version, no guard at all).
// CHECK-LABEL: func.func @decided_statically
// CHECK: affine.if #{{.+}}()[%{{.+}}] {
// CHECK-NEXT: dl.matmul {{.*}} outs(%arg2 : memref<8x?xf32>) {dl.sequential
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.matmul {{.*}} outs(%arg2 : memref<8x?xf32>) {dl.parallel_depth = 1 : i64
// CHECK-NEXT: } {dl.version_guard}
// CHECK-NEXT: dl.matmul {{.*}} outs(%arg5 : memref<64x?xf32>) {dl.parallel_depth = 0 : i64, transpose_b}
// CHECK-NEXT: return
func.func @decided_statically(%a: memref<8x?xf32>, %b: memref<?x?xf32>,
                              %c: memref<8x?xf32>, %a2: memref<64x?xf32>,
                              %b2: memref<?x?xf32>, %c2: memref<64x?xf32>) {
  dl.matmul ins(%a, %b : memref<8x?xf32>, memref<?x?xf32>)
            outs(%c : memref<8x?xf32>) {transpose_b}
  dl.matmul ins(%a2, %b2 : memref<64x?xf32>, memref<?x?xf32>)
            outs(%c2 : memref<64x?xf32>) {transpose_b}
  return
}

// -----

// A GEMM with B not transposed: its nest runs over (i, k, j), the columns
// innermost (dl.columns_innermost), where they vectorize; only the rows are
// at the same depth in the zero fill and in that nest, so N is not tried.
// CHECK-LABEL: func.func @columns_innermost
// CHECK: affine.if #{{.+}}()[%{{.+}}, %{{.+}}] {
// CHECK-NEXT: dl.matmul {{.*}} {dl.columns_innermost, dl.sequential, dl.version_context
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.matmul {{.*}} {dl.columns_innermost, dl.parallel_depth = 0 : i64, dl.version_context
// CHECK-NEXT: } {dl.version_guard}
// CHECK-NEXT: return
// ONE-LABEL: func.func @columns_innermost
// ONE: dl.matmul {{.*}} {dl.columns_innermost}
func.func @columns_innermost(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                             %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
            outs(%c : memref<?x?xf32>)
  return
}

// -----

// A convolution with dynamic spatial sizes: the batch (2) and the output
// channels (8) fail the test at 16 threads; the output rows are tried,
// then the columns.
// CHECK-LABEL: func.func @conv_spatial
// CHECK: %[[H:.+]] = memref.dim %arg2, %c2
// CHECK: %[[W:.+]] = memref.dim %arg2, %c3
// CHECK: affine.if #{{.+}}()[%[[H]], %[[W]]] {
// CHECK-NEXT: affine.if #{{.+}}()[%[[H]], %[[W]]] {
// CHECK-NEXT: dl.conv2d {{.*}}dl.sequential
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.conv2d {{.*}}dl.parallel_depth = 3 : i64
// CHECK: } else {
// CHECK-NEXT: dl.conv2d {{.*}}dl.parallel_depth = 2 : i64
func.func @conv_spatial(%x: memref<2x3x?x?xf32>, %w: memref<8x3x3x3xf32>,
                        %y: memref<2x8x?x?xf32>) {
  dl.conv2d ins(%x, %w : memref<2x3x?x?xf32>, memref<8x3x3x3xf32>)
            outs(%y : memref<2x8x?x?xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}
