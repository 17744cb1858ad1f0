// dl-decide-parallelism at 2 threads: an op whose modeled parallel time does
// not beat one thread by the margin runs on one thread (dl.sequential, and
// its schedule no parallel loop); a heavy op runs the loop of its schedule
// with the least modeled time (imbalance, forks and joins, bytes handed
// between threads), which may not be the outermost long enough for the
// threads. Large ops keep the ranking's loop. At 1 thread nothing changes.
// dl-decide-panels runs first, as in the pipeline: the modeled nests copy
// GEMM panels where the lowering will. The modeled times below are with a
// fork and join of 3 us (`fork-join-us=3`, pinned: the default follows the
// measured cost of a region).
// near-line-us=0 piece-line-us=0: these decisions without the near-write term
// (decide-parallelism-near-writes.mlir tests it).
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-panels --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 fork-join-us=3 report-fallbacks" --verify-diagnostics | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-panels --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 fork-join-us=3" --convert-dl-to-affine --dl-parallelize-outer-loops=threads=2 | FileCheck %s --check-prefix=LOOPS
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-panels --dl-decide-parallelism | FileCheck %s --check-prefix=ONE
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-panels --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 fork-join-us=0" | FileCheck %s --check-prefix=FREE
// RUN: not dl-opt %s --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 core-gflops=-1" 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-panels --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0 fork-join-us=3 report-fallbacks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2
// The core rate follows the vector width (Target::coreGflops): 200 GFLOPS at
// 512 bits, 100 at 256, so 64 x 64 x 64 is modeled at twice the time.
// AVX2: modeled 5.82 us on one thread, no loop over a non-reduction dimension

// INVALID: error: dl-decide-parallelism: core-bandwidth, handoff-bandwidth and margin must be > 0, core-gflops, shared-line-us and piece-line-us >= 0, fork-join-us and near-line-us >= 0 or -1 (the target's)
// ONE-LABEL: func.func @small_gemm
// ONE-NOT: dl.sequential
// ONE-LABEL: func.func @conv_three_blocks
// ONE: parallel = 1
// ONE-LABEL: func.func @small_relu
// ONE-NOT: dl.sequential
// ONE: return

// A 64x64x64 GEMM is one block: no loop has 2 iterations, and 2.9 us of
// work would not pay for a fork and join anyway (its FLOPs take 2.6 us at
// the core's rate, which calls of 64 steps reach 64/71 of).
// CHECK-LABEL: func.func @small_gemm
// CHECK: dl.matmul
// CHECK-SAME: dl.sequential
// CHECK-SAME: schedule = #dl.schedule<[i, j, k]>}
// LOOPS-LABEL: func.func @small_gemm
// LOOPS-NOT: affine.parallel
// LOOPS: return
func.func @small_gemm(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread: modeled 2.91 us on one thread, no loop over a non-reduction dimension has more than one iteration}}
  dl.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>) {pack_blocks = array<i64: 64, 64, 64>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// square_1k as ranked at 2 threads: 16 column panels, balanced; it keeps
// its loop (no remark).
// CHECK-LABEL: func.func @large_gemm
// CHECK-NOT: dl.sequential
// CHECK: schedule = #dl.schedule<[j, i, k], parallel = 0>}
func.func @large_gemm(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>, %c: memref<1024x1024xf32>) {
  dl.matmul ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>) {batch_blocks = 4 : i64, pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[j, i, k], parallel = 0>}
  return
}

// 128x128x128 with B packed before the nest and the row blocks in
// parallel: each thread reads the half of packed B the other wrote (32 KiB
// at handoff-bandwidth), which with two regions leaves no gain.
// CHECK-LABEL: func.func @gemm_shared_b
// CHECK: dl.sequential
// CHECK-SAME: schedule = #dl.schedule<[i, j, k]>}
func.func @gemm_shared_b(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread: modeled 22.12 us on one thread, 20.34 us on 2 threads at best (loop 0 (i, 2 iterations))}}
  dl.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>) {pack_b, pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  return
}

