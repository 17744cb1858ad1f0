// Bad input to dl-compile gives a diagnostic and exit code 1, never a crash.
// RUN: not dl-compile %s.does-not-exist 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not dl-compile %S/Inputs/verifier-error.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not dl-compile %S/Inputs/parse-error.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not dl-compile %s --emit=exe 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not dl-compile %s --no-such-option 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not dl-compile %s --run 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not dl-compile %S/Inputs/returns-value.mlir --run 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not dl-compile %s --emit=shared 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not dl-compile %s --run --function=nothing 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not dl-compile %s --ranking-cost=misses 2>&1 | FileCheck %s --check-prefix=COST

// NOFILE: error: cannot open input file '{{.*}}does-not-exist'
// VERIFY: verifier-error.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'dl.conv2d' op expects strides > 0
// PARSE: parse-error.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// OPTION: for the --emit option: Cannot find option named 'exe'!
// UNKNOWN: Unknown command line argument '--no-such-option'
// DYNAMIC: errors.mlir:[[@LINE+3]]:1: error: argument #0 has dynamic sizes ('memref<?xf32>'); give the sizes to run with as {dl.run_shape = array<i64: ...>}
// RESULT: returns-value.mlir:{{[0-9]+}}:{{[0-9]+}}: error: function returns values; dl functions write their results into memref arguments
// SHARED: error: --emit=shared needs -o <file>
func.func @dynamic(%x: memref<?xf32>) {
  dl.relu ins(%x : memref<?xf32>) outs(%x : memref<?xf32>)
  return
}
// NOFUNC: error: no public function with a body to run
// COST: dl-compile: error: unknown --ranking-cost 'misses' (expected 'traffic' or 'working-sets')

// Buffers that do not fit in memory: a clear error before any allocation.
// RUN: not dl-compile %S/Inputs/huge-buffers.mlir --run 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not dl-compile %S/Inputs/huge-buffers.mlir --bench 2>&1 | FileCheck %s --check-prefix=HUGEBENCH
// RUN: not dl-compile %S/Inputs/huge-buffers.mlir --run --function=overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// HUGE: huge-buffers.mlir:4:1: error: out of memory: the run's buffers take 298.0 GiB (the arguments and the reference run's copy), the largest argument #0 ('memref<200000x200000xf32>') 149.0 GiB, and {{[0-9.]+}} {{[KMGT]?i?B|bytes}} of memory are available
// HUGE-NOT: see current operation
// HUGEBENCH: huge-buffers.mlir:4:1: error: out of memory: the run's buffers take 149.0 GiB, the largest argument #0
// OVERFLOW: huge-buffers.mlir:9:1: error: argument #0 of 'memref<4611686018427387904x4xf32>' has more bytes than a 64-bit size can count
