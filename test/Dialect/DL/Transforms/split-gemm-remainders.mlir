// Which dimensions dl-split-gemm-remainders splits into whole blocks and a
// remainder (a largest divisor up to the limit below half of it: primes,
// block multiples + 1) and which it keeps (sizes up to the limit, sizes with
// a good divisor); K parts after the first accumulate (beta = 1).
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-split-gemm-remainders --split-input-file | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-split-gemm-remainders="block-m=16 block-n=16 block-k=16" --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: not dl-opt %s --dl-split-gemm-remainders="block-k=0" 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-split-gemm-remainders="pad=true" --split-input-file | FileCheck %s --check-prefix=PAD
// RUN: dl-opt %s --dl-set-target="vector-bits=256" --dl-split-gemm-remainders --split-input-file | FileCheck %s --check-prefix=AVX2

// INVALID: error: dl-split-gemm-remainders: block-k must be >= 1, and block-m and block-n >= 0

// Primes in every dimension (limits 64, 64, 128): 8 parts, M-major, then N,
// then K; alpha and transposes are kept, beta only on the first K part.
// CHECK-LABEL: func @primes
// CHECK-DAG: %[[C00:.*]] = memref.subview %arg2[0, 0] [64, 64] [1, 1]
// CHECK-DAG: %[[A00:.*]] = memref.subview %arg0[0, 0] [128, 64] [1, 1]
// CHECK-DAG: %[[B00:.*]] = memref.subview %arg1[0, 0] [128, 64] [1, 1]
// CHECK: dl.matmul ins(%[[A00]], %[[B00]] : {{.*}}) outs(%[[C00]] : memref<64x64xf32, strided<[67, 1]>>) {alpha = 2.000000e+00 : f32, beta = 3.000000e+00 : f32, transpose_a}
// CHECK: memref.subview %arg0[128, 0] [3, 64] [1, 1]
// CHECK: memref.subview %arg1[128, 0] [3, 64] [1, 1]
// CHECK: dl.matmul {{.*}} outs(%[[C00]] : {{.*}}) {alpha = 2.000000e+00 : f32, beta = 1.000000e+00 : f32, transpose_a}
// CHECK: %[[C01:.*]] = memref.subview %arg2[0, 64] [64, 3] [1, 1]
// CHECK-COUNT-2: dl.matmul {{.*}} outs(%[[C01]] : memref<64x3xf32, strided<[67, 1], offset: 64>>)
// CHECK: %[[C10:.*]] = memref.subview %arg2[64, 0] [7, 64] [1, 1]
// CHECK-COUNT-2: dl.matmul {{.*}} outs(%[[C10]] :
// CHECK: %[[C11:.*]] = memref.subview %arg2[64, 64] [7, 3] [1, 1]
// CHECK-COUNT-2: dl.matmul {{.*}} outs(%[[C11]] :
// CHECK-NOT: dl.matmul
// With pad, the op stays whole: one block per limit along each dimension,
// rounded up (71 = 2 x 36 - 1, 67 = 2 x 34 - 1, 131 = 2 x 66 - 1), every
// operand packed, C in a packed buffer.
// PAD-LABEL: func @primes
// PAD-NOT: memref.subview
// PAD: dl.matmul {{.*}} {alpha = 2.000000e+00 : f32, beta = 3.000000e+00 : f32, pack_a, pack_b, pack_blocks = array<i64: 36, 34, 66>, pack_c, pad_blocks, transpose_a}
// PAD-NEXT: return
// SMALL-LABEL: func @primes
// SMALL-COUNT-8: dl.matmul
// SMALL-NOT: dl.matmul
func.func @primes(%a: memref<131x71xf32>, %b: memref<131x67xf32>, %c: memref<71x67xf32>) {
  dl.matmul ins(%a, %b : memref<131x71xf32>, memref<131x67xf32>) outs(%c : memref<71x67xf32>)
      {alpha = 2.0 : f32, beta = 3.0 : f32, transpose_a}
  return
}

// -----

