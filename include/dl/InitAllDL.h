//===- InitAllDL.h - register everything dl provides ------------*- C++ -*-===//
//
// One place that registers the dl dialect, its passes and pipelines; used by
// dl-opt, dl-compile, the mlir-opt plugin and embedders.
//
//===----------------------------------------------------------------------===//

#ifndef DL_INITALLDL_H
#define DL_INITALLDL_H

namespace mlir {
class DialectRegistry;
namespace dl {

/// Adds the dl dialect and the dialects its passes produce to `registry`.
void registerAllDLDialects(DialectRegistry &registry);

/// Registers the dl passes and pipelines with the global pass registry.
void registerAllDLPasses();

} // namespace dl
} // namespace mlir

#endif // DL_INITALLDL_H
