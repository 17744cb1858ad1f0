#!/usr/bin/env bash
# The main job: set up and build, then compile the shipped example (a
# ResNet-50 conv -> batch norm -> ReLU block and a matmul) with dl-compile,
# run it, check it against the reference lowering, and print the timings.
set -euo pipefail
cd "$(dirname "$0")/.."
bash utils/setup.sh
echo "== dl-compile examples/resnet_block.mlir --run --bench"
build/bin/dl-compile examples/resnet_block.mlir --run --bench
