// Which blocks, packed operands and batch bounds dl-pack-gemm-operands
// records on each matmul, and how smaller block limits and other batch
// budgets change them (with the caches of a 2-core Zen 3, whatever the
// machine that runs the test).
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --split-input-file | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands="block-m=32 block-n=16 block-k=32 min-reuse=4" --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: dl-opt %s --dl-set-target="vector-bits=256 max-batch-bytes=1048576 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --split-input-file | FileCheck %s --check-prefix=MIB
// RUN: dl-opt %s --dl-set-target="vector-bits=256 max-batch-bytes=0 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --split-input-file | FileCheck %s --check-prefix=UNBOUNDED
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --split-input-file | FileCheck %s --check-prefix=AVX512
// RUN: dl-opt %s --dl-set-target="vector-bits=1 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --split-input-file | FileCheck %s --check-prefix=NARROW
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --split-input-file | FileCheck %s --check-prefix=ROWS
// RUN: not dl-opt %s --dl-set-target="max-batch-bytes=-2" --dl-pack-gemm-operands 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: not dl-opt %s --dl-set-target="vector-bits=-1" --dl-pack-gemm-operands 2>&1 | FileCheck %s --check-prefix=INVALID-BITS
// RUN: not dl-opt %s --dl-pack-gemm-operands="prefetch-streams=-1" 2>&1 | FileCheck %s --check-prefix=INVALID-STREAMS
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands="prefetch-streams=0" --split-input-file | FileCheck %s --check-prefix=UNCAPPED
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands="prefetch-streams=16" --split-input-file | FileCheck %s --check-prefix=STREAMS16

// INVALID: error: dl-set-target: max-batch-bytes must be >= 0 (-1: keep)
// INVALID-BITS: error: dl-set-target: vector-bits must be >= 0 (0: keep)
// INVALID-STREAMS: error: dl-pack-gemm-operands: block-k must be >= 1, and block-m, block-n and prefetch-streams >= 0

// Square, power-of-two leading dimensions: both operands are read many
// times and neither block is contiguous in place. The 4 K blocks of
// 80 KiB (A's and B's) exceed 256 KiB: 2 per call. Each block of C (rows
// 2 KiB apart) is then reduced over 2 calls: C is computed in packed blocks.
// With the small limits one call takes all 16 K blocks: C stays in place.
// With 512-bit vectors the blocks are 64 x 64 (four registers per row, a
// 16 KiB block of C): the 4 K blocks of 64 KiB fit in one call.
// CHECK-LABEL: func @square
// CHECK: dl.matmul {{.*}} {batch_blocks = 2 : i64, pack_a, pack_b, pack_blocks = array<i64: 128, 32, 128>, pack_c}
// SMALL-LABEL: func @square
// SMALL: dl.matmul {{.*}} {pack_a, pack_b, pack_blocks = array<i64: 32, 16, 32>}
// AVX512-LABEL: func @square
// AVX512: dl.matmul {{.*}} {pack_a, pack_b, pack_blocks = array<i64: 64, 64, 128>}
// Vectors too narrow for four floats per row still give one column.
// NARROW-LABEL: func @square
// NARROW: pack_blocks = array<i64: 512, 1, 128>
func.func @square(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  dl.matmul ins(%a, %b : memref<512x512xf32>, memref<512x512xf32>) outs(%c : memref<512x512xf32>)
  return
}

// -----

// M = 128 is one row block, so B is read by one kernel call per block, but
// the call's register tiles re-read its block, whose rows, 8 KiB apart, put
// all its lines into two L1 sets (conflictsInL1): B is packed. With the
// small limits B is read 4 times: packed by reuse.
// CHECK-LABEL: func @one_row_block
// CHECK: dl.matmul {{.*}} {batch_blocks = 2 : i64, pack_a, pack_b, pack_blocks = array<i64: 128, 32, 128>, pack_c}
// SMALL-LABEL: func @one_row_block
// SMALL: dl.matmul {{.*}} {pack_a, pack_b, pack_blocks = array<i64: 32, 16, 32>}
func.func @one_row_block(%a: memref<128x1024xf32>, %b: memref<1024x2048xf32>, %c: memref<128x2048xf32>) {
  dl.matmul ins(%a, %b : memref<128x1024xf32>, memref<1024x2048xf32>) outs(%c : memref<128x2048xf32>)
  return
}

// -----

