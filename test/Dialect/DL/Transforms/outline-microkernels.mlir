// dl-outline-microkernels: which tagged bands become microkernel calls (and
// with which sizes, leading dimensions and batch form), and which stay loops.
// A zero fill right before the outlined loops that covers exactly the block
// of C the kernel computes becomes beta_zero (the kernel does not read C) and
// moves to the fallback branch.
// RUN: dl-opt %s --pass-pipeline='builtin.module(convert-dl-to-affine,func.func(dl-tile-gemm-bands{max-block=64}),dl-outline-microkernels{report-fallbacks},cse)' --split-input-file --verify-diagnostics | FileCheck %s
// With max-batch-bytes=8192, outer batch loops whose blocks would exceed it
// stay around the call:
// RUN: dl-opt %s --pass-pipeline='builtin.module(dl-set-target{max-batch-bytes=8192},convert-dl-to-affine,func.func(dl-tile-gemm-bands{max-block=64}),dl-outline-microkernels{report-fallbacks},cse)' --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=CAP
// RUN: not dl-opt %s --dl-set-target="max-batch-bytes=-2" --dl-outline-microkernels 2>&1 | FileCheck %s --check-prefix=INVALID

// INVALID: error: dl-set-target: max-batch-bytes must be >= 0 (-1: keep)

