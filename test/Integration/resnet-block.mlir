// The main job's example (a ResNet-50 conv -> batch norm -> ReLU block, a
// bottleneck block and a matmul) runs and matches the reference; --bench
// prints a timing line per function and --json a machine-readable form. The
// plain-layout convolutions run in the blocked layout
// (dl-block-conv-layouts) and call LIBXSMM.
// RUN: dl-compile %S/../../examples/resnet_block.mlir --run | FileCheck %s
// RUN: dl-compile %S/../../examples/resnet_block.mlir --bench --function=matmul \
// RUN:   --bench-min-reps=1 --bench-min-time=0 --bench-warmup=0 | FileCheck %s --check-prefix=BENCH
// RUN: dl-compile %S/../../examples/resnet_block.mlir --bench --json --function=matmul \
// RUN:   --bench-min-reps=2 --bench-min-time=0 --bench-warmup=0 | FileCheck %s --check-prefix=JSON
// RUN: dl-compile %S/../../examples/resnet_block.mlir --emit=mlir | FileCheck %s --check-prefix=KERNELS

// KERNELS-LABEL: llvm.func @resnet_block(
// KERNELS: llvm.call @dl_brgemm_{{.*}}dispatch
// KERNELS: llvm.call @dl_brgemm_{{.*}}invoke
// KERNELS-LABEL: llvm.func @bottleneck(
// KERNELS: llvm.call @dl_brgemm_{{.*}}invoke
// KERNELS-LABEL: llvm.func @matmul(

// CHECK: resnet_block: max_abs_err={{.*}} ok
// CHECK: bottleneck: max_abs_err={{.*}} ok
// CHECK: matmul: max_abs_err={{.*}} ok

// BENCH-NOT: resnet_block
// BENCH: matmul: {{[0-9]+\.[0-9]+}} GFLOPS median_ms={{[0-9]+\.[0-9]+}}

// 2 * 256 * 512 * 256 flops.
// JSON: "functions": [
// JSON: "flops": 67108864
// JSON: "gflops":
// JSON: "median_ms":
// JSON: "name": "matmul"
// JSON: "reps": 2
