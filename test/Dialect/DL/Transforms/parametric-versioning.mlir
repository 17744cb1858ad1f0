// RUN: dl-opt %s --dl-set-target="vector-bits=512" --split-input-file --dl-parametric-versioning="report-fallbacks" --verify-diagnostics | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --split-input-file --dl-parametric-versioning="max-versions=3" 2>/dev/null | FileCheck %s --check-prefix=CAP
// RUN: not dl-opt %s --split-input-file --dl-parametric-versioning="max-versions=0" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --split-input-file --dl-parametric-versioning="threads=2" 2>/dev/null | FileCheck %s --check-prefix=PAD

// dl-parametric-versioning: a GEMM with dynamic M becomes static versions
// of 2^j rows. 40x96 does 7680 flops per row: chunks of 4096 rows (2^27
// flops would take 17476; max-versions 13 caps them), a loop over the whole
// chunks, then one guard per bit of M mod 4096, each testing that one bit
// and running the version at M - M mod 2^(j+1). B (40x96, two blocks of 48
// columns) is packed once for the versions from 64 rows on (a block of
// rows); below, the versions read B in place: 32, 16 and 8 rows, then one
// version of exactly M mod 8 rows (1 to 7, a chain of guards). At several
// threads (PAD), the last M mod 8 rows then run as one version of 8 rows on
// zero-padded copies of their rows of A and C (3 to 7 rows), or as the
// version of 2 or 1 rows.
// CHECK-DAG: #[[CHUNKS:.*]] = affine_map<()[s0] -> (s0 floordiv 4096)>
// CHECK-DAG: #[[AT2048:.*]] = affine_map<()[s0] -> (s0 - s0 mod 4096)>
// CHECK-DAG: #[[AT1:.*]] = affine_map<()[s0] -> (s0 - s0 mod 2)>
// CHECK-DAG: #[[SHARED:.*]] = affine_set<()[s0] : (s0 - 64 >= 0)>
// CHECK-DAG: #[[SMALLCHUNKS:.*]] = affine_map<()[s0] -> (s0 floordiv 32)>
// CHECK-DAG: #[[REST7:.*]] = affine_set<()[s0] : (s0 mod 8 - 7 >= 0)>
// CHECK-DAG: #[[AT7:.*]] = affine_map<()[s0] -> (s0 - 7)>
// CHECK-DAG: #[[BIT2048:.*]] = affine_set<()[s0] : (s0 mod 4096 - 2048 >= 0)>
// CHECK-DAG: #[[BIT1:.*]] = affine_set<()[s0] : (s0 mod 2 - 1 >= 0)>
// CHECK-LABEL: func.func @gemm_rows
// CHECK: %[[M:.*]] = memref.dim %{{.*}}, %c0 : memref<?x96xf32>
// CHECK: affine.if #[[SHARED]]()[%[[M]]] {
// CHECK:   %[[PACKED:.*]] = memref.alloc() : memref<2x1x40x48xf32>
// CHECK:   dl.pack ins(%{{.*}} : memref<40x96xf32>) outs(%[[PACKED]] : memref<2x1x40x48xf32>)
// CHECK:   affine.for %[[I:.*]] = 0 to #[[CHUNKS]]()[%[[M]]] {
// CHECK:     dl.matmul ins(%{{.*}}, %[[PACKED]] : memref<4096x40xf32, strided<[40, 1], offset: ?>>, memref<2x1x40x48xf32>) outs(%{{.*}} : memref<4096x96xf32, strided<[96, 1], offset: ?>>) {beta = 1.000000e+00 : f32, dl.version = {parameter = "M", size = 4096 : i64}}
// CHECK:   } {dl.version_chunks = {parameter = "M", size = 4096 : i64}}
// CHECK:   affine.if #[[BIT2048]]()[%[[M]]] {
// CHECK:     %[[OFF:.*]] = affine.apply #[[AT2048]]()[%[[M]]]
// CHECK:     memref.subview %{{.*}}[%[[OFF]], 0] [2048, 40] [1, 1]
// CHECK:     dl.matmul {{.*}}size = 2048
// CHECK:   } {dl.version_guard}
// CHECK-COUNT-10: dl.version_guard
// CHECK:   affine.if #[[BIT1]]()[%[[M]]] {
// CHECK:     affine.apply #[[AT1]]()[%[[M]]]
// CHECK:     dl.matmul {{.*}}memref<1x40xf32, {{.*}}size = 1 : i64
// CHECK:   } {dl.version_guard}
// CHECK:   memref.dealloc %[[PACKED]]
// CHECK: } else {
// CHECK:   affine.for %{{.*}} = 0 to #[[SMALLCHUNKS]]()[%[[M]]] {
// CHECK:     dl.matmul ins(%{{.*}}, %{{.*}} : memref<32x40xf32, strided<[40, 1], offset: ?>>, memref<40x96xf32>)
// CHECK:   } {dl.version_chunks = {parameter = "M", size = 32 : i64}}
// CHECK:   dl.matmul {{.*}}size = 16
// CHECK:   dl.matmul {{.*}}size = 8
// CHECK:   affine.if #[[REST7]]()[%[[M]]] {
// CHECK:     affine.apply #[[AT7]]()[%[[M]]]
// CHECK:     dl.matmul ins(%{{.*}}, %{{.*}} : memref<7x40xf32, strided<[40, 1], offset: ?>>, memref<40x96xf32>) {{.*}}size = 7 : i64
// CHECK:   } else {
// CHECK:     dl.matmul {{.*}}size = 6
// CHECK-COUNT-5: dl.matmul
// CHECK-COUNT-7: dl.version_guard
// CHECK: } {dl.version_guard, dl.version_shared_pack = array<i64: 48, 40>}
// CHECK-NOT: dl.matmul
// CHECK: return
// PAD-DAG: #[[SEVERAL:.*]] = affine_set<()[s0] : (s0 mod 8 - 3 >= 0)>
// PAD-DAG: #[[TWOROWS:.*]] = affine_set<()[s0] : (s0 mod 8 - 2 >= 0)>
// PAD-DAG: #[[LASTROW:.*]] = affine_set<()[s0] : (s0 mod 8 - 1 >= 0)>
// PAD-DAG: #[[ATTWO:.*]] = affine_map<()[s0] -> (s0 - 2)>
// PAD-DAG: #[[ATLAST:.*]] = affine_map<()[s0] -> (s0 - 1)>
// PAD-LABEL: func.func @gemm_rows
// PAD: %[[M:.*]] = memref.dim %{{.*}}, %c0 : memref<?x96xf32>
// PAD: %[[PACKED:.*]] = memref.alloc() : memref<2x1x40x48xf32>
// PAD-COUNT-9: dl.version_guard
// PAD:   affine.if #[[SEVERAL]]()[%[[M]]] {
// PAD:     %[[A8:.*]] = memref.alloc() : memref<8x40xf32>
// PAD:     %[[C8:.*]] = memref.alloc() : memref<8x96xf32>
// PAD:     dl.matmul ins(%[[A8]], %[[PACKED]] : memref<8x40xf32>, memref<2x1x40x48xf32>) outs(%[[C8]] : memref<8x96xf32>) {beta = 1.000000e+00 : f32, dl.version = {padded, parameter = "M", size = 8 : i64}}
// PAD:     memref.dealloc %[[A8]]
// PAD:     memref.dealloc %[[C8]]
// PAD:   } else {
// PAD:     affine.if #[[TWOROWS]]()[%[[M]]] {
// PAD:       affine.apply #[[ATTWO]]()[%[[M]]]
// PAD:       dl.matmul {{.*}}memref<2x40xf32, {{.*}}size = 2 : i64
// PAD:     } else {
// PAD:       affine.if #[[LASTROW]]()[%[[M]]] {
// PAD:         affine.apply #[[ATLAST]]()[%[[M]]]
// PAD:         dl.matmul {{.*}}memref<1x40xf32, {{.*}}size = 1 : i64
// PAD:       } {dl.version_guard}
// PAD:     } {dl.version_guard}
// PAD:   } {dl.version_guard}
// PAD:   memref.dealloc %[[PACKED]]

