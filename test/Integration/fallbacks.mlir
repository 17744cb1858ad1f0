// Faults inside the compiler and the runtime degrade to a slower correct path
// with a remark; each is forced here and the fallback's code is run against
// the reference lowering.
//
// Ipopt not converging (max-iterations=0): greedy tiles.
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=1M,L3=8M" --dl-pack-gemm-operands --dl-solve-tile-sizes="max-iterations=0" -o %t.solver.mlir 2>&1 | FileCheck %s --check-prefix=SOLVER
// RUN: FileCheck %s --check-prefix=SCHEDULED < %t.solver.mlir
// RUN: dl-compile %t.solver.mlir --run --threads=2 | FileCheck %s --check-prefix=OK
//
// isl's operation bound hit on every count (0): bounding-box working sets
// (eq. 1's; the traffic cost's counts of this conv are all boxes or lattices).
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=1M,L3=8M" --dl-pack-gemm-operands --dl-rank-variants="cost=working-sets isl-max-operations=0" -o %t.isl.mlir 2>&1 | FileCheck %s --check-prefix=ISL
// RUN: FileCheck %s --check-prefix=SCHEDULED < %t.isl.mlir
// RUN: dl-compile %t.isl.mlir --run --threads=1 | FileCheck %s --check-prefix=OK
//
// LIBXSMM refusing every dispatch: the generated code runs its loops. Its
// results then equal the reference's bit for bit (same loops, same order).
// RUN: env DL_RUNTIME_REFUSE_DISPATCH=1 dl-compile %s --vector-bits=256 --run --threads=2 --remarks 2> %t.remarks | FileCheck %s --check-prefix=EXACT
// RUN: FileCheck %s --check-prefix=REFUSED < %t.remarks
// RUN: FileCheck %s --check-prefix=GENERIC < %t.remarks
// RUN: dl-compile %s --vector-bits=256 --run --threads=1 --versioning=false --remarks --function=dynamic 2>&1 | FileCheck %s --check-prefix=BAND
// RUN: env DL_RUNTIME_REFUSE_DISPATCH=1 dl-compile %s --vector-bits=256 --run --threads=2 2>&1 | FileCheck %s --check-prefixes=OK,QUIET
//
// An unsupported band (dynamic trip counts) stays loops: remarked only with
// --remarks (above); without, nothing is said (QUIET).

// SOLVER: fallbacks.mlir:[[@LINE+7]]:3: remark: dl-solve-tile-sizes: Ipopt disabled (max-iterations=0); tiles from the greedy heuristic instead
// SCHEDULED-LABEL: func.func @matmul
// SCHEDULED: dl.matmul {{.*}}schedule = #dl.schedule
// OK: matmul: max_abs_err={{.*}} ok
// REFUSED-DAG: dl-runtime: remark: no GEMM microkernel for m={{32|64}} n=24 k=96 (DL_RUNTIME_REFUSE_DISPATCH); the loops run instead
// EXACT: matmul: max_abs_err=0.000000e+00 max_rel_err=0.000000e+00 ok
func.func @matmul(%a: memref<64x96xf32>, %b: memref<96x48xf32>, %c: memref<64x48xf32>) {
  dl.matmul ins(%a, %b : memref<64x96xf32>, memref<96x48xf32>) outs(%c : memref<64x48xf32>)
  return
}

// Stride 2: the input's working sets are lattices, not boxes.
// SOLVER: fallbacks.mlir:[[@LINE+8]]:3: remark: dl-solve-tile-sizes: Ipopt disabled (max-iterations=0); tiles from the greedy heuristic instead
// ISL: fallbacks.mlir:[[@LINE+7]]:3: remark: dl-rank-variants: exact counts exceeded isl-max-operations=0; the working sets of 3 of 3 variants are bounding-box counts
// SCHEDULED-LABEL: func.func @conv
// SCHEDULED: dl.conv2d {{.*}}schedule = #dl.schedule
// OK: conv: max_abs_err={{.*}} ok
// REFUSED-DAG: dl-runtime: remark: no {{.*}}batch-reduce GEMM microkernel for m=7 n=16 k=16 (DL_RUNTIME_REFUSE_DISPATCH); the loops run instead
// EXACT: conv: max_abs_err=0.000000e+00 max_rel_err=0.000000e+00 ok
func.func @conv(%x: memref<1x4x15x15x16xf32>, %w: memref<4x4x3x3x16x16xf32>, %y: memref<1x4x7x7x16xf32>) {
  dl.conv2d ins(%x, %w : memref<1x4x15x15x16xf32>, memref<4x4x3x3x16x16xf32>) outs(%y : memref<1x4x7x7x16xf32>)
      {strides = array<i64: 2, 2>}
  return
}

// The dynamic GEMM is the generic version (dl-parametric-versioning says
// why), blocked, with a version for sizes up to 128 that runs one kernel on
// the operands in place; at 33 x 40 x 17 that version runs, its kernel
// dispatched with the run-time sizes and leading dimensions, which the
// runtime refuses here too; without versioning, its plain (i, j, k) band
// stays loops (dl-outline-microkernels says why).
// GENERIC: fallbacks.mlir:[[@LINE+8]]:3: remark: generic version, blocked (packed operands, kernels of run-time sizes for the partial blocks; where every size is at most 128, one kernel on the operands in place): operand #0 has a dynamic size in dimension 1
// REFUSED-DAG: dl-runtime: remark: no GEMM microkernel for m=33 n=40 k=17 (DL_RUNTIME_REFUSE_DISPATCH); the loops run instead
// BAND: fallbacks.mlir:[[@LINE+6]]:3: remark: GEMM band kept as loops: a band loop has no constant trip count or bound, or a step other than 1
// OK: dynamic: max_abs_err={{.*}} ok
// EXACT: dynamic: max_abs_err={{.*}} ok
// QUIET-NOT: remark
func.func @dynamic(%a: memref<?x?xf32> {dl.run_shape = array<i64: 33, 17>}, %b: memref<?x?xf32> {dl.run_shape = array<i64: 17, 40>},
                   %c: memref<?x?xf32> {dl.run_shape = array<i64: 33, 40>}) {
  dl.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
