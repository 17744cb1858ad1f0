// Pointwise convolutions that dl-merge-conv-rows runs on views with merged
// rows (7x7 -> 1x49 in a plain-layout chain with ReLU and a residual add on
// the blocked copies; 14x14 -> 2x98 on two blocked images; a stride-2
// convolution's dense 7x7 copy from dl-reduce-conv-strides (8-float pixels,
// half a cache line) -> 1x49) and a stride-2 convolution that reads its
// 32-float pixels in place (unmerged) match the reference lowering,
// sequential and with 2 threads.
// RUN: dl-compile %s --run --threads=1 | FileCheck %s
// RUN: dl-compile %s --run --threads=2 | FileCheck %s
// RUN: dl-compile %s --vector-bits=256 --mlir-print-ir-after=dl-merge-conv-rows -o /dev/null 2>&1 | FileCheck %s --check-prefix=MERGED

// MERGED-DAG: dl.conv2d {{.*}} outs({{.*}} : memref<1x1x1x49x32xf32>)
// MERGED-DAG: dl.conv2d ins({{.*}} : memref<1x1x1x49x32xf32>, {{.*}}) outs({{.*}} : memref<1x2x1x49x32xf32>)
// MERGED-DAG: dl.conv2d {{.*}} outs({{.*}} : memref<2x2x2x98x32xf32>)
// MERGED-DAG: dl.conv2d ins({{.*}} : memref<1x4x1x49x8xf32>, {{.*}}) outs({{.*}} : memref<1x4x1x49x8xf32>)
// MERGED-DAG: dl.conv2d ins({{.*}} : memref<1x4x14x14x32xf32>, {{.*}}) outs({{.*}} : memref<1x2x7x7x32xf32>) {strides = array<i64: 2, 2>}

// CHECK: chain: max_abs_err={{.*}} ok
func.func @chain(%x: memref<1x64x7x7xf32>, %w1: memref<32x64x1x1xf32>, %w2: memref<64x32x1x1xf32>, %out: memref<1x64x7x7xf32>) {
  %t = memref.alloc() : memref<1x32x7x7xf32>
  %u = memref.alloc() : memref<1x64x7x7xf32>
  dl.conv2d ins(%x, %w1 : memref<1x64x7x7xf32>, memref<32x64x1x1xf32>) outs(%t : memref<1x32x7x7xf32>)
  dl.relu ins(%t : memref<1x32x7x7xf32>) outs(%t : memref<1x32x7x7xf32>)
  dl.conv2d ins(%t, %w2 : memref<1x32x7x7xf32>, memref<64x32x1x1xf32>) outs(%u : memref<1x64x7x7xf32>)
  dl.add ins(%u, %x : memref<1x64x7x7xf32>, memref<1x64x7x7xf32>) outs(%out : memref<1x64x7x7xf32>)
  memref.dealloc %t : memref<1x32x7x7xf32>
  memref.dealloc %u : memref<1x64x7x7xf32>
  return
}

// CHECK: blocked: max_abs_err={{.*}} ok
func.func @blocked(%in: memref<2x4x14x14x32xf32>, %f: memref<2x4x1x1x32x32xf32>, %out: memref<2x2x14x14x32xf32>) {
  dl.conv2d ins(%in, %f : memref<2x4x14x14x32xf32>, memref<2x4x1x1x32x32xf32>) outs(%out : memref<2x2x14x14x32xf32>)
  return
}

// CHECK: strided: max_abs_err={{.*}} ok
// CHECK: strided_copied: max_abs_err={{.*}} ok
func.func @strided(%in: memref<1x4x14x14x32xf32>, %f: memref<2x4x1x1x32x32xf32>, %out: memref<1x2x7x7x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x14x14x32xf32>, memref<2x4x1x1x32x32xf32>) outs(%out : memref<1x2x7x7x32xf32>)
      {strides = array<i64: 2, 2>}
  return
}

func.func @strided_copied(%in: memref<1x4x14x14x8xf32>, %f: memref<4x4x1x1x8x8xf32>, %out: memref<1x4x7x7x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x4x14x14x8xf32>, memref<4x4x1x1x8x8xf32>) outs(%out : memref<1x4x7x7x8xf32>)
      {strides = array<i64: 2, 2>}
  return
}