// A tiled GEMM: the K-tile loop is the batch (strided: A moves 64 columns,
// B moves 64 rows of 96). dl-tile-gemm-bands zeroes C per block of the tile
// loops over C, right before the batch: the kernel's beta = 0, and the
// block's fill moves to the fallback.
// CHECK-LABEL: func.func @tiled_matmul
// CHECK-SAME: (%[[A:.*]]: memref<128x256xf32>, %[[B:.*]]: memref<256x96xf32>, %[[C:.*]]: memref<128x96xf32>)
// CHECK-NOT: affine.store
// CHECK: affine.for %[[IT:.*]] = 0 to 128 step 64 {
// CHECK-NEXT: affine.for %[[JT:.*]] = 0 to 96 step 48 {
// CHECK-NEXT: %[[K:.*]] = dl.gemm_dispatch {beta_zero, k = 64 : i64, lda = 256 : i64, ldb = 96 : i64, ldc = 96 : i64, m = 64 : i64, n = 48 : i64, stride_a = 64 : i64, stride_b = 6144 : i64}
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi ne, %[[K]], %[[ZERO]]
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: dl.gemm_invoke %[[K]](%[[A]][%[[IT]], %[[C0]]], %[[B]][%[[C0]], %[[JT]]], %[[C]][%[[IT]], %[[JT]]]) batch(%[[C4]])
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 64 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 48 {
// CHECK-NEXT: affine.store %{{.*}}, %[[C]][%[[I]] + %[[IT]], %[[J]] + %[[JT]]]
// CHECK: affine.for %{{.*}} = 0 to 256 step 64 {
// CHECK-NOT: dl.gemm_band
// CHECK: return
// One batch loop is never split, whatever its size (the K-tile loop's 4
// blocks of 64 x 64 + 64 x 48 floats are 112 KiB).
// CAP-LABEL: func.func @tiled_matmul
// CAP: dl.gemm_invoke {{.*}} batch(%c4)
func.func @tiled_matmul(%a: memref<128x256xf32>, %b: memref<256x96xf32>, %c: memref<128x96xf32>) {
  dl.matmul ins(%a, %b : memref<128x256xf32>, memref<256x96xf32>) outs(%c : memref<128x96xf32>)
  return
}

// -----

// A GEMM that fits one kernel: no batch; the zeroing of C (all of it, the
// kernel's block) is the kernel's beta = 0, and runs only in the fallback.
// CHECK-LABEL: func.func @small_matmul
// CHECK-NOT: affine.store
// CHECK: %[[K:.*]] = dl.gemm_dispatch {beta_zero, k = 4 : i64, lda = 4 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 8 : i64, n = 16 : i64}
// CHECK: dl.gemm_invoke %[[K]](%{{.*}}[%[[Z:.*]], %[[Z]]], %{{.*}}[%[[Z]], %[[Z]]], %{{.*}}[%[[Z]], %[[Z]]]) :
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 16 {
// CHECK-NEXT: affine.store %cst, %arg2
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
func.func @small_matmul(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>)
  return
}

// -----

// A padded blocked 3x3 convolution: the (c_blk, r, s) loops are the batch,
// given as tables of offsets into the column-padded input (strides: c_blk
// 3584, row 256, column 16) and the filter (c_blk 1152, r 384, s 128). The
// filter rows r skip the padding rows, so their bounds vary with oh: r leads
// the tables, and each call starts at its lower bound max(0, 1 - oh) and
// takes 6 blocks per row up to min(3, 15 - oh); the loops run when there are
// none.
// CHECK-DAG: #[[LOWER:map[0-9]*]] = affine_map<(d0) -> (0, -d0 + 1)>
// CHECK-DAG: #[[UPPER:map[0-9]*]] = affine_map<(d0) -> (3, -d0 + 15)>
// CHECK-DAG: #[[COUNTMAP:map[0-9]*]] = affine_map<(d0, d1) -> (d0 * -6 + d1 * 6)>
// CHECK-DAG: #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0 + d1 - 1)>
// CHECK: memref.global "private" constant @__dl_batch_offsets_b : memref<18xi64> = dense<[0, 128, 256, 1152, 1280, 1408, 384, 512, 640, 1536, 1664, 1792, 768, 896, 1024, 1920, 2048, 2176]>
// CHECK: memref.global "private" constant @__dl_batch_offsets_a : memref<18xi64> = dense<[0, 16, 32, 3584, 3600, 3616, 256, 272, 288, 3840, 3856, 3872, 512, 528, 544, 4096, 4112, 4128]>
// CHECK-LABEL: func.func @blocked_conv
// CHECK-SAME: %[[F:[a-z0-9]+]]: memref<4x2x3x3x16x8xf32>, %[[OUT:[a-z0-9]+]]: memref<1x4x14x14x8xf32>
// CHECK: %[[PAD:.*]] = memref.alloc() : memref<1x2x14x16x16xf32>
// CHECK: affine.store %{{.*}}, %[[PAD]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} + 1, %{{.*}}]
// CHECK: affine.store %{{.*}}, %[[PAD]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} + 15, %{{.*}}]
// CHECK: affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[KB:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 14 {
// CHECK: %[[K:.*]] = dl.gemm_dispatch {batch_offsets, beta_zero, k = 16 : i64, lda = 16 : i64, ldb = 8 : i64, ldc = 8 : i64, m = 14 : i64, n = 8 : i64}
// CHECK: %[[FOUND:.*]] = arith.cmpi ne, %[[K]]
// CHECK: %[[LO:.*]] = affine.max #[[LOWER]](%[[OH]])
// CHECK: %[[HI:.*]] = affine.min #[[UPPER]](%[[OH]])
// CHECK: %[[COUNT:.*]] = affine.apply #[[COUNTMAP]](%[[LO]], %[[HI]])
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[COUNT]], %{{.*}} : index
// CHECK: %[[CALLS:.*]] = arith.andi %[[FOUND]], %[[ANY]]
// CHECK: scf.if %[[CALLS]]
// CHECK-DAG: %[[TA:.*]] = memref.get_global @__dl_batch_offsets_a
// CHECK-DAG: %[[TB:.*]] = memref.get_global @__dl_batch_offsets_b
// CHECK-DAG: %[[IH:.*]] = affine.apply #[[ROW]](%[[LO]], %[[OH]])
// CHECK: dl.gemm_invoke %[[K]](%[[PAD]][%[[N]], %{{.*}}, %[[IH]], %{{.*}}, %{{.*}}], %[[F]][%[[KB]], %{{.*}}, %[[LO]], %{{.*}}], %[[OUT]][%[[N]], %[[KB]], %[[OH]], %{{.*}}, %{{.*}}]) batch(%[[COUNT]]) offsets(%[[TA]], %[[TB]])
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 14 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.store %{{.*}}, %[[OUT]][%[[N]], %[[KB]], %[[OH]], %{{.*}}, %{{.*}}]
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = max #[[LOWER]](%[[OH]]) to min #[[UPPER]](%[[OH]]) {
// A block of A and B is 14 x 16 + 16 x 8 floats = 1408 bytes: the 18 of all
// (c_blk, r, s) need 25 KiB, the 9 of (r, s) 12 KiB, the 3 of s 4 KiB. The
// zeroing of C now precedes the c_blk loop, not the call: no beta_zero.
// CAP-LABEL: func.func @blocked_conv
// CAP: affine.store %cst, %arg2[
// CAP: affine.for %{{.*}} = 0 to 2 {
// CAP-NEXT: affine.for %{{.*}} = max #{{.*}}(%{{.*}}) to min #{{.*}}(%{{.*}}) {
// CAP-NEXT: dl.gemm_dispatch {k = 16 : i64, lda = 16 : i64, ldb = 8 : i64, ldc = 8 : i64, m = 14 : i64, n = 8 : i64, stride_a = 16 : i64, stride_b = 128 : i64}
// CAP: dl.gemm_invoke {{.*}} batch(%c3) :
func.func @blocked_conv(%in: memref<1x2x14x14x16xf32>, %f: memref<4x2x3x3x16x8xf32>, %out: memref<1x4x14x14x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x14x14x16xf32>, memref<4x2x3x3x16x8xf32>) outs(%out : memref<1x4x14x14x8xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// -----

// Padding rows only: no copy, and r is the one batch loop, so the call is a
// strided batch-reduce from the row max(0, 1 - oh) on, over as many blocks
// as rows up to min(3, 7 - oh).
// CHECK-DAG: #[[LOWER1:map[0-9]*]] = affine_map<(d0) -> (0, -d0 + 1)>
// CHECK-DAG: #[[UPPER1:map[0-9]*]] = affine_map<(d0) -> (3, -d0 + 7)>
// CHECK-DAG: #[[COUNT1:map[0-9]*]] = affine_map<(d0, d1) -> (-d0 + d1)>
// CHECK-LABEL: func.func @row_padded_conv
// CHECK-SAME: (%[[IN:[a-z0-9]+]]: memref<1x1x6x5x16xf32>
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[OH:.*]] = 0 to 6 {
// CHECK-NEXT: %[[K:.*]] = dl.gemm_dispatch {beta_zero, k = 16 : i64, lda = 16 : i64, ldb = 8 : i64, ldc = 8 : i64, m = 5 : i64, n = 8 : i64, stride_a = 80 : i64, stride_b = 128 : i64}
// CHECK: %[[LO:.*]] = affine.max #[[LOWER1]](%[[OH]])
// CHECK: %[[HI:.*]] = affine.min #[[UPPER1]](%[[OH]])
// CHECK: %[[COUNT:.*]] = affine.apply #[[COUNT1]](%[[LO]], %[[HI]])
// CHECK: dl.gemm_invoke %[[K]](%[[IN]][{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %[[LO]], {{.*}}], %{{.*}}) batch(%[[COUNT]]) :
func.func @row_padded_conv(%in: memref<1x1x6x5x16xf32>, %f: memref<2x1x3x1x16x8xf32>, %out: memref<1x2x6x5x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x6x5x16xf32>, memref<2x1x3x1x16x8xf32>) outs(%out : memref<1x2x6x5x8xf32>)
      {padding = array<i64: 1, 0, 1, 0>}
  return
}

