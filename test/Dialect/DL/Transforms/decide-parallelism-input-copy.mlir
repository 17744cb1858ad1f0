// A convolution whose input is a copy made for it (dl-fold-filter-columns:
// 3 channels times 5 filter columns) reads the part of the copy another
// thread wrote unless the copy runs divided as its parallel loop divides
// its reads: over the images or the output rows, the copy is divided over
// the same dimension (alignInputCopy), and dl-decide-parallelism counts the
// copy's own parallel region but no bytes handed over. A convolution run
// on one thread (3 -> 11 channels, 3 images of 13x13, 5x5: its loop over
// the images would take 5.90 us at 2 threads, two regions, against 4.36 on
// one; in the pipeline's schedule, its loop over the output rows 5.38) has
// its copy made on that thread too.
// RUN: dl-compile %s --threads=2 --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-fold-filter-columns --dl-rank-variants --dl-decide-parallelism="threads=2 report-fallbacks" --verify-diagnostics | FileCheck %s

// PIPELINE: remark: dl-decide-parallelism: runs on one thread: modeled 4.36 us on one thread, 5.38 us on 2 threads at best (loop 1 (oh, 11 iterations))

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

// 2 -> 12 channels, 3 images of 104x104, 7x7 stride 2: its output rows run
// in parallel, and the copy's loop over the input rows moves outermost and
// runs in parallel alone, so each thread copies the rows it reads (divided
// over the images and rows together, the copy handed about half of its
// rows to the other core: 110 us at 2 threads against 94 aligned).
// CHECK-LABEL: func.func @aligned_rows
// CHECK: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x1x104x50x14xf32>
// CHECK: affine.for %[[H:.*]] = 0 to 104 {
// CHECK-NEXT: affine.for %[[N:.*]] = 0 to 3 {
// CHECK: affine.store {{.*}}, %[[COPY]][%[[N]], 0, %[[H]],
// CHECK: } {dl.parallel}
// CHECK: dl.conv2d ins(%[[COPY]], {{.*}}) {{.*}}schedule = #dl.schedule<[kb, n, oh], parallel = 2>
func.func @aligned_rows(%in: memref<3x1x104x104x2xf32>, %f: memref<1x1x7x7x2x12xf32>, %out: memref<3x1x50x50x12xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: loop 2 (oh, 50 iterations) runs in parallel}}
  dl.conv2d ins(%in, %f : memref<3x1x104x104x2xf32>, memref<1x1x7x7x2x12xf32>) outs(%out : memref<3x1x50x50x12xf32>)
      {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
  return
}
