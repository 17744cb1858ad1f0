// dl-compile --run on dl.matmul: the compiled code against the reference
// lowering on shapes that are not multiples of 16, with alpha/beta,
// transposes and dynamic sizes.
// RUN: dl-compile %s --run | FileCheck %s

// CHECK: odd: max_abs_err={{.*}} ok
func.func @odd(%a: memref<17x13xf32>, %b: memref<13x19xf32>, %c: memref<17x19xf32>) {
  dl.matmul ins(%a, %b : memref<17x13xf32>, memref<13x19xf32>) outs(%c : memref<17x19xf32>)
  return
}

// CHECK: scaled_transposed: max_abs_err={{.*}} ok
func.func @scaled_transposed(%a: memref<33x31xf32>, %b: memref<47x33xf32>, %c: memref<31x47xf32>) {
  dl.matmul ins(%a, %b : memref<33x31xf32>, memref<47x33xf32>) outs(%c : memref<31x47xf32>)
      {alpha = 2.0 : f32, beta = 0.5 : f32, transpose_a, transpose_b}
  return
}

// CHECK: blocks: max_abs_err={{.*}} ok
func.func @blocks(%a: memref<64x48xf32>, %b: memref<48x32xf32>, %c: memref<64x32xf32>) {
  dl.matmul ins(%a, %b : memref<64x48xf32>, memref<48x32xf32>) outs(%c : memref<64x32xf32>)
      {beta = 1.0 : f32}
  return
}

// CHECK: dynamic: max_abs_err={{.*}} ok
func.func @dynamic(%a: memref<?x?xf32> {dl.run_shape = array<i64: 15, 9>},
                   %b: memref<?x?xf32> {dl.run_shape = array<i64: 9, 21>},
                   %c: memref<?x?xf32> {dl.run_shape = array<i64: 15, 21>}) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