// N = 32 is one column block (256-bit vectors): A is read once and its
// leading dimension (1000 floats) does not conflict, so A stays in place. Its
// blocks take 125 of each row's 1000 floats, so a block is read as one memory
// stream per row (A, 1000 KB, is beyond the 512 KiB L2): at most
// prefetch-streams (32) rows, not 128. B's 32-column
// blocks are whole rows, contiguous already, and so are C's. The 8 K blocks
// of 32 KiB fit in one call; with 128 rows (no bound on the streams) 2 of
// 78 KiB do: no pack_c although each block of C is reduced over 4 calls.
// With 16-column blocks (SMALL), B's are no longer whole rows: packed.
// CHECK-LABEL: func @narrow
// CHECK: dl.matmul {{.*}} {pack_blocks = array<i64: 32, 32, 125>}
// UNCAPPED-LABEL: func @narrow
// UNCAPPED: dl.matmul {{.*}} {batch_blocks = 2 : i64, pack_blocks = array<i64: 128, 32, 125>}
// STREAMS16-LABEL: func @narrow
// STREAMS16: dl.matmul {{.*}} {pack_blocks = array<i64: 16, 32, 125>}
// SMALL-LABEL: func @narrow
// SMALL: dl.matmul {{.*}} {pack_b, pack_blocks = array<i64: 32, 16, 25>}
func.func @narrow(%a: memref<256x1000xf32>, %b: memref<1000x32xf32>, %c: memref<256x32xf32>) {
  dl.matmul ins(%a, %b : memref<256x1000xf32>, memref<1000x32xf32>) outs(%c : memref<256x32xf32>)
  return
}

// -----

// K = 64000 is 500 blocks of 128; one block of A and one of B are
// (128 x 128 + 128 x 32) floats = 80 KiB, so a call of the default order
// may reduce over 3 blocks of the 256 KiB budget: the largest divisor of
// 500 up to 3 is 2. With 1 MiB, up to 13: 10. Without a bound, all (one
// call per block of C: pack_c only with a bound).
// With blocks of 32, 32 x 32 + 32 x 16 floats = 6 KiB: 2000 blocks, 42 fit,
// largest divisor 40.
// CHECK-LABEL: func @long_k
// CHECK: dl.matmul {{.*}} {batch_blocks = 2 : i64, pack_a, pack_b, pack_blocks = array<i64: 128, 32, 128>, pack_c}
// MIB-LABEL: func @long_k
// MIB: dl.matmul {{.*}} {batch_blocks = 10 : i64, pack_a, pack_b, pack_blocks = array<i64: 128, 32, 128>, pack_c}
// UNBOUNDED-LABEL: func @long_k
// UNBOUNDED: dl.matmul {{.*}} {pack_a, pack_b, pack_blocks = array<i64: 128, 32, 128>}
// SMALL-LABEL: func @long_k
// SMALL: dl.matmul {{.*}} {batch_blocks = 40 : i64, pack_a, pack_b, pack_blocks = array<i64: 32, 16, 32>, pack_c}
func.func @long_k(%a: memref<256x64000xf32>, %b: memref<64000x64xf32>, %c: memref<256x64xf32>) {
  dl.matmul ins(%a, %b : memref<256x64000xf32>, memref<64000x64xf32>) outs(%c : memref<256x64xf32>)
  return
}

// -----

// Transposed operands and alpha are always packed (the copy transposes and
// scales), whatever the reuse.
// CHECK-LABEL: func @transposed_scaled
// CHECK: dl.matmul {{.*}} {alpha = 2.000000e+00 : f32, pack_a, pack_b, pack_blocks = array<i64: 8, 16, 4>, transpose_a, transpose_b}
func.func @transposed_scaled(%a: memref<4x8xf32>, %b: memref<16x4xf32>, %c: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<4x8xf32>, memref<16x4xf32>) outs(%c : memref<8x16xf32>)
      {alpha = 2.0 : f32, transpose_a, transpose_b}
  return
}

// -----

// Dynamic sizes and decisions already made are left alone.
// CHECK-LABEL: func @untouched
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<?x16xf32>){{$}}
// CHECK: dl.matmul {{.*}} {pack_blocks = array<i64: 4, 8, 2>}
func.func @untouched(%a: memref<?x4xf32>, %b: memref<4x16xf32>, %c: memref<?x16xf32>,
                     %x: memref<8x4xf32>, %y: memref<8x16xf32>) {
  dl.matmul ins(%a, %b : memref<?x4xf32>, memref<4x16xf32>) outs(%c : memref<?x16xf32>)
  dl.matmul ins(%x, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%y : memref<8x16xf32>)
      {pack_blocks = array<i64: 4, 8, 2>}
  return
}

