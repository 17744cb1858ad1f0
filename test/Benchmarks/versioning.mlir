// The versioning benchmark end to end on tiny sizes: it checks the versioned
// build against the reference, times the static, versioned and unversioned
// builds, prints a row per size and the compile cost per case, the CSV and
// the geomean line over the versioned cases.
// UNSUPPORTED: asan
// RUN: %python %S/../../benchmarks/versioning.py --build %dl_obj_root --out %t --cases gemm_m,conv_nhw --sizes 1,3 --inner 16 --threads 1 --rounds 1 --min-time 0 | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/versioning.csv
// RUN: not %python %S/../../benchmarks/versioning.py --build %dl_obj_root --cases gemm_x 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: gemm_m 1 | t=1: static {{[0-9.]+}} versioned {{[0-9.]+}} ({{[0-9.]+}}) unversioned {{[0-9.]+}} ({{[0-9.]+}})
// CHECK: gemm_m 3 | t=1:
// CHECK: gemm_m compile: versioned {{[0-9.]+}} s {{[0-9]+}} KiB, unversioned {{[0-9.]+}} s {{[0-9]+}} KiB
// CHECK: conv_nhw 1 | t=1:
// CHECK: conv_nhw 3 | t=1:
// CHECK: conv_nhw compile:
// CHECK: csv: {{.*}}versioning.csv
// CHECK: versioning versioned/static: geomean={{[0-9.]+}} min={{[0-9.]+}} threads=1 sizes=4
// CSV: case,size,
// CSV: gemm_m,1,
// BAD: error: unknown case gemm_x
