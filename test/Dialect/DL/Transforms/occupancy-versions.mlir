// Occupancy versions of the generic nests (dynamic sizes the static
// versions do not take), with the numbers of the digest's acceptance checks
// (../shared/docs/papers/002-parametric-versioning.md §5.3): 16 threads,
// a loop runs in parallel with at least `occupancy` iterations per thread.
// RUN: dl-opt %s --split-input-file --dl-set-target="vector-bits=512" --dl-parametric-versioning="threads=16 occupancy=1" | FileCheck %s
// RUN: dl-opt %s --split-input-file --dl-set-target="vector-bits=512" --dl-parametric-versioning="threads=16 occupancy=1 guards=chain" | FileCheck %s --check-prefix=CHAIN
// RUN: dl-opt %s --split-input-file --dl-set-target="vector-bits=512" --dl-parametric-versioning="threads=16 occupancy=2" | FileCheck %s --check-prefix=OCC2
// RUN: dl-opt %s --split-input-file --dl-set-target="vector-bits=512" --dl-parametric-versioning="threads=16 occupancy=1/2" | FileCheck %s --check-prefix=HALF
// RUN: dl-opt %s --split-input-file --dl-set-target="vector-bits=512" --dl-parametric-versioning="threads=16 occupancy=1 max-versions=2" | FileCheck %s --check-prefix=CAP
// RUN: dl-opt %s --split-input-file --dl-set-target="vector-bits=512" --dl-parametric-versioning="threads=1" | FileCheck %s --check-prefix=ONE
// RUN: not dl-opt %s --split-input-file --dl-set-target="vector-bits=512" --dl-parametric-versioning="threads=2 occupancy=0" 2>&1 | FileCheck %s --check-prefix=BADOCC
// RUN: not dl-opt %s --split-input-file --dl-set-target="vector-bits=512" --dl-parametric-versioning="threads=2 guards=balanced" 2>&1 | FileCheck %s --check-prefix=BADGUARDS

