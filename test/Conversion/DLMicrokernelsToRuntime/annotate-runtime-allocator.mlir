// dl-annotate-runtime-allocator marks the declared runtime allocator's
// result noalias (and leaves a definition of it, and other functions,
// alone); dl-compile's pipeline applies it, so LLVM sees it on the
// declaration its memref.alloc calls.
// RUN: dl-opt %s --dl-annotate-runtime-allocator --split-input-file | FileCheck %s
// RUN: dl-compile %S/Inputs/padded-alloc.mlir --emit=llvm -o - | FileCheck %s --check-prefix=LLVM

// LLVM: declare noalias ptr @_mlir_memref_to_llvm_alloc(i64)

// CHECK-LABEL: module
// CHECK: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> (!llvm.ptr {llvm.noalias})
// CHECK: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK: llvm.func @other(i64) -> !llvm.ptr
llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
llvm.func @other(i64) -> !llvm.ptr

// -----

// A definition in the module is not the runtime's: left alone.
// CHECK-LABEL: module
// CHECK: llvm.func @_mlir_memref_to_llvm_alloc(%{{.*}}: i64) -> !llvm.ptr {
llvm.func @_mlir_memref_to_llvm_alloc(%size: i64) -> !llvm.ptr {
  %0 = llvm.mlir.zero : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
