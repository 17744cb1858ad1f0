// --help lists dl-compile's own options, not LLVM's backend flags; MLIR's
// hidden options still parse.
// RUN: dl-compile --help | FileCheck %s --check-prefix=HELP
// RUN: dl-probe --help | FileCheck %s --check-prefix=PROBE
// RUN: dl-compile %s --mlir-print-ir-before=dl-rank-variants --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT

// HELP: USAGE: dl-compile [options] <input .mlir>
// HELP-NOT: --x86-
// HELP-NOT: --amdgpu-
// HELP: dl-compile options:
// HELP: --autotune-top-k=<uint>
// HELP: --threads=<uint>
// HELP-NOT: --x86-

// PROBE: USAGE: dl-probe [options]
// PROBE-NOT: --amdgpu-
// PROBE: dl-probe options:
// PROBE: --min-time=<number>
// PROBE-NOT: --x86-

// PRINT: IR Dump Before
// PRINT: dl.matmul

func.func @mm(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  dl.matmul ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  return
}
