// dl-outline-microkernels after dl-parallelize-outer-loops has normalized the
// tile loops: the band's M loop starts at `%t * 7` of a tile loop and the N
// tile loop runs once (`%j = 0 to 1`, its iv still in the fill's index). The
// zero fill covers exactly the kernel's block, so the call is beta_zero.
// RUN: dl-opt %s --dl-outline-microkernels | FileCheck %s

// CHECK-LABEL: func.func @normalized_tiles
// CHECK: affine.parallel
// CHECK-NOT: affine.store
// CHECK: dl.gemm_dispatch {beta_zero, k = 8 : i64, lda = 8 : i64, ldb = 16 : i64, ldc = 16 : i64, m = 7 : i64, n = 16 : i64}
// CHECK: } else {
// CHECK: affine.store %{{.*}}, %arg2[%{{.*}}, %{{.*}} + %{{.*}} * 7, %{{.*}} + %{{.*}} * 16]
#lower = affine_map<(d0) -> (d0 * 7)>
#upper = affine_map<(d0) -> (d0 * 7 + 7)>
func.func @normalized_tiles(%in: memref<4x14x8xf32>, %f: memref<8x16xf32>, %out: memref<4x14x16xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  affine.parallel (%h) = (0) to (4) {
    affine.for %t = 0 to 2 {
      affine.for %j = 0 to 1 {
        affine.for %x = 0 to 7 {
          affine.for %y = 0 to 16 {
            affine.store %cst, %out[%h, %x + %t * 7, %y + %j * 16] : memref<4x14x16xf32>
          }
        }
        affine.for %w = #lower(%t) to #upper(%t) {
          affine.for %c = 0 to 8 {
            affine.for %k = 0 to 16 {
              %0 = affine.load %in[%h, %w, %c] : memref<4x14x8xf32>
              %1 = affine.load %f[%c, %k] : memref<8x16xf32>
              %2 = arith.mulf %0, %1 : f32
              %3 = affine.load %out[%h, %w, %k] : memref<4x14x16xf32>
              %4 = arith.addf %3, %2 : f32
              affine.store %4, %out[%h, %w, %k] : memref<4x14x16xf32>
            }
          }
        } {dl.gemm_band}
      }
    }
  }
  return
}

// A loop around the fill that runs twice, its iv absent from the band's
// accesses: the fill's block is not provably the kernel's, so it stays and
// the call reads C.
// CHECK-LABEL: func.func @two_column_tiles
// CHECK: affine.store %cst
// CHECK: dl.gemm_dispatch {k = 8
func.func @two_column_tiles(%in: memref<14x8xf32>, %f: memref<8x32xf32>, %out: memref<14x32xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  affine.for %j = 0 to 2 {
    affine.for %x = 0 to 14 {
      affine.for %y = 0 to 16 {
        affine.store %cst, %out[%x, %y + %j * 16] : memref<14x32xf32>
      }
    }
    affine.for %w = 0 to 14 {
      affine.for %c = 0 to 8 {
        affine.for %k = 0 to 16 {
          %0 = affine.load %in[%w, %c] : memref<14x8xf32>
          %1 = affine.load %f[%c, %k] : memref<8x32xf32>
          %2 = arith.mulf %0, %1 : f32
          %3 = affine.load %out[%w, %k] : memref<14x32xf32>
          %4 = arith.addf %3, %2 : f32
          affine.store %4, %out[%w, %k] : memref<14x32xf32>
        }
      }
    } {dl.gemm_band}
  }
  return
}
