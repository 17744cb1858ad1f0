// dl-rank-variants ranks ops alike once, and with cache-dir keeps each
// decision on disk for later runs, which take it from there. Cache sizes are
// given so the choices do not depend on the machine running the test.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-rank-variants="cache-dir=%t/cache progress" 2>%t/first.txt | FileCheck %s
// RUN: FileCheck %s --check-prefix=FIRST < %t/first.txt
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-rank-variants="cache-dir=%t/cache progress" 2>%t/second.txt | FileCheck %s
// RUN: FileCheck %s --check-prefix=SECOND < %t/second.txt
//
// The entries are what later runs use: an entry edited to another schedule
// becomes the schedule of both convolutions.
// RUN: for f in %t/cache/v1/schedules/*; do sed -i 's/\[n, .*\]>/[n, kb:2, oh, kb]>/' $f; done
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-rank-variants="cache-dir=%t/cache" | FileCheck %s --check-prefix=EDITED
//
// Other options or caches are other keys: ranked again.
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=1M,L3=4M" --dl-pack-gemm-operands --dl-rank-variants="cache-dir=%t/cache progress" 2>&1 >/dev/null | FileCheck %s --check-prefix=OTHER
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-rank-variants="cache-dir=%t/cache threads=2 progress" 2>&1 >/dev/null | FileCheck %s --check-prefix=OTHER
//
// A damaged entry is a miss: the op is ranked again.
// RUN: for f in %t/cache/v1/schedules/*; do echo garbage > $f; done
// RUN: dl-opt %s --dl-set-target="vector-bits=256 cache-sizes=L1=32K,L2=512K,L3=32M" --dl-pack-gemm-operands --dl-rank-variants="cache-dir=%t/cache progress" 2>%t/damaged.txt | FileCheck %s
// RUN: FileCheck %s --check-prefix=FIRST < %t/damaged.txt

// CHECK-LABEL: func.func @two_alike
// CHECK: schedule = #dl.schedule<[n, kb:8, oh, kb]>
// CHECK: schedule = #dl.schedule<[n, kb:8, oh, kb]>
// CHECK-LABEL: func.func @gemm
// CHECK: schedule = #dl.schedule<[i, j, k]>

// FIRST: dl-rank-variants: [1/3] dl.conv2d at loc("first"): ranked {{[0-9]+}} variants in
// FIRST: dl-rank-variants: [2/3] dl.conv2d at loc("second"): as [1/3]
// FIRST: dl-rank-variants: [3/3] dl.matmul at loc("gemm"): ranked {{[0-9]+}} variants in

// SECOND: dl-rank-variants: [1/3] dl.conv2d at loc("first"): from the cache
// SECOND: dl-rank-variants: [2/3] dl.conv2d at loc("second"): as [1/3]
// SECOND: dl-rank-variants: [3/3] dl.matmul at loc("gemm"): from the cache

// EDITED-LABEL: func.func @two_alike
// EDITED: schedule = #dl.schedule<[n, kb:2, oh, kb]>
// EDITED: schedule = #dl.schedule<[n, kb:2, oh, kb]>

// OTHER: [1/3] dl.conv2d at loc("first"): ranked
// OTHER: [3/3] dl.matmul at loc("gemm"): ranked

func.func @two_alike(%in: memref<1x8x28x28x32xf32>, %f: memref<16x8x1x1x32x32xf32>, %out: memref<1x16x28x28x32xf32>, %out2: memref<1x16x28x28x32xf32>) {
  dl.conv2d ins(%in, %f : memref<1x8x28x28x32xf32>, memref<16x8x1x1x32x32xf32>) outs(%out : memref<1x16x28x28x32xf32>) loc("first")
  dl.conv2d ins(%in, %f : memref<1x8x28x28x32xf32>, memref<16x8x1x1x32x32xf32>) outs(%out2 : memref<1x16x28x28x32xf32>) loc("second")
  return
}

func.func @gemm(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  dl.matmul ins(%a, %b : memref<512x512xf32>, memref<512x512xf32>) outs(%c : memref<512x512xf32>) loc("gemm")
  return
}
