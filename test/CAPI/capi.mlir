// dl's C API from a C program (dl-capi-test.c): JIT calls with good and bad
// arguments, a shared library, compilation in place.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %dl_obj_root/test/CAPI/dl-capi-test %s %t/libcapi.so %t/libchecked.so %t/checked.h | FileCheck %s
// RUN: nm -D %t/libcapi.so | FileCheck %s --check-prefix=SYMBOLS
// RUN: FileCheck %s --check-prefix=HEADER < %t/checked.h

// CHECK: gemm: 3 arguments
// CHECK-NEXT: gemm: max_err={{.*}} ok
// CHECK-NEXT: diagnostic: dlExecutableCall: @nope: no such public function
// CHECK-NEXT: unknown: failed
// CHECK-NEXT: diagnostic: dlExecutableCall: @relu_rows: argument #1 has size 4 in dimension 0, expected 3
// CHECK-NEXT: static sizes: failed
// CHECK-NEXT: diagnostic: dlExecutableCall: @relu_dynamic: stopped at a failed run-time check
// CHECK-NEXT: run-time check: failed
// CHECK-NEXT: after them: ran
// CHECK-NEXT: shared library: written
// CHECK-NEXT: with a header: written
// CHECK-NEXT: in place: llvm.func
// SYMBOLS: T gemm
// SYMBOLS: T relu_rows
// HEADER: int checked_relu_rows(float *arg0, int64_t arg0_size0, int64_t arg0_size1, float *arg1, int64_t arg1_size0, int64_t arg1_size1);

// A tensor GEMM into a new tensor: C is appended as the third argument.
func.func @gemm(%a: tensor<64x40xf32>, %b: tensor<40x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x40xf32>, tensor<40x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

func.func @relu_rows(%x: memref<3x4xf32>, %y: memref<3x4xf32>) {
  dl.relu ins(%x : memref<3x4xf32>) outs(%y : memref<3x4xf32>)
  return
}

func.func @relu_dynamic(%x: memref<?x4xf32>, %y: memref<?x4xf32>) {
  dl.relu ins(%x : memref<?x4xf32>) outs(%y : memref<?x4xf32>)
  return
}
