// dl-rank-variants with cost=working-sets (PolyDL's eq. 1): the schedule it
// picks, and how it moves when the caches change size. Cache sizes are given
// (not detected) so the choices do not depend on the machine running the
// test. The default cost (traffic) is tested in rank-variants-traffic.mlir.
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-set-target="max-batch-bytes=16384" --dl-rank-variants="cost=working-sets report=%t.json" | FileCheck %s --check-prefix=BASE
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=1M,L3=4M" --dl-pack-gemm-operands --dl-set-target="max-batch-bytes=16384" --dl-rank-variants="cost=working-sets" | FileCheck %s --check-prefix=MID
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=64K,L2=2M,L3=64M" --dl-pack-gemm-operands --dl-set-target="max-batch-bytes=16384" --dl-rank-variants="cost=working-sets" | FileCheck %s --check-prefix=BIG
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-set-target="max-batch-bytes=16384" --dl-rank-variants="cost=working-sets threads=2" | FileCheck %s --check-prefix=PAR

// A 1x1 convolution, 256 -> 512 channels on 28x28 (ResNet-50 res3-like):
// filter 512 KiB, input 784 KiB, output 1.5 MiB. The model's biggest
// working sets are the filter's reuse across output rows and the input's
// reuse across output-channel blocks:
//   [oh, kb]: filter 2.85 MB, input 0.57 MB   [kb, oh]: 0.91 MB, 2.80 MB
//   [oh:4, kb, oh]: 2.69 MB, 0.82 MB          [kb:8, oh, kb]: 1.82 MB, 2.12 MB
// With a 512 KiB L2 none of these fits in L2; tiling the input channels
// does: [oh, cb:4, kb, cb] reuses 4 input blocks of a row (0.31 MB with the
// output row) across kb and wins. A 1 MiB L2 holds the input's 0.82 MB of
// [oh:4, kb, oh]; a 2 MiB L2 holds the filter's 1.82 MB of [kb:8, oh, kb].
// (max-batch-bytes=16384 lets the 61 KiB batch over all 8 input-channel
// blocks be split; rank-variants-traffic.mlir shows the default keeping it.)
// BASE-LABEL: func.func @conv_1x1
// BASE: schedule = #dl.schedule<[n, oh, cb:4, kb, cb]>
// MID-LABEL: func.func @conv_1x1
// MID: schedule = #dl.schedule<[n, oh:4, kb, oh]>
// BIG-LABEL: func.func @conv_1x1
// BIG: schedule = #dl.schedule<[n, kb:8, oh, kb]>
// With 2 threads the parallel loop is the outermost one over at least 2
// iterations that is not a reduction.
// PAR-LABEL: func.func @conv_1x1
// PAR: schedule = #dl.schedule<[n, oh, cb:4, kb, cb], parallel = 1>
func.func @conv_1x1(%in: memref<1x8x28x28x32xf32>, %f: memref<16x8x1x1x32x32xf32>, %out: memref<1x16x28x28x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x28x28x32xf32>, memref<16x8x1x1x32x32xf32>) outs(%out : memref<1x16x28x28x32xf32>)
  return
}

// A 512^3 GEMM (both operands packed, 128x32x128 blocks): B's packed
// panels (1 MiB) are the larger operand to keep; with big caches the row
// order [i, j, k] keeps them, with the base caches [j, i, k].
// BASE-LABEL: func.func @gemm
// BASE: schedule = #dl.schedule<[j, i, k]>
// BIG-LABEL: func.func @gemm
// BIG: schedule = #dl.schedule<[i, j, k]>
func.func @gemm(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  dl.matmul ins(%a, %b : memref<512x512xf32>, memref<512x512xf32>) outs(%c : memref<512x512xf32>)
  return
}

// Ops that already have a schedule keep it; plain-layout convolutions have
// none to rank.
// BASE-LABEL: func.func @decided
// BASE: schedule = #dl.schedule<[n, kb:2, oh, kb]>
// BASE-LABEL: func.func @plain
// BASE-NOT: schedule
func.func @decided(%in: memref<1x8x28x28x32xf32>, %f: memref<16x8x1x1x32x32xf32>, %out: memref<1x16x28x28x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x28x28x32xf32>, memref<16x8x1x1x32x32xf32>) outs(%out : memref<1x16x28x28x32xf32>) {schedule = #dl.schedule<[n, kb:2, oh, kb]>}
  return
}
func.func @plain(%in: memref<1x8x8x8xf32>, %f: memref<8x8x1x1xf32>, %out: memref<1x8x8x8xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x8x8xf32>, memref<8x8x1x1xf32>) outs(%out : memref<1x8x8x8xf32>)
  return
}

// The report lists every variant of every ranked op, cheapest first, with
// its working sets, the bytes Algorithm 2 put in each level and its cost.
// REPORT: "ops": [
// REPORT: "analysis_seconds":
// REPORT: "isl": "isl-{{[^"\\]+}}",
// REPORT: "levels": [
// REPORT: "bytes": 524288,
// REPORT: "op": "dl.conv2d",
// REPORT: "variants": [
// REPORT: "bytes_per_level": [
// REPORT: "cost":
// REPORT: "rank": 0,
// REPORT: "schedule": "#dl.schedule<[n, oh, cb:4, kb, cb]>",
// REPORT: "working_sets": [
// REPORT: "bytes": 314112,
// REPORT: "kind": "max"
// REPORT: "rank": 5,
// REPORT: "schedule": "#dl.schedule<[n, oh, kb]>",
// REPORT: "bytes": 2853640,
// REPORT: "dependence": "RAR A1[i1, i3, i4, i5, i7, i8] -> A1[i1, i3, i4, i5, i7, i8]",
// REPORT: "kind": "max"
// REPORT: "rank": 13,
// REPORT: "schedule": "#dl.schedule<[n, kb:8, oh, kb]>",
// REPORT: "op": "dl.matmul",
// REPORT: "threads": 1
