// The linalg harness end to end on one GEMM and one convolution: TOSA
// lowered by the stock mlir-opt to linalg and raised by dl, against the same
// ops in dl directly; both checked against the reference, timed, a row per
// shape and the geomean line.
// UNSUPPORTED: asan
// RUN: %python %S/../../benchmarks/linalg.py --build %dl_obj_root --threads 1 --rounds 1 --min-time 0 --only '^(gemm_197x301x499|conv_30x30_37_61_r3)$' | FileCheck %s

// CHECK: gemm_197x301x499 {{ *}}| t=1: raised {{ *[0-9.]+}} ms ({{ *[0-9.]+}} GFLOPS) direct {{ *[0-9.]+}} ms raised/direct {{[0-9.]+}}
// CHECK-NEXT: conv_30x30_37_61_r3 {{ *}}| t=1: raised
// CHECK-NEXT: linalg raised/direct: geomean={{[0-9.]+}} min={{[0-9.]+}} threads=1 shapes=2
