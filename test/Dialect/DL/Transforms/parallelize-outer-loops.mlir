// dl-parallelize-outer-loops: the dependence-free outer loops of each nest
// become one affine.parallel (coalesced when several); reductions and the
// innermost loop stay sequential; no more loops once they make
// min-iterations together, or, with threads, a multiple of the threads or
// 8 iterations per thread.
// RUN: dl-opt %s --dl-set-target=vector-bits=512 --dl-decide-panels --convert-dl-to-affine --dl-tile-gemm-bands=max-block=64 --dl-parallelize-outer-loops --canonicalize | FileCheck %s
// RUN: dl-opt %s --dl-set-target=vector-bits=512 --dl-decide-panels --convert-dl-to-affine --dl-tile-gemm-bands=max-block=64 --dl-parallelize-outer-loops=min-iterations=6 --canonicalize | FileCheck %s --check-prefix=MIN6
// RUN: dl-opt %s --dl-set-target=vector-bits=512 --dl-decide-panels --convert-dl-to-affine --dl-tile-gemm-bands=max-block=64 --dl-parallelize-outer-loops=threads=2 --canonicalize | FileCheck %s --check-prefix=THREADS2
// RUN: dl-opt %s --dl-set-target=vector-bits=512 --dl-decide-panels --convert-dl-to-affine --dl-tile-gemm-bands=max-block=64 --dl-parallelize-outer-loops=threads=4 --canonicalize | FileCheck %s --check-prefix=THREADS4
// RUN: not dl-opt %s --dl-parallelize-outer-loops=min-iterations=0 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: not dl-opt %s --dl-parallelize-outer-loops=threads=-1 2>&1 | FileCheck %s --check-prefix=INVALID-THREADS

// INVALID: error: dl-parallelize-outer-loops: min-iterations must be >= 1
// INVALID-THREADS: error: dl-parallelize-outer-loops: threads must be >= 0

// Tiled GEMM 128 x 96 x 256: the i and j tile loops (2 x 2) are parallel,
// each zeroing its block of C (dl-tile-gemm-bands moved the fill there), the
// K-tile loop carries the reduction.
// CHECK-LABEL: func.func @matmul
// CHECK: affine.parallel (%[[T:.*]]) = (0) to (4) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 64 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 48 {
// CHECK-NEXT: affine.store
// CHECK: affine.for %{{.*}} = 0 to 256 step 64 {
// CHECK: } {dl.gemm_band}
func.func @matmul(%a: memref<128x256xf32>, %b: memref<256x96xf32>, %c: memref<128x96xf32>) {
  dl.matmul ins(%a, %b : memref<128x256xf32>, memref<256x96xf32>) outs(%c : memref<128x96xf32>)
  return
}

