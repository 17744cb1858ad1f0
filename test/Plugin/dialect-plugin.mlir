// DLPlugin.so in the stock mlir-opt: as a dialect plugin (which also
// registers the passes) it parses dl ops and lowers them; as a pass plugin it
// adds the passes and pipelines.
// RUN: mlir-opt %s --load-dialect-plugin=%dl_libs/DLPlugin%shlibext \
// RUN:   --pass-pipeline='builtin.module(convert-dl-to-affine)' | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%dl_libs/DLPlugin%shlibext \
// RUN:   --load-pass-plugin=%dl_libs/DLPlugin%shlibext \
// RUN:   --pass-pipeline='builtin.module(dl-to-llvm)' | FileCheck %s --check-prefix=LLVM
// RUN: mlir-opt --load-pass-plugin=%dl_libs/DLPlugin%shlibext --help \
// RUN:   | FileCheck %s --check-prefix=PASSES
// RUN: mlir-opt %s --load-dialect-plugin=%dl_libs/DLPlugin%shlibext | FileCheck %s --check-prefix=ROUNDTRIP

// CHECK-LABEL: func.func @relu
// CHECK: affine.for
// CHECK: arith.maxnumf
// CHECK-NOT: dl.relu

// LLVM-LABEL: llvm.func @relu
// LLVM: llvm.intr.maxnum
// LLVM-NOT: affine.

// PASSES-DAG: --convert-dl-to-affine
// PASSES-DAG: --dl-to-llvm
// PASSES-DAG: --dl-reference-to-llvm

// ROUNDTRIP: dl.relu ins(%{{.*}} : memref<4x4xf32>) outs(%{{.*}} : memref<4x4xf32>)
func.func @relu(%x: memref<4x4xf32>, %y: memref<4x4xf32>) {
  dl.relu ins(%x : memref<4x4xf32>) outs(%y : memref<4x4xf32>)
  return
}