// A convolution with dynamic images N and output channels K (and input
// channels), which dl-block-conv-layouts blocks (K in blocks of 64 at
// 512-bit vectors, each microkernels' work: two per thread are enough):
// parallel over N unless N < 16, then over the blocks of K unless K <= 31
// * 64, then sequential (its 8 output rows fail the test statically). The
// guards are a tree that tests N <= 15 once, on the output's dynamic sizes
// only; each version carries its context.
// CHECK-DAG: #[[M15:.+]] = affine_set<()[s0, s1] : (-s0 + 15 >= 0)>
// CHECK-DAG: #[[N15:.+]] = affine_set<()[s0, s1] : (-s1 + 1984 >= 0)>
// CHECK-DAG: #[[MN15:.+]] = affine_set<()[s0, s1] : (-s0 + 15 >= 0, -s1 + 1984 >= 0)>
// CHECK-DAG: #[[ALL:.+]] = affine_set<()[s0, s1] : (0 >= 0)>
// CHECK-LABEL: func.func @conv_nk
// CHECK: %[[M:.+]] = memref.dim %arg2, %c0
// CHECK: %[[N:.+]] = memref.dim %arg2, %c1
// CHECK: affine.if #[[M15]]()[%[[M]], %[[N]]] {
// CHECK-NEXT: affine.if #[[N15]]()[%[[M]], %[[N]]] {
// CHECK-NEXT: dl.conv2d {{.*}} {dl.sequential, dl.version_context = #[[MN15]], padding
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.conv2d {{.*}} {dl.parallel_depth = 1 : i64, dl.version_context = #[[M15]], padding
// CHECK-NEXT: } {dl.version_guard}
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.conv2d {{.*}} {dl.parallel_depth = 0 : i64, dl.version_context = #[[ALL]], padding
// CHECK-NEXT: } {dl.version_guard}
// CHECK-NOT: dl.conv2d
// CHECK: return

// The chain tests each context whole, N <= 15 twice.
// CHAIN-LABEL: func.func @conv_nk
// CHAIN: affine.if #{{.+}}()[%{{.+}}, %{{.+}}] {
// CHAIN-NEXT: dl.conv2d {{.*}} {dl.sequential
// CHAIN-NEXT: } else {
// CHAIN-NEXT: affine.if #{{.+}}()[%{{.+}}, %{{.+}}] {
// CHAIN-NEXT: dl.conv2d {{.*}} {dl.parallel_depth = 1 : i64
// CHAIN-NEXT: } else {
// CHAIN-NEXT: dl.conv2d {{.*}} {dl.parallel_depth = 0 : i64

// Occupancy a/b: t < (a/b) * 16, i.e. 16a - b t - 1 >= 0.
// OCC2: affine_set<()[s0, s1] : (-s0 + 31 >= 0)>
// HALF: affine_set<()[s0, s1] : (-s0 + 7 >= 0)>

// max-versions=2: parallel over N, else over K; no sequential version.
// CAP-LABEL: func.func @conv_nk
// CAP: affine.if
// CAP-NEXT: dl.conv2d {{.*}} {dl.parallel_depth = 1 : i64
// CAP-NEXT: } else {
// CAP-NEXT: dl.conv2d {{.*}} {dl.parallel_depth = 0 : i64
// CAP-NOT: dl.sequential
// CAP: return

// One thread: nothing to version.
// ONE-LABEL: func.func @conv_nk
// ONE-NOT: affine.if
// ONE: dl.conv2d
// ONE-NOT: dl.parallel_depth
// ONE-NOT: dl.sequential

// BADOCC: occupancy must be a or a/b with integers from 1 to 2^20, got '0'
// BADGUARDS: guards must be tree, chain or auto, got 'balanced'
func.func @conv_nk(%x: memref<?x?x8x8xf32>, %w: memref<?x?x3x3xf32>,
                   %y: memref<?x?x8x8xf32>) {
  dl.conv2d ins(%x, %w : memref<?x?x8x8xf32>, memref<?x?x3x3xf32>)
            outs(%y : memref<?x?x8x8xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// A static trip count decides the test: 8 images fail it (no guard on N),
// 64 pass it (one version, no guard at all).
// CHECK-LABEL: func.func @decided_statically
// CHECK: affine.if #{{.+}}()[%{{.+}}] {
// CHECK-NEXT: dl.conv2d {{.*}} outs(%arg2 : memref<8x?x8x8xf32>) {dl.sequential
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.conv2d {{.*}} outs(%arg2 : memref<8x?x8x8xf32>) {dl.parallel_depth = 1 : i64
// CHECK-NEXT: } {dl.version_guard}
// CHECK-NEXT: dl.conv2d {{.*}} outs(%arg5 : memref<64x?x8x8xf32>) {dl.parallel_depth = 0 : i64
// CHECK-NEXT: return
func.func @decided_statically(%x: memref<8x?x8x8xf32>, %w: memref<?x?x3x3xf32>,
                              %y: memref<8x?x8x8xf32>,
                              %x2: memref<64x?x8x8xf32>,
                              %w2: memref<?x?x3x3xf32>,
                              %y2: memref<64x?x8x8xf32>) {
  dl.conv2d ins(%x, %w : memref<8x?x8x8xf32>, memref<?x?x3x3xf32>)
            outs(%y : memref<8x?x8x8xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%x2, %w2 : memref<64x?x8x8xf32>, memref<?x?x3x3xf32>)
            outs(%y2 : memref<64x?x8x8xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// A GEMM with M, N and K dynamic: blocked (pack_blocks of the microkernel's
// 64 x 64 blocks of C at 512-bit vectors, K in blocks of 128, the last
// blocks partial: pad_blocks), its loops over blocks of C, two blocks per
// thread enough: parallel over the blocks of M unless M <= 31 * 64, then
// over those of N, then sequential. Where M, N and K are all at most 128, a
// plain copy (one microkernel in place, on one thread) runs instead, under
// a guard of its own.
// CHECK-DAG: #[[SMALL:.+]] = affine_set<()[s0, s1, s2] : (-s0 + 128 >= 0, -s1 + 128 >= 0, -s2 + 128 >= 0)>
// CHECK-DAG: #[[MB:.+]] = affine_set<()[s0, s1] : (-s0 + 1984 >= 0)>
// CHECK-DAG: #[[NB:.+]] = affine_set<()[s0, s1] : (-s1 + 1984 >= 0)>
// CHECK-LABEL: func.func @gemm_mnk
// CHECK: affine.if #[[SMALL]]()[%{{.+}}, %{{.+}}, %{{.+}}] {
// CHECK-NEXT: dl.matmul {{.*}} {dl.sequential, dl.version_context = #[[SMALL]]}
// CHECK-NEXT: } else {
// CHECK: affine.if #[[MB]]
// CHECK-NEXT: affine.if #[[NB]]
// CHECK-NEXT: dl.matmul {{.*}} {batch_blocks = 4 : i64, dl.sequential, {{.*}}pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, pack_c, pad_blocks}
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.matmul {{.*}}dl.parallel_depth = 1 : i64
// CHECK: } else {
// CHECK-NEXT: dl.matmul {{.*}}dl.parallel_depth = 0 : i64
// ONE-LABEL: func.func @gemm_mnk
// ONE: affine.if
// ONE-NEXT: dl.matmul {{.*}} {dl.sequential
// ONE-NEXT: } else {
// ONE-NEXT: dl.matmul {{.*}}pack_blocks = array<i64: 64, 64, 128>, pack_c, pad_blocks}
// ONE-NEXT: } {dl.version_guard}
func.func @gemm_mnk(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                    %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
            outs(%c : memref<?x?xf32>)
  return
}

// -----

// Static sizes, in any operand, bound the blocks (8 rows of A and C, K = 100
// in B, transposed), and a static size above 12 rules out the plain copy.
// CHECK-LABEL: func.func @static_rows
// CHECK-NOT: columns_innermost
// CHECK: pack_blocks = array<i64: 8, 64, 100>
// CHECK-NOT: columns_innermost
func.func @static_rows(%a: memref<8x?xf32>, %b: memref<?x100xf32>,
                       %c: memref<8x100xf32>) {
  dl.matmul ins(%a, %b : memref<8x?xf32>, memref<?x100xf32>)
            outs(%c : memref<8x100xf32>) {transpose_b}
  return
}

// -----

// A convolution with dynamic spatial sizes, which dl-block-conv-layouts
// blocks: its nest's outer loops run over images, blocks of output channels
// and rows (the columns are inside the reduction). 200 output channels are
// 4 blocks of 50 at 512-bit vectors, two per thread too few at 16 threads
// (a block of channels is microkernels' work, as a GEMM's block of C); so
// the rows run in parallel unless there are at most 15 of them, then one
// thread.
// CHECK-DAG: #[[ROWS15:.+]] = affine_set<()[s0, s1] : (-s0 + 15 >= 0)>
// CHECK-LABEL: func.func @conv_spatial
// CHECK: affine.if #[[ROWS15]]()[%{{.+}}, %{{.+}}] {
// CHECK-NEXT: dl.conv2d {{.*}}dl.sequential
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.conv2d {{.*}}dl.parallel_depth = 2 : i64
// CHECK-NOT: dl.conv2d
// CHECK: return
func.func @conv_spatial(%x: memref<2x3x?x?xf32>, %w: memref<200x3x3x3xf32>,
                        %y: memref<2x200x?x?xf32>) {
  dl.conv2d ins(%x, %w : memref<2x3x?x?xf32>, memref<200x3x3x3xf32>)
            outs(%y : memref<2x200x?x?xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}
