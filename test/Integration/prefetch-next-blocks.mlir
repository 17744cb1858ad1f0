// A convolution whose microkernel calls prefetch the next output row's
// input rows (dl-prefetch-next-blocks: the input, larger than the L2, is
// the same for the calls of each block of output channels and moves with
// the output rows), against the reference lowering at 1 and 2 threads: a
// strided pointwise convolution, whose prefetched rows skip every other
// pixel. The LLVM IR has the prefetches, and none without --prefetch.
// RUN: dl-compile %s --run --threads=1 --cache-sizes=L1=48K,L2=1M,L3=32M | FileCheck %s
// RUN: dl-compile %s --run --threads=2 --cache-sizes=L1=48K,L2=1M,L3=32M | FileCheck %s
// RUN: dl-compile %s --emit=llvm --threads=1 --cache-sizes=L1=48K,L2=1M,L3=32M -o - | FileCheck %s --check-prefix=IR
// RUN: dl-compile %s --emit=llvm --threads=1 --cache-sizes=L1=48K,L2=1M,L3=32M --prefetch=false -o - | FileCheck %s --check-prefix=NONE

// IR: call void @llvm.prefetch
// NONE-NOT: @llvm.prefetch

// CHECK: strided_pointwise: max_abs_err={{.*}} ok
func.func @strided_pointwise(%in: memref<1x64x96x96xf32>, %f: memref<112x64x1x1xf32>, %out: memref<1x112x48x48xf32>) {
  dl.conv2d ins(%in, %f : memref<1x64x96x96xf32>, memref<112x64x1x1xf32>) outs(%out : memref<1x112x48x48xf32>) {strides = array<i64: 2, 2>}
  return
}