// -----

// A blocked B gives bn and bk (its blocks, whatever the options) and is
// never packed again; bm, A's packing and the batch follow the usual rules
// (10 K blocks of 28.5 KiB exceed 256 KiB: 5 per call, C packed).
// CHECK-LABEL: func @blocked_b
// CHECK: dl.matmul {{.*}} {batch_blocks = 5 : i64, pack_a, pack_blocks = array<i64: 128, 24, 48>, pack_c}
// SMALL-LABEL: func @blocked_b
// SMALL: dl.matmul {{.*}} {pack_a, pack_blocks = array<i64: 32, 24, 48>}
func.func @blocked_b(%a: memref<256x480xf32>, %b: memref<4x10x48x24xf32>, %c: memref<256x96xf32>) {
  dl.matmul ins(%a, %b : memref<256x480xf32>, memref<4x10x48x24xf32>) outs(%c : memref<256x96xf32>)
  return
}

// -----

// GEMV-like GEMMs stream A: up to a quarter of a vector's lanes (A not
// transposed, K at least 16), up to half of them when K >= 128, A in cache
// (512 KiB) or not; with AVX-512's 16 lanes, 1 and 8 columns stream
// (AVX512), with AVX2's 8 lanes and no masked partial vectors, up to 7:
// 8 columns fill the kernels' vectors and take them, A's rows whole in
// blocks of 8 rows (1 or 2 KiB apart); 8 columns with K = 64 take kernels
// either way, A's rows whole in 32-row blocks. N = 16 reads A's
// rows whole in 8-row blocks (rows 1 KiB apart conflict in the L1); N = 17,
// past the narrow GEMMs, takes K blocks, A in place (one block column reads
// it once; within the L2, in blocks of 128 rows), and its columns padded to
// three whole 8-float vectors (AVX2 has no masked partial vectors: B and C
// copied into padded blocks); a transposed A is packed; K =
// 8 is too short to stream, whole rows of A in 32-row blocks.
// CHECK-LABEL: func @gemv_like
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<512x1xf32>) {stream_a}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<512x16xf32>) {pack_blocks = array<i64: 8, 16, 256>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<1024x8xf32>) {pack_blocks = array<i64: 8, 8, 512>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<512x8xf32>) {pack_blocks = array<i64: 8, 8, 256>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<512x8xf32>) {pack_blocks = array<i64: 32, 8, 64>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<512x17xf32>) {pack_b, pack_blocks = array<i64: 128, 24, 128>, pack_c, pad_blocks}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<512x4xf32>) {pack_a, pack_blocks = {{.*}}, transpose_a}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<512x2xf32>) {pack_blocks = array<i64: 32, 2, 8>}
// AVX512-LABEL: func @gemv_like
// AVX512: dl.matmul {{.*}} outs(%{{.*}} : memref<512x1xf32>) {stream_a}
// AVX512: dl.matmul {{.*}} outs(%{{.*}} : memref<512x16xf32>) {pack_blocks = array<i64: 8, 16, 256>}
// AVX512: dl.matmul {{.*}} outs(%{{.*}} : memref<1024x8xf32>) {stream_a}
// AVX512: dl.matmul {{.*}} outs(%{{.*}} : memref<512x8xf32>) {stream_a}
// AVX512: dl.matmul {{.*}} outs(%{{.*}} : memref<512x8xf32>) {pack_blocks = array<i64: 32, 8, 64>}
func.func @gemv_like(%a: memref<512x256xf32>, %at: memref<256x512xf32>, %a8: memref<512x8xf32>,
                     %abig: memref<1024x512xf32>, %b8: memref<512x8xf32>, %c8: memref<1024x8xf32>,
                     %b1: memref<256x1xf32>, %b16: memref<256x16xf32>, %b17: memref<256x17xf32>,
                     %b4: memref<256x4xf32>, %b2: memref<8x2xf32>,
                     %c1: memref<512x1xf32>, %c16: memref<512x16xf32>, %c17: memref<512x17xf32>,
                     %c4: memref<512x4xf32>, %c2: memref<512x2xf32>,
                     %b8k: memref<256x8xf32>, %a64: memref<512x64xf32>,
                     %b64: memref<64x8xf32>, %c8k: memref<512x8xf32>) {
  dl.matmul ins(%a, %b1 : memref<512x256xf32>, memref<256x1xf32>) outs(%c1 : memref<512x1xf32>)
  dl.matmul ins(%a, %b16 : memref<512x256xf32>, memref<256x16xf32>) outs(%c16 : memref<512x16xf32>)
  dl.matmul ins(%abig, %b8 : memref<1024x512xf32>, memref<512x8xf32>) outs(%c8 : memref<1024x8xf32>)
  dl.matmul ins(%a, %b8k : memref<512x256xf32>, memref<256x8xf32>) outs(%c8k : memref<512x8xf32>)
  dl.matmul ins(%a64, %b64 : memref<512x64xf32>, memref<64x8xf32>) outs(%c8k : memref<512x8xf32>)
  dl.matmul ins(%a, %b17 : memref<512x256xf32>, memref<256x17xf32>) outs(%c17 : memref<512x17xf32>)
  dl.matmul ins(%at, %b4 : memref<256x512xf32>, memref<256x4xf32>) outs(%c4 : memref<512x4xf32>) {transpose_a}
  dl.matmul ins(%a8, %b2 : memref<512x8xf32>, memref<8x2xf32>) outs(%c2 : memref<512x2xf32>)
  return
}

