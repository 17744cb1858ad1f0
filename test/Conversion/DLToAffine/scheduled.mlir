// How convert-dl-to-affine applies a #dl.schedule: the outer loops in the
// schedule's order, a tiled dimension as tile loop * tile + point loop, the
// parallel loop tagged, the batch-reduce and the GEMM band unchanged inside.
// RUN: dl-opt %s --convert-dl-to-affine --split-input-file | FileCheck %s

// kb tiled by 3 outermost, then oh, n, and the point loop of kb; loop 1 (oh)
// parallel. Then the zeroing of the output row, (cb, r, s) and the band
// (ow, c, k).
// CHECK-LABEL: func @conv
// CHECK:      affine.for %[[KT:.*]] = 0 to 2 {
// CHECK-NEXT:   affine.for %[[OH:.*]] = 0 to 8 {
// CHECK-NEXT:     affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT:       affine.for %[[KP:.*]] = 0 to 3 {
// CHECK-NEXT:         affine.for %[[ZW:.*]] = 0 to 8 {
// CHECK-NEXT:           affine.for %[[ZK:.*]] = 0 to 4 {
// CHECK-NEXT:             affine.store %{{.*}}, %{{.*}}[%[[N]], %[[KT]] * 3 + %[[KP]], %[[OH]], %[[ZW]], %[[ZK]]]
// CHECK-NEXT:           }
// CHECK-NEXT:         }
// CHECK-NEXT:         affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT:           affine.for %[[R:.*]] = 0 to 1 {
// CHECK-NEXT:             affine.for %[[S:.*]] = 0 to 1 {
// CHECK-NEXT:               affine.for %[[OW:.*]] = 0 to 8 {
// CHECK-NEXT:                 affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT:                   affine.for %[[K:.*]] = 0 to 4 {
// CHECK-NEXT:                     affine.load %{{.*}}[%[[N]], %[[CB]], %[[OH]] + %[[R]], %[[S]] + %[[OW]], %[[C]]]
// CHECK-NEXT:                     affine.load %{{.*}}[%[[KT]] * 3 + %[[KP]], %[[CB]], %[[R]], %[[S]], %[[C]], %[[K]]]
// CHECK:                          affine.store %{{.*}}, %{{.*}}[%[[N]], %[[KT]] * 3 + %[[KP]], %[[OH]], %[[OW]], %[[K]]]
// CHECK:                        } {dl.gemm_band}
// CHECK:          } {dl.parallel}
func.func @conv(%in: memref<1x2x8x8x4xf32>, %f: memref<6x2x1x1x4x4xf32>, %out: memref<1x6x8x8x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<6x2x1x1x4x4xf32>) outs(%out : memref<1x6x8x8x4xf32>) {schedule = #dl.schedule<[kb:3, oh, n, kb], parallel = 1>}
  return
}

// -----

// K blocks tiled by 2 outermost (C is revisited per K tile), then j, i and
// the K-block point loop right around the band (the brgemm batch).
// CHECK-LABEL: func @gemm
// CHECK:      affine.for %[[KT:.*]] = 0 to 2 {
// CHECK-NEXT:   affine.for %[[J:.*]] = 0 to 2 {
// CHECK-NEXT:     affine.for %[[I:.*]] = 0 to 2 {
// CHECK-NEXT:       affine.for %[[KP:.*]] = 0 to 2 {
// CHECK-NEXT:         affine.for %[[BM:.*]] = 0 to 4 {
// CHECK-NEXT:           affine.for %[[BN:.*]] = 0 to 8 {
// CHECK-NEXT:             affine.for %[[BK:.*]] = 0 to 2 {
// CHECK-NEXT:               affine.load %arg0[%[[I]] * 4 + %[[BM]], (%[[KT]] * 2 + %[[KP]]) * 2 + %[[BK]]]
// CHECK-NEXT:               affine.load %arg1[(%[[KT]] * 2 + %[[KP]]) * 2 + %[[BK]], %[[J]] * 8 + %[[BN]]]
// CHECK:                  } {dl.gemm_band}
// CHECK-NOT: dl.parallel
func.func @gemm(%a: memref<8x8xf32>, %b: memref<8x16xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<8x8xf32>, memref<8x16xf32>) outs(%c : memref<8x16xf32>) {beta = 1.0 : f32, pack_blocks = array<i64: 4, 8, 2>, schedule = #dl.schedule<[k:2, j, i, k]>}
  return
}

// -----

