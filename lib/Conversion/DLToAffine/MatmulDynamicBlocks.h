//===- MatmulDynamicBlocks.h - blocked GEMMs of dynamic sizes ---*- C++ -*-===//
//
// The lowering of a dl.matmul with `pack_blocks` and dynamic sizes, for
// convert-dl-to-affine.
//
//===----------------------------------------------------------------------===//

#ifndef DL_LIB_CONVERSION_DLTOAFFINE_MATMULDYNAMICBLOCKS_H
#define DL_LIB_CONVERSION_DLTOAFFINE_MATMULDYNAMICBLOCKS_H

#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace dl {

/// Replaces nothing: builds, before `op` (a GEMM with dynamic sizes,
/// `pack_blocks`, `pad_blocks`, `pack_a`, `pack_b` and `pack_c`), the
/// packed copies of its operands, its blocked accumulation and the copy of
/// C back; the caller erases `op`. `betaValue` (null for beta = 1) scales C
/// on its way into the packed copy, `alphaValue` (null for alpha = 1) A.
void lowerDynamicBlockedMatmul(PatternRewriter &rewriter, MatmulOp op,
                               Value betaValue, Value alphaValue);

} // namespace dl
} // namespace mlir

#endif // DL_LIB_CONVERSION_DLTOAFFINE_MATMULDYNAMICBLOCKS_H
