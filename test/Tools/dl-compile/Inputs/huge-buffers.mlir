// Arguments too large for any machine's memory (--run and --bench must
// refuse them before allocating) and one whose size overflows 64 bits.

func.func @huge(%a: memref<200000x200000xf32>, %b: memref<200000x4xf32>, %c: memref<200000x4xf32>) {
  dl.matmul ins(%a, %b : memref<200000x200000xf32>, memref<200000x4xf32>) outs(%c : memref<200000x4xf32>)
  return
}

func.func @overflow(%x: memref<4611686018427387904x4xf32>) {
  dl.relu ins(%x : memref<4611686018427387904x4xf32>) outs(%x : memref<4611686018427387904x4xf32>)
  return
}
