// dl-decide-parallelism at 2 threads divides a GEMM's K blocks among the
// threads (split_k) where no loop over M or N keeps them busy: 49x38x4096
// in one block of C, t1 = 15.25 MFLOP at 200 GFLOPS x 0.75 (38 of 48 lanes,
// 128 / 135 steps) = 101.61 us; split: 16 of 32 blocks per thread (50.80)
// + a fork and join (1.5) + C's 7448-byte copy handed over (0.74) and added
// (0.22) = 53.27 us, taken at 0.9 (the margin) of the best other time or
// less. Not where a loop over M divides evenly (two blocks of 64 rows: half
// the time, no copy to add) or one over N is within the margin, nor with an
// epilogue, nor for work below a fork and join. dl-split-k then applies it.
// The L2 is pinned: operands beyond it change t1.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-parallelism="threads=2 report-fallbacks" --verify-diagnostics | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-decide-parallelism="threads=2" --dl-split-k | FileCheck %s --check-prefix=SPLIT

// CHECK-LABEL: func.func @one_block_of_c
// CHECK: dl.matmul {{.*}}schedule = #dl.schedule<[i, j, k]>, split_k = 2 : i64}
// SPLIT-LABEL: func.func @one_block_of_c
// SPLIT: affine.parallel (%{{.*}}) = (0) to (2)
// SPLIT: dl.add
func.func @one_block_of_c(%a: memref<49x4096xf32>, %b: memref<4096x38xf32>, %c: memref<49x38xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: K's 32 blocks divided among 2 threads (split_k), each into its own copy of C: modeled 53.27 us against 101.61 us on one thread}}
  dl.matmul ins(%a, %b : memref<49x4096xf32>, memref<4096x38xf32>) outs(%c : memref<49x38xf32>)
      {pack_blocks = array<i64: 49, 38, 128>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  return
}

// Five column blocks leave a thread 3 of them (60%): split_k wins, and the
// remark gives the loop's time too.
// CHECK-LABEL: func.func @uneven_columns
// CHECK: split_k = 2 : i64
func.func @uneven_columns(%a: memref<51x4096xf32>, %b: memref<4096x305xf32>, %c: memref<51x305xf32>) {
  // expected-remark @+1 {{divided among 2 threads (split_k), each into its own copy of C: modeled 362.10 us against 705.02 us on one thread and 424.99 us with loop 1 (j, 5 iterations) in parallel}}
  dl.matmul ins(%a, %b : memref<51x4096xf32>, memref<4096x305xf32>) outs(%c : memref<51x305xf32>)
      {pack_blocks = array<i64: 51, 61, 128>, schedule = #dl.schedule<[i, j, k], parallel = 1>}
  return
}

// CHECK-LABEL: func.func @even_rows
// CHECK: schedule = #dl.schedule<[i, j, k], parallel = 0>}
// CHECK-NOT: split_k
func.func @even_rows(%a: memref<128x4096xf32>, %b: memref<4096x305xf32>, %c: memref<128x305xf32>) {
  dl.matmul ins(%a, %b : memref<128x4096xf32>, memref<4096x305xf32>) outs(%c : memref<128x305xf32>)
      {pack_blocks = array<i64: 64, 61, 128>, schedule = #dl.schedule<[i, j, k], parallel = 0>}
  return
}

// Modeled 5800 us split against 5810 with its 32 column blocks in
// parallel: within the margin, the loop is kept.
// CHECK-LABEL: func.func @split_within_margin
// CHECK: schedule = #dl.schedule<[k:4, j, i, k], parallel = 1>}
// CHECK-NOT: split_k
func.func @split_within_margin(%a: memref<128x4096xf32>, %b: memref<4096x2048xf32>, %c: memref<128x2048xf32>) {
  dl.matmul ins(%a, %b : memref<128x4096xf32>, memref<4096x2048xf32>) outs(%c : memref<128x2048xf32>)
      {batch_blocks = 4 : i64, pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>, pack_c, panel_b, schedule = #dl.schedule<[k:4, j, i, k], parallel = 1>}
  return
}

// CHECK-LABEL: func.func @with_epilogue
// CHECK: dl.sequential
// CHECK-NOT: split_k
func.func @with_epilogue(%a: memref<49x4096xf32>, %b: memref<4096x38xf32>, %c: memref<49x38xf32>, %bias: memref<38xf32>) {
  // expected-remark @+1 {{runs on one thread}}
  dl.matmul ins(%a, %b : memref<49x4096xf32>, memref<4096x38xf32>) outs(%c : memref<49x38xf32>) epilogue(%bias : memref<38xf32>)
      {epilogue = [#dl.post_op<bias_add>, #dl.post_op<relu>], pack_blocks = array<i64: 49, 38, 128>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// t1 = 0.73 us: split, 2.0 us.
// CHECK-LABEL: func.func @small
// CHECK: dl.sequential
// CHECK-NOT: split_k
func.func @small(%a: memref<16x256xf32>, %b: memref<256x16xf32>, %c: memref<16x16xf32>) {
  // expected-remark @+1 {{runs on one thread}}
  dl.matmul ins(%a, %b : memref<16x256xf32>, memref<256x16xf32>) outs(%c : memref<16x16xf32>)
      {pack_blocks = array<i64: 16, 16, 64>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// Operands beyond the L2 (2 MiB here) come from memory at core-bandwidth
// times the target's memory share (100 x 8 / 64 = 12.5 GB/s): t1 = 9.54 MB
// / 12.5 = 762.99 us. With j in parallel each thread would read 1328-byte
// pieces of B's rows (one block of 332 columns), shorter than the 4096-byte
// page the prefetchers stop at, so B's 9.39 MB take 751 us however many
// threads read them: no better than one thread. split_k has each thread
// read whole rows: 386.75 us.
// CHECK-LABEL: func.func @rows_of_b_in_memory
// CHECK: split_k = 2 : i64
func.func @rows_of_b_in_memory(%a: memref<9x3534xf32>, %b: memref<3534x664xf32>, %c: memref<9x664xf32>) {
  // expected-remark @+1 {{K's 589 blocks divided among 2 threads (split_k), each into its own copy of C: modeled 386.75 us against 762.99 us on one thread}}
  dl.matmul ins(%a, %b : memref<9x3534xf32>, memref<3534x664xf32>) outs(%c : memref<9x664xf32>)
      {batch_blocks = 31 : i64, pack_a, pack_blocks = array<i64: 9, 332, 6>, panel_a, schedule = #dl.schedule<[i, j, k], parallel = 1>}
  return
}

// A 3.1 MB B beyond one L2 (2 MiB) but within the two threads' L2s: each
// thread's 350 columns stay in its own L2, and the loop over N keeps its
// half of the time despite pieces of 1400 bytes. Each thread reads all of
// A in place, not from the copy one thread would make.
// CHECK-LABEL: func.func @rows_of_b_in_l2s
// CHECK: {batch_blocks = 11 : i64, pack_blocks = array<i64: 9, 350, 100>, schedule = #dl.schedule<[i, j, k], parallel = 1>}
// CHECK-NOT: split_k
func.func @rows_of_b_in_l2s(%a: memref<9x1100xf32>, %b: memref<1100x700xf32>, %c: memref<9x700xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: A read in place, not packed: modeled 127.38 us on 2 threads with loop 1 (j, 2 iterations) in parallel, against 129.36 us with the copy of A one thread makes handed to the others}}
  dl.matmul ins(%a, %b : memref<9x1100xf32>, memref<1100x700xf32>) outs(%c : memref<9x700xf32>)
      {batch_blocks = 11 : i64, pack_a, pack_blocks = array<i64: 9, 350, 100>, panel_a, schedule = #dl.schedule<[i, j, k], parallel = 1>}
  return
}

// 2048 columns a thread: 8 KB pieces of B's rows, which the prefetchers
// follow. The loop over N keeps its half of the time.
// CHECK-LABEL: func.func @page_long_rows_of_b
// CHECK: schedule = #dl.schedule<[i, j, k], parallel = 1>}
// CHECK-NOT: split_k
func.func @page_long_rows_of_b(%a: memref<9x1024xf32>, %b: memref<1024x4096xf32>, %c: memref<9x4096xf32>) {
  dl.matmul ins(%a, %b : memref<9x1024xf32>, memref<1024x4096xf32>) outs(%c : memref<9x4096xf32>)
      {batch_blocks = 8 : i64, pack_a, pack_blocks = array<i64: 9, 512, 8>, panel_a, schedule = #dl.schedule<[i, j, k], parallel = 1>}
  return
}
