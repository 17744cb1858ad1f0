// The installed tree: `cmake --install` of this build into a fresh prefix,
// then examples/embed (an out-of-tree tool that finds it with
// find_package(DL)) configured, built and run against it; the installed
// dl-compile, mlir-opt plugin and Python package run too. Not in the sanitized build: the
// example is built with its own flags, without the sanitizer runtime that
// the installed libraries of that build need.
// UNSUPPORTED: asan
// RUN: rm -rf %t && mkdir -p %t
// RUN: cmake --install %dl_obj_root --prefix %t/prefix > %t/install.log
// RUN: cmake -G Ninja -S %S/../../examples/embed -B %t/build \
// RUN:   -DCMAKE_PREFIX_PATH=%t/prefix -DCMAKE_BUILD_TYPE=Release > %t/cmake.log
// RUN: ninja -C %t/build > %t/ninja.log
// RUN: %t/build/embed-dl %S/../../examples/embed/gemm.mlir --check-gemm=gemm \
// RUN:   --num-threads=2 | FileCheck %s --check-prefix=EMBED
// RUN: %t/prefix/bin/dl-compile %s --run | FileCheck %s --check-prefix=TOOL
// RUN: mlir-opt %s --load-dialect-plugin=%t/prefix/lib/DLPlugin.so \
// RUN:   --pass-pipeline='builtin.module(dl-to-llvm)' | FileCheck %s --check-prefix=PLUGIN
// RUN: ls %t/prefix/lib/cmake/dl %t/prefix/include/dl %t/prefix/lib | FileCheck %s --check-prefix=TREE
// RUN: env PYTHONPATH=%t/prefix/python_packages %python -c "import dl, numpy; \
// RUN:   m = dl.compile(open('%s').read()); \
// RUN:   x = numpy.arange(-25, 26, dtype=numpy.float32).reshape(3, 17); \
// RUN:   print(dl.__file__, m.relu(x).sum() == x.clip(0).sum())" \
// RUN:   | FileCheck %s --check-prefix=PYTHON

// EMBED: @gemm (96x112x80): max_abs_err={{.*}} ok
// EMBED-NEXT: compiled @gemm (21 arguments)
// EMBED-NEXT: compiled @conv_bias_relu (38 arguments)

// TOOL: relu: max_abs_err={{.*}} ok
// PYTHON: prefix/python_packages/dl/__init__.py True
// PLUGIN: llvm.func @relu(

// TREE-DAG: DLConfig.cmake
// TREE-DAG: DLConfigVersion.cmake
// TREE-DAG: DLTargets.cmake
// TREE-DAG: InitAllDL.h
// TREE-DAG: DLPlugin.so
// TREE-DAG: libDLRuntime.so
// TREE-DAG: libDLRegistration.a

func.func @relu(%x: tensor<3x17xf32>) -> tensor<3x17xf32> {
  %e = tensor.empty() : tensor<3x17xf32>
  %r = dl.relu ins(%x : tensor<3x17xf32>) outs(%e : tensor<3x17xf32>) -> tensor<3x17xf32>
  return %r : tensor<3x17xf32>
}
