// dl-prefetch-next-blocks: a microkernel call whose block of A (or B) does
// not move along the loop right around it and moves along the loop around
// that one prefetches, before each call, its share of the rows of the next
// outer iteration's block into the L2: a strided pointwise convolution's
// input rows (8 channel blocks x 70 rows of 60 floats, 120 apart), 80 rows a
// call over 7 calls, 5 probes a row (4 lines and the last element). Not
// where the block moves with the inner loop, where the operand fits the L2,
// where the next block takes more than a quarter of the L2, nor with offset
// tables.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-prefetch-next-blocks | FileCheck %s

// The maps: the next output row, its input row, the linear element of
// the block, the call's 80 rows, the probes, a row's element.
// CHECK-DAG: affine_map<(d0) -> (d0 + 1, 69)>
// CHECK-DAG: affine_map<(d0) -> (d0 * 2)>
// CHECK-DAG: affine_map<(d0, d1, d2, d3, d4) -> (d0 * 9274080 + d1 * 1159260 + d2 * 8340 + d3 * 60 + d4)>
// CHECK-DAG: affine_map<(d0) -> (d0 * 80)>
// CHECK-DAG: affine_map<(d0) -> ((d0 + 1) * 80, 560)>
// CHECK-DAG: affine_map<(d0) -> (d0 * 16, 59)>
// CHECK-DAG: affine_map<(d0, d1, d2) -> (d2 + (d0 floordiv 70) * 1159260 + (d0 mod 70) * 120 + d1)>

// CHECK-LABEL: func.func @strided_pointwise
// CHECK: affine.for %[[N:.*]] = 0 to 2 {
// CHECK: affine.for %[[OH:.*]] = 0 to 70 {
// CHECK: affine.for %[[KB:.*]] = 0 to 7 {
// CHECK: scf.if
// CHECK: %[[NEXT:.*]] = affine.min #{{.*}}(%[[OH]])
// CHECK: %[[ROW:.*]] = affine.apply #{{.*}}(%[[NEXT]])
// CHECK: %[[START:.*]] = affine.apply #{{.*}}(%[[N]], %{{.*}}, %[[ROW]], %{{.*}}, %{{.*}})
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [18548160], strides: [1]
// CHECK: affine.for %[[R:.*]] = #{{.*}}(%[[KB]]) to min #{{.*}}(%[[KB]]) {
// CHECK: affine.for %[[P:.*]] = 0 to 5 {
// CHECK: %[[COL:.*]] = affine.min #{{.*}}(%[[P]])
// CHECK: %[[AT:.*]] = affine.apply #{{.*}}(%[[R]], %[[COL]], %[[START]])
// CHECK: memref.prefetch %[[FLAT]][%[[AT]]], read, locality<2>, data
// CHECK: dl.gemm_invoke
// CHECK-NOT: memref.prefetch
func.func @strided_pointwise(%in: memref<2x8x139x139x60xf32>, %w: memref<7x8x1x1x60x16xf32>, %out: memref<2x7x70x70x16xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c0_i64 = arith.constant 0 : i64
  %kernel = dl.gemm_dispatch {beta_zero, k = 60 : i64, lda = 120 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 70 : i64, n = 16 : i64, stride_a = 1159260 : i64, stride_b = 960 : i64}
  %ok = arith.cmpi ne, %kernel, %c0_i64 : i64
  affine.for %n = 0 to 2 {
    affine.for %oh = 0 to 70 {
      affine.for %kb = 0 to 7 {
        scf.if %ok {
          %row = affine.apply affine_map<(d0) -> (d0 * 2)>(%oh)
          dl.gemm_invoke %kernel(%in[%n, %c0, %row, %c0, %c0], %w[%kb, %c0, %c0, %c0, %c0, %c0], %out[%n, %kb, %oh, %c0, %c0]) batch(%c8) : memref<2x8x139x139x60xf32>, memref<7x8x1x1x60x16xf32>, memref<2x7x70x70x16xf32>
        }
      }
    }
  }
  return
}

// The input rows move along the inner loop (oh inside kb), the filter's
// block along it too: nothing to prefetch.
// CHECK-LABEL: func.func @moves_with_inner_loop
// CHECK-NOT: memref.prefetch
func.func @moves_with_inner_loop(%in: memref<2x8x139x139x60xf32>, %w: memref<7x8x1x1x60x16xf32>, %out: memref<2x7x70x70x16xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %kernel = dl.gemm_dispatch {beta_zero, k = 60 : i64, lda = 120 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 70 : i64, n = 16 : i64, stride_a = 1159260 : i64, stride_b = 960 : i64}
  affine.for %n = 0 to 2 {
    affine.for %kb = 0 to 7 {
      affine.for %oh = 0 to 70 {
        %row = affine.apply affine_map<(d0) -> (d0 * 2)>(%oh)
        dl.gemm_invoke %kernel(%in[%n, %c0, %row, %c0, %c0], %w[%kb, %c0, %c0, %c0, %c0, %c0], %out[%n, %kb, %oh, %c0, %c0]) batch(%c8) : memref<2x8x139x139x60xf32>, memref<7x8x1x1x60x16xf32>, memref<2x7x70x70x16xf32>
      }
    }
  }
  return
}