// Blocked convolution: n, k_blk and oh (2 x 3 x 5 = 30 iterations) run in
// parallel; c_blk is a reduction. At 2 threads the 2 images keep both busy
// alone; 4 threads need n and k_blk (6 iterations: two threads run one
// more than the others, and the next loop would make 30, not a multiple of
// 4 either).
// THREADS2-LABEL: func.func @conv
// THREADS2: affine.parallel (%{{.*}}) = (0) to (2) {
// THREADS2-NEXT: affine.for %{{.*}} = 0 to 3 {
// THREADS4-LABEL: func.func @conv
// THREADS4: affine.parallel (%{{.*}}) = (0) to (30) {
// CHECK-LABEL: func.func @conv
// CHECK: affine.parallel (%{{.*}}) = (0) to (30) {
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 3 {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 5 {
func.func @conv(%in: memref<2x2x7x7x16xf32>, %f: memref<3x2x3x3x16x8xf32>, %out: memref<2x3x5x5x8xf32>) {
  dl.conv2d ins(%in, %f : memref<2x2x7x7x16xf32>, memref<3x2x3x3x16x8xf32>) outs(%out : memref<2x3x5x5x8xf32>)
  return
}

// Element-wise: all loops but the innermost, over the vectors of a row
// (2 x 3 x 4 < 256 iterations); with min-iterations=6, the first two
// (2 x 3), then the loop over 4 inside; at 2 threads the first alone, at 4
// threads all three (2 x 3 x 4 = 24).
// THREADS2-LABEL: func.func @relu
// THREADS2: affine.parallel (%{{.*}}) = (0) to (2) {
// THREADS2-NEXT: affine.for %{{.*}} = 0 to 3 {
// THREADS4-LABEL: func.func @relu
// THREADS4: affine.parallel (%{{.*}}) = (0) to (24) {
// THREADS4-NEXT: affine.for %{{.*}} = 0 to 32 step 16 {
// CHECK-LABEL: func.func @relu
// CHECK: affine.parallel (%{{.*}}) = (0) to (24) {
// CHECK-NEXT: affine.for %{{.*}} = 0 to 32 step 16 {
// MIN6-LABEL: func.func @relu
// MIN6: affine.parallel (%{{.*}}) = (0) to (6) {
// MIN6-NEXT: affine.for %{{.*}} = 0 to 4 {
// MIN6-NEXT: affine.for %{{.*}} = 0 to 32 step 16 {
func.func @relu(%x: memref<2x3x4x40xf32>) {
  dl.relu ins(%x : memref<2x3x4x40xf32>) outs(%x : memref<2x3x4x40xf32>)
  return
}

// Batch-norm training carries statistics in iter_args: only the loop over
// channels (no iter_args) runs in parallel.
// CHECK-LABEL: func.func @bn_training
// CHECK: affine.parallel (%{{.*}}) = (0) to (3) {
// CHECK: iter_args
func.func @bn_training(%x: memref<2x3x4x5xf32>, %g: memref<3xf32>, %b: memref<3xf32>, %y: memref<2x3x4x5xf32>, %m: memref<3xf32>, %v: memref<3xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
                         outs(%y, %m, %v : memref<2x3x4x5xf32>, memref<3xf32>, memref<3xf32>)
  return
}

// Dynamic bounds are left sequential.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @dynamic(%x: memref<?x?xf32>) {
  dl.relu ins(%x : memref<?x?xf32>) outs(%x : memref<?x?xf32>)
  return
}

// A schedule's parallel loop (here the second, oh) runs in parallel alone;
// the loop outside it stays sequential.
// CHECK-LABEL: func.func @scheduled_conv
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.parallel (%{{.*}}) = (0) to (8) {
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @scheduled_conv(%in: memref<1x2x8x8x4xf32>, %f: memref<6x2x1x1x4x4xf32>, %out: memref<1x6x8x8x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<6x2x1x1x4x4xf32>) outs(%out : memref<1x6x8x8x4xf32>) {schedule = #dl.schedule<[kb:3, oh, n, kb], parallel = 1>}
  return
}

// A parallel loop over a reduction dimension would race: it stays
// sequential (and no other loop is taken instead).
// CHECK-LABEL: func.func @scheduled_gemm_reduction
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @scheduled_gemm_reduction(%a: memref<8x8xf32>, %b: memref<8x16xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x8xf32>, memref<8x16xf32>) outs(%c : memref<8x16xf32>) {beta = 1.0 : f32, pack_blocks = array<i64: 4, 8, 2>, schedule = #dl.schedule<[k:2, j, i, k], parallel = 0>}
  return
}

// The schedule's parallel loop (j) is below the K tile loop, after the
// beta scaling of the C tile the K tiles accumulate into: the nest is not
// perfect down to it, and it still runs in parallel alone (inside the
// sequential K tile loop; the tile's scaling stays sequential before it).
// CHECK-LABEL: func.func @scheduled_gemm_below_reduction
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK: arith.mulf
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT: affine.parallel (%{{.*}}) = (0) to (2) {
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @scheduled_gemm_below_reduction(%a: memref<8x8xf32>, %b: memref<8x16xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x8xf32>, memref<8x16xf32>) outs(%c : memref<8x16xf32>) {beta = 0.5 : f32, pack_blocks = array<i64: 4, 8, 2>, schedule = #dl.schedule<[i, k:2, j, k], parallel = 2>}
  return
}

// The schedule's parallel loop (i) copies A's panel into a scratch that each
// iteration allocates and frees: private to the iteration, so the loop still
// runs in parallel, with the scratch inside it.
// CHECK-LABEL: func.func @scheduled_gemm_private_panel
// CHECK: affine.parallel (%{{.*}}) = (0) to (2) {
// CHECK-NEXT: %[[PANEL:.*]] = memref.alloc() {{.*}} : memref<2x4x2xf32>
// CHECK: memref.dealloc %[[PANEL]]
// CHECK-NEXT: }
func.func @scheduled_gemm_private_panel(%a: memref<8x8xf32>, %b: memref<8x16xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x8xf32>, memref<8x16xf32>) outs(%c : memref<8x16xf32>) {pack_a, pack_b, pack_blocks = array<i64: 4, 8, 2>, schedule = #dl.schedule<[k:2, i, j, k], parallel = 1>}
  return
}

// A pixel_vectors convolution with padding copies each row tile's input
// rows into a window the tile allocates and frees: private to the
// iteration, so the loops over images and row tiles run in parallel.
// CHECK-LABEL: func.func @pixel_vectors_windows
// CHECK: affine.parallel (%{{.*}}) = (0) to (6) {
// CHECK-NEXT: memref.alloc() {{.*}} : memref<2x6x18xf32>
// CHECK: memref.dealloc
// CHECK-NEXT: }
func.func @pixel_vectors_windows(%x: memref<2x2x12x16xf32>, %w: memref<3x2x3x3xf32>, %y: memref<2x3x12x16xf32>) {
  dl.conv2d ins(%x, %w : memref<2x2x12x16xf32>, memref<3x2x3x3xf32>) outs(%y : memref<2x3x12x16xf32>) {padding = array<i64: 1, 1, 1, 1>, pixel_vectors}
  return
}

// Without a schedule, packed operands are copied before the nest (no panel
// shared by the outer iterations): the outer block loops run in parallel.
// CHECK-LABEL: func.func @unscheduled_packed_gemm
// CHECK: affine.parallel (%{{.*}}) = (0) to (4) {
// CHECK: } {dl.gemm_band}
func.func @unscheduled_packed_gemm(%a: memref<8x8xf32>, %b: memref<8x16xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x8xf32>, memref<8x16xf32>) outs(%c : memref<8x16xf32>) {pack_a, pack_b, pack_blocks = array<i64: 4, 8, 2>}
  return
}

// A nest marked dl.sequential (the lowering of an op dl-decide-parallelism
// runs on one thread) stays sequential, a GEMM band tiled by
// dl-tile-gemm-bands included (the mark goes to its new outermost loop).
// CHECK-LABEL: func.func @sequential
// CHECK-NOT: affine.parallel
// CHECK: return
// THREADS2-LABEL: func.func @sequential
// THREADS2-NOT: affine.parallel
// THREADS2: return
func.func @sequential(%x: memref<8x16xf32>, %a: memref<128x256xf32>, %b: memref<256x96xf32>, %c: memref<128x96xf32>) {
  dl.relu ins(%x : memref<8x16xf32>) outs(%x : memref<8x16xf32>) {dl.sequential}
  dl.matmul ins(%a, %b : memref<128x256xf32>, memref<256x96xf32>) outs(%c : memref<128x96xf32>) {dl.sequential}
  return
}

// The versions of a dynamic op (dl-parametric-versioning) are nests of their
// own: under the guards that select them and inside the loop over the whole
// chunks, which stays sequential; a nest under any other affine.if is not a
// root.
// CHECK-LABEL: func.func @versions
// CHECK: affine.for %{{.*}} = 0 to #{{.*}}()[%{{.*}}] {
// CHECK:   affine.parallel
// CHECK: } {dl.version_chunks
// CHECK: affine.if
// CHECK:   affine.parallel
// CHECK: } {dl.version_guard}
// CHECK: affine.if
// CHECK-NOT: affine.parallel
// CHECK: return
#chunks = affine_map<()[s0] -> (s0 floordiv 4)>
#bit = affine_set<()[s0] : (s0 mod 4 - 2 >= 0)>
func.func @versions(%x: memref<?x64xf32>, %n: index) {
  affine.for %i = 0 to #chunks()[%n] {
    %v = memref.subview %x[%i, 0] [4, 64] [1, 1] : memref<?x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
    dl.relu ins(%v : memref<4x64xf32, strided<[64, 1], offset: ?>>) outs(%v : memref<4x64xf32, strided<[64, 1], offset: ?>>)
  } {dl.version_chunks = {parameter = "M", size = 4 : i64}}
  affine.if #bit()[%n] {
    %v = memref.subview %x[0, 0] [2, 64] [1, 1] : memref<?x64xf32> to memref<2x64xf32, strided<[64, 1]>>
    dl.relu ins(%v : memref<2x64xf32, strided<[64, 1]>>) outs(%v : memref<2x64xf32, strided<[64, 1]>>)
  } {dl.version_guard}
  affine.if #bit()[%n] {
    %v = memref.subview %x[0, 0] [2, 64] [1, 1] : memref<?x64xf32> to memref<2x64xf32, strided<[64, 1]>>
    dl.relu ins(%v : memref<2x64xf32, strided<[64, 1]>>) outs(%v : memref<2x64xf32, strided<[64, 1]>>)
  }
  return
}