// Good divisors (300 = 5 x 60, 96 = 2 x 48) and sizes up to the limits
// (40, 128): one GEMM. With limits of 16, 300 = 15 x 20 and 96 = 6 x 16 are
// kept, 40 (divisor 10) and 128 (16) too.
// CHECK-LABEL: func @divisible
// CHECK-NOT: memref.subview
// CHECK-COUNT-1: dl.matmul
// SMALL-LABEL: func @divisible
// SMALL-NOT: memref.subview
func.func @divisible(%a: memref<300x128xf32>, %b: memref<128x96xf32>, %c: memref<300x96xf32>) {
  dl.matmul ins(%a, %b : memref<300x128xf32>, memref<128x96xf32>) outs(%c : memref<300x96xf32>)
  return
}

// -----

// A block multiple + 1 along N (257 = 256 + 1) and a prime K (131 = 128 +
// 3) with a transposed B: the slices of B swap rows and columns. K = 129 =
// 3 x 43 is not split: a K block only sets a batch-reduce call's step, and
// 43 is over a quarter of 128 (with block-k 16, 3 is not).
// CHECK-LABEL: func @plus_one
// SMALL-LABEL: func @plus_one
// CHECK: memref.subview %arg1[0, 0] [256, 128] [1, 1]
// CHECK: dl.matmul {{.*}} {transpose_b}
// CHECK: memref.subview %arg1[0, 128] [256, 3] [1, 1]
// CHECK: dl.matmul {{.*}} {beta = 1.000000e+00 : f32, transpose_b}
// CHECK: memref.subview %arg1[256, 0] [1, 128] [1, 1]
// CHECK: dl.matmul {{.*}} {transpose_b}
// CHECK: memref.subview %arg1[256, 128] [1, 3] [1, 1]
// CHECK: dl.matmul {{.*}} {beta = 1.000000e+00 : f32, transpose_b}
// CHECK: memref.subview %arg4[0, 0] [256, 129] [1, 1]
// CHECK: dl.matmul {{.*}} {transpose_b}
// CHECK: memref.subview %arg4[256, 0] [1, 129] [1, 1]
// CHECK: dl.matmul {{.*}} {transpose_b}
// CHECK-NOT: dl.matmul
// SMALL-COUNT-8: dl.matmul
func.func @plus_one(%a: memref<32x131xf32>, %b: memref<257x131xf32>, %c: memref<32x257xf32>,
                    %a9: memref<32x129xf32>, %b9: memref<257x129xf32>) {
  dl.matmul ins(%a, %b : memref<32x131xf32>, memref<257x131xf32>) outs(%c : memref<32x257xf32>) {transpose_b}
  dl.matmul ins(%a9, %b9 : memref<32x129xf32>, memref<257x129xf32>) outs(%c : memref<32x257xf32>) {transpose_b}
  return
}

// -----

// A blocked B fixes N's and K's blocks: only M (prime) is split, B is read
// whole by both parts. Blocks already decided, and dynamic sizes: untouched.
// CHECK-LABEL: func @blocked_b
// CHECK: memref.subview %arg0[0, 0] [64, 128] [1, 1]
// CHECK: dl.matmul {{.*}}, %arg1 : {{.*}}, memref<2x1x128x64xf32>)
// CHECK: memref.subview %arg0[64, 0] [3, 128] [1, 1]
// CHECK: dl.matmul {{.*}}, %arg1 : {{.*}}, memref<2x1x128x64xf32>)
// PAD-LABEL: func @blocked_b
// PAD-COUNT-2: dl.matmul {{.*}}, %arg1 : {{.*}}, memref<2x1x128x64xf32>)
// PAD-NOT: pad_blocks
// PAD-LABEL: func @decided
// CHECK-LABEL: func @decided
// CHECK-NOT: memref.subview
// CHECK-LABEL: func @dynamic
// CHECK-NOT: memref.subview
func.func @blocked_b(%a: memref<67x128xf32>, %b: memref<2x1x128x64xf32>, %c: memref<67x128xf32>) {
  dl.matmul ins(%a, %b : memref<67x128xf32>, memref<2x1x128x64xf32>) outs(%c : memref<67x128xf32>)
  return
}
func.func @decided(%a: memref<67x67xf32>, %b: memref<67x67xf32>, %c: memref<67x67xf32>) {
  dl.matmul ins(%a, %b : memref<67x67xf32>, memref<67x67xf32>) outs(%c : memref<67x67xf32>)
      {pack_blocks = array<i64: 1, 1, 1>}
  return
}
func.func @dynamic(%a: memref<?x67xf32>, %b: memref<67x67xf32>, %c: memref<?x67xf32>) {
  dl.matmul ins(%a, %b : memref<?x67xf32>, memref<67x67xf32>) outs(%c : memref<?x67xf32>)
  return
}

