//===- LinalgToDL.h - raising linalg to dl ----------------------*- C++ -*-===//
//
// The patterns of `convert-linalg-to-dl`: linalg GEMMs, convolutions and the
// element-wise ops of a network (ReLU, ReLU6, residual and bias adds), on
// tensors or buffers, become dl ops; everything else is left as it is.
//
//===----------------------------------------------------------------------===//

#ifndef DL_CONVERSION_LINALGTODL_H
#define DL_CONVERSION_LINALGTODL_H

#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir {
namespace dl {

/// Adds the raising patterns.
void populateLinalgToDLPatterns(RewritePatternSet &patterns);

/// Why the raising leaves `op`, a linalg op of a kind it raises (GEMM,
/// convolution, all-parallel element-wise), as it is; std::nullopt when it
/// raises it, or when `op` is of another kind (the patterns give the same
/// reasons to notifyMatchFailure).
std::optional<std::string> getRaisingFailure(Operation *op);

} // namespace dl
} // namespace mlir

#endif // DL_CONVERSION_LINALGTODL_H
