#!/usr/bin/env bash
# Sets up and builds, then runs every test (lit + FileCheck suites and the
# gtest unit tests); exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash utils/setup.sh
echo "== ninja check-dl"
ninja -C build check-dl
