//===- DLToAffine.h - dl ops to affine loop nests ---------------*- C++ -*-===//
//
// The lowering of convert-dl-to-affine as a function, for code that lowers a
// scratch copy of an op to analyze its loops (the variant ranking).
//
//===----------------------------------------------------------------------===//

#ifndef DL_CONVERSION_DLTOAFFINE_H
#define DL_CONVERSION_DLTOAFFINE_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace dl {

/// Replaces every dl op under `root` (but the microkernel ops) with its
/// affine loop nest, as convert-dl-to-affine does.
LogicalResult lowerDLToAffine(Operation *root);

} // namespace dl
} // namespace mlir

#endif // DL_CONVERSION_DLTOAFFINE_H
