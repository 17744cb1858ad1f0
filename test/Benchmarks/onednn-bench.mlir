// onednn-bench's modes for the layers around the convolutions: pooling (max,
// average, blocked), a depthwise convolution (--groups), an inner product,
// each one JSON line with the bytes per second; options that do not apply to
// a mode, and groups that do not divide the channels, are refused.
// REQUIRES: onednn-bench
// RUN: onednn-bench pool 1 20 9 11 3 3 2 1 --threads 1 --min-time 0 --min-reps 1 | FileCheck %s --check-prefix=POOL
// RUN: onednn-bench pool 1 20 9 11 3 3 2 1 --avg --layout blocked --threads 1 --min-time 0 --min-reps 1 | FileCheck %s --check-prefix=POOL
// RUN: onednn-bench conv 1 24 24 14 14 3 3 1 1 --groups 24 --threads 1 --min-time 0 --min-reps 1 | FileCheck %s --check-prefix=DW
// RUN: onednn-bench linear 3 100 50 --threads 1 --min-time 0 --min-reps 1 | FileCheck %s --check-prefix=LINEAR
// RUN: not onednn-bench pool 1 20 9 11 3 3 2 1 --groups 2 2>&1 | FileCheck %s --check-prefix=NOT-APPLY
// RUN: not onednn-bench conv 1 24 20 14 14 3 3 1 1 --groups 24 2>&1 | FileCheck %s --check-prefix=GROUPS
// RUN: not onednn-bench pool 1 20 9 11 3 3 2 3 2>&1 | FileCheck %s --check-prefix=PAD
// RUN: not onednn-bench linear 3 100 2>&1 | FileCheck %s --check-prefix=ARGS

// POOL: {"system":"onednn","kind":"pool","median_ms":{{.*}},"gflops":{{.*}},"gbytes_per_s":{{.*}},"reps":{{[0-9]+}},"threads":1,"impl":"{{.*}}","checksum":{{.*}}}
// DW: {"system":"onednn","kind":"conv",{{.*}}"gbytes_per_s":{{.*}}
// LINEAR: {"system":"onednn","kind":"linear",{{.*}}"gbytes_per_s":{{.*}}
// NOT-APPLY: error: option '--groups' does not apply to pool
// GROUPS: error: --groups must divide C and K
// PAD: error: PAD must be smaller than the window
// ARGS: error: linear expects N IN OUT