// -----

// Along N (the vector dimension) a good divisor can still waste lanes: 646
// columns in 17 blocks of 38 take 3 vectors each (51); 10 blocks of 64 and
// 6 columns take 41. 300 in 5 blocks of 60 take 20, 256 + 44 take 19 (5%
// fewer): split. 420 in 7 blocks of 60 (28) stays: 384 + 36 take 27 (4%
// fewer is the least).
// CHECK-LABEL: func @vector_lanes
// CHECK: memref.subview %arg1[0, 0] [96, 640] [1, 1]
// CHECK: dl.matmul
// CHECK: memref.subview %arg1[0, 640] [96, 6] [1, 1]
// CHECK: dl.matmul
// CHECK: memref.subview %arg3[0, 0] [96, 256] [1, 1]
// CHECK: dl.matmul
// CHECK: memref.subview %arg3[0, 256] [96, 44] [1, 1]
// CHECK: dl.matmul
// CHECK-NOT: memref.subview
// CHECK: dl.matmul ins(%arg0, %arg5
// CHECK-NOT: dl.matmul
func.func @vector_lanes(%a: memref<64x96xf32>, %b: memref<96x646xf32>, %c: memref<64x646xf32>,
                        %b3: memref<96x300xf32>, %c3: memref<64x300xf32>,
                        %b4: memref<96x420xf32>, %c4: memref<64x420xf32>) {
  dl.matmul ins(%a, %b : memref<64x96xf32>, memref<96x646xf32>) outs(%c : memref<64x646xf32>)
  dl.matmul ins(%a, %b3 : memref<64x96xf32>, memref<96x300xf32>) outs(%c3 : memref<64x300xf32>)
  dl.matmul ins(%a, %b4 : memref<64x96xf32>, memref<96x420xf32>) outs(%c4 : memref<64x420xf32>)
  return
}

// -----

// A narrow GEMM (N <= 16, B within half the L2) reduces over all of K in
// one block, in blocks of up to 32 rows: M is split (3148 = 98 x 32 + 12,
// 4 x 787), K = 829 stays whole.
// With a 10007 x 16 B (640 KB) K is split as usual (78 x 128 + 23).
// CHECK-LABEL: func @narrow
// CHECK: memref.subview %arg0[0, 0] [3136, 829] [1, 1]
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<3136x15xf32, strided<[15, 1]>>){{$}}
// CHECK: memref.subview %arg0[3136, 0] [12, 829] [1, 1]
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<12x15xf32, strided<[15, 1], offset: 47040>>){{$}}
// CHECK: memref.subview %arg3[0, 0] [64, 9984] [1, 1]
// CHECK: dl.matmul
// CHECK: memref.subview %arg3[0, 9984] [64, 23] [1, 1]
// CHECK: dl.matmul {{.*}} {beta = 1.000000e+00 : f32}
// 371 = 7 x 53 has no divisor from 16 to 32 rows: 11 x 32 + 19. 4099 with
// rows 1 KiB apart is split by 8-row blocks: 4096 + 3.
// CHECK: memref.subview %arg6[0, 0] [352, 811] [1, 1]
// CHECK: dl.matmul
// CHECK: memref.subview %arg6[352, 0] [19, 811] [1, 1]
// CHECK: dl.matmul
// CHECK: memref.subview %arg9[0, 0] [4096, 256] [1, 1]
// CHECK: dl.matmul
// CHECK: memref.subview %arg9[4096, 0] [3, 256] [1, 1]
// CHECK: dl.matmul
// CHECK-NOT: dl.matmul
// With pad, a narrow GEMM reading A in place is still split; the long one,
// which packs, is padded along K only (10007 = 79 x 127 - 26): its blocks
// of C are whole, so C is not packed.
// PAD-LABEL: func @narrow
// PAD-COUNT-2: dl.matmul {{.*}} outs(%{{.*}} : memref<{{3136|12}}x15xf32, {{.*}}>){{$}}
// PAD-NEXT: dl.matmul ins(%arg3, %arg4 : {{.*}}) {pack_a, pack_b, pack_blocks = array<i64: 64, 16, 127>, pad_blocks}
func.func @narrow(%a: memref<3148x829xf32>, %b: memref<829x15xf32>, %c: memref<3148x15xf32>,
                  %along: memref<64x10007xf32>, %blong: memref<10007x16xf32>,
                  %clong: memref<64x16xf32>, %a7: memref<371x811xf32>,
                  %b7: memref<811x16xf32>, %c7: memref<371x16xf32>,
                  %a4k: memref<4099x256xf32>, %b4k: memref<256x13xf32>,
                  %c4k: memref<4099x13xf32>) {
  dl.matmul ins(%a, %b : memref<3148x829xf32>, memref<829x15xf32>) outs(%c : memref<3148x15xf32>)
  dl.matmul ins(%along, %blong : memref<64x10007xf32>, memref<10007x16xf32>) outs(%clong : memref<64x16xf32>)
  dl.matmul ins(%a7, %b7 : memref<371x811xf32>, memref<811x16xf32>) outs(%c7 : memref<371x16xf32>)
  dl.matmul ins(%a4k, %b4k : memref<4099x256xf32>, memref<256x13xf32>) outs(%c4k : memref<4099x13xf32>)
  return
}