// -----

// A transposed copy of B that would not stay in half the L2 (1 x 200000
// floats, 800 KB): every group of rows reads it whole, so the GEMV takes
// blocks instead of streaming.
// CHECK-LABEL: func @gemv_long_rows
// CHECK: dl.matmul {{.*}} {{{.*}}pack_blocks
// CHECK-NOT: stream_a
func.func @gemv_long_rows(%a: memref<4x200000xf32>, %b: memref<200000x1xf32>, %c: memref<4x1xf32>) {
  dl.matmul ins(%a, %b : memref<4x200000xf32>, memref<200000x1xf32>) outs(%c : memref<4x1xf32>)
  return
}

// -----

// Narrow GEMMs (N <= 16) not streamed reduce over all of K in one block,
// reading A's rows whole in place: at most 32 rows (the streams prefetchers
// track, whatever prefetch-streams, which bounds blocks of part rows), 8 when
// the rows are a multiple of 1 KiB apart (K = 4096). N = 12 with a
// 3.2 MB A is past the streaming's 8 columns. Alpha packs A (the copy
// scales), a transposed B packs B. A 16 x 10000 B (640 KB) would not stay
// in half the L2: K blocks of A read in place, 32 rows (prefetch-streams)
// at a time. With 8-float vectors and no masked partial ones (AVX2), 15
// and 12 columns are padded to 16 (pad_blocks: B and C copied into padded
// blocks, A still read in place).
// CHECK-LABEL: func @narrow_whole_rows
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<3136x15xf32>) {pack_b, pack_blocks = array<i64: 32, 16, 829>, pack_c, pad_blocks}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<4096x12xf32>) {pack_b, pack_blocks = array<i64: 8, 16, 4096>, pack_c, pad_blocks}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<3136x15xf32>) {alpha = 2.000000e+00 : f32, pack_a, pack_b, pack_blocks = array<i64: 32, 16, 829>, pack_c, pad_blocks}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<3136x15xf32>) {pack_b, pack_blocks = array<i64: 32, 16, 829>, pack_c, pad_blocks, transpose_b}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<64x16xf32>) {batch_blocks = 10 : i64, pack_blocks = array<i64: 32, 16, 125>}
// UNCAPPED-LABEL: func @narrow_whole_rows
// UNCAPPED: dl.matmul {{.*}} outs(%{{.*}} : memref<3136x15xf32>) {pack_b, pack_blocks = array<i64: 32, 16, 829>, pack_c, pad_blocks}
// UNCAPPED: dl.matmul {{.*}} outs(%{{.*}} : memref<4096x12xf32>) {pack_b, pack_blocks = array<i64: 8, 16, 4096>, pack_c, pad_blocks}
func.func @narrow_whole_rows(%a: memref<3136x829xf32>, %b: memref<829x15xf32>, %bt: memref<15x829xf32>,
                             %c: memref<3136x15xf32>, %a4k: memref<4096x4096xf32>,
                             %b4k: memref<4096x12xf32>, %c4k: memref<4096x12xf32>,
                             %along: memref<64x10000xf32>, %blong: memref<10000x16xf32>,
                             %clong: memref<64x16xf32>) {
  dl.matmul ins(%a, %b : memref<3136x829xf32>, memref<829x15xf32>) outs(%c : memref<3136x15xf32>)
  dl.matmul ins(%a4k, %b4k : memref<4096x4096xf32>, memref<4096x12xf32>) outs(%c4k : memref<4096x12xf32>)
  dl.matmul ins(%a, %b : memref<3136x829xf32>, memref<829x15xf32>) outs(%c : memref<3136x15xf32>) {alpha = 2.0 : f32}
  dl.matmul ins(%a, %bt : memref<3136x829xf32>, memref<15x829xf32>) outs(%c : memref<3136x15xf32>) {transpose_b}
  dl.matmul ins(%along, %blong : memref<64x10000xf32>, memref<10000x16xf32>) outs(%clong : memref<64x16xf32>)
  return
}

