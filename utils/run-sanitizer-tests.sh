#!/usr/bin/env bash
# The continuous checks that need a second build: configures build-san/ with
# clang-22, AddressSanitizer + UndefinedBehaviorSanitizer (DL_SANITIZE) and
# libFuzzer coverage (DL_BUILD_FUZZER), runs the whole test suite there (lit +
# gtest, instrumented), then the fuzzer for a bounded time (DL_FUZZ_SECONDS,
# default 120; 0 skips it). Non-zero on any failure, sanitizer report or
# fuzzer crash.
set -euo pipefail
cd "$(dirname "$0")/.."
DL_EXTRA_PACKAGES="clang-22 libclang-rt-22-dev" bash utils/setup.sh

# ccache hits across clones: paths relative to the checkout, and the build
# directory left out of the hash (the debug line tables name it).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
jobs="${DL_BUILD_JOBS:-$(nproc)}"
if [ ! -f build-san/build.ninja ]; then
  echo "== configuring build-san/ (clang-22, ASan + UBSan, libFuzzer)"
  cmake -S . -B build-san -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_CXX_FLAGS=-gline-tables-only \
    -DDL_SANITIZE=ON -DDL_BUILD_FUZZER=ON -DDL_BUILD_PYTHON=OFF \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
echo "== building build-san/ (-j${jobs})"
ninja -C build-san -j "$jobs" all DLUnitTests dl-fuzz
echo "== sanitized test suite"
ninja -C build-san check-dl
bash utils/run-fuzzer.sh "${DL_FUZZ_SECONDS:-120}"