// 128x832x128 with B packed before the nest: each thread of the row loop
// (2 iterations) reads all of packed B, half of it written by the other
// thread (213 KB handed over); each thread of the column loop (13
// iterations, 7 for the busiest) reads only its columns' blocks (115 KB),
// which outweighs the imbalance (measured 0.098 against 0.112 ms, 0.138 on
// one thread).
// CHECK-LABEL: func.func @gemm_wide_shared_b
// CHECK: schedule = #dl.schedule<[i, j, k], parallel = 1>}
func.func @gemm_wide_shared_b(%a: memref<128x128xf32>, %b: memref<128x832xf32>, %c: memref<128x832xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: loop 1 (j, 13 iterations) runs in parallel: modeled 97.88 us on 2 threads against 143.77 us on one thread (instead of loop 0 (i, 2 iterations): 99.18 us)}}
  dl.matmul ins(%a, %b : memref<128x128xf32>, memref<128x832xf32>) outs(%c : memref<128x832xf32>) {pack_b, pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  return
}

// The same GEMM with the column blocks in parallel: each copies its own
// panel of B in the nest; one region, nothing handed over.
// CHECK-LABEL: func.func @gemm_b_panels
// CHECK-NOT: dl.sequential
// CHECK: schedule = #dl.schedule<[j, i, k], parallel = 0>}
func.func @gemm_b_panels(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  dl.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>) {pack_b, pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[j, i, k], parallel = 0>}
  return
}

// A schedule whose parallel loop has one iteration (M is one block): the
// column blocks run in parallel instead.
// CHECK-LABEL: func.func @gemm_one_row_block
// CHECK: schedule = #dl.schedule<[i, j, k], parallel = 1>}
// LOOPS-LABEL: func.func @gemm_one_row_block
// LOOPS: affine.for %{{.*}} = 0 to 1 {
// LOOPS-NEXT: affine.parallel (%{{.*}}) = (0) to (32) {
func.func @gemm_one_row_block(%a: memref<64x256xf32>, %b: memref<256x2048xf32>, %c: memref<64x2048xf32>) {
  dl.matmul ins(%a, %b : memref<64x256xf32>, memref<256x2048xf32>) outs(%c : memref<64x2048xf32>) {pack_blocks = array<i64: 64, 64, 128>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  return
}

// Three output-channel blocks at 2 threads: one thread would compute two
// of them; the 28 output rows inside divide evenly (with the padded copy,
// 2 forks).
// CHECK-LABEL: func.func @conv_three_blocks
// CHECK: schedule = #dl.schedule<[n, kb, oh], parallel = 2>}
func.func @conv_three_blocks(%in: memref<1x1x28x28x64xf32>, %f: memref<3x1x3x3x64x64xf32>, %out: memref<1x3x28x28x64xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: loop 2 (oh, 28 iterations) runs in parallel: modeled 445.52 us on 2 threads against 867.04 us on one thread (instead of loop 1 (kb, 3 iterations): 594.78 us)}}
  dl.conv2d ins(%in, %f : memref<1x1x28x28x64xf32>, memref<3x1x3x3x64x64xf32>) outs(%out : memref<1x3x28x28x64xf32>) {padding = array<i64: 1, 1, 1, 1>, schedule = #dl.schedule<[n, kb, oh], parallel = 1>}
  return
}

// A blocked convolution whose 13-channel output block fills 13 of its
// kernels' 16 lanes runs at 13/16 of the core's rate: 1.02 MFLOP modeled at
// 6.27 us (5.10 at the full rate), still short of paying for 2 threads
// over 5 output rows.
// CHECK-LABEL: func.func @conv_partial_lanes
// CHECK: dl.sequential
func.func @conv_partial_lanes(%in: memref<1x1x16x16x32xf32>, %f: memref<1x1x7x7x32x13xf32>, %out: memref<1x1x5x5x13xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread: modeled 6.27 us on one thread, 6.76 us on 2 threads at best (loop 2 (oh, 5 iterations))}}
  dl.conv2d ins(%in, %f : memref<1x1x16x16x32xf32>, memref<1x1x7x7x32x13xf32>) outs(%out : memref<1x1x5x5x13xf32>) {strides = array<i64: 2, 2>, schedule = #dl.schedule<[n, kb, oh]>}
  return
}