// -----

// Whether rows conflict in the L1 depends on their stride, a part's that of
// its operand, and matters for a block read more than once but fewer than
// min-reuse times (with the small limits: two column blocks of C, two row
// blocks): a 64 x 250 part of a 1024-column A (rows 4 KiB apart) is packed,
// a contiguous A (rows 1000 bytes apart) read in place; B as a part of a
// 547-column operand (rows 2188 bytes apart) is read in place, a contiguous
// 512-column B (rows 2 KiB apart) packed. With 512-bit vectors each A block
// has one call (one column block) and each B block one row block above it:
// read once, every one stays in place whatever its stride (A, within the
// L2, in one block of its 64 rows); the contiguous B's rows crowd into a
// few L1 sets, so its blocks are two vectors wide (fewer register tiles
// re-read them).
// SMALL-LABEL: func @part_strides
// SMALL: dl.matmul {{.*}} {pack_a, pack_blocks = array<i64: 32, 16, 25>}
// SMALL: dl.matmul {{.*}} {pack_blocks = array<i64: 32, 16, 25>}
// SMALL: dl.matmul {{.*}} {pack_a, pack_blocks = array<i64: 32, 16, 32>}
// SMALL: dl.matmul {{.*}} {pack_a, pack_b, pack_blocks = array<i64: 32, 16, 32>}
// AVX512-LABEL: func @part_strides
// AVX512: dl.matmul {{.*}} {pack_blocks = array<i64: 64, 32, 125>}
// AVX512: dl.matmul {{.*}} {pack_blocks = array<i64: 64, 32, 125>}
// AVX512: dl.matmul {{.*}} {pack_a, pack_blocks = array<i64: 64, 64, 128>}
// AVX512: dl.matmul {{.*}} {pack_a, pack_blocks = array<i64: 64, 32, 128>}
func.func @part_strides(%apart: memref<64x250xf32, strided<[1024, 1]>>, %a: memref<64x250xf32>,
                        %b: memref<250x32xf32>, %c: memref<64x32xf32>,
                        %a2: memref<64x256xf32>, %b2: memref<256x512xf32, strided<[547, 1]>>,
                        %c2: memref<64x512xf32, strided<[547, 1]>>, %b3: memref<256x512xf32>,
                        %c3: memref<64x512xf32>) {
  dl.matmul ins(%apart, %b : memref<64x250xf32, strided<[1024, 1]>>, memref<250x32xf32>) outs(%c : memref<64x32xf32>)
  dl.matmul ins(%a, %b : memref<64x250xf32>, memref<250x32xf32>) outs(%c : memref<64x32xf32>)
  dl.matmul ins(%a2, %b2 : memref<64x256xf32>, memref<256x512xf32, strided<[547, 1]>>) outs(%c2 : memref<64x512xf32, strided<[547, 1]>>)
  dl.matmul ins(%a2, %b3 : memref<64x256xf32>, memref<256x512xf32>) outs(%c3 : memref<64x512xf32>)
  return
}

// -----

