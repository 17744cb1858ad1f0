// The benchmark harness end to end on one tiny convolution and one tiny GEMM:
// it probes the machine (dl-probe) and compiles with that machine file by
// default, or with sysfs's sizes under --machine-file=none; checks dl against
// the reference before timing; and prints the geomeans against oneDNN with
// the range of one round's geomean (two rounds in the second run).
// REQUIRES: onednn-bench
// UNSUPPORTED: asan
// RUN: %python %S/../../benchmarks/run.py --build %dl_obj_root --out %t.probe --threads 1 --rounds 1 --min-time 0 --skip-default --skip-solved --block 16 --conv-csv %S/Inputs/tiny_conv.csv --gemm-csv %S/Inputs/tiny_gemm.csv | FileCheck %s --check-prefixes=CHECK,PROBE
// RUN: FileCheck %s --check-prefix=FILE < %t.probe/machine.json
// RUN: %python %S/../../benchmarks/run.py --build %dl_obj_root --out %t.none --threads 1 --rounds 2 --min-time 0 --skip-default --skip-solved --skip-plain-b --block 16 --machine-file=none --conv-csv %S/Inputs/tiny_conv.csv --gemm-csv %S/Inputs/tiny_gemm.csv | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: not ls %t.none/machine.json

// PROBE: machine file {{.*}}machine.json (dl-probe):
// PROBE-NEXT: L3: {{[0-9]+}} bytes reported, {{[0-9]+}} usable by one core
// NONE-NOT: machine file
// CHECK: == 1 thread(s): FMA-loop peak
// CHECK: tiny_conv dl {{.*}} dl/onednn
// CHECK: tiny_gemm dl {{.*}} reference
// PROBE-SAME: plain B: dl
// CHECK: geomean dl/onednn: conv={{[0-9.]+}} gemm={{[0-9.]+}} gemm_plain_b={{.*}} threads=1
// CHECK-NEXT: one round's geomean ranged: conv {{[0-9]+\.[0-9]+}}-{{[0-9]+\.[0-9]+}} gemm {{[0-9]+\.[0-9]+}}-{{[0-9]+\.[0-9]+$}}
// FILE: "levels": [
// FILE: "memory": {