// With max-versions 3: chunks of 4, versions of 4, 2 and 1 rows.
// CAP-LABEL: func.func @gemm_rows
// CAP: affine.for
// CAP: size = 4 : i64
// CAP-COUNT-2: dl.version_guard
// CAP: } else {
// CAP: affine.for
// CAP: size = 4 : i64
// CAP-COUNT-2: dl.version_guard
// CAP: dl.version_shared_pack

// OPTION: dl-parametric-versioning: max-versions must be >= 1
func.func @gemm_rows(%a: memref<?x40xf32>, %b: memref<40x96xf32>,
                     %c: memref<?x96xf32>) {
  dl.matmul ins(%a, %b : memref<?x40xf32>, memref<40x96xf32>)
            outs(%c : memref<?x96xf32>) {beta = 1.0 : f32}
  return
}

// -----

// B with one block of columns is read in place by every version: no shared
// copy. 512x64 does 65536 flops per row: chunks of 2048.
// CHECK-LABEL: func.func @gemm_one_column_block
// CHECK-NOT: dl.pack
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}()[%{{.*}}] {
// CHECK:   dl.matmul {{.*}}size = 2048 : i64
// CHECK-COUNT-11: dl.version_guard
// CHECK-NOT: dl.version_guard
func.func @gemm_one_column_block(%a: memref<?x512xf32>, %b: memref<512x64xf32>,
                                 %c: memref<?x64xf32>) {
  dl.matmul ins(%a, %b : memref<?x512xf32>, memref<512x64xf32>)
            outs(%c : memref<?x64xf32>)
  return
}

// -----

// A convolution with a dynamic batch: 64 -> 64 channels, 3x3, 56x56 do
// 2.3e8 flops per image, more than a chunk's 2^27: versions of one image,
// in a loop; no remainder.
// CHECK-LABEL: func.func @conv_images
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c0 : memref<?x64x56x56xf32>
// CHECK: affine.for %[[I:.*]] = 0 to %[[N]] {
// CHECK:   memref.subview %{{.*}}[%[[I]], 0, 0, 0] [1, 64, 56, 56] [1, 1, 1, 1]
// CHECK:   dl.conv2d {{.*}}dl.version = {parameter = "N", size = 1 : i64}
// CHECK: } {dl.version_chunks = {parameter = "N", size = 1 : i64}}
// CHECK-NOT: affine.if
func.func @conv_images(%x: memref<?x64x56x56xf32>, %w: memref<64x64x3x3xf32>,
                       %y: memref<?x64x56x56xf32>) {
  dl.conv2d ins(%x, %w : memref<?x64x56x56xf32>, memref<64x64x3x3xf32>)
            outs(%y : memref<?x64x56x56xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// Dynamic sizes elsewhere keep the generic version, with the reason. A
// convolution with static channels and filter is left to
// dl-block-conv-layouts, which blocks it. A GEMM is blocked (pack_blocks,
// pad_blocks: packed operands whose last blocks are partial), its blocks
// bounded by its static sizes; where all of its sizes may be at most 128, a
// plain copy runs instead (one microkernel in place); at most 12 with a
// transposed operand (plain loops).
// CHECK-LABEL: func.func @generic_versions
// CHECK-NOT: dl.version =
// CHECK: affine.if
// CHECK-NEXT: dl.matmul {{.*}} {dl.sequential, dl.version_context
// CHECK-NEXT: } else {
// CHECK-NEXT: dl.matmul {{.*}} {batch_blocks = 4 : i64, pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, pack_c, pad_blocks}
// CHECK: dl.matmul {{.*}} {batch_blocks = 1 : i64, pack_a, pack_b, pack_blocks = array<i64: 64, 64, 40>, pack_c, pad_blocks, transpose_a}
// CHECK-NOT: dl.version =
func.func @generic_versions(%a: memref<?x?xf32>, %b: memref<?x?xf32>,
                            %c: memref<?x?xf32>, %x: memref<2x3x?x?xf32>,
                            %w: memref<8x3x3x3xf32>, %y: memref<2x8x?x?xf32>,
                            %at: memref<40x?xf32>, %c2: memref<?x64xf32>,
                            %b2: memref<40x64xf32>, %bk: memref<?x64xf32>,
                            %ak: memref<?x8xf32>, %c8: memref<8x64xf32>,
                            %a8: memref<64x40xf32>, %xn: memref<?x3x5x5xf32>,
                            %y2: memref<2x8x3x3xf32>) {
  // expected-remark @below {{generic version, blocked (packed operands, kernels of run-time sizes for the partial blocks; where every size is at most 128, one kernel on the operands in place): operand #0 has a dynamic size in dimension 1, a leading dimension of its rows; only a dynamic outermost size is versioned}}
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
            outs(%c : memref<?x?xf32>)
  // expected-remark @below {{generic version, blocked (channel blocks, output rows in blocks of 128 columns, kernels of run-time sizes for the partial blocks): operand #0 has a dynamic size in dimension 2}}
  dl.conv2d ins(%x, %w : memref<2x3x?x?xf32>, memref<8x3x3x3xf32>)
            outs(%y : memref<2x8x?x?xf32>)
  // expected-remark @below {{operand #0 has a dynamic size in dimension 1}}
  dl.matmul ins(%at, %b2 : memref<40x?xf32>, memref<40x64xf32>)
            outs(%c2 : memref<?x64xf32>) {transpose_a}
  // expected-remark @below {{with transpose_a, M is the inner dimension of A}}
  dl.matmul ins(%b2, %b2 : memref<40x64xf32>, memref<40x64xf32>)
            outs(%c2 : memref<?x64xf32>) {transpose_a}
  // expected-remark @below {{M is static in operand #0 and dynamic in another}}
  dl.matmul ins(%a8, %b2 : memref<64x40xf32>, memref<40x64xf32>)
            outs(%c2 : memref<?x64xf32>)
  // expected-remark @below {{N is static in operand #2 and dynamic in another}}
  dl.conv2d ins(%xn, %w : memref<?x3x5x5xf32>, memref<8x3x3x3xf32>)
            outs(%y2 : memref<2x8x3x3xf32>)
  // expected-remark @below {{K, the reduction, is dynamic}}
  dl.matmul ins(%ak, %bk : memref<?x8xf32>, memref<?x64xf32>)
            outs(%c8 : memref<8x64xf32>) {transpose_a}
  return
}

// -----

// Static ops are left as they are.
// CHECK-LABEL: func.func @static_gemm
// CHECK-NEXT: dl.matmul
// CHECK-NOT: dl.version
// CHECK-NEXT: return
func.func @static_gemm(%a: memref<509x40xf32>, %b: memref<40x96xf32>,
                       %c: memref<509x96xf32>) {
  dl.matmul ins(%a, %b : memref<509x40xf32>, memref<40x96xf32>)
            outs(%c : memref<509x96xf32>)
  return
}
