// The layers harness end to end on one random shape of each kind (this
// seed): each compiled with the Python package and checked against PyTorch,
// timed against oneDNN's pooling, grouped convolutions and inner product, a
// row per layer with GB/s, the CSV, and the geomean line. An unknown kind is
// refused.
// REQUIRES: onednn-bench
// UNSUPPORTED: asan
// RUN: %python %S/../../benchmarks/layers.py --build %dl_obj_root --out %t --threads 1 --rounds 1 --min-time 0 --skip-lists --random 1 --seed 4 | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/layers.csv
// RUN: not %python %S/../../benchmarks/layers.py --build %dl_obj_root --out %t --only conv 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK: == 1 thread(s)
// CHECK-NEXT: {{(max|avg)}}pool {{.*}} dl {{.*}} GB/s  onednn {{.*}} GB/s  dl/onednn {{ *[0-9.]+}}  (
// CHECK-NEXT: depthwise {{.*}} dl/onednn
// CHECK-NEXT: grouped {{.*}} dl/onednn
// CHECK-NEXT: linear {{.*}} dl/onednn
// CHECK-NEXT: layers dl/onednn: pool={{[0-9.]+}} depthwise={{[0-9.]+}} grouped={{[0-9.]+}} linear={{[0-9.]+}} threads=1
// CSV: threads,kind,layer,dl_ms,onednn_ms,ratio,bytes,onednn_impl
// CSV-COUNT-4: 1,{{pool|depthwise|grouped|linear}},
// UNKNOWN: error: unknown kind conv (expected one of pool, depthwise, grouped, linear)
