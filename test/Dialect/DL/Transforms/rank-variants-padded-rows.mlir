// A padded 3x3 convolution (ResNet-50's res4a_branch2b at two threads): the
// filter-row loop of its first and last output rows skips the taps on
// padding, so the reuses that start there span 2/3 of the filter the other
// rows re-read. The ranking measures each reuse's distance at an interior
// source as well and keeps the larger: [kb:2, oh, n, kb] re-reads its
// thread's 1.2 MB half of the filter for every n, more than the 1 MB L2,
// which its first row (0.8 MB) had hidden; splitting cb as well keeps the
// re-read filter at 0.4 MB.
// RUN: dl-opt %s --pass-pipeline="builtin.module(dl-set-target{cache-sizes=L1=48K,L2=1M,L3=32M},dl-layouts,dl-rank-variants{threads=2 report=%t.json})" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK-LABEL: func.func @res4a_branch2b
// CHECK: dl.conv2d
// CHECK-SAME: schedule = #dl.schedule<[kb:2, cb:2, n, oh, kb, cb], parallel = 0>
// CHECK-SAME: skip_padding_columns

// The report ranks the split-cb order first; the old pick comes later.
// REPORT: "rank": 0,
// REPORT: "schedule": "#dl.schedule<[kb:2, cb:2, n, oh, kb, cb], parallel = 0>"
// REPORT: "schedule": "#dl.schedule<[kb:2, oh, n, kb], parallel = 0>"
func.func @res4a_branch2b(%in: memref<2x4x14x14x64xf32>, %f: memref<4x4x3x3x64x64xf32>, %out: memref<2x4x14x14x64xf32>) {
  dl.conv2d ins(%in, %f : memref<2x4x14x14x64xf32>, memref<4x4x3x3x64x64xf32>) outs(%out : memref<2x4x14x14x64xf32>)
      {strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>}
  return
}