// -----

// A narrow remainder of N reads whole rows of A where all of N does not:
// 77 columns split into 64 and 13, and the 13-column part's 47 rows (a
// prime, within the 64-row limit of all of N) into blocks as a narrow
// GEMM's: 32 and 15 (not 47 blocks of one row).
// CHECK-LABEL: func @narrow_remainder
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<47x64xf32, strided<[77, 1]>>){{$}}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<32x13xf32, strided<[77, 1], offset: 64>>){{$}}
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<15x13xf32, strided<[77, 1], offset: 2528>>){{$}}
// CHECK-NOT: dl.matmul
func.func @narrow_remainder(%a: memref<47x93xf32>, %b: memref<93x77xf32>, %c: memref<47x77xf32>) {
  dl.matmul ins(%a, %b : memref<47x93xf32>, memref<93x77xf32>) outs(%c : memref<47x77xf32>)
  return
}

// -----

// Without masked partial vectors (AVX2, 8-float vectors, 32-column limit), N
// splits into whole vectors and the rest of a vector: 2047 columns into
// 2040 (dl-pack-gemm-operands takes blocks of 24) and 7, which it pads to 8.
// 20 columns fit one block (padded there), and a GEMM under
// kMinWholeVectorFlops is split as with masks (1 x 439 x 4: 416 and 23).
// AVX2-LABEL: func @whole_vectors
// AVX2: dl.matmul {{.*}} outs(%{{.*}} : memref<64x2040xf32, strided<[2047, 1]>>)
// AVX2: dl.matmul {{.*}} outs(%{{.*}} : memref<64x7xf32, strided<[2047, 1], offset: 2040>>)
// AVX2: dl.matmul {{.*}} outs(%{{.*}} : memref<64x20xf32>)
// AVX2: dl.matmul {{.*}} outs(%{{.*}} : memref<1x416xf32, strided<[439, 1]>>)
// AVX2: dl.matmul {{.*}} outs(%{{.*}} : memref<1x23xf32, strided<[439, 1], offset: 416>>)
// AVX2-NOT: dl.matmul
// CHECK-LABEL: func @whole_vectors
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<64x1984xf32, strided<[2047, 1]>>)
// CHECK: dl.matmul {{.*}} outs(%{{.*}} : memref<64x63xf32, strided<[2047, 1], offset: 1984>>)
func.func @whole_vectors(%a: memref<64x128xf32>, %b: memref<128x2047xf32>, %c: memref<64x2047xf32>,
                         %b20: memref<128x20xf32>, %c20: memref<64x20xf32>,
                         %a1: memref<1x4xf32>, %b1: memref<4x439xf32>, %c1: memref<1x439xf32>) {
  dl.matmul ins(%a, %b : memref<64x128xf32>, memref<128x2047xf32>) outs(%c : memref<64x2047xf32>)
  dl.matmul ins(%a, %b20 : memref<64x128xf32>, memref<128x20xf32>) outs(%c20 : memref<64x20xf32>)
  dl.matmul ins(%a1, %b1 : memref<1x4xf32>, memref<4x439xf32>) outs(%c1 : memref<1x439xf32>)
  return
}

