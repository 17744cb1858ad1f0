// Blocks of whole vectors where partial vectors are not masked (8-float
// AVX2 vectors: Target::masksPartialVectors), through the optimized
// pipeline, against the reference lowering: narrow GEMMs whose columns are
// padded to whole vectors with A read in place (pad_blocks without pack_a),
// with beta and alpha; a GEMM whose columns split into whole vectors and a
// padded rest; a B whose rows conflict in the L1 (packed); convolutions
// whose output-channel blocks are padded to whole vectors (17 -> 24, 5 ->
// 8); GEMMs of a few rows whose B, larger than C, is read in place in rows
// of whole vectors, each row read on into the next (overlapping rows; the
// last rows a GEMM of their own), with beta, alpha, a transposed A and a
// B of rows further apart than its columns (a part of a wider B);
// a B beyond the L2 read once in blocks of whole rows; sequential and with
// 2 threads.
// RUN: dl-compile %s --vector-bits=256 --cache-sizes=L1=32K,L2=512K,L3=32M --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --vector-bits=256 --cache-sizes=L1=32K,L2=512K,L3=32M --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --vector-bits=256 --cache-sizes=L1=32K,L2=512K,L3=32M --emit=mlir -o /dev/null --mlir-print-ir-after=dl-pack-gemm-operands 2>&1 | FileCheck %s --check-prefix=DECIDED

// DECIDED-DAG: outs(%{{.*}} : memref<512x5xf32>) {pack_b, pack_blocks = array<i64: 32, 8, 37>, pack_c, pad_blocks}
// DECIDED-DAG: outs(%{{.*}} : memref<512x5xf32>) {beta = 1.000000e+00 : f32, pack_b, pack_blocks = array<i64: 32, 8, 37>, pack_c, pad_blocks}
// DECIDED-DAG: outs(%{{.*}} : memref<512x5xf32>) {alpha = 5.000000e-01 : f32, pack_a, pack_b, pack_blocks = array<i64: 32, 8, 37>, pack_c, pad_blocks}
// DECIDED-DAG: outs(%{{.*}} : memref<96x12xf32>) {pack_b, pack_blocks = array<i64: 32, 16, 299>, pack_c, pad_blocks}
// DECIDED-DAG: outs(%{{.*}} : memref<64x2040xf32, strided<[2047, 1]>>) {pack_a, pack_b, pack_blocks = array<i64: 64, 24, 65>}
// DECIDED-DAG: outs(%{{.*}} : memref<64x7xf32, strided<[2047, 1], offset: 2040>>) {stream_a}
// DECIDED-DAG: outs(%{{.*}} : memref<64x2048xf32>) {pack_a, pack_b, pack_blocks = array<i64: 64, 32, 128>}
// DECIDED-DAG: outs(%{{.*}} : memref<2x1x14x14x24xf32>)
// DECIDED-DAG: outs(%{{.*}} : memref<1x1x7x7x8xf32>)

// The overlapping rows: the main part (rows of 16 columns 11 apart) into a
// scratch C, the last row on its own, the scratch added.
// DECIDED-DAG: dl.matmul ins(%{{.*}}, %{{.*}} : memref<3x1499xf32, strided<[1500, 1]>>, memref<1499x16xf32, strided<[11, 1]>>) outs(%{{.*}} : memref<3x16xf32>) {pack_blocks = array<i64: 3, 16, 1499>}
// DECIDED-DAG: dl.matmul ins(%{{.*}}, %{{.*}} : memref<3x1xf32, strided<[1500, 1], offset: 1499>>, memref<1x11xf32, strided<[11, 1], offset: 16489>>) outs(%{{.*}} : memref<3x11xf32>)
// DECIDED-DAG: dl.add ins(%{{.*}}, %{{.*}} : memref<3x11xf32>, memref<3x11xf32, strided<[16, 1]>>) outs(%{{.*}} : memref<3x11xf32>)
// DECIDED-DAG: dl.matmul ins(%{{.*}}, %{{.*}} : memref<10x1311xf32, strided<[1312, 1]>>, memref<1311x32xf32, strided<[31, 1]>>) outs(%{{.*}} : memref<10x32xf32>) {alpha = 5.000000e-01 : f32, pack_a,
// DECIDED-DAG: memref.reinterpret_cast %{{.*}} to offset: [28], sizes: [1699, 16], strides: [40, 1]

// CHECK: few_rows: max_abs_err={{.*}} ok
func.func @few_rows(%a: memref<3x1500xf32>, %b: memref<1500x11xf32>, %c: memref<3x11xf32>) {
  dl.matmul ins(%a, %b : memref<3x1500xf32>, memref<1500x11xf32>) outs(%c : memref<3x11xf32>)
  return
}

// CHECK: few_rows_alpha_beta: max_abs_err={{.*}} ok
func.func @few_rows_alpha_beta(%a: memref<10x1312xf32>, %b: memref<1312x31xf32>, %c: memref<10x31xf32>) {
  dl.matmul ins(%a, %b : memref<10x1312xf32>, memref<1312x31xf32>) outs(%c : memref<10x31xf32>) {alpha = 0.5 : f32, beta = 1.0 : f32}
  return
}

