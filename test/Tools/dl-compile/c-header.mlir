// --emit=shared --emit-header: a C header with one prototype per function
// (data pointers and sizes, an int status) whose functions the library
// holds; wrong sizes and failed run-time checks return 1 with a message
// instead of aborting the caller.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dl-compile %s --emit=shared --threads=2 -o %t/libmodel.so --emit-header=%t/model.h
// RUN: FileCheck %s --check-prefix=HEADER < %t/model.h
// RUN: cc %S/Inputs/c-header-main.c -I%t %t/libmodel.so -Wl,-rpath,%t -lm -o %t/main
// RUN: %t/main 2>&1 | FileCheck %s
// RUN: not dl-compile %s --emit=obj -o %t/model.o --emit-header=%t/other.h 2>&1 | FileCheck %s --check-prefix=OBJ

// HEADER: /* gemm(64x40, 40x48, 64x48) */
// HEADER-NEXT: int model_gemm(float *arg0, int64_t arg0_size0, int64_t arg0_size1, float *arg1, int64_t arg1_size0, int64_t arg1_size1, float *arg2, int64_t arg2_size0, int64_t arg2_size1);
// HEADER: /* relu_dynamic(?x4, ?x4) */
// HEADER: const char *model_last_error(void);

// CHECK: gemm: status=0 max_err={{.*}} ok
// CHECK-NEXT: gemm, wrong K: status=1 error="model_gemm: argument 1 has size 41 in dimension 0, expected 40"
// CHECK-NEXT: relu, rows 3 and 4: status=1 error="{{.*}}run-time size check failed{{.*}}"
// CHECK-NEXT: relu, rows 3 and 3: status=0 error="" y=0,2

// OBJ: error: --emit-header needs --emit=shared

// A tensor GEMM: its result is the third argument.
func.func @gemm(%a: tensor<64x40xf32>, %b: tensor<40x48xf32>) -> tensor<64x48xf32> {
  %e = tensor.empty() : tensor<64x48xf32>
  %r = dl.matmul ins(%a, %b : tensor<64x40xf32>, tensor<40x48xf32>) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

func.func @relu_dynamic(%x: memref<?x4xf32>, %y: memref<?x4xf32>) {
  dl.relu ins(%x : memref<?x4xf32>) outs(%y : memref<?x4xf32>)
  return
}
