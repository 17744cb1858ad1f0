// A GEMM run on one thread reads its im2col copy (dl-im2col-convs) from the
// core that made it: dl-decide-parallelism runs the copy on that thread too.
// A 103 -> 3 channel 40x8 5x5 convolution at stride 2 (36 x 2600 x 3, a
// streamed GEMM of 7 us) took 64 us at 2 threads with its copy in parallel,
// 29 with it on one thread (29 on one thread).
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-im2col-convs --dl-pack-gemm-operands --dl-decide-parallelism="threads=2" | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512 cache-sizes=L1=48K,L2=2M,L3=32M" --dl-im2col-convs --dl-pack-gemm-operands | FileCheck %s --check-prefix=BEFORE

// CHECK-LABEL: func.func @im2col_on_one_thread
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<36x2600xf32>
// CHECK: affine.store {{.*}}, %[[COPY]]
// CHECK: } {dl.sequential}
// CHECK: dl.matmul ins(%[[COPY]], {{.*}}) {dl.sequential, stream_a}
// BEFORE-LABEL: func.func @im2col_on_one_thread
// BEFORE-NOT: dl.sequential
// BEFORE: dl.matmul
func.func @im2col_on_one_thread(%in: memref<1x2x40x8x52xf32>, %f: memref<1x2x5x5x52x3xf32>, %out: memref<1x1x18x2x3xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x40x8x52xf32>, memref<1x2x5x5x52x3xf32>) outs(%out : memref<1x1x18x2x3xf32>)
      {strides = array<i64: 2, 2>}
  return
}
