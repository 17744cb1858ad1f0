// Padded 3x3 convolutions whose filter columns dl-skip-padding-columns
// splits into runs (7x7 and 14x14 outputs, 64-channel blocks; a plain-layout
// one through dl-block-conv-layouts) and explicitly marked strided and
// dilated ones, all through the microkernels, match the reference lowering
// (which reads a zero-padded copy), sequential and with 2 threads; also with
// the 14-pixel runs' rows of C computed in halves (dl-outline-microkernels'
// column split, chosen for AVX-512 and a 48 KiB L1 whatever the host).
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --run --threads=1 --vector-bits=512 --cache-sizes=L1=48K | FileCheck %s
// RUN: dl-compile %s --vector-bits=512 --cache-sizes=L1=48K --mlir-print-ir-after=dl-outline-microkernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=HALVES
// RUN: dl-compile %s --vector-bits=512 --mlir-print-ir-after=dl-skip-padding-columns -o /dev/null 2>&1 | FileCheck %s --check-prefix=MARKED
// RUN: dl-compile %s --vector-bits=512 --remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=OUTLINED --allow-empty

// MARKED-COUNT-4: skip_padding_columns
// MARKED-NOT: skip_padding_columns
// OUTLINED-NOT: GEMM band kept as loops
// HALVES-LABEL: func.func @fourteen_plain
// HALVES: dl.gemm_dispatch {{{.*}} m = 14 : i64, n = 32 : i64

// CHECK: seven: max_abs_err={{.*}} ok
func.func @seven(%in: memref<1x2x7x7x64xf32>, %f: memref<2x2x3x3x64x64xf32>, %out: memref<1x2x7x7x64xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x7x7x64xf32>, memref<2x2x3x3x64x64xf32>) outs(%out : memref<1x2x7x7x64xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// CHECK: fourteen_plain: max_abs_err={{.*}} ok
func.func @fourteen_plain(%in: memref<2x128x14x14xf32>, %f: memref<64x128x3x3xf32>, %out: memref<2x64x14x14xf32>) {
  dl.conv2d ins(%in, %f : memref<2x128x14x14xf32>, memref<64x128x3x3xf32>) outs(%out : memref<2x64x14x14xf32>)
      {padding = array<i64: 1, 1, 1, 1>}
  return
}

// CHECK: strided_asymmetric: max_abs_err={{.*}} ok
func.func @strided_asymmetric(%in: memref<1x2x17x17x16xf32>, %f: memref<2x2x7x7x16x32xf32>, %out: memref<1x2x5x6x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x17x17x16xf32>, memref<2x2x7x7x16x32xf32>) outs(%out : memref<1x2x5x6x32xf32>)
      {strides = array<i64: 3, 3>, padding = array<i64: 3, 2, 1, 3>, skip_padding_columns}
  return
}

// CHECK: dilated: max_abs_err={{.*}} ok
func.func @dilated(%in: memref<2x1x11x11x16xf32>, %f: memref<1x1x3x3x16x16xf32>, %out: memref<2x1x11x10x16xf32>) {
  dl.conv2d ins(%in, %f : memref<2x1x11x11x16xf32>, memref<1x1x3x3x16x16xf32>) outs(%out : memref<2x1x11x10x16xf32>)
      {dilations = array<i64: 2, 2>, padding = array<i64: 2, 3, 2, 0>, skip_padding_columns}
  return
}
