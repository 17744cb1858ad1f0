// The decision-time benchmark end to end on two shapes of the lists: a line
// per shape with the ranking's and the merged decision times, the CSV and
// the summary lines; a filter that matches nothing is an error.
// UNSUPPORTED: asan
// RUN: %python %S/../../benchmarks/decision_time.py --build %dl_obj_root --out %t --threads 1 --only "^(gnmt_3|res2a_branch2a)$" | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/decision_time.csv
// RUN: not %python %S/../../benchmarks/decision_time.py --build %dl_obj_root --only nothing_matches 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: res2a_branch2a ranking {{[0-9.]+}} s  merged {{[0-9.]+}} s
// CHECK: gnmt_3 ranking {{[0-9.]+}} s  merged {{[0-9.]+}} s
// CHECK: decision_time ranking: max={{[0-9.]+}} median={{[0-9.]+}} over_1s={{[0-9]+}} ops=2 threads=1
// CHECK: decision_time merged: max={{[0-9.]+}} median={{[0-9.]+}} over_1s={{[0-9]+}} ops=2 threads=1
// CSV: name,threads,ranking_s,merged_s
// CSV: res2a_branch2a,1,
// CSV: gnmt_3,1,
// BAD: error: no shape matches --only 'nothing_matches'