// 16 KiB of relu: 0.3 us of work against a 3 us region. Its nest stays
// sequential; the large relu's becomes parallel. Without a cost per region,
// both run in parallel.
// CHECK-LABEL: func.func @small_relu
// CHECK: dl.relu {{.*}} {dl.sequential}
// LOOPS-LABEL: func.func @small_relu
// LOOPS-NOT: affine.parallel
// LOOPS: } {dl.sequential}
// FREE-LABEL: func.func @small_relu
// FREE-NOT: dl.sequential
// FREE: return
func.func @small_relu(%x: memref<64x64xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread: modeled 0.33 us on one thread, 3.16 us on 2 threads (1 parallel region)}}
  dl.relu ins(%x : memref<64x64xf32>) outs(%x : memref<64x64xf32>)
  return
}

// CHECK-LABEL: func.func @large_relu
// CHECK-NOT: dl.sequential
// CHECK: return
// LOOPS-LABEL: func.func @large_relu
// LOOPS: affine.parallel (%{{.*}}) = (0) to (512) {
func.func @large_relu(%x: memref<512x512xf32>) {
  dl.relu ins(%x : memref<512x512xf32>) outs(%x : memref<512x512xf32>)
  return
}

// Dynamic sizes: no model, left to dl-parallelize-outer-loops (which keeps
// dynamic nests sequential).
// CHECK-LABEL: func.func @dynamic_relu
// CHECK-NOT: dl.sequential
// CHECK: return
func.func @dynamic_relu(%x: memref<?x64xf32>) {
  dl.relu ins(%x : memref<?x64xf32>) outs(%x : memref<?x64xf32>)
  return
}

// Already decided: left as it is, without a remark.
// CHECK-LABEL: func.func @already_sequential
// CHECK: dl.relu {{.*}} {dl.sequential}
func.func @already_sequential(%x: memref<512x512xf32>) {
  dl.relu ins(%x : memref<512x512xf32>) outs(%x : memref<512x512xf32>) {dl.sequential}
  return
}

// A convolution vectorized along its output pixels runs at a share of the
// kernels' rate (half of it, on the lanes its rows fill: 8 of 16 here): 553
// KFLOP modeled at 11 us, worth two threads (it ran 40 us on one, 24 on two;
// at the kernels' rate it was modeled at 4 us and kept on one thread). A
// pixel convolution of a tenth of the work stays on one thread.
// CHECK-LABEL: func.func @pixel_vectors_conv
// CHECK: dl.conv2d
// CHECK-NOT: dl.sequential
// CHECK: dl.conv2d {{.*}}dl.sequential
// LOOPS-LABEL: func.func @pixel_vectors_conv
// LOOPS: affine.parallel
func.func @pixel_vectors_conv(%x: memref<3x160x15x15xf32>, %w: memref<1x160x3x3xf32>, %y: memref<3x1x8x8xf32>,
                              %sx: memref<1x16x15x15xf32>, %sw: memref<1x16x3x3xf32>, %sy: memref<1x1x8x8xf32>) {
  dl.conv2d ins(%x, %w : memref<3x160x15x15xf32>, memref<1x160x3x3xf32>) outs(%y : memref<3x1x8x8xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, pixel_vectors}
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread}}
  dl.conv2d ins(%sx, %sw : memref<1x16x15x15xf32>, memref<1x16x3x3xf32>) outs(%sy : memref<1x1x8x8xf32>)
      {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, pixel_vectors}
  return
}

// 4096x22x6 in blocks of 64x22x6: the calls fill 22 of 32 lanes and do 6
// steps against about 7 steps' worth of loads and stores of their block of
// C, so they run at 0.32 of the core's rate (measured 0.30: 60 GFLOPS):
// 17 us on one thread, which pays for a region.
// CHECK-LABEL: func.func @short_k_gemm
// CHECK: schedule = #dl.schedule<[j, i, k], parallel = 1>}
func.func @short_k_gemm(%a: memref<4096x6xf32>, %b: memref<6x22xf32>, %c: memref<4096x22xf32>) {
  dl.matmul ins(%a, %b : memref<4096x6xf32>, memref<6x22xf32>) outs(%c : memref<4096x22xf32>) {pack_blocks = array<i64: 64, 22, 6>, schedule = #dl.schedule<[j, i, k]>}
  return
}
