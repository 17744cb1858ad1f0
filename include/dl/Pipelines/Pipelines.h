//===- Pipelines.h - dl pass pipelines --------------------------*- C++ -*-===//
//
// The registered pipelines that take a module of dl ops to the LLVM dialect:
// `dl-to-llvm` (what dl-compile builds) and `dl-reference-to-llvm` (the plain
// reference lowering that `dl-compile --run` checks results against).
//
//===----------------------------------------------------------------------===//

#ifndef DL_PIPELINES_PIPELINES_H
#define DL_PIPELINES_PIPELINES_H

namespace mlir {
class OpPassManager;
namespace dl {

/// dl ops -> affine loop nests -> (optimizations) -> LLVM dialect.
void buildDLToLLVMPipeline(OpPassManager &pm);

/// dl ops -> reference affine loop nests -> LLVM dialect, with no
/// optimization of the loops.
void buildReferenceToLLVMPipeline(OpPassManager &pm);

/// Registers both pipelines under their names for dl-opt and the plugin.
void registerDLPipelines();

} // namespace dl
} // namespace mlir

#endif // DL_PIPELINES_PIPELINES_H
