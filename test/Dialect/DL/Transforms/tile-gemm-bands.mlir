// dl-tile-gemm-bands: GEMM bands longer than max-block are tiled with the
// largest divisor of each trip count <= max-block; the tag moves to the
// outermost intra-tile loop. The tile loops over C come first, above the
// loops around the band that do not index C (a convolution's channel blocks
// and filter taps: the microkernel's batch) and above the reduction's tile
// loop; the zero fill of C before the band moves into them, one block per
// tile. A trip count whose largest such divisor is below half of max-block
// is split first (whole tiles, then the remainder), with the loops around
// the band and the fill split the same way.
// RUN: dl-opt %s --convert-dl-to-affine --dl-tile-gemm-bands=max-block=64 | FileCheck %s
// RUN: dl-opt %s --convert-dl-to-affine --dl-tile-gemm-bands=max-block=32 | FileCheck %s --check-prefix=SMALL

// 128 x 96 x 256: tiles 64 x 48 x 64, each 64 x 48 block of C zeroed in its
// tile, before the K tiles.
// CHECK-LABEL: func.func @even
// CHECK-SAME: %[[C:[^:]*]]: memref<128x96xf32>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: affine.for %[[IT:.*]] = 0 to 128 step 64 {
// CHECK-NEXT: affine.for %[[JT:.*]] = 0 to 96 step 48 {
// CHECK-NEXT: affine.for %[[I:.*]] = 0 to 64 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 48 {
// CHECK-NEXT: affine.store %{{.*}}, %[[C]][%[[I]] + %[[IT]], %[[J]] + %[[JT]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[KT:.*]] = 0 to 256 step 64 {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%[[IT]]) to #{{.*}}(%[[IT]]) {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%[[JT]]) to #{{.*}}(%[[JT]]) {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%[[KT]]) to #{{.*}}(%[[KT]]) {
// CHECK: } {dl.gemm_band}
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
// SMALL-LABEL: func.func @even
// SMALL: affine.for %{{.*}} = 0 to 128 step 32 {
// SMALL-NEXT: affine.for %{{.*}} = 0 to 96 step 32 {
// SMALL-NEXT: affine.for %{{.*}} = 0 to 32 {
// SMALL: affine.for %{{.*}} = 0 to 256 step 32 {
func.func @even(%a: memref<128x256xf32>, %b: memref<256x96xf32>, %c: memref<128x96xf32>) {
  dl.matmul ins(%a, %b : memref<128x256xf32>, memref<256x96xf32>) outs(%c : memref<128x96xf32>)
  return
}

