func.func @returns(%x: memref<4xf32>) -> f32 {
  %c = arith.constant 1.0 : f32
  return %c : f32
}
