// convert-dl-microkernels-to-runtime: dispatches and invokes become calls to
// libDLRuntime's C API with i64 sizes, integer pointers and element offsets.
// RUN: dl-opt %s --convert-dl-microkernels-to-runtime --cse --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-DAG: func.func private @dl_gemm_dispatch(i64, i64, i64, i64, i64, i64, i64) -> i64
// CHECK-DAG: func.func private @dl_gemm_invoke(i64, i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: (%[[A:.*]]: memref<8x4xf32>, %[[B:.*]]: memref<4x16xf32>, %[[C:.*]]: memref<8x16xf32, strided<[32, 1], offset: 5>>, %[[I:.*]]: index)
// CHECK-DAG: %[[M:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[N:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[K:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[LDC:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[BETA:.*]] = arith.constant 1 : i64
// CHECK: %[[H:.*]] = call @dl_gemm_dispatch(%[[M]], %[[N]], %[[K]], %[[K]], %[[N]], %[[LDC]], %[[BETA]])
// CHECK: %[[PC:.*]] = memref.extract_aligned_pointer_as_index %[[C]]
// CHECK: %[[PCI:.*]] = arith.index_cast %[[PC]] : index to i64
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[C]]
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %[[STRIDES]]#0
// CHECK: %[[SUM:.*]] = arith.addi %[[OFF]], %[[ROW]]
// CHECK: call @dl_gemm_invoke(%[[H]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[PCI]], %{{.*}})
func.func @gemm(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32, strided<[32, 1], offset: 5>>, %i: index) {
  %c0 = arith.constant 0 : index
  %h = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 32, beta_zero}
  dl.gemm_invoke %h(%a[%c0, %c0], %b[%c0, %c0], %c[%i, %c0]) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32, strided<[32, 1], offset: 5>>
  return
}

// -----

// stream_c: beta_zero 2 (DL_RUNTIME_STREAM_C).
// CHECK-LABEL: func.func @stream_c
// CHECK: %[[STREAM:.*]] = arith.constant 2 : i64
// CHECK: call @dl_gemm_dispatch({{.*}}, %[[STREAM]])
func.func @stream_c() -> i64 {
  %h = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 32, beta_zero, stream_c}
  return %h : i64
}

// -----

// CHECK-LABEL: func.func @batch_reduce
// CHECK: %[[S:.*]] = call @dl_brgemm_dispatch(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64, i64) -> i64
// CHECK: call @dl_brgemm_invoke(%[[S]], {{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64) -> ()
// CHECK: %[[O:.*]] = call @dl_brgemm_offs_dispatch(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64) -> i64
// CHECK: %[[TP:.*]] = memref.extract_aligned_pointer_as_index %[[T:.*]] :
// CHECK: call @dl_brgemm_offs_invoke(%[[O]], {{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
func.func @batch_reduce(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>, %t: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %s = dl.gemm_dispatch {m = 2, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, stride_a = 8, stride_b = 0}
  dl.gemm_invoke %s(%a[%c0, %c0], %b[%c0, %c0], %c[%c0, %c0]) batch(%c2) : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>
  %o = dl.gemm_dispatch {m = 2, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, batch_offsets}
  dl.gemm_invoke %o(%a[%c0, %c0], %b[%c0, %c0], %c[%c0, %c0]) batch(%c2) offsets(%t, %t)
      : memref<8x4xf32>, memref<4x16xf32>, memref<8x16xf32>, memref<2xi64>, memref<2xi64>
  return
}

// -----

// A user function with a runtime name and another type is an error.
// expected-error @+1 {{'dl_gemm_dispatch' is reserved for the dl runtime, expected type '(i64, i64, i64, i64, i64, i64, i64) -> i64'}}
func.func private @dl_gemm_dispatch(i32) -> i64
func.func @clash() {
  %h = dl.gemm_dispatch {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16}
  return
}

// -----

// Run-time sizes replace the static m, n, k (their bounds).
// CHECK-LABEL: func.func @runtime_sizes
// CHECK-SAME: (%[[M:.*]]: index, %[[N:.*]]: index, %[[K:.*]]: index)
// CHECK-DAG: %[[MI:.*]] = arith.index_cast %[[M]] : index to i64
// CHECK-DAG: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-DAG: %[[KI:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK-DAG: %[[LDA:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[LD:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[SA:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[SB:.*]] = arith.constant 64 : i64
// CHECK-DAG: %[[ACC:.*]] = arith.constant 0 : i64
// CHECK: call @dl_brgemm_dispatch(%[[MI]], %[[NI]], %[[KI]], %[[LDA]], %[[LD]], %[[LD]], %[[SA]], %[[SB]], %[[ACC]])
func.func @runtime_sizes(%m: index, %n: index, %k: index) -> i64 {
  %s = dl.gemm_dispatch sizes(%m, %n, %k) {m = 8, n = 16, k = 4, lda = 4, ldb = 16, ldc = 16, stride_a = 32, stride_b = 64}
  return %s : i64
}

// -----

// Run-time leading dimensions replace the static lda, ldb, ldc (a GEMM of
// dynamic sizes on its operands in place).
// CHECK-LABEL: func.func @runtime_leading_dims
// CHECK-SAME: (%[[M:.*]]: index, %[[N:.*]]: index, %[[K:.*]]: index, %[[LDA:.*]]: index, %[[LDB:.*]]: index, %[[LDC:.*]]: index)
// CHECK-DAG: %[[MI:.*]] = arith.index_cast %[[M]] : index to i64
// CHECK-DAG: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-DAG: %[[KI:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK-DAG: %[[LDAI:.*]] = arith.index_cast %[[LDA]] : index to i64
// CHECK-DAG: %[[LDBI:.*]] = arith.index_cast %[[LDB]] : index to i64
// CHECK-DAG: %[[LDCI:.*]] = arith.index_cast %[[LDC]] : index to i64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 1 : i64
// CHECK: call @dl_gemm_dispatch(%[[MI]], %[[NI]], %[[KI]], %[[LDAI]], %[[LDBI]], %[[LDCI]], %[[ZERO]])
func.func @runtime_leading_dims(%m: index, %n: index, %k: index, %lda: index,
                                %ldb: index, %ldc: index) -> i64 {
  %s = dl.gemm_dispatch sizes(%m, %n, %k) leading_dims(%lda, %ldb, %ldc) {m = 64, n = 64, k = 64, beta_zero}
  return %s : i64
}
