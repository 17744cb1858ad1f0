// An object from dl-compile --emit=obj, linked into a C program with
// libDLRuntime: the outlined GEMM runs through the runtime outside the JIT.
// The same module as a shared library (--emit=shared records the runtime
// libraries, so the program links it alone).
// RUN: dl-compile %s --emit=obj --threads=1 -o %t.o
// RUN: cc %S/Inputs/matmul-main.c %t.o -o %t.exe %dl_libs/libDLRuntime.so -Wl,-rpath,%dl_libs -lm
// RUN: %t.exe | FileCheck %s
// RUN: dl-compile %s --emit=mlir --threads=1 -o %t-emit.mlir
// RUN: FileCheck %s --check-prefix=CALLS < %t-emit.mlir
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: dl-compile %s --emit=shared --threads=2 -o %t.dir/libmatmul.so
// RUN: cc %S/Inputs/matmul-main.c %t.dir/libmatmul.so -o %t-shared.exe -Wl,-rpath,%t.dir -lm
// RUN: %t-shared.exe | FileCheck %s

// CHECK: max_err={{.*}} ok
// CALLS: llvm.call @dl_{{(br)?}}gemm_dispatch
// CALLS: llvm.call @dl_{{(br)?}}gemm_invoke
func.func @matmul_96(%a: memref<96x128xf32>, %b: memref<128x96xf32>, %c: memref<96x96xf32>) {
  dl.matmul ins(%a, %b : memref<96x128xf32>, memref<128x96xf32>) outs(%c : memref<96x96xf32>)
  return
}