// An odd number of rows: at 2 threads, 17 rows (8 or 9 each) run in
// parallel alone, the loop over pixels inside them stays whole; 7 rows (3 or
// 4 each) are coalesced with the pixels (7 x 6 = 42, a multiple of 2). At 4
// threads, 17 rows are short of 32: coalesced (17 x 6 = 102, 8 times 4).
// THREADS2-LABEL: func.func @odd_rows
// THREADS2: affine.parallel (%{{.*}}) = (0) to (17) {
// THREADS2-NEXT: affine.for %{{.*}} = 0 to 6 {
// THREADS2: affine.parallel (%{{.*}}) = (0) to (42) {
// THREADS4-LABEL: func.func @odd_rows
// THREADS4: affine.parallel (%{{.*}}) = (0) to (102) {
func.func @odd_rows(%x: memref<17x6x16xf32>, %y: memref<7x6x16xf32>) {
  %cst = arith.constant 0.0 : f32
  affine.for %i = 0 to 17 {
    affine.for %j = 0 to 6 {
      affine.for %k = 0 to 16 {
        affine.store %cst, %x[%i, %j, %k] : memref<17x6x16xf32>
      }
    }
  }
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 6 {
      affine.for %k = 0 to 16 {
        affine.store %cst, %y[%i, %j, %k] : memref<7x6x16xf32>
      }
    }
  }
  return
}
