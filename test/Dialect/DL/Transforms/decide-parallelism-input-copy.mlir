// A convolution whose input is a copy made for it (dl-fold-filter-columns:
// 3 channels times 5 filter columns) reads the part of the copy another
// thread wrote when its parallel loop does not divide the copy as the copy
// divides it (over the images): dl-decide-parallelism counts those bytes
// as handed over, and the copy's own parallel region; a convolution run on
// one thread (3 -> 11 channels, 3 images of 13x13, 5x5: its loop over the 3
// images would take 5.90 us at 2 threads, two regions, against 4.36 on one)
// has its copy made on that thread too. In the pipeline its schedule runs
// the 11 output rows in parallel, which with half the copy from the other
// core's cache would take 6.02 us (16 us measured at 2 threads, 11 on one).
// RUN: dl-compile %s --threads=2 --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-fold-filter-columns --dl-rank-variants --dl-decide-parallelism="threads=2 report-fallbacks" --verify-diagnostics | FileCheck %s

// PIPELINE: remark: dl-decide-parallelism: runs on one thread: modeled 4.36 us on one thread, 6.02 us on 2 threads at best (loop 1 (oh, 11 iterations))

// CHECK-LABEL: func.func @folded_columns
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x1x13x11x15xf32>
// CHECK: affine.store {{.*}}, %[[COPY]]
// CHECK: } {dl.sequential}
// CHECK: dl.conv2d ins(%[[COPY]], {{.*}}) {dl.sequential,
func.func @folded_columns(%in: memref<3x1x13x13x3xf32>, %f: memref<1x1x5x5x3x11xf32>, %out: memref<3x1x11x11x11xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread: modeled 4.36 us on one thread, 5.90 us on 2 threads at best (loop 1 (n, 3 iterations))}}
  dl.conv2d ins(%in, %f : memref<3x1x13x13x3xf32>, memref<1x1x5x5x3x11xf32>) outs(%out : memref<3x1x11x11x11xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}
