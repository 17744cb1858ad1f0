// dl-parallelize-outer-loops with reads that are not affine accesses (the
// masked loads of a streamed GEMM's K rest): a loop whose only such reads
// are of buffers it does not write runs in parallel; one that also writes
// the buffer it reads that way stays sequential, as does one with a
// non-affine write.
// RUN: dl-opt %s --dl-parallelize-outer-loops | FileCheck %s
// (Each loop holds an inner one: the innermost loop of a nest is kept for
// vectorization.)

// CHECK-LABEL: func.func @masked_reads_of_an_input
// CHECK: affine.parallel (%{{.*}}) = (0) to (64) {
// CHECK: vector.maskedload
func.func @masked_reads_of_an_input(%a: memref<64x23xf32>, %c: memref<64xf32>) {
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %c16 = arith.constant 16 : index
  affine.for %i = 0 to 64 {
    %mask = vector.constant_mask [7] : vector<16xi1>
    %rest = vector.maskedload %a[%i, %c16], %mask, %zero : memref<64x23xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
    %sum = vector.reduction <add>, %rest : vector<16xf32> into f32
    affine.store %sum, %c[%i] : memref<64xf32>
    affine.for %j = 0 to 4 {
      affine.store %sum, %c[%i] : memref<64xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @masked_reads_of_what_the_loop_writes
// CHECK-NOT: affine.parallel
// CHECK: affine.for
func.func @masked_reads_of_what_the_loop_writes(%a: memref<64x23xf32>) {
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %c0 = arith.constant 0 : index
  %sub = memref.subview %a[0, 0] [64, 16] [1, 1] : memref<64x23xf32> to memref<64x16xf32, strided<[23, 1]>>
  affine.for %i = 0 to 64 {
    %mask = vector.constant_mask [7] : vector<16xi1>
    %rest = vector.maskedload %a[%c0, %c0], %mask, %zero : memref<64x23xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
    %sum = vector.reduction <add>, %rest : vector<16xf32> into f32
    affine.for %j = 0 to 4 {
      affine.store %sum, %sub[%i, %j] : memref<64x16xf32, strided<[23, 1]>>
    }
  }
  return
}

// CHECK-LABEL: func.func @masked_writes
// CHECK-NOT: affine.parallel
// CHECK: affine.for
func.func @masked_writes(%a: memref<64x23xf32>, %v: vector<16xf32>, %f: f32) {
  %c16 = arith.constant 16 : index
  affine.for %i = 0 to 64 {
    %mask = vector.constant_mask [7] : vector<16xi1>
    vector.maskedstore %a[%i, %c16], %mask, %v : memref<64x23xf32>, vector<16xi1>, vector<16xf32>
    affine.for %j = 0 to 4 {
      affine.store %f, %a[%i, %j] : memref<64x23xf32>
    }
  }
  return
}
