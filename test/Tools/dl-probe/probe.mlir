// dl-probe writes a machine file that the ranking reads; bad machine files
// and cache sizes are errors with a message, not crashes.
// RUN: dl-probe --min-time=0.001 -o %t.json 2>&1 | FileCheck %s --check-prefix=PROBE
// RUN: FileCheck %s --check-prefix=FILE < %t.json
// RUN: dl-opt %s --dl-set-target="machine-file=%t.json" --dl-rank-variants | FileCheck %s --check-prefix=RANKED
// RUN: not dl-opt %s --dl-set-target="machine-file=%t.missing" --dl-rank-variants 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo '{"levels": [{"name": "L1", "bytes": 0, "latency": 1, "bandwidth": 1}], "memory": {"latency": 1, "bandwidth": 1}}' > %t.bad.json
// RUN: not dl-opt %s --dl-set-target="machine-file=%t.bad.json" --dl-rank-variants 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dl-opt %s --dl-set-target="cache-sizes=L1=0" --dl-rank-variants 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not dl-compile %s --cache-sizes=L4=1M 2>&1 | FileCheck %s --check-prefix=LEVEL

// PROBE: {{L[0-9]}}: {{[0-9]+}} bytes reported, {{[0-9]+}} usable by one core
// PROBE: L1: {{[0-9]+}} bytes, read {{.*}} bytes/ns, latency {{.*}} ns
// PROBE: memory: read {{.*}} bytes/ns
// FILE: "levels": [
// FILE: "bandwidth":
// FILE: "bytes":
// FILE: "latency":
// FILE: "name": "L1"
// FILE: "memory": {
// RANKED: schedule = #dl.schedule<
// MISSING: error: dl-set-target: cannot read machine file
// BAD: error: dl-set-target: machine file '{{.*}}': each level needs a name and positive bytes, latency and bandwidth
// ZERO: error: dl-set-target: cache size '0' of L1 must be a positive number of bytes
// LEVEL: error: dl-set-target: unknown cache level 'L4'
func.func @conv(%in: memref<1x2x8x8x16xf32>, %f: memref<4x2x1x1x16x16xf32>, %out: memref<1x4x8x8x16xf32>) {
  dl.conv2d ins(%in, %f : memref<1x2x8x8x16xf32>, memref<4x2x1x1x16x16xf32>) outs(%out : memref<1x4x8x8x16xf32>)
  return
}
