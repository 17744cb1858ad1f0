// dl-decide-parallelism counts the lines of an op's output that a thread
// writes within 256 KiB of another thread's part (near-line-us each),
// weighted by how little work per output element hides them: a GEMM of 3 K
// steps whose C is 232 KiB stays on one thread, the same C over 128 K steps
// runs its rows in parallel. A loop over N divides every row of C: each
// thread's pieces shorter than a page count, where a GEMM does fewer than
// 32 FLOPs per element of C (piece-line-us each). Without the terms
// (near-line-us=0 piece-line-us=0) every GEMM here runs in parallel.
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-decide-parallelism="threads=2 report-fallbacks" --verify-diagnostics | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=1M,L3=32M" --dl-decide-parallelism="threads=2 near-line-us=0 piece-line-us=0" | FileCheck %s --check-prefix=FREE
// RUN: not dl-opt %s --dl-decide-parallelism="threads=2 near-line-us=-2" 2>&1 | FileCheck %s --check-prefix=INVALID
// A machine file's measured near-write cost (dl-probe's near_write_line_ns)
// replaces the default of near-line-us (0.003 us): at 0.05 ns a line the
// 232 KiB C of @few_steps runs its rows in parallel; the pieces of rows
// keep their own cost, so @column_pieces runs its rows in parallel (moved
// outermost), not its columns, and @column_pieces_below_page, one block of
// rows of 6 FLOPs an element, stays on one thread.
// RUN: echo '{"levels": [{"name": "L1", "bytes": 49152, "latency": 4, "bandwidth": 64}, {"name": "L2", "bytes": 1048576, "latency": 14, "bandwidth": 32}, {"name": "L3", "bytes": 33554432, "latency": 50, "bandwidth": 16}], "memory": {"latency": 300, "bandwidth": 8}, "cores": {"near_write_line_ns": 0.05, "fork_join_ns": 500}}' > %t.json
// RUN: dl-opt %s --dl-set-target="vector-bits=512 machine-file=%t.json" --dl-decide-parallelism="threads=2" | FileCheck %s --check-prefix=MEASURED
// RUN: echo '{"levels": [{"name": "L1", "bytes": 49152, "latency": 4, "bandwidth": 64}], "memory": {"latency": 300, "bandwidth": 8}, "cores": {"near_write_line_ns": -1}}' > %t.bad.json
// RUN: not dl-opt %s --dl-set-target="machine-file=%t.bad.json" 2>&1 | FileCheck %s --check-prefix=BAD-FILE

// INVALID: fork-join-us and near-line-us >= 0 or -1 (the target's)
// BAD-FILE: error: dl-set-target: machine file '{{.*}}': "cores": near_write_line_ns must be a number >= 0
// MEASURED: dl.target = #dl.target<{{.*}}near_write_line_ns = 5.000000e-02 : f64, fork_join_ns = 5.000000e+02 : f64>
// MEASURED-LABEL: func.func @few_steps
// MEASURED-NOT: dl.sequential
// MEASURED: schedule = #dl.schedule<[i, j, k], parallel = 0>
// MEASURED-LABEL: func.func @column_pieces(
// MEASURED-NOT: dl.sequential
// MEASURED: schedule = #dl.schedule<[i, j, k], parallel = 0>
// MEASURED-LABEL: func.func @column_pieces_below_page
// MEASURED: dl.sequential
// MEASURED-SAME: schedule = #dl.schedule<[j, i, k]>