// CHECK: few_rows_transposed_a: max_abs_err={{.*}} ok
func.func @few_rows_transposed_a(%a: memref<2041x53xf32>, %b: memref<2041x5xf32>, %c: memref<53x5xf32>) {
  dl.matmul ins(%a, %b : memref<2041x53xf32>, memref<2041x5xf32>) outs(%c : memref<53x5xf32>) {transpose_a}
  return
}

// A part of a wider B: its rows lie 40 floats apart, read on past its
// 12 columns into the next row.
// CHECK: few_rows_of_part: max_abs_err={{.*}} ok
func.func @few_rows_of_part(%a: memref<4x1700xf32>, %b: memref<1700x40xf32>, %c: memref<4x12xf32>) {
  %part = memref.subview %b[0, 28] [1700, 12] [1, 1] : memref<1700x40xf32> to memref<1700x12xf32, strided<[40, 1], offset: 28>>
  dl.matmul ins(%a, %part : memref<4x1700xf32>, memref<1700x12xf32, strided<[40, 1], offset: 28>>) outs(%c : memref<4x12xf32>)
  return
}

// A B beyond the L2 read once by a few rows of C, in blocks of whole rows
// (110 of 1100) as wide as C's block keeps in half the L1 (200 of 600
// columns).
// DECIDED-DAG: outs(%{{.*}} : memref<4x600xf32>) {{{.*}}pack_blocks = array<i64: 4, 200, 110>
// CHECK: rows_of_b: max_abs_err={{.*}} ok
func.func @rows_of_b(%a: memref<4x1100xf32>, %b: memref<1100x600xf32>, %c: memref<4x600xf32>) {
  dl.matmul ins(%a, %b : memref<4x1100xf32>, memref<1100x600xf32>) outs(%c : memref<4x600xf32>)
  return
}

// CHECK: narrow: max_abs_err={{.*}} ok
func.func @narrow(%a: memref<512x37xf32>, %b: memref<37x5xf32>, %c: memref<512x5xf32>) {
  dl.matmul ins(%a, %b : memref<512x37xf32>, memref<37x5xf32>) outs(%c : memref<512x5xf32>)
  return
}

// CHECK: narrow_beta: max_abs_err={{.*}} ok
func.func @narrow_beta(%a: memref<512x37xf32>, %b: memref<37x5xf32>, %c: memref<512x5xf32>) {
  dl.matmul ins(%a, %b : memref<512x37xf32>, memref<37x5xf32>) outs(%c : memref<512x5xf32>) {beta = 1.0 : f32}
  return
}

// CHECK: narrow_alpha: max_abs_err={{.*}} ok
func.func @narrow_alpha(%a: memref<512x37xf32>, %b: memref<37x5xf32>, %c: memref<512x5xf32>) {
  dl.matmul ins(%a, %b : memref<512x37xf32>, memref<37x5xf32>) outs(%c : memref<512x5xf32>) {alpha = 0.5 : f32}
  return
}

// CHECK: narrow_twelve: max_abs_err={{.*}} ok
func.func @narrow_twelve(%a: memref<96x299xf32>, %b: memref<299x12xf32>, %c: memref<96x12xf32>) {
  dl.matmul ins(%a, %b : memref<96x299xf32>, memref<299x12xf32>) outs(%c : memref<96x12xf32>)
  return
}

// CHECK: vectors_and_rest: max_abs_err={{.*}} ok
func.func @vectors_and_rest(%a: memref<64x130xf32>, %b: memref<130x2047xf32>, %c: memref<64x2047xf32>) {
  dl.matmul ins(%a, %b : memref<64x130xf32>, memref<130x2047xf32>) outs(%c : memref<64x2047xf32>)
  return
}

// CHECK: conflicting_b: max_abs_err={{.*}} ok
func.func @conflicting_b(%a: memref<64x256xf32>, %b: memref<256x2048xf32>, %c: memref<64x2048xf32>) {
  dl.matmul ins(%a, %b : memref<64x256xf32>, memref<256x2048xf32>) outs(%c : memref<64x2048xf32>)
  return
}

// CHECK: conv_17: max_abs_err={{.*}} ok
func.func @conv_17(%in: memref<2x19x14x14xf32>, %f: memref<17x19x3x3xf32>, %out: memref<2x17x14x14xf32>) {
  dl.conv2d ins(%in, %f : memref<2x19x14x14xf32>, memref<17x19x3x3xf32>) outs(%out : memref<2x17x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// CHECK: conv_5_strided: max_abs_err={{.*}} ok
func.func @conv_5_strided(%in: memref<1x9x15x15xf32>, %f: memref<5x9x3x3xf32>, %out: memref<1x5x7x7xf32>) {
  dl.conv2d ins(%in, %f : memref<1x9x15x15xf32>, memref<5x9x3x3xf32>) outs(%out : memref<1x5x7x7xf32>)
      {strides = array<i64: 2, 2>}
  return
}
