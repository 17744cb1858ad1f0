// dl-outline-microkernels on hand-written tagged bands that are not GEMMs a
// row-major kernel computes: each keeps its loops and says why.
// RUN: dl-opt %s --dl-outline-microkernels=report-fallbacks --split-input-file --verify-diagnostics | FileCheck %s

// C written transposed (C[j][i]): no unit stride along C's rows.
// CHECK-LABEL: func.func @transposed_c
// CHECK-NOT: dl.gemm_dispatch
func.func @transposed_c(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<16x8xf32>) {
  // expected-remark @+1 {{GEMM band kept as loops: the accesses are not a row-major GEMM with unit stride along its rows}}
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 4 {
        %x = affine.load %a[%i, %k] : memref<8x4xf32>
        %y = affine.load %b[%k, %j] : memref<4x16xf32>
        %p = arith.mulf %x, %y : f32
        %acc = affine.load %c[%j, %i] : memref<16x8xf32>
        %s = arith.addf %acc, %p : f32
        affine.store %s, %c[%j, %i] : memref<16x8xf32>
      }
    }
  } {dl.gemm_band}
  return
}

// -----

// Not a multiply-accumulate.
// CHECK-LABEL: func.func @not_fma
// CHECK-NOT: dl.gemm_dispatch
func.func @not_fma(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  // expected-remark @+1 {{GEMM band kept as loops: the band body is not C += A * B}}
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 4 {
        %x = affine.load %a[%i, %k] : memref<8x4xf32>
        %y = affine.load %b[%k, %j] : memref<4x16xf32>
        %p = arith.subf %x, %y : f32
        %acc = affine.load %c[%i, %j] : memref<8x16xf32>
        %s = arith.addf %acc, %p : f32
        affine.store %s, %c[%i, %j] : memref<8x16xf32>
      }
    }
  } {dl.gemm_band}
  return
}

// -----

// Loop order (k, i, j) and a non-contiguous A (a strided view): recognized
// from the accesses; lda comes from the view's strides.
// CHECK-LABEL: func.func @reordered_view
// CHECK: dl.gemm_dispatch {k = 4 : i64, lda = 10 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 8 : i64, n = 16 : i64}
func.func @reordered_view(%a: memref<8x4xf32, strided<[10, 1], offset: 3>>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  affine.for %k = 0 to 4 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 16 {
        %y = affine.load %b[%k, %j] : memref<4x16xf32>
        %x = affine.load %a[%i, %k] : memref<8x4xf32, strided<[10, 1], offset: 3>>
        %p = arith.mulf %y, %x : f32
        %acc = affine.load %c[%i, %j] : memref<8x16xf32>
        %s = arith.addf %p, %acc : f32
        affine.store %s, %c[%i, %j] : memref<8x16xf32>
      }
    }
  } {dl.gemm_band}
  return
}

// -----

// A batch loop that also moves C is not part of the batch: the band is a
// plain GEMM called once per iteration.
// CHECK-LABEL: func.func @outer_moves_c
// CHECK: affine.for %[[T:.*]] = 0 to 3 {
// CHECK: dl.gemm_dispatch {k = 4 : i64, lda = 4 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 8 : i64, n = 16 : i64}
// CHECK: dl.gemm_invoke
// CHECK-SAME: %{{.*}}[%[[T]], %{{.*}}, %{{.*}}]) :
func.func @outer_moves_c(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<3x8x16xf32>) {
  affine.for %t = 0 to 3 {
    affine.for %i = 0 to 8 {
      affine.for %j = 0 to 16 {
        affine.for %k = 0 to 4 {
          %x = affine.load %a[%i, %k] : memref<8x4xf32>
          %y = affine.load %b[%k, %j] : memref<4x16xf32>
          %p = arith.mulf %x, %y : f32
          %acc = affine.load %c[%t, %i, %j] : memref<3x8x16xf32>
          %s = arith.addf %acc, %p : f32
          affine.store %s, %c[%t, %i, %j] : memref<3x8x16xf32>
        }
      }
    } {dl.gemm_band}
  }
  return
}