// -----

// Stride 2 along W: A's rows are 2 x 16 elements apart (lda = 32), and the
// three taps of the 1x3 filter one pixel apart (stride_a = 16). A strided 1x1
// convolution reads its pixels in place too: lda = 32, no batch.
// Two channel blocks and a 1x1 filter: one strided batch loop.
// CHECK-LABEL: func.func @strided_conv
// CHECK: dl.gemm_dispatch {beta_zero, k = 16 : i64, lda = 32 : i64, ldb = 8 : i64, ldc = 8 : i64, m = 4 : i64, n = 8 : i64, stride_a = 16 : i64, stride_b = 128 : i64}
// CHECK: dl.gemm_invoke {{.*}} batch(%c3)
// CHECK-LABEL: func.func @strided_pointwise_conv
// CHECK: dl.gemm_dispatch {beta_zero, k = 16 : i64, lda = 32 : i64, ldb = 8 : i64, ldc = 8 : i64, m = 4 : i64, n = 8 : i64}
// CHECK-LABEL: func.func @two_channel_blocks
// CHECK: dl.gemm_dispatch {beta_zero, k = 16 : i64, lda = 16 : i64, ldb = 8 : i64, ldc = 8 : i64, m = 4 : i64, n = 8 : i64, stride_a = 256 : i64, stride_b = 128 : i64}
// CHECK: dl.gemm_invoke {{.*}} batch(%c2)
func.func @strided_conv(%in: memref<1x1x8x9x16xf32>, %f: memref<1x1x1x3x16x8xf32>, %out: memref<1x1x4x4x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x8x9x16xf32>, memref<1x1x1x3x16x8xf32>) outs(%out : memref<1x1x4x4x8xf32>)
      {strides = array<i64: 2, 2>}
  return
}
func.func @strided_pointwise_conv(%in: memref<1x1x8x8x16xf32>, %f: memref<1x1x1x1x16x8xf32>, %out: memref<1x1x4x4x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x8x8x16xf32>, memref<1x1x1x1x16x8xf32>) outs(%out : memref<1x1x4x4x8xf32>)
      {strides = array<i64: 2, 2>}
  return
}
func.func @two_channel_blocks(%in: memref<1x2x4x4x16xf32>, %f: memref<1x2x1x1x16x8xf32>, %out: memref<1x1x4x4x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x4x4x16xf32>, memref<1x2x1x1x16x8xf32>) outs(%out : memref<1x1x4x4x8xf32>)
  return
}

