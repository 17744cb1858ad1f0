// The sequences harness end to end on one tiny convolution: batch
// normalization + ReLU (training and inference, plain and blocked) against
// oneDNN's with fused ReLU, and the convolution with each element-wise
// epilogue, fused, unfused and against oneDNN's post-ops, and a tiny
// bottleneck block against oneDNN's three convolutions with post-ops; each dl
// module is checked against the reference lowering first.
// REQUIRES: onednn-bench
// UNSUPPORTED: asan
// RUN: %python %S/../../benchmarks/sequences.py --build %dl_obj_root --out %t --threads 1 --rounds 1 --min-time 0 --block 16 --conv-csv %S/Inputs/tiny_conv.csv --block-csv %S/Inputs/tiny_bottleneck.csv | FileCheck %s

// CHECK: == 1 thread(s)
// CHECK-NEXT: bn_train_plain_n1_c16_8x8 {{.*}} dl/onednn {{.*}} (onednn blocked {{.*}} GB/s ({{ *[0-9]+}}% of L1)
// CHECK-NEXT: bn_train_blocked_n1_c16_8x8 {{.*}} GB/s
// CHECK-NEXT: bn_infer_plain_n1_c16_8x8
// CHECK-NEXT: bn_infer_blocked_n1_c16_8x8
// CHECK-NEXT: tiny_conv+bias_relu {{.*}} dl/onednn {{.*}} unfused {{.*}} (fusion {{.*}}x)
// CHECK-NEXT: tiny_conv+bn_relu
// CHECK-NEXT: tiny_conv+sum_relu
// CHECK-NEXT: tiny_conv+bn_train_relu
// CHECK-NEXT: tiny_block_bottleneck {{.*}} dl/onednn {{.*}} unfused {{.*}} (fusion {{.*}}x)
// CHECK-NEXT: geomean dl/onednn bn: {{[0-9.]+}} threads=1
// CHECK-NEXT: geomean dl/onednn conv: {{[0-9.]+}} threads=1
// CHECK-NEXT: geomean dl/onednn block: {{[0-9.]+}} threads=1
// CHECK-NEXT: geomean dl/onednn's fastest layout, plain bn: {{[0-9.]+}} threads=1
// CHECK-NEXT: geomean unfused/fused dl conv and block: {{[0-9.]+}} threads=1
// CHECK-NEXT: read bandwidths (dl-probe): L1 {{.*}}, memory {{.*}} GB/s
// CHECK-NEXT: geomean dl/onednn sequences: {{[0-9.]+}} threads=1