// CHECK-LABEL: func.func @few_steps
// CHECK: dl.sequential
// FREE-LABEL: func.func @few_steps
// FREE: schedule = #dl.schedule<[i, j, k], parallel = 0>
func.func @few_steps(%a: memref<1856x3xf32>, %b: memref<3x32xf32>, %c: memref<1856x32xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread: modeled 5.94 us on one thread, 9.88 us on 2 threads at best (loop 0 (i, 29 iterations))}}
  dl.matmul ins(%a, %b : memref<1856x3xf32>, memref<3x32xf32>) outs(%c : memref<1856x32xf32>)
      {pack_blocks = array<i64: 64, 32, 3>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// CHECK-LABEL: func.func @many_steps
// CHECK-NOT: dl.sequential
// CHECK: schedule = #dl.schedule<[i, j, k], parallel = 0>
// FREE-LABEL: func.func @many_steps
// FREE: schedule = #dl.schedule<[i, j, k], parallel = 0>
func.func @many_steps(%a: memref<1856x128xf32>, %b: memref<128x32xf32>, %c: memref<1856x32xf32>) {
  dl.matmul ins(%a, %b : memref<1856x128xf32>, memref<128x32xf32>) outs(%c : memref<1856x32xf32>)
      {pack_blocks = array<i64: 64, 32, 128>, schedule = #dl.schedule<[i, j, k]>}
  return
}

// 704 rows of two 256-byte pieces, 3 K steps: on one thread.
// CHECK-LABEL: func.func @column_pieces
// CHECK: dl.sequential
// FREE-LABEL: func.func @column_pieces
// FREE: schedule = #dl.schedule<[j, i, k], parallel = 0>
func.func @column_pieces(%a: memref<704x3xf32>, %b: memref<3x128xf32>, %c: memref<704x128xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread: modeled 9.01 us on one thread, 12.87 us on 2 threads at best (loop 0 (j, 2 iterations))}}
  dl.matmul ins(%a, %b : memref<704x3xf32>, memref<3x128xf32>) outs(%c : memref<704x128xf32>)
      {pack_blocks = array<i64: 64, 64, 3>, schedule = #dl.schedule<[j, i, k]>}
  return
}

// Pieces of 3,840 bytes (15 blocks of 64 columns a thread) count...
// CHECK-LABEL: func.func @column_pieces_below_page
// CHECK: dl.sequential
// FREE-LABEL: func.func @column_pieces_below_page
// FREE: schedule = #dl.schedule<[j, i, k], parallel = 0>
func.func @column_pieces_below_page(%a: memref<64x3xf32>, %b: memref<3x1920xf32>, %c: memref<64x1920xf32>) {
  // expected-remark @+1 {{dl-decide-parallelism: runs on one thread: modeled 12.29 us on one thread, 17.00 us on 2 threads at best (loop 0 (j, 30 iterations))}}
  dl.matmul ins(%a, %b : memref<64x3xf32>, memref<3x1920xf32>) outs(%c : memref<64x1920xf32>)
      {pack_blocks = array<i64: 64, 64, 3>, schedule = #dl.schedule<[j, i, k]>}
  return
}

// ... pieces of a page (16 blocks) do not.
// CHECK-LABEL: func.func @column_pages
// CHECK-NOT: dl.sequential
// CHECK: schedule = #dl.schedule<[j, i, k], parallel = 0>
func.func @column_pages(%a: memref<64x3xf32>, %b: memref<3x2048xf32>, %c: memref<64x2048xf32>) {
  dl.matmul ins(%a, %b : memref<64x3xf32>, memref<3x2048xf32>) outs(%c : memref<64x2048xf32>)
      {pack_blocks = array<i64: 64, 64, 3>, schedule = #dl.schedule<[j, i, k]>}
  return
}

// 16 K steps (32 FLOPs per element) hide the pieces.
// CHECK-LABEL: func.func @column_pieces_more_steps
// CHECK-NOT: dl.sequential
// CHECK: schedule = #dl.schedule<[j, i, k], parallel = 0>
func.func @column_pieces_more_steps(%a: memref<704x16xf32>, %b: memref<16x128xf32>, %c: memref<704x128xf32>) {
  dl.matmul ins(%a, %b : memref<704x16xf32>, memref<16x128xf32>) outs(%c : memref<704x128xf32>)
      {pack_blocks = array<i64: 64, 64, 16>, schedule = #dl.schedule<[j, i, k]>}
  return
}