// -----

// Transposed or scaled GEMMs are not tagged: no kernel, no remark.
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: dl.gemm_dispatch
func.func @transposed(%a: memref<8x4xf32>, %b: memref<16x4xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x4xf32>, memref<16x4xf32>) outs(%c : memref<8x16xf32>) {transpose_b}
  return
}

// -----

// Dynamic sizes: the band stays in loop form, with a remark.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: dl.gemm_dispatch
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-remark @+1 {{GEMM band kept as loops: a band loop has no constant trip count or bound, or a step other than 1}}
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// A zero fill right before the band that covers only half of the kernel's
// block of C (8 of 16 columns): the kernel accumulates onto C (no
// beta_zero) and the fill stays where it is.
// CHECK-LABEL: func.func @partial_fill
// CHECK: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.store
// CHECK: dl.gemm_dispatch {k = 4 : i64, lda = 4 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 8 : i64, n = 16 : i64}
func.func @partial_fill(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.store %zero, %c[%i, %j] : memref<8x16xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 4 {
        %x = affine.load %a[%i, %k] : memref<8x4xf32>
        %y = affine.load %b[%k, %j] : memref<4x16xf32>
        %p = arith.mulf %x, %y : f32
        %acc = affine.load %c[%i, %j] : memref<8x16xf32>
        %s = arith.addf %acc, %p : f32
        affine.store %s, %c[%i, %j] : memref<8x16xf32>
      }
    }
  } {dl.gemm_band}
  return
}

// -----

// B's rows closer than its row length (an overlapping view, rows of 16
// read 11 floats apart: dl-split-gemm-remainders' whole vectors): LIBXSMM
// takes no leading dimension below the row length, so each row of K is a
// kernel of k = 1 and the rows, with the K-tile loop that continues them,
// one strided batch of 256 rows (A moves 1 column, B 11 floats).
// CHECK-LABEL: func.func @overlapping_rows
// CHECK: %[[K:.*]] = dl.gemm_dispatch {beta_zero, k = 1 : i64, lda = 256 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 8 : i64, n = 16 : i64, stride_a = 1 : i64, stride_b = 11 : i64}
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: dl.gemm_invoke %[[K]]({{.*}}) batch(%[[C256]])
// CHECK-NEXT: } else {
func.func @overlapping_rows(%a: memref<8x256xf32>, %b: memref<257x11xf32>, %c: memref<8x16xf32>) {
  %rows = memref.reinterpret_cast %b to offset: [0], sizes: [256, 16], strides: [11, 1] : memref<257x11xf32> to memref<256x16xf32, strided<[11, 1]>>
  dl.matmul ins(%a, %rows : memref<8x256xf32>, memref<256x16xf32, strided<[11, 1]>>) outs(%c : memref<8x16xf32>)
  return
}

// -----

// A blocked convolution whose output row (112) is tiled by 56: the tile
// loops over the row and the output channels are outside the filter taps
// (dl-tile-gemm-bands), so the 9 taps are the call's batch, and each tile's
// fill of C is the kernel's beta = 0.
// CHECK-LABEL: func.func @conv_wide_taps
// CHECK: affine.for %[[OWT:.*]] = 0 to 112 step 56 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 step 8 {
// CHECK-NEXT: %[[K:.*]] = dl.gemm_dispatch {batch_offsets, beta_zero, k = 4 : i64, lda = 4 : i64, ldb = 8 : i64, ldc = 8 : i64, m = 56 : i64, n = 8 : i64}
// CHECK: dl.gemm_invoke %[[K]]({{.*}}) batch(%{{.*}}) offsets
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 56 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.store %cst
func.func @conv_wide_taps(%in: memref<1x1x3x114x4xf32>, %f: memref<1x1x3x3x4x8xf32>, %out: memref<1x1x1x112x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x3x114x4xf32>, memref<1x1x3x3x4x8xf32>) outs(%out : memref<1x1x1x112x8xf32>)
  return
}
