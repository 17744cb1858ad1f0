// dl-compile --emit: the LLVM-dialect module, LLVM IR, host assembly, an
// object file and a shared library, each exporting the function.
// RUN: dl-compile %s --emit=mlir | FileCheck %s --check-prefix=MLIR
// RUN: dl-compile %s | FileCheck %s --check-prefix=MLIR
// RUN: dl-compile %s --emit=llvm -o - | FileCheck %s --check-prefix=LLVM
// RUN: dl-compile %s --emit=asm -o %t.s && FileCheck %s --check-prefix=ASM < %t.s
// RUN: dl-compile %s --emit=obj -o %t.o && llvm-nm %t.o | FileCheck %s --check-prefix=SYM
// RUN: dl-compile %s --emit=shared -o %t.so && llvm-nm -D %t.so | FileCheck %s --check-prefix=SYM
// RUN: dl-compile %s --pipeline=reference --emit=mlir | FileCheck %s --check-prefix=MLIR

// MLIR: llvm.func @scale_relu(
// MLIR-NOT: dl.
// LLVM: define void @scale_relu(ptr
// ASM: scale_relu:
// SYM: T scale_relu
func.func @scale_relu(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  dl.relu ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>)
  return
}
