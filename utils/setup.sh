#!/usr/bin/env bash
# Installs dl's build dependencies (Debian 12 packages), then configures and
# builds dl in build/ with Ninja and ccache. Safe to run again: it only
# installs what is missing and rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build ccache g++ python3 python3-dev python3-numpy python3-matplotlib libgtest-dev
  pybind11-dev python3-torch python3-torchvision
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libxsmm-dev
  libomp-22-dev libdnnl-dev libisl-dev coinor-libipopt-dev pkg-config
)
# Extra packages a caller needs (utils/run-sanitizer-tests.sh: clang-22 and
# its sanitizer and libFuzzer runtimes).
read -r -a extra <<< "${DL_EXTRA_PACKAGES:-}"
packages+=("${extra[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

jobs="${DL_BUILD_JOBS:-$(nproc)}"
if [ ! -f build/build.ninja ]; then
  echo "== configuring build/"
  cmake -S . -B build -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
echo "== building (-j${jobs})"
ninja -C build -j "$jobs" all DLUnitTests