// -----

// Without masked partial vectors, a GEMM whose N within one block does not
// fill whole vectors, whose B is larger than its C (K >= M) and whose
// microkernel passes over B in at most 4 register tiles reads B in place in
// rows of whole vectors: an overlapping view (rows of 32 read 31 floats
// apart) over all rows but the last, whose whole vectors would read past
// B's end, into a padded scratch C; the last row as a GEMM of its own into
// C (with beta); the scratch added to C. Not so: 6 register tiles (40 rows
// of 2 vectors, 7 rows a tile), K < M, a GEMM under kMinWholeVectorFlops.
// AVX2-LABEL: func @overlapping_rows
// AVX2-SAME: (%[[A:.*]]: memref<10x1312xf32>, %[[B:.*]]: memref<1312x31xf32>, %[[C:.*]]: memref<10x31xf32>
// AVX2: %[[ROWS:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [1311, 32], strides: [31, 1] : memref<1312x31xf32> to memref<1311x32xf32, strided<[31, 1]>>
// AVX2: %[[SCRATCH:.*]] = memref.alloc() {alignment = 64 : i64} : memref<10x32xf32>
// AVX2: %[[MAINA:.*]] = memref.subview %[[A]][0, 0] [10, 1311] [1, 1]
// AVX2: %[[LASTA:.*]] = memref.subview %[[A]][0, 1311] [10, 1] [1, 1]
// AVX2: %[[LASTB:.*]] = memref.subview %[[B]][1311, 0] [1, 31] [1, 1]
// AVX2: dl.matmul ins(%[[MAINA]], %[[ROWS]] : {{.*}}) outs(%[[SCRATCH]] : memref<10x32xf32>) {alpha = 5.000000e-01 : f32}
// AVX2: dl.matmul ins(%[[LASTA]], %[[LASTB]] : {{.*}}) outs(%[[C]] : memref<10x31xf32>) {alpha = 5.000000e-01 : f32, beta = 1.000000e+00 : f32}
// AVX2: %[[COMPUTED:.*]] = memref.subview %[[SCRATCH]][0, 0] [10, 31] [1, 1]
// AVX2: dl.add ins(%[[C]], %[[COMPUTED]] : memref<10x31xf32>, memref<10x31xf32, strided<[32, 1]>>) outs(%[[C]] : memref<10x31xf32>)
// AVX2: memref.dealloc %[[SCRATCH]]
// AVX2: dl.matmul ins(%{{.*}}, %{{.*}} : memref<40x4095xf32>, memref<4095x11xf32>) outs(%{{.*}} : memref<40x11xf32>)
// AVX2: dl.matmul ins(%{{.*}}, %{{.*}} : memref<64x40xf32>, memref<40x11xf32>) outs(%{{.*}} : memref<64x11xf32>)
// AVX2: dl.matmul ins(%{{.*}}, %{{.*}} : memref<3x100xf32>, memref<100x11xf32>) outs(%{{.*}} : memref<3x11xf32>)
// AVX2-NOT: reinterpret_cast
// AVX2: return
// With masked vectors (AVX-512), all four stay as they are.
// CHECK-LABEL: func @overlapping_rows
// CHECK-NOT: reinterpret_cast
// CHECK-NOT: dl.add
// CHECK: return
func.func @overlapping_rows(%a: memref<10x1312xf32>, %b: memref<1312x31xf32>, %c: memref<10x31xf32>,
                            %a40: memref<40x4095xf32>, %b40: memref<4095x11xf32>, %c40: memref<40x11xf32>,
                            %a64: memref<64x40xf32>, %b64: memref<40x11xf32>, %c64: memref<64x11xf32>,
                            %a3: memref<3x100xf32>, %b3: memref<100x11xf32>, %c3: memref<3x11xf32>) {
  dl.matmul ins(%a, %b : memref<10x1312xf32>, memref<1312x31xf32>) outs(%c : memref<10x31xf32>) {alpha = 0.5 : f32, beta = 1.0 : f32}
  dl.matmul ins(%a40, %b40 : memref<40x4095xf32>, memref<4095x11xf32>) outs(%c40 : memref<40x11xf32>)
  dl.matmul ins(%a64, %b64 : memref<64x40xf32>, memref<40x11xf32>) outs(%c64 : memref<64x11xf32>)
  dl.matmul ins(%a3, %b3 : memref<3x100xf32>, memref<100x11xf32>) outs(%c3 : memref<3x11xf32>)
  return
}

