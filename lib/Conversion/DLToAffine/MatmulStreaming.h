//===- MatmulStreaming.h - GEMV-like GEMMs streaming A ----------*- C++ -*-===//
//
// The lowering of a dl.matmul marked `stream_a`, for convert-dl-to-affine.
//
//===----------------------------------------------------------------------===//

#ifndef DL_LIB_CONVERSION_DLTOAFFINE_MATMULSTREAMING_H
#define DL_LIB_CONVERSION_DLTOAFFINE_MATMULSTREAMING_H

#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace dl {

/// The index of op(B)[k][j] in B for `j` and `k` expressions: B[k][j],
/// B[j][k] when transposed, B[j / bn][k / bk][k % bk][j % bn] when blocked.
SmallVector<AffineExpr> opBIndex(MatmulOp op, AffineExpr j, AffineExpr k);

/// Replaces nothing: builds, before `op`, the affine nests of the `stream_a`
/// GEMM (a transposed copy of op(B), then the rows of A against it); the
/// caller erases `op`.
void lowerStreamingMatmul(PatternRewriter &rewriter, MatmulOp op);

} // namespace dl
} // namespace mlir

#endif // DL_LIB_CONVERSION_DLTOAFFINE_MATMULSTREAMING_H
