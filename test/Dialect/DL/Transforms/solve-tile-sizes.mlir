// dl-solve-tile-sizes on ResNet-50 layers under two cache configurations:
// with a 256 KiB L2 the 3x3 layers of stages 4 and 5 split their input
// channels (cb:4: a quarter of the filter per output-channel block fits L2
// while the output rows stream), and stage 4 also groups output-channel
// blocks; with a 2 MiB L2 and 64 MiB L3 whole layers fit and the default
// order is already the model's optimum (only res3a_branch1's rows are tiled
// for L2). The microkernel's register level is the modeled bottleneck.
// RUN: dl-opt %s --dl-set-target="cache-sizes=L1=32K,L2=256K,L3=4M" --dl-solve-tile-sizes | FileCheck %s --check-prefix=SMALL
// RUN: dl-opt %s --dl-set-target="cache-sizes=L1=32K,L2=2M,L3=64M" --dl-solve-tile-sizes | FileCheck %s --check-prefix=LARGE
// RUN: dl-opt %s --dl-set-target="cache-sizes=L1=32K,L2=256K,L3=4M" --dl-solve-tile-sizes="threads=2" | FileCheck %s --check-prefix=THREADS
// RUN: dl-opt %s --dl-set-target="cache-sizes=L1=32K,L2=256K,L3=4M" --dl-solve-tile-sizes="max-iterations=0" 2>&1 | FileCheck %s --check-prefix=FALLBACK
// RUN: dl-opt %s --dl-set-target="cache-sizes=L1=32K,L2=256K,L3=4M" --dl-solve-tile-sizes="report=%t.json" -o /dev/null && FileCheck %s --check-prefix=REPORT < %t.json

// SMALL-LABEL: func.func @res4a_branch2b
// SMALL: dl.conv2d {{.*}}dl.tile_bottleneck = "reg", schedule = #dl.schedule<[n, kb:2, kb, cb:4, oh, cb]>
// LARGE-LABEL: func.func @res4a_branch2b
// LARGE: dl.conv2d {{.*}}schedule = #dl.schedule<[n, kb, oh, cb]>
// THREADS-LABEL: func.func @res4a_branch2b
// THREADS: dl.conv2d {{.*}}schedule = #dl.schedule<[{{.*}}], parallel = {{[0-9]}}>
// FALLBACK: remark: dl-solve-tile-sizes: Ipopt disabled (max-iterations=0); tiles from the greedy heuristic instead
// FALLBACK: dl.conv2d {{.*}}schedule = #dl.schedule<
func.func @res4a_branch2b(%in: memref<1x8x16x16x32xf32>, %f: memref<8x8x3x3x32x32xf32>, %out: memref<1x8x14x14x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x16x16x32xf32>, memref<8x8x3x3x32x32xf32>) outs(%out : memref<1x8x14x14x32xf32>)
  return
}

// SMALL-LABEL: func.func @res5a_branch2b
// SMALL: dl.conv2d {{.*}}schedule = #dl.schedule<[n, cb:4, kb, oh, cb]>
// LARGE-LABEL: func.func @res5a_branch2b
// LARGE: dl.conv2d {{.*}}schedule = #dl.schedule<[n, kb, oh, cb]>
func.func @res5a_branch2b(%in: memref<1x16x9x9x32xf32>, %f: memref<16x16x3x3x32x32xf32>, %out: memref<1x16x7x7x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x16x9x9x32xf32>, memref<16x16x3x3x32x32xf32>) outs(%out : memref<1x16x7x7x32xf32>)
  return
}

// SMALL-LABEL: func.func @res3a_branch1
// SMALL: dl.conv2d {{.*}}schedule = #dl.schedule<[n, oh:7, kb, oh, cb]>
// LARGE-LABEL: func.func @res3a_branch1
// LARGE: dl.conv2d {{.*}}schedule = #dl.schedule<[n, oh:2, kb, oh, cb]>
func.func @res3a_branch1(%in: memref<1x8x28x28x32xf32>, %f: memref<16x8x1x1x32x32xf32>, %out: memref<1x16x28x28x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x28x28x32xf32>, memref<16x8x1x1x32x32xf32>) outs(%out : memref<1x16x28x28x32xf32>)
  return
}

// A GEMM: i, j, k in blocks of the microkernel; k stays the batch (last).
// SMALL-LABEL: func.func @gemm
// SMALL: dl.matmul {{.*}}schedule = #dl.schedule<[{{.*}}k]>
// THREADS-LABEL: func.func @gemm
// THREADS: dl.matmul {{.*}}schedule = #dl.schedule<[{{.*}}k], parallel = {{[0-9]}}>
func.func @gemm(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>, %c: memref<1024x1024xf32>) {
  dl.matmul ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%c : memref<1024x1024xf32>) {pack_blocks = array<i64: 64, 32, 128>}
  return
}

// One input-channel block (a first layer) and one K block: the batch
// dimension still closes the schedule.
// SMALL-LABEL: func.func @one_channel_block
// SMALL: dl.conv2d {{.*}}schedule = #dl.schedule<[{{.*}}, cb]>
func.func @one_channel_block(%in: memref<1x1x16x16x3xf32>, %f: memref<2x1x3x3x3x32xf32>, %out: memref<1x2x14x14x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x1x16x16x3xf32>, memref<2x1x3x3x3x32xf32>) outs(%out : memref<1x2x14x14x32xf32>)
  return
}
// SMALL-LABEL: func.func @one_k_block
// SMALL: dl.matmul {{.*}}schedule = #dl.schedule<[{{.*}}, k]>
func.func @one_k_block(%a: memref<256x32xf32>, %b: memref<32x512xf32>, %c: memref<256x512xf32>) {
  dl.matmul ins(%a, %b : memref<256x32xf32>, memref<32x512xf32>) outs(%c : memref<256x512xf32>) {pack_blocks = array<i64: 64, 32, 32>}
  return
}

// Ops with a schedule keep it.
// SMALL-LABEL: func.func @decided
// SMALL: schedule = #dl.schedule<[oh, kb, n]>
// SMALL-NOT: dl.tile_bottleneck
func.func @decided(%in: memref<1x8x16x16x32xf32>, %f: memref<8x8x3x3x32x32xf32>, %out: memref<1x8x14x14x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x16x16x32xf32>, memref<8x8x3x3x32x32xf32>) outs(%out : memref<1x8x14x14x32xf32>) {schedule = #dl.schedule<[oh, kb, n]>}
  return
}

// REPORT: "machine":
// REPORT: "ops": [
// REPORT: "candidates": [
// REPORT: "bottleneck": "reg"
// REPORT: "levels": [
// REPORT: "level": "reg"
// REPORT: "level": "L2"
// REPORT: "order": [
// REPORT: "schedule": "#dl.schedule<[n, kb:2, kb, cb:4, oh, cb]>"
// REPORT: "extents": [
// REPORT: "fallback": false
// REPORT: "ipopt_solves":
// REPORT: "op": "dl.conv2d"
// REPORT: "relaxed": [
// REPORT: "solve_seconds":