// -----

// With masked partial vectors (AVX-512), one row of C whose N is a partial
// vector (not a power of two) reads B's rows in whole vectors too, from
// kMinOneRowDepth rows of B on: the whole op of one row, and the one-row
// remainder of a split M (97 = 3 x 32 + 1). Not so: two rows, N a power of
// two, N beyond a vector, fewer than 96 rows of B.
// CHECK-LABEL: func @one_row_whole_vectors
// CHECK-SAME: (%[[A:.*]]: memref<1x983xf32>, %[[B:.*]]: memref<983x11xf32>, %[[C:.*]]: memref<1x11xf32>
// CHECK: %[[ROWS:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [982, 16], strides: [11, 1] : memref<983x11xf32> to memref<982x16xf32, strided<[11, 1]>>
// CHECK: %[[SCRATCH:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x16xf32>
// CHECK: dl.matmul ins(%{{.*}}, %[[ROWS]] : memref<1x982xf32, strided<[983, 1]>>, memref<982x16xf32, strided<[11, 1]>>) outs(%[[SCRATCH]] : memref<1x16xf32>)
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<1x1xf32, strided<[983, 1], offset: 982>>, memref<1x11xf32, strided<[11, 1], offset: 10802>>) outs(%[[C]] : memref<1x11xf32>)
// CHECK: dl.add
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<96x281xf32, strided<[281, 1]>>, memref<281x15xf32>) outs(%{{.*}} : memref<96x15xf32, strided<[15, 1]>>)
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [280, 16], strides: [15, 1]
// CHECK: dl.matmul ins(%{{.*}}, %{{.*}} : memref<1x280xf32, strided<[281, 1], offset: 26976>>, memref<280x16xf32, strided<[15, 1]>>) outs(%{{.*}} : memref<1x16xf32>)
// CHECK: dl.add
// CHECK-NOT: reinterpret_cast
// CHECK: return
func.func @one_row_whole_vectors(%a: memref<1x983xf32>, %b: memref<983x11xf32>, %c: memref<1x11xf32>,
                                 %a97: memref<97x281xf32>, %b97: memref<281x15xf32>, %c97: memref<97x15xf32>,
                                 %a2: memref<2x983xf32>, %c2: memref<2x11xf32>,
                                 %b8: memref<983x8xf32>, %c8: memref<1x8xf32>,
                                 %b25: memref<983x25xf32>, %c25: memref<1x25xf32>,
                                 %a64: memref<1x64xf32>, %b64: memref<64x11xf32>) {
  dl.matmul ins(%a, %b : memref<1x983xf32>, memref<983x11xf32>) outs(%c : memref<1x11xf32>)
  dl.matmul ins(%a97, %b97 : memref<97x281xf32>, memref<281x15xf32>) outs(%c97 : memref<97x15xf32>)
  dl.matmul ins(%a2, %b : memref<2x983xf32>, memref<983x11xf32>) outs(%c2 : memref<2x11xf32>)
  dl.matmul ins(%a, %b8 : memref<1x983xf32>, memref<983x8xf32>) outs(%c8 : memref<1x8xf32>)
  dl.matmul ins(%a, %b25 : memref<1x983xf32>, memref<983x25xf32>) outs(%c25 : memref<1x25xf32>)
  dl.matmul ins(%a64, %b64 : memref<1x64xf32>, memref<64x11xf32>) outs(%c : memref<1x11xf32>)
  return
}
