// The input copy of a convolution is found through the views
// dl-merge-conv-rows puts between them, and counts as a parallel region of
// its own: a 2 -> 508 channel (512 in blocks) 1x1 convolution of stride 2
// over 4 images of 24x9 (0.5 MFLOP; its subsampling copy from
// dl-reduce-conv-strides, its 12 x 5 output rows merged into one) would
// take 5.54 us at 2 threads, two regions, against 4.98 on one; it runs on
// one thread with its copy (3.6 us measured on one Zen 5 core; 8.9 us at 2
// threads with both in parallel, 4.6 after).
// near-line-us=0 piece-line-us=0: these decisions without the near-write term
// (decide-parallelism-near-writes.mlir tests it).
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-reduce-conv-strides --dl-merge-conv-rows --dl-rank-variants=threads=2 --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 report-fallbacks" --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @strided_pointwise
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x1x12x5x2xf32>
// CHECK: affine.store {{.*}}, %[[COPY]]
// CHECK: } {dl.sequential}
// CHECK: memref.collapse_shape %[[COPY]]
// CHECK: dl.conv2d {{.*}} {dl.sequential,
func.func @strided_pointwise(%in: memref<4x1x24x9x2xf32>, %f: memref<8x1x1x1x2x64xf32>, %out: memref<4x8x12x5x64xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread: modeled 4.98 us on one thread, 5.54 us on 2 threads at best (loop 1 (kb, 2 iterations))}}
  dl.conv2d ins(%in, %f : memref<4x1x24x9x2xf32>, memref<8x1x1x1x2x64xf32>) outs(%out : memref<4x8x12x5x64xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>}
  return
}