// Prime 67 has no divisor in [32, 64]: the band is split into rows 0..63
// and the remaining 3 rows, both bands whole. 45 and 33 fit. Each part has
// its own fill, from 0, of its rows.
// CHECK-LABEL: func.func @odd
// CHECK: affine.for %{{.*}} = 0 to 64 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 45 {
// CHECK-NEXT: affine.store %cst
// CHECK: affine.for %{{.*}} = 0 to 64 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 45 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 33 {
// CHECK: } {dl.gemm_band}
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 45 {
// CHECK-NEXT: affine.store %cst, %{{.*}}[%[[R]] + 64,
// CHECK: affine.for %{{.*}} = 64 to 67 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 45 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 33 {
// CHECK: } {dl.gemm_band}
// CHECK-NEXT: return
func.func @odd(%a: memref<67x33xf32>, %b: memref<33x45xf32>, %c: memref<67x45xf32>) {
  dl.matmul ins(%a, %b : memref<67x33xf32>, memref<33x45xf32>) outs(%c : memref<67x45xf32>)
  return
}

// Bands that already fit are not tiled.
// CHECK-LABEL: func.func @fits
// CHECK: affine.store %cst
// CHECK: affine.for %{{.*}} = 0 to 64 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 16 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NOT: step
// CHECK: } {dl.gemm_band}
func.func @fits(%a: memref<64x8xf32>, %b: memref<8x16xf32>, %c: memref<64x16xf32>) {
  dl.matmul ins(%a, %b : memref<64x8xf32>, memref<8x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// A GEMM whose calls take one K block (batch_blocks = 1, B's rows streamed):
// the loop over the K blocks stays outside the column tiles, which walk
// along one block of rows after another, and C's fill stays before it.
// Without the bound the column tiles go above it and each call's batch
// runs down all of K.
// CHECK-LABEL: func.func @one_block_a_call
// CHECK: affine.store %cst
// CHECK: affine.for %[[KB:.*]] = 0 to 4 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 2 step 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 256 step 64 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 1 {
// CHECK-NOT: affine.store %cst
// CHECK: } {dl.gemm_band}
// CHECK-NOT: dl.max_batch
// CHECK-LABEL: func.func @unbounded
// CHECK: affine.for %{{.*}} = 0 to 256 step 64 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 4 {
// CHECK: } {dl.gemm_band}
func.func @one_block_a_call(%a: memref<2x32xf32>, %b: memref<32x256xf32>, %c: memref<2x256xf32>) {
  dl.matmul ins(%a, %b : memref<2x32xf32>, memref<32x256xf32>) outs(%c : memref<2x256xf32>) {pack_blocks = array<i64: 2, 256, 8>, batch_blocks = 1 : i64}
  return
}
func.func @unbounded(%a: memref<2x32xf32>, %b: memref<32x256xf32>, %c: memref<2x256xf32>) {
  dl.matmul ins(%a, %b : memref<2x32xf32>, memref<32x256xf32>) outs(%c : memref<2x256xf32>) {pack_blocks = array<i64: 2, 256, 8>}
  return
}

// A fill whose index of C is computed from loops outside both nests the
// same way as the band's (a merged convolution's row 2 * oh + r) moves into
// the tile loops too.
// CHECK-LABEL: func.func @merged_rows
// CHECK: affine.for %[[OH:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[WT:.*]] = 0 to 200 step 50 {
// CHECK-NEXT: affine.for %[[KT:.*]] = 0 to 8 step 8 {
// CHECK-NEXT: affine.for %[[W:.*]] = 0 to 50 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT: affine.store %{{.*}}, %{{.*}}[%[[OH]] * 2 + %[[R]], %[[W]] + %[[WT]], %[[K]] + %[[KT]]]
// CHECK: } {dl.gemm_band}
func.func @merged_rows(%a: memref<4x200x4xf32>, %b: memref<4x8xf32>, %c: memref<4x200x8xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %oh = 0 to 2 {
    affine.for %r = 0 to 2 {
      affine.for %w = 0 to 200 {
        affine.for %k = 0 to 8 {
          affine.store %zero, %c[%oh * 2 + %r, %w, %k] : memref<4x200x8xf32>
        }
      }
      affine.for %w = 0 to 200 {
        affine.for %ch = 0 to 4 {
          affine.for %k = 0 to 8 {
            %x = affine.load %a[%oh * 2 + %r, %w, %ch] : memref<4x200x4xf32>
            %y = affine.load %b[%ch, %k] : memref<4x8xf32>
            %p = arith.mulf %x, %y : f32
            %s = affine.load %c[%oh * 2 + %r, %w, %k] : memref<4x200x8xf32>
            %t = arith.addf %s, %p : f32
            affine.store %t, %c[%oh * 2 + %r, %w, %k] : memref<4x200x8xf32>
          }
        }
      } {dl.gemm_band}
    }
  }
  return
}

// Dynamic trip counts: left alone.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: step
// CHECK: } {dl.gemm_band}
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// A blocked convolution's (ow, c, k) band: ow = 112 is tiled by 56. The
// tiles over ow and k go above the loops over channel blocks and taps, and
// the tile of the input channels below them; each tile zeroes its 56 x 8
// block of the output row before them. The input channels' tile loop, of
// one iteration, is gone: the band sits right inside the loops over channel
// blocks and taps, which dl-outline-microkernels takes as its batch.
// CHECK-LABEL: func.func @conv_wide
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %[[OH:.*]] = 0 to 1 {
// CHECK-NEXT: affine.for %[[OWT:.*]] = 0 to 112 step 56 {
// CHECK-NEXT: affine.for %[[KT:.*]] = 0 to 8 step 8 {
// CHECK-NEXT: affine.for %[[OW:.*]] = 0 to 56 {
// CHECK-NEXT: affine.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT: affine.store %cst, %{{.*}}[%{{.*}}, %{{.*}}, %[[OH]], %[[OW]] + %[[OWT]], %[[K]] + %[[KT]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%[[OWT]]) to #{{.*}}(%[[OWT]]) {
func.func @conv_wide(%in: memref<1x1x1x112x4xf32>, %f: memref<1x1x1x1x4x8xf32>, %out: memref<1x1x1x112x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x1x112x4xf32>, memref<1x1x1x1x4x8xf32>) outs(%out : memref<1x1x1x112x8xf32>)
  return
}

// A prime output width (131) of a blocked convolution: the perfect nest of
// the input-channel blocks, the filter taps and the band is copied, the first
// copy runs columns 0..127 (tiled by 64, the tiles above the taps), the
// second the 3 remaining ones; both keep the tap loops around their band,
// and each its own fill.
// CHECK-LABEL: func.func @conv_prime_width
// CHECK: affine.for %{{.*}} = 0 to 128 step 64 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 step 8 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 64 {
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = #{{.*}}(%{{.*}}) to #{{.*}}(%{{.*}}) {
// CHECK: } {dl.gemm_band}
// CHECK: affine.for %[[R:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT: affine.store %cst, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[R]] + 128,
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 128 to 131 {
// CHECK: } {dl.gemm_band}
func.func @conv_prime_width(%in: memref<1x1x3x133x4xf32>, %f: memref<1x1x3x3x4x8xf32>, %out: memref<1x1x1x131x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x3x133x4xf32>, memref<1x1x3x3x4x8xf32>) outs(%out : memref<1x1x1x131x8xf32>)
  return
}
