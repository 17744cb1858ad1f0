// --cache-dir: the JIT's code is kept per module and options, and a later
// --run of the same module loads it instead of compiling; the loaded code
// computes what the compiled code does.
// RUN: rm -rf %t
// RUN: dl-compile %s --run --threads=1 --cache-dir=%t --progress 2>&1 | FileCheck %s --check-prefixes=CHECK,COMPILED
// RUN: dl-compile %s --run --threads=1 --cache-dir=%t --progress 2>&1 | FileCheck %s --check-prefixes=CHECK,LOADED
// Other options are other code.
// RUN: dl-compile %s --run --threads=2 --cache-dir=%t --progress 2>&1 | FileCheck %s --check-prefixes=CHECK,COMPILED
// RUN: dl-compile %s --run --threads=1 --microkernels=false --cache-dir=%t --progress 2>&1 | FileCheck %s --check-prefixes=CHECK,COMPILED
// Entries that do not load are compiled again.
// RUN: for f in %t/v1/code/*; do echo garbage > $f; done
// RUN: dl-compile %s --run --threads=1 --cache-dir=%t --progress 2>&1 | FileCheck %s --check-prefixes=CHECK,COMPILED
// RUN: dl-compile %s --run --threads=1 --cache-dir=%t --progress 2>&1 | FileCheck %s --check-prefixes=CHECK,LOADED
// Without --cache-dir nothing is kept or loaded.
// RUN: dl-compile %s --run --threads=1 --progress 2>&1 | FileCheck %s --check-prefixes=CHECK,COMPILED

// COMPILED: dl: LLVM optimization and code generation
// LOADED-NOT: dl: LLVM optimization
// LOADED: dl: the code is from the cache ({{.*}}v1/code/{{[0-9a-f]+}})
// CHECK-DAG: conv_relu: max_abs_err={{.*}} ok
// CHECK-DAG: gemm: max_abs_err={{.*}} ok

func.func @conv_relu(%in: memref<1x32x14x14xf32>, %f: memref<64x32x3x3xf32>, %out: memref<1x64x12x12xf32>) {
  dl.conv2d ins(%in, %f : memref<1x32x14x14xf32>, memref<64x32x3x3xf32>) outs(%out : memref<1x64x12x12xf32>)
  dl.relu ins(%out : memref<1x64x12x12xf32>) outs(%out : memref<1x64x12x12xf32>)
  return
}

func.func @gemm(%a: memref<?x64xf32> {dl.run_shape = array<i64: 37, 64>},
                %b: memref<64x48xf32>,
                %c: memref<?x48xf32> {dl.run_shape = array<i64: 37, 48>}) {
  dl.matmul ins(%a, %b : memref<?x64xf32>, memref<64x48xf32>) outs(%c : memref<?x48xf32>)
  return
}
