// dl-set-target writes the module's #dl.target, once: from this machine,
// from a module's own target, and from explicit values; the passes read it
// (here dl-pack-gemm-operands' column blocks: 4 vector registers). And the
// verifier of the attribute.
// RUN: dl-opt %s --dl-set-target | FileCheck %s --check-prefix=HOST
// RUN: dl-opt %s --dl-set-target="vector-bits=256 max-batch-bytes=0 cache-sizes=L1=32K,L2=512K,L3=8M" | FileCheck %s --check-prefix=SET
// RUN: dl-opt %s --dl-set-target="vector-bits=256" --dl-pack-gemm-operands | FileCheck %s --check-prefix=PACK256
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-pack-gemm-operands | FileCheck %s --check-prefix=PACK512
// RUN: dl-opt %s --dl-set-target="vector-bits=256" | dl-opt --dl-set-target="cache-sizes=L2=2M" | FileCheck %s --check-prefix=KEEP
// RUN: dl-opt %s --dl-set-target="vector-bits=256" | dl-opt --dl-pack-gemm-operands | FileCheck %s --check-prefix=PACK256
// RUN: not dl-opt %s --dl-set-target="cache-sizes=L1=-4" 2>&1 | FileCheck %s --check-prefix=BAD

// HOST: module attributes {dl.target = #dl.target<vector_bits = {{128|256|512}}, max_batch_bytes = 262144, cache_bytes = [{{[0-9, ]+}}], latencies = [{{.*}}], bandwidths = [{{.*}}]>}
// SET: module attributes {dl.target = #dl.target<vector_bits = 256, max_batch_bytes = 0, cache_bytes = [32768, 524288, 8388608], latencies = [4.000000e+00, 1.400000e+01, 5.000000e+01, 3.000000e+02], bandwidths = [6.400000e+01, 3.200000e+01, 1.600000e+01, 8.000000e+00]>}
// KEEP: #dl.target<vector_bits = 256, max_batch_bytes = 262144, cache_bytes = [{{[0-9]+}}, 2097152,
// PACK256: pack_blocks = array<i64: {{[0-9]+}}, 32, 128>
// PACK512: pack_blocks = array<i64: {{[0-9]+}}, 64, 128>
// BAD: error: dl-set-target: cache size '-4' of L1 must be a positive number of bytes
func.func @square(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  dl.matmul ins(%a, %b : memref<512x512xf32>, memref<512x512xf32>) outs(%c : memref<512x512xf32>)
  return
}
