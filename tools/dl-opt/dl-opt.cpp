//===- dl-opt.cpp - mlir-opt with the dl dialect ----------------*- C++ -*-===//
//
// The standard MLIR optimizer driver with every upstream dialect and pass plus
// the dl dialect, passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "dl/InitAllDL.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::dl::registerAllDLPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::dl::registerAllDLDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dl optimizer driver\n", registry));
}