// Tiles at several levels and input-channel blocks in the schedule: kb in
// groups of 4, then of 2, then blocks (kb = 4 * t + 2 * u + v); cb in groups
// of 2 outside oh, its point loop last, right around the taps (r, s): the
// batch of the batch-reduce. The output tile the cb loops accumulate into
// (4 kb blocks x all oh) is zeroed right before the outer cb loop.
// CHECK-LABEL: func @conv_multi_level
// CHECK:      affine.for %[[N:.*]] = 0 to 1 {
// CHECK-NEXT:   affine.for %[[KT:.*]] = 0 to 2 {
// CHECK-NEXT:     affine.for %[[ZB:.*]] = 0 to 4 {
// CHECK-NEXT:       affine.for %[[ZH:.*]] = 0 to 8 {
// CHECK-NEXT:         affine.for %[[ZW:.*]] = 0 to 8 {
// CHECK-NEXT:           affine.for %[[ZK:.*]] = 0 to 4 {
// CHECK-NEXT:             affine.store %{{.*}}, %{{.*}}[%[[N]], %[[KT]] * 4 + %[[ZB]], %[[ZH]], %[[ZW]], %[[ZK]]]
// CHECK:          affine.for %[[CT:.*]] = 0 to 2 {
// CHECK-NEXT:       affine.for %[[OH:.*]] = 0 to 8 {
// CHECK-NEXT:         affine.for %[[KU:.*]] = 0 to 2 {
// CHECK-NEXT:           affine.for %[[KV:.*]] = 0 to 2 {
// CHECK-NEXT:             affine.for %[[CP:.*]] = 0 to 2 {
// CHECK-NEXT:               affine.for %[[R:.*]] = 0 to 1 {
// CHECK-NEXT:                 affine.for %[[S:.*]] = 0 to 1 {
// CHECK-NEXT:                   affine.for %[[OW:.*]] = 0 to 8 {
// CHECK-NEXT:                     affine.for %[[C:.*]] = 0 to 4 {
// CHECK-NEXT:                       affine.for %[[K:.*]] = 0 to 4 {
// CHECK-NEXT:                         affine.load %{{.*}}[%[[N]], %[[CT]] * 2 + %[[CP]], %[[OH]] + %[[R]], %[[S]] + %[[OW]], %[[C]]]
// CHECK-NEXT:                         affine.load %{{.*}}[%[[KT]] * 4 + %[[KU]] * 2 + %[[KV]], %[[CT]] * 2 + %[[CP]], %[[R]], %[[S]], %[[C]], %[[K]]]
// CHECK:                              affine.store %{{.*}}, %{{.*}}[%[[N]], %[[KT]] * 4 + %[[KU]] * 2 + %[[KV]], %[[OH]], %[[OW]], %[[K]]]
// CHECK:                            } {dl.gemm_band}
func.func @conv_multi_level(%in: memref<1x4x8x8x4xf32>, %f: memref<8x4x1x1x4x4xf32>, %out: memref<1x8x8x8x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x8x8x4xf32>, memref<8x4x1x1x4x4xf32>) outs(%out : memref<1x8x8x8x4xf32>) {schedule = #dl.schedule<[n, kb:4, cb:2, oh, kb:2, kb, cb]>}
  return
}

// -----

// The column-padded copy of a convolution whose parallel loop is over the
// output rows runs over the input rows outermost, tagged parallel, so each
// thread copies the rows it reads; the images and channel blocks inside.
// CHECK-LABEL: func @padded_rows_parallel
// CHECK:      %[[PAD:.*]] = memref.alloc() : memref<2x2x8x10x4xf32>
// CHECK:      affine.for %[[H:.*]] = 0 to 8 {
// CHECK-NEXT:   affine.for %[[N:.*]] = 0 to 2 {
// CHECK-NEXT:     affine.for %[[CB:.*]] = 0 to 2 {
// CHECK:            affine.store %{{.*}}, %[[PAD]][%[[N]], %[[CB]], %[[H]], %{{.*}}, %{{.*}}]
// CHECK:      } {dl.parallel}
// CHECK:      affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT:   affine.for %{{.*}} = 0 to 8 {
// CHECK:        } {dl.parallel}
func.func @padded_rows_parallel(%in: memref<2x2x8x8x4xf32>, %f: memref<1x2x3x3x4x4xf32>, %out: memref<2x1x8x8x4xf32>) {
  dl.conv2d ins(%in, %f : memref<2x2x8x8x4xf32>, memref<1x2x3x3x4x4xf32>) outs(%out : memref<2x1x8x8x4xf32>) {padding = array<i64: 1, 1, 1, 1>, schedule = #dl.schedule<[kb, oh, n], parallel = 1>}
  return
}

// -----

// Over the images: the copy's loop over them is its outermost, tagged.
// CHECK-LABEL: func @padded_images_parallel
// CHECK:      %[[PAD:.*]] = memref.alloc() : memref<2x2x8x10x4xf32>
// CHECK:      affine.for %[[N:.*]] = 0 to 2 {
// CHECK-NEXT:   affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT:     affine.for %[[H:.*]] = 0 to 8 {
// CHECK:            affine.store %{{.*}}, %[[PAD]][%[[N]], %[[CB]], %[[H]], %{{.*}}, %{{.*}}]
// CHECK:      } {dl.parallel}
func.func @padded_images_parallel(%in: memref<2x2x8x8x4xf32>, %f: memref<1x2x3x3x4x4xf32>, %out: memref<2x1x8x8x4xf32>) {
  dl.conv2d ins(%in, %f : memref<2x2x8x8x4xf32>, memref<1x2x3x3x4x4xf32>) outs(%out : memref<2x1x8x8x4xf32>) {padding = array<i64: 1, 1, 1, 1>, schedule = #dl.schedule<[n, kb, oh], parallel = 0>}
  return
}

// -----

// Over the output-channel blocks, every thread reads all of the input: the
// copy is left to dl-parallelize-outer-loops (no tag).
// CHECK-LABEL: func @padded_channels_parallel
// CHECK:      %[[PAD:.*]] = memref.alloc() : memref<1x2x8x10x4xf32>
// CHECK:      affine.for %{{.*}} = 0 to 1 {
// CHECK-NEXT:   affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT:     affine.for %{{.*}} = 0 to 8 {
// CHECK-NOT:  dl.parallel
// CHECK:      affine.for %{{.*}} = 0 to 2 {
// CHECK:      } {dl.parallel}
func.func @padded_channels_parallel(%in: memref<1x2x8x8x4xf32>, %f: memref<2x2x3x3x4x4xf32>, %out: memref<1x2x8x8x4xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x8x8x4xf32>, memref<2x2x3x3x4x4xf32>) outs(%out : memref<1x2x8x8x4xf32>) {padding = array<i64: 1, 1, 1, 1>, schedule = #dl.schedule<[kb, n, oh], parallel = 0>}
  return
}
