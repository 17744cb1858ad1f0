// dl-rank-variants on a GEMM with one block of C (a few rows, a prime N
// kept whole): no loop order to rank, but the microkernel's batch is still
// bounded by the op's batch_blocks, so each call streams a bounded part of K
// through its register tiles.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-rank-variants | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-rank-variants="threads=2" | FileCheck %s

// CHECK-LABEL: func.func @bounded
// CHECK: dl.matmul {{.*}}schedule = #dl.schedule<[i, j, k:9, k]>
func.func @bounded(%a: memref<23x2052xf32>, %b: memref<2052x701xf32>, %c: memref<23x701xf32>) {
  dl.matmul ins(%a, %b : memref<23x2052xf32>, memref<2052x701xf32>) outs(%c : memref<23x701xf32>) {batch_blocks = 9 : i64, pack_blocks = array<i64: 23, 701, 6>}
  return
}

// Without a bound the whole of K is one batch.
// CHECK-LABEL: func.func @unbounded
// CHECK: dl.matmul {{.*}}schedule = #dl.schedule<[i, j, k]>
func.func @unbounded(%a: memref<23x2052xf32>, %b: memref<2052x701xf32>, %c: memref<23x701xf32>) {
  dl.matmul ins(%a, %b : memref<23x2052xf32>, memref<2052x701xf32>) outs(%c : memref<23x701xf32>) {pack_blocks = array<i64: 23, 701, 6>}
  return
}
