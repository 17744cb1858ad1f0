//===- DLPlugin.cpp - dl as an mlir-opt plugin ------------------*- C++ -*-===//
//
// Entry points that let the stock mlir-opt load dl: as a dialect plugin
// (--load-dialect-plugin, which also registers the passes) or as a pass
// plugin (--load-pass-plugin).
//
//===----------------------------------------------------------------------===//

#include "dl/InitAllDL.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "DL", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            dl::registerAllDLDialects(*registry);
            dl::registerAllDLPasses();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "DL", LLVM_VERSION_STRING,
          []() { dl::registerAllDLPasses(); }};
}