// A constant B (dl.constant: a model's weights) is copied into blocks by a
// dl.pack that dl-keep-constant-packs runs once, and read blocked; not when
// transposed (dl.pack does not transpose: the copy is in the nest), nor when
// its blocks are whole rows already (bn = N), nor for a B that is not
// constant.
// AVX512-LABEL: func @constant_b
// AVX512: %[[P:.*]] = memref.alloc() : memref<16x8x128x64xf32>
// AVX512-NEXT: dl.pack ins(%arg1 : memref<1024x1024xf32>) outs(%[[P]] : memref<16x8x128x64xf32>)
// AVX512-NEXT: dl.matmul ins(%arg0, %[[P]] : memref<64x1024xf32>, memref<16x8x128x64xf32>) outs(%arg3 : memref<64x1024xf32>) {batch_blocks = {{.*}}, pack_a, pack_blocks = array<i64: 64, 64, 128>
// AVX512-NEXT: memref.dealloc %[[P]]
// AVX512-NEXT: dl.matmul ins(%arg0, %arg2 : {{.*}}) {{.*}}pack_b{{.*}}transpose_b
// AVX512-NEXT: dl.matmul ins(%arg0, %arg4 : memref<64x1024xf32>, memref<1024x64xf32>)
// AVX512-NEXT: dl.matmul ins(%arg0, %arg6 : memref<64x1024xf32>, memref<1024x1024xf32>)
func.func @constant_b(%a: memref<64x1024xf32>, %w: memref<1024x1024xf32> {dl.constant},
                      %wt: memref<1024x1024xf32> {dl.constant}, %c: memref<64x1024xf32>,
                      %narrow: memref<1024x64xf32> {dl.constant}, %c2: memref<64x64xf32>,
                      %b: memref<1024x1024xf32>) {
  dl.matmul ins(%a, %w : memref<64x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<64x1024xf32>)
  dl.matmul ins(%a, %wt : memref<64x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<64x1024xf32>) {transpose_b}
  dl.matmul ins(%a, %narrow : memref<64x1024xf32>, memref<1024x64xf32>) outs(%c2 : memref<64x64xf32>)
  dl.matmul ins(%a, %b : memref<64x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<64x1024xf32>)
  return
}

// -----

// A's rows read in place in blocks of at most prefetch-streams (32) rows
// where A is larger than the L2 (its rows come from beyond it): 64 rows in
// blocks of 32; a prime M (37) would take blocks of one row, so A is packed
// instead, its block all 37 rows. Within the L2 (@prime_rows_and_tiny), A
// is read in place in blocks of all 64 or 37 rows. A GEMM under
// kMinWholeVectorFlops (2 x 15 x 15) keeps its 15 columns: padding them to
// whole vectors would cost more than it saves.
// CHECK-LABEL: func @prime_rows_beyond_l2
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<64x32xf32>) {batch_blocks = 1 : i64, pack_blocks = array<i64: 32, 32, 96>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<37x32xf32>) {batch_blocks = 1 : i64, pack_a, pack_blocks = array<i64: 37, 32, 96>}
// CHECK-LABEL: func @prime_rows_and_tiny
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<64x32xf32>) {pack_blocks = array<i64: 64, 32, 86>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<37x32xf32>) {pack_blocks = array<i64: 37, 32, 86>}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<2x15xf32>) {pack_blocks = array<i64: 2, 15, 15>}
func.func @prime_rows_beyond_l2(%a64: memref<64x4128xf32>, %c64: memref<64x32xf32>,
                                %a37: memref<37x4128xf32>, %c37: memref<37x32xf32>,
                                %b: memref<4128x32xf32>) {
  dl.matmul ins(%a64, %b : memref<64x4128xf32>, memref<4128x32xf32>) outs(%c64 : memref<64x32xf32>)
  dl.matmul ins(%a37, %b : memref<37x4128xf32>, memref<4128x32xf32>) outs(%c37 : memref<37x32xf32>)
  return
}

func.func @prime_rows_and_tiny(%a64: memref<64x344xf32>, %c64: memref<64x32xf32>,
                               %a37: memref<37x344xf32>, %c37: memref<37x32xf32>,
                               %b: memref<344x32xf32>, %a2: memref<2x15xf32>,
                               %b2: memref<15x15xf32>, %c2: memref<2x15xf32>) {
  dl.matmul ins(%a64, %b : memref<64x344xf32>, memref<344x32xf32>) outs(%c64 : memref<64x32xf32>)
  dl.matmul ins(%a37, %b : memref<37x344xf32>, memref<344x32xf32>) outs(%c37 : memref<37x32xf32>)
  dl.matmul ins(%a2, %b2 : memref<2x15xf32>, memref<15x15xf32>) outs(%c2 : memref<2x15xf32>)
  return
}

// -----

