// A tensor program through the stock mlir-opt with DLPlugin.so: dl-to-llvm
// bufferizes it first (the `outs` result dropped, the new result an argument
// appended), then lowers it as a buffer program.
// RUN: mlir-opt %s --load-dialect-plugin=%dl_libs/DLPlugin%shlibext \
// RUN:   --pass-pipeline='builtin.module(dl-to-llvm)' | FileCheck %s

// Three 2-D memref descriptors (7 values each), no result.
// CHECK-LABEL: llvm.func @gemm(
// CHECK-SAME: %arg20: i64) {
// CHECK: llvm.call @dl_gemm_invoke
func.func @gemm(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = dl.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// Two 1-D descriptors (5 values each): the input and the appended result.
// CHECK-LABEL: llvm.func @relu(
// CHECK-SAME: %arg9: i64) {
func.func @relu(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = dl.relu ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}
