// The solver proposes, the ranking decides: with solver-candidates, the tile
// solver's rounded candidates (MOpt's model, Ipopt) join the generated
// variants and are costed by the same analysis. On this 512-channel 7x7
// convolution at 2 threads the solver's two-dimension tiling (input and
// output channel blocks both tiled, which the ranking's one-dimension
// tilings do not generate) costs least and becomes the schedule; without
// it, the ranking's best stays. The report marks each variant's source.
// RUN: dl-opt %s --pass-pipeline="builtin.module(dl-set-target{vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M},dl-layouts,dl-rank-variants{threads=2 solver-candidates=4 report=%t.json})" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: dl-opt %s --pass-pipeline="builtin.module(dl-set-target{vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M},dl-layouts,dl-rank-variants{threads=2 report=%t.alone.json})" | FileCheck %s --check-prefix=ALONE
// RUN: FileCheck %s --check-prefix=ALONE-REPORT < %t.alone.json

// CHECK: dl.conv2d {{.*}}schedule = #dl.schedule<[cb:4, kb:4, kb, n, oh, cb], parallel = 1>
// ALONE: dl.conv2d {{.*}}schedule = #dl.schedule<[kb:2, cb:2, n, oh, kb, cb], parallel = 0>

// REPORT: "rank": 0,
// REPORT: "schedule": "#dl.schedule<[cb:4, kb:4, kb, n, oh, cb], parallel = 1>",
// REPORT-NEXT: "source": "solver"
// REPORT: "source": "ranking"
// ALONE-REPORT-NOT: "source": "solver"
func.func @conv(%x: memref<2x512x7x7xf32>, %w: memref<512x512x3x3xf32>,
                %y: memref<2x512x7x7xf32>) {
  dl.conv2d ins(%x, %w : memref<2x512x7x7xf32>, memref<512x512x3x3xf32>)
            outs(%y : memref<2x512x7x7xf32>) {padding = array<i64: 1, 1, 1, 1>}
  return
}
