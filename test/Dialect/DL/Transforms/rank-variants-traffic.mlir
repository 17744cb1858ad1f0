// dl-rank-variants with its default cost, traffic: every access is served by
// the fastest level whose capacity holds its reuse distance, and a variant
// costs the bytes each level supplies over its bandwidth. Cache sizes are
// given so the choices do not depend on the machine running the test.
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-set-target="max-batch-bytes=16384" --dl-rank-variants="report=%t.json" | FileCheck %s --check-prefix=BASE
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-set-target="max-batch-bytes=16384" --dl-rank-variants="threads=2" | FileCheck %s --check-prefix=PAR
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-rank-variants | FileCheck %s --check-prefix=UNSPLIT
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-pack-gemm-operands --dl-rank-variants | FileCheck %s --check-prefix=TIE1
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-pack-gemm-operands --dl-rank-variants="threads=2 report=%t.tie.json" | FileCheck %s --check-prefix=TIE2
// RUN: FileCheck %s --check-prefix=TIE-REPORT < %t.tie.json
// RUN: not dl-opt %s --dl-rank-variants="cost=misses" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dl-opt %s --dl-set-target="max-batch-bytes=-2" --dl-rank-variants 2>&1 | FileCheck %s --check-prefix=BAD-BATCH

// A 512^3 GEMM packed in 128x32x128 blocks: A and B are 1 MiB each. In
// [i, j, k] a 128-row panel of A (256 KiB) is reused by every j within L2,
// and B is re-read from L3 by each of the 4 row panels: 3 MiB from L3 after
// its first touch. In [j, i, k] (what eq. 1 picks, rank-variants.mlir) a
// 32-column panel of B stays in L1/L2 but all of A is re-read from L3 by each
// of the 16 column panels: 15 MiB. Eq. 1 counts each working set once; the
// traffic cost counts the 3 and the 15 re-reads.
// One call reduces each block of C over all 4 K blocks: the pack_c that
// dl-pack-gemm-operands set for its 2-block batches is dropped.
// BASE-LABEL: func.func @gemm
// BASE: pack_blocks = array<i64: 128, 32, 128>, schedule = #dl.schedule<[i, j, k]>}
// With 2 threads, rows are split between them; each thread still re-reads B
// for each of its row panels (and holds half of the L3).
// PAR-LABEL: func.func @gemm
// PAR: schedule = #dl.schedule<[i, j, k], parallel = 0>
func.func @gemm(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  dl.matmul ins(%a, %b : memref<512x512xf32>, memref<512x512xf32>) outs(%c : memref<512x512xf32>)
  return
}

// K = 4096: the 4 row panels of A (2 MiB each) no longer fit L2 whole, and
// the K blocks are tiled outermost, 2 per microkernel call (batch_blocks =
// 2, the most K tiles may take): 16 calls reduce each block of C, whose
// 32-column rows are 2 KiB apart, so C is computed in packed blocks (pack_c
// kept). Without the bound on K tiles the ranking picked 4 blocks per call.
// BASE-LABEL: func.func @long_k
// BASE: pack_c, schedule = #dl.schedule<[k:2, i, j, k]>
// PAR-LABEL: func.func @long_k
// PAR: pack_c, schedule = #dl.schedule<[k:2, i, j, k], parallel = 1>
func.func @long_k(%a: memref<512x4096xf32>, %b: memref<4096x512xf32>, %c: memref<512x512xf32>) {
  dl.matmul ins(%a, %b : memref<512x4096xf32>, memref<4096x512xf32>) outs(%c : memref<512x512xf32>)
  return
}

// The 1x1 convolution of rank-variants.mlir, 256 -> 512 channels on 28x28
// (filter 512 KiB, input 784 KiB, output 1.5 MiB). Eq. 1's pick there,
// [n, oh, cb:4, kb, cb], re-reads the whole filter for each of the 28 output
// rows at a distance of 610 KB, past L2: 14 MB from L3. Seven rows per filter
// pass, [n, oh:7, cb:4, kb, oh, cb], re-read the filter 3 times (1.6 MB) and
// the output once per input-channel tile, while the input blocks of 7 rows are
// reused within L2 (142 KB apart).
// (The runs above let the 8 input-channel blocks be tiled with
// max-batch-bytes=16384.) At the default bound, 256 KiB, one microkernel call
// over all 8 blocks reads 61 KiB of A and B blocks: the batch is not split.
// Of the unsplit variants, 8 output-channel blocks per pass over the rows
// leave the least to L3 (0.8 MB; the default order [n, kb, oh] 12 MB).
// BASE-LABEL: func.func @conv_1x1
// BASE: schedule = #dl.schedule<[n, oh:7, cb:4, kb, oh, cb]>
// UNSPLIT-LABEL: func.func @conv_1x1
// UNSPLIT: schedule = #dl.schedule<[n, kb:8, oh, kb]>
func.func @conv_1x1(%in: memref<1x8x28x28x32xf32>, %f: memref<16x8x1x1x32x32xf32>, %out: memref<1x16x28x28x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x28x28x32xf32>, memref<16x8x1x1x32x32xf32>) outs(%out : memref<1x16x28x28x32xf32>)
  return
}

// The report names the cost model and lists per variant the bytes each level
// supplies, the first touches per array, and each reuse class (array, loop
// carrying it, bytes, distance).
// REPORT: "cost_model": "traffic",
// REPORT: "op": "dl.matmul",
// REPORT: "variants": [
// REPORT: "bytes_per_level": [
// REPORT: "cost":
// REPORT: "first_touch_bytes": [
// REPORT-NEXT: 1048576,
// REPORT-NEXT: 1048576,
// REPORT-NEXT: 1048576
// REPORT: "memory_bytes": 3145728,
// REPORT: "rank": 0,
// REPORT: "reuses": [
// REPORT: "carrier": "d
// REPORT: "distance_bytes":
// REPORT: "schedule": "#dl.schedule<[i, j, k]>"

// BAD: error: dl-rank-variants: unknown cost 'misses' (expected 'traffic' or 'working-sets')
// BAD-BATCH: error: dl-set-target: max-batch-bytes must be >= 0 (-1: keep)

// Costs within 1% of the cheapest are ties. At 2 threads, this GEMM's
// cheapest order, [i, j, k], runs its 2 blocks of rows in parallel (one per
// thread, both reading all of B); [j, i, k], 0.5% dearer, runs its 59
// blocks of columns in parallel (each thread packs its own panel of B) and
// goes first. At one thread the cheapest stays first.
// TIE1-LABEL: func.func @tied
// TIE1: schedule = #dl.schedule<[j, i, k]>}
// TIE2-LABEL: func.func @tied
// TIE2: schedule = #dl.schedule<[j, i, k], parallel = 0>}
// TIE-REPORT: "cost": 3128832
// TIE-REPORT-NEXT: "first_touch_bytes"
// TIE-REPORT: "rank": 0
// TIE-REPORT: "schedule": "#dl.schedule<[j, i, k], parallel = 0>"
// TIE-REPORT: "cost": 3113216
// TIE-REPORT: "rank": 1
// TIE-REPORT: "schedule": "#dl.schedule<[i, j, k], parallel = 0>"
func.func @tied(%a: memref<128x64xf32>, %b: memref<64x3776xf32>, %c: memref<128x3776xf32>) {
  dl.matmul ins(%a, %b : memref<128x64xf32>, memref<64x3776xf32>) outs(%c : memref<128x3776xf32>)
  return
}
