// dl-chunk-openmp-loops: a parallel region holding only a worksharing loop
// over one loop becomes each thread's contiguous chunk of the iterations
// (those of OpenMP's static schedule), without the worksharing runtime
// calls; regions it cannot chunk keep their omp.wsloop.
// RUN: dl-opt %s --dl-chunk-openmp-loops | FileCheck %s
// Runs of chunked loops at 2 and 3 threads (uneven chunks) against the
// reference: test/Integration/matmul-remainders.mlir.

// CHECK-LABEL: func.func @one_loop
// CHECK: omp.parallel num_threads
// CHECK-NOT: omp.wsloop
// The iterations 3, 5, ..., 21 (10 of them), thread t of T from
// 3 + 2 * min(t * c, 10) to 3 + 2 * min(t * c + c, 10), c = ceil(10 / T).
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[TI32:.*]] = func.call @__kmpc_bound_thread_num(%[[NULL]]) : (!llvm.ptr) -> i32
// CHECK: %[[T:.*]] = arith.index_cast %[[TI32]] : i32 to index
// CHECK: %[[NI32:.*]] = func.call @__kmpc_bound_num_threads(%[[NULL]]) : (!llvm.ptr) -> i32
// CHECK: %[[N:.*]] = arith.index_cast %[[NI32]] : i32 to index
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB:.*]], %[[LB:.*]] : index
// CHECK: %[[DIV:.*]] = arith.ceildivsi %[[SPAN]], %[[STEP:.*]] : index
// CHECK: %[[COUNT:.*]] = arith.maxsi %[[DIV]], %{{.*}} : index
// CHECK: %[[PER:.*]] = arith.ceildivsi %[[COUNT]], %[[N]] : index
// CHECK: %[[FIRST0:.*]] = arith.muli %[[T]], %[[PER]] : index
// CHECK: %[[FIRST:.*]] = arith.minsi %[[FIRST0]], %[[COUNT]] : index
// CHECK: %[[LAST0:.*]] = arith.addi %[[FIRST]], %[[PER]] : index
// CHECK: %[[LAST:.*]] = arith.minsi %[[LAST0]], %[[COUNT]] : index
// CHECK: %[[BEGIN0:.*]] = arith.muli %[[FIRST]], %[[STEP]] : index
// CHECK: %[[BEGIN:.*]] = arith.addi %[[LB]], %[[BEGIN0]] : index
// CHECK: %[[END0:.*]] = arith.muli %[[LAST]], %[[STEP]] : index
// CHECK: %[[END:.*]] = arith.addi %[[LB]], %[[END0]] : index
// CHECK: scf.for %[[IV:.*]] = %[[BEGIN]] to %[[END]] step %[[STEP]] {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[IV]]]
// CHECK-NEXT: }
// CHECK-NEXT: omp.terminator
func.func @one_loop(%buffer: memref<32xf32>, %value: f32) {
  %threads = arith.constant 2 : i32
  %lb = arith.constant 3 : index
  %ub = arith.constant 23 : index
  %step = arith.constant 2 : index
  omp.parallel num_threads(%threads : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%lb) to (%ub) step (%step) {
        memref.store %value, %buffer[%i] : memref<32xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// Two loops collapsed into one nest, and a region with more than the
// loop: left to the worksharing loop.
// CHECK-LABEL: func.func @left_alone
// CHECK: omp.wsloop
// CHECK: omp.wsloop
// CHECK-NOT: __kmpc_bound_thread_num
// CHECK: return
func.func @left_alone(%buffer: memref<32x32xf32>, %value: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%c32, %c32) step (%c1, %c1) {
        memref.store %value, %buffer[%i, %j] : memref<32x32xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    memref.store %value, %buffer[%c0, %c0] : memref<32x32xf32>
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c32) step (%c1) {
        memref.store %value, %buffer[%i, %c1] : memref<32x32xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
