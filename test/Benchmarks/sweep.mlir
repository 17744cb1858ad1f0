// The random-shape sweep end to end on three tiny shapes (a GEMV-like GEMM
// and two convolutions with this seed and FLOP cap): it checks dl against the
// reference, times dl and oneDNN and one compile, prints a row per shape
// (GB/s for the GEMV-like GEMM), the CSV, the slowest compile, and ends with the geomean line. The same seed
// lists the same shapes, and --ops gemm lists GEMMs only. --shapes takes
// the rows' names back (a listed sweep's names list the same shapes) and
// refuses a name it cannot read.
// REQUIRES: onednn-bench
// UNSUPPORTED: asan
// RUN: %python %S/../../benchmarks/sweep.py --build %dl_obj_root --out %t --count 3 --seed 3 --threads 1 --rounds 1 --min-time 0 --max-flops 1e7 --machine-file=none | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/sweep.csv
// RUN: not ls %t/machine.json
// RUN: %python %S/../../benchmarks/sweep.py --list --count 20 --seed 7 > %t.list1
// RUN: %python %S/../../benchmarks/sweep.py --list --count 20 --seed 7 > %t.list2
// RUN: diff %t.list1 %t.list2
// RUN: FileCheck %s --check-prefix=LIST < %t.list1
// RUN: %python %S/../../benchmarks/sweep.py --list --count 20 --seed 7 --ops gemm | FileCheck %s --check-prefix=GEMM --implicit-check-not=conv
// RUN: awk '{print $2}' %t.list1 | paste -sd, - | xargs %python %S/../../benchmarks/sweep.py --list --shapes > %t.list3
// RUN: diff %t.list1 %t.list3
// RUN: not %python %S/../../benchmarks/sweep.py --list --shapes gemm_3x4,conv_n1_c3_k27_14x14_r5_st2_p0 2>&1 | FileCheck %s --check-prefix=BADNAME

// CHECK: sweep: 3 shapes, seed 3, ops gemm,conv, threads 1, GEMM B plain, max flops 1e+07, measured memory bandwidth n/a
// CHECK-DAG: [{{[1-3]}}/3] gemm_{{[0-9]+x[0-9]+x[0-9]+}} layout=plain flops={{[0-9.e+]+}} | t=1: dl {{ *[0-9]+\.[0-9]+}} onednn {{ *[0-9]+\.[0-9]+}} GFLOPS dl/onednn {{ *[0-9]+\.[0-9]+}} GB/s dl {{[0-9.]+}} onednn {{[0-9.]+}} (% of measured bandwidth: n/a, no machine file) | compile {{[0-9]+\.[0-9][0-9]}} s{{$}}
// CHECK-DAG: [{{[1-3]}}/3] conv_n{{[0-9]+}}_c{{[0-9]+}}_k{{[0-9]+}}_{{[0-9]+x[0-9]+}}_r{{[0-9]}}_st{{[12]}}_p{{[0-9]}} layout={{plain|blocked\([0-9]+,[0-9]+\)}} flops={{[0-9.e+]+}} | t=1: dl {{ *[0-9]+\.[0-9]+}} onednn {{ *[0-9]+\.[0-9]+}} GFLOPS dl/onednn {{ *[0-9]+\.[0-9]+}} | compile {{[0-9]+\.[0-9][0-9]}} s{{$}}
// CHECK: wrote {{.*}}sweep.csv
// CHECK: slowest compile: {{[0-9]+\.[0-9][0-9]}} s ({{gemm|conv}}_{{.*}}){{$}}
// CHECK: below 0.8: {{[0-9]+}} threads=1
// CHECK-NOT: FAILED
// CHECK: sweep dl/onednn: geomean={{[0-9]+\.[0-9][0-9][0-9]}} min={{[0-9]+\.[0-9][0-9][0-9]}} threads=1 shapes=3{{$}}
// CHECK-NOT: {{.}}

// CSV: threads,op,name,status,layout,m,n,k,c,h,w,r,s,stride,pad,flops,bytes,dl_ms,onednn_ms,dl_gflops,onednn_gflops,ratio,{{.*}},round_ratios,compile_s,
// CSV-COUNT-3: {{^}}1,{{gemm|conv}},{{[a-z0-9_]+}},ok,

// LIST-COUNT-20: {{^ *[0-9]+ (gemm|conv)_.* flops=[0-9.e+]+$}}
// LIST-NOT: {{.}}
// GEMM-COUNT-20: {{^ *[0-9]+ gemm_[0-9]+x[0-9]+x[0-9]+ +gemm M=[0-9]+ N=[0-9]+ K=[0-9]+ flops=[0-9.e+]+$}}
// GEMM-NOT: {{.}}
// BADNAME: error: --shapes: 'gemm_3x4' is not a valid gemm_MxNxK or conv_n<N>_c<C>_k<K>_<H>x<W>_r<R>_st<S>_p<P> shape