// A B beyond the L2 read once (one block of rows of C, in place, not re-read
// enough to pack) by fewer than 8 rows of C, or by more where its rows
// conflict in the L1, is read in blocks of whole rows as wide as C's block
// keeps in half the L1 (16 KiB), up to half of N: the calls read B's memory
// in order. Their rows: the largest divisor of K up to 512 / M rows, within
// 32 to 128 (8 x 1024 x 2048: 512 columns, 64 rows; K = 121 one block of
// all its rows); for a B of more than 16 L2s, up to 16 rows, one block a
// call (1 x 4096 x 4096, 64 MB: 2048 columns, 16 rows). Not so: a B within
// the L2 (4 x 256 x 256); 72 rows, whose C block in half the L1 would be
// under 128 columns; 16 rows re-reading a B whose rows conflict in the L1
// (6 register tiles of 3 rows), packed instead; 19 rows of a B whose rows
// do not conflict (896 floats apart): from 8 rows on, the kernels' tiles
// matter more than B's order.
// ROWS-LABEL: func @rows_of_b
// ROWS: outs(%{{.*}} : memref<8x1024xf32>) {batch_blocks = 1 : i64, pack_a, pack_blocks = array<i64: 8, 512, 64>, pack_c}
// ROWS: outs(%{{.*}} : memref<1x4096xf32>) {batch_blocks = 1 : i64, pack_a, pack_blocks = array<i64: 1, 2048, 16>, pack_c}
// ROWS: outs(%{{.*}} : memref<4x256xf32>) {{{.*}}pack_blocks = array<i64: 4, 32, 128>
// ROWS: outs(%{{.*}} : memref<72x1216xf32>) {{{.*}}pack_blocks = array<i64: 72, 32, 128>
// ROWS: outs(%{{.*}} : memref<16x2048xf32>) {{{.*}}pack_b, pack_blocks = array<i64: 16, 32, 128>
// ROWS: outs(%{{.*}} : memref<2x2088xf32>) {batch_blocks = 1 : i64, pack_blocks = array<i64: 2, 696, 121>}
// ROWS: outs(%{{.*}} : memref<19x896xf32>) {pack_a, pack_blocks = array<i64: 19, 32, 61>}
func.func @rows_of_b(%a8: memref<8x2048xf32>, %b8: memref<2048x1024xf32>, %c8: memref<8x1024xf32>,
                     %a1: memref<1x4096xf32>, %b1: memref<4096x4096xf32>, %c1: memref<1x4096xf32>,
                     %a4: memref<4x256xf32>, %b4: memref<256x256xf32>, %c4: memref<4x256xf32>,
                     %a72: memref<72x256xf32>, %b72: memref<256x1216xf32>, %c72: memref<72x1216xf32>,
                     %a16: memref<16x1024xf32>, %b16: memref<1024x2048xf32>, %c16: memref<16x2048xf32>,
                     %a2: memref<2x121xf32>, %b2: memref<121x2088xf32>, %c2: memref<2x2088xf32>,
                     %a19: memref<19x183xf32>, %b19: memref<183x896xf32>, %c19: memref<19x896xf32>) {
  dl.matmul ins(%a8, %b8 : memref<8x2048xf32>, memref<2048x1024xf32>) outs(%c8 : memref<8x1024xf32>)
  dl.matmul ins(%a1, %b1 : memref<1x4096xf32>, memref<4096x4096xf32>) outs(%c1 : memref<1x4096xf32>)
  dl.matmul ins(%a4, %b4 : memref<4x256xf32>, memref<256x256xf32>) outs(%c4 : memref<4x256xf32>)
  dl.matmul ins(%a72, %b72 : memref<72x256xf32>, memref<256x1216xf32>) outs(%c72 : memref<72x1216xf32>)
  dl.matmul ins(%a16, %b16 : memref<16x1024xf32>, memref<1024x2048xf32>) outs(%c16 : memref<16x2048xf32>)
  dl.matmul ins(%a2, %b2 : memref<2x121xf32>, memref<121x2088xf32>) outs(%c2 : memref<2x2088xf32>)
  dl.matmul ins(%a19, %b19 : memref<19x183xf32>, memref<183x896xf32>) outs(%c19 : memref<19x896xf32>)
  return
}

// -----