// An input of 960 KiB stays in the L2 across the calls.
// CHECK-LABEL: func.func @fits_the_l2
// CHECK-NOT: memref.prefetch
func.func @fits_the_l2(%in: memref<1x1x64x64x60xf32>, %w: memref<7x1x1x1x60x16xf32>, %out: memref<1x7x64x64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kernel = dl.gemm_dispatch {beta_zero, k = 60 : i64, lda = 60 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 64 : i64, n = 16 : i64, stride_a = 245760 : i64, stride_b = 960 : i64}
  affine.for %oh = 0 to 64 {
    affine.for %kb = 0 to 7 {
      dl.gemm_invoke %kernel(%in[%c0, %c0, %oh, %c0, %c0], %w[%kb, %c0, %c0, %c0, %c0, %c0], %out[%c0, %kb, %oh, %c0, %c0]) batch(%c1) : memref<1x1x64x64x60xf32>, memref<7x1x1x1x60x16xf32>, memref<1x7x64x64x16xf32>
    }
  }
  return
}

// A block of 64 rows of 2048 floats (512 KiB) is more than a quarter of
// the L2: prefetching it would evict what the calls re-read.
// CHECK-LABEL: func.func @next_block_too_large
// CHECK-NOT: memref.prefetch
func.func @next_block_too_large(%a: memref<1024x2048xf32>, %b: memref<2048x512xf32>, %c: memref<1024x512xf32>) {
  %c0 = arith.constant 0 : index
  %kernel = dl.gemm_dispatch {beta_zero, k = 2048 : i64, lda = 2048 : i64, ldb = 512 : i64, ldc = 512 : i64, m = 64 : i64, n = 64 : i64}
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 8 {
      %row = affine.apply affine_map<(d0) -> (d0 * 64)>(%i)
      %col = affine.apply affine_map<(d0) -> (d0 * 64)>(%j)
      dl.gemm_invoke %kernel(%a[%row, %c0], %b[%c0, %col], %c[%row, %col]) : memref<1024x2048xf32>, memref<2048x512xf32>, memref<1024x512xf32>
    }
  }
  return
}

// A GEMM's rows of A (64 rows of 256 floats, 64 KiB), the same for the 8
// blocks of columns and moving with the parallel loop over the rows: 8
// rows a call, 17 probes each (16 lines, aligned: the last one twice). B
// moves with the inner loop.
// CHECK-LABEL: func.func @rows_of_a_in_parallel
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (64) {
// CHECK: affine.for %[[J:.*]] = 0 to 8 {
// CHECK: %[[NEXT:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK: affine.for %{{.*}} = #{{.*}}(%[[J]]) to min #{{.*}}(%[[J]]) {
// CHECK: affine.for %{{.*}} = 0 to 17 {
// CHECK: memref.prefetch %{{.*}}, read, locality<2>, data : memref<1048576xf32, strided<[1]>>
// CHECK-NOT: memref.prefetch
// CHECK: dl.gemm_invoke
func.func @rows_of_a_in_parallel(%a: memref<4096x256xf32>, %b: memref<256x512xf32>, %c: memref<4096x512xf32>) {
  %c0 = arith.constant 0 : index
  %kernel = dl.gemm_dispatch {beta_zero, k = 256 : i64, lda = 256 : i64, ldb = 512 : i64, ldc = 512 : i64, m = 64 : i64, n = 64 : i64}
  affine.parallel (%i) = (0) to (64) {
    affine.for %j = 0 to 8 {
      %row = affine.apply affine_map<(d0) -> (d0 * 64)>(%i)
      %col = affine.apply affine_map<(d0) -> (d0 * 64)>(%j)
      dl.gemm_invoke %kernel(%a[%row, %c0], %b[%c0, %col], %c[%row, %col]) : memref<4096x256xf32>, memref<256x512xf32>, memref<4096x512xf32>
    }
  }
  return
}

// Blocks at offsets the call reads from tables: not known here.
// CHECK-LABEL: func.func @offset_tables
// CHECK-NOT: memref.prefetch
func.func @offset_tables(%a: memref<4096x256xf32>, %b: memref<256x512xf32>, %c: memref<4096x512xf32>, %offsets: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %kernel = dl.gemm_dispatch {batch_offsets, beta_zero, k = 128 : i64, lda = 256 : i64, ldb = 512 : i64, ldc = 512 : i64, m = 64 : i64, n = 64 : i64}
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 8 {
      %row = affine.apply affine_map<(d0) -> (d0 * 64)>(%i)
      %col = affine.apply affine_map<(d0) -> (d0 * 64)>(%j)
      dl.gemm_invoke %kernel(%a[%row, %c0], %b[%c0, %col], %c[%row, %col]) batch(%c2) offsets(%offsets, %offsets) : memref<4096x256xf32>, memref<256x512xf32>, memref<4096x512xf32>, memref<2xi64>, memref<2xi64>
    }
  }
  return
}