// A B block read in place 4 times or more (45 rows, register tiles of 7
// rows of 2 vectors) whose narrow rows (16 columns, 64 bytes) lie a number
// of floats apart that is not a whole number of 64-byte lines straddles
// lines (two per row instead of one): packed. Rows 1472 floats apart (23
// lines) stay in place.
// CHECK-LABEL: func @straddled_lines
// CHECK: outs(%{{.*}} : memref<45x1456xf32, strided<[1459, 1]>>) {pack_a, pack_b, pack_blocks = array<i64: 45, 16, 128>}
// CHECK: outs(%{{.*}} : memref<45x1456xf32, strided<[1472, 1]>>) {pack_a, pack_blocks = array<i64: 45, 16, 128>}
func.func @straddled_lines(%a: memref<45x896xf32>, %b: memref<896x1456xf32, strided<[1459, 1]>>, %c: memref<45x1456xf32, strided<[1459, 1]>>,
                           %b2: memref<896x1456xf32, strided<[1472, 1]>>, %c2: memref<45x1456xf32, strided<[1472, 1]>>) {
  dl.matmul ins(%a, %b : memref<45x896xf32>, memref<896x1456xf32, strided<[1459, 1]>>) outs(%c : memref<45x1456xf32, strided<[1459, 1]>>)
  dl.matmul ins(%a, %b2 : memref<45x896xf32>, memref<896x1456xf32, strided<[1472, 1]>>) outs(%c2 : memref<45x1456xf32, strided<[1472, 1]>>)
  return
}

// -----

// B read in place, one block of C's rows: where a block's rows crowd into
// a few L1 sets (the fullest set more than twice the L1's ways: rows 8188
// bytes apart, 4 bytes short of 8 KiB), its blocks are two vectors wide,
// whose register tiles of 15 rows re-read it 3 times for 31 rows, not 5;
// rows 14316 bytes apart fill their fullest set to twice its ways and keep
// blocks of four vectors, as do rows 7936 bytes apart (no crowding).
// AVX512-LABEL: func @crowded_sets
// AVX512: dl.matmul {{.*}} {pack_a, pack_blocks = array<i64: 31, 32, 128>}
// AVX512: dl.matmul {{.*}} pack_a, pack_blocks = array<i64: 31, 64, 128>
// AVX512: dl.matmul {{.*}} pack_a, pack_blocks = array<i64: 31, 64, 128>
func.func @crowded_sets(%a: memref<31x1024xf32>,
                        %b1: memref<1024x1984xf32, strided<[2047, 1]>>, %c1: memref<31x1984xf32, strided<[2047, 1]>>,
                        %b2: memref<1024x3520xf32, strided<[3579, 1]>>, %c2: memref<31x3520xf32, strided<[3579, 1]>>,
                        %b3: memref<1024x1984xf32>, %c3: memref<31x1984xf32>) {
  dl.matmul ins(%a, %b1 : memref<31x1024xf32>, memref<1024x1984xf32, strided<[2047, 1]>>) outs(%c1 : memref<31x1984xf32, strided<[2047, 1]>>)
  dl.matmul ins(%a, %b2 : memref<31x1024xf32>, memref<1024x3520xf32, strided<[3579, 1]>>) outs(%c2 : memref<31x3520xf32, strided<[3579, 1]>>)
  dl.matmul ins(%a, %b3 : memref<31x1024xf32>, memref<1024x1984xf32>) outs(%c3 : memref<31x1984xf32>)
  return
}

// -----

// An A from beyond the L2 read in place, its blocks taking part of each
// row: blocks of C two vectors wide (two FMAs a vector per element of A)
// take at most 12 rows, where M has a divisor from 8 up (23409: 9); not
// where it has none (3172: 4, which would leave the register tiles
// short; the usual bound of 32 gives 26).
// AVX512-LABEL: func @narrow_streams
// AVX512: outs(%{{.*}} : memref<23409x32xf32>) {pack_blocks = array<i64: 9, 32, 90>}
// AVX512: outs(%{{.*}} : memref<3172x32xf32>) {pack_blocks = array<i64: 26, 32, 3>}
func.func @narrow_streams(%a: memref<23409x180xf32>, %b: memref<180x32xf32>, %c: memref<23409x32xf32>,
                          %a2: memref<3172x1077xf32>, %b2: memref<1077x32xf32>, %c2: memref<3172x32xf32>) {
  dl.matmul ins(%a, %b : memref<23409x180xf32>, memref<180x32xf32>) outs(%c : memref<23409x32xf32>)
  dl.matmul ins(%a2, %b2 : memref<3172x1077xf32>, memref<1077x32xf32>) outs(%c2 : memref<3172x32xf32>)
  return
}
