//===- Epilogue.h - the fused element-wise steps of a heavy op -*- C++ -*-===//
//
// The epilogue of dl.conv2d and dl.matmul (their `epilogue` steps, set by
// dl-fuse-epilogues) as their lowerings apply it: per output element, the
// completed sum through bias_add, add, batch_norm_inference, relu and relu6
// in order, and for a convolution the per-row statistics a batch
// normalization in training merges. A batch normalization step becomes a
// per-channel scale and shift computed once before the op's nest, so each
// element costs one FMA.
//
//===----------------------------------------------------------------------===//

#ifndef DL_LIB_CONVERSION_DLTOAFFINE_EPILOGUE_H
#define DL_LIB_CONVERSION_DLTOAFFINE_EPILOGUE_H

#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace dl {

class Epilogue {
public:
  /// Prepares `op`'s epilogue at the builder's position (before the op's
  /// nests): the scale and shift of a batch normalization.
  Epilogue(OpBuilder &b, Location loc, Conv2DOp op);
  Epilogue(OpBuilder &b, Location loc, MatmulOp op);

  /// Whether there are element-wise steps to apply.
  bool hasSteps() const { return !steps.empty(); }
  /// Whether the convolution writes row statistics too.
  bool hasRowStatistics() const { return rowStatistics != nullptr; }

  /// The output element at `index` (over map `operands` whose first
  /// `numDims` are dims) after the epilogue, given its completed sum.
  Value apply(OpBuilder &b, Location loc, Value sum, ValueRange operands,
              unsigned numDims, ArrayRef<AffineExpr> index) const;

  /// Applies the epilogue to the whole output in one sweep (for lowerings
  /// without per-tile completion points).
  void applyToOutput(OpBuilder &b, Location loc) const;

  /// Writes the row statistics of a blocked output tile: `base` (the first
  /// (n, kb, oh), expressions of `ivs`) and `extents` of those, with all of
  /// (ow, k). Per row and channel: the mean over ow, then the sum of the
  /// squared deviations from it (a second pass over the tile, in cache).
  void buildRowStatistics(OpBuilder &b, Location loc, ValueRange ivs,
                          ArrayRef<AffineExpr> base,
                          ArrayRef<int64_t> extents) const;

  /// Frees the scratch vectors, after the convolution's nests.
  void finish(OpBuilder &b, Location loc) const;

private:
  Epilogue(OpBuilder &b, Location loc, Value output, ArrayRef<PostOp> kinds,
           ValueRange operands, std::optional<APFloat> epsilon,
           Value rowStatistics);

  struct Step {
    PostOp kind;
    /// bias_add: the bias; add: the residual; batch_norm_inference: the
    /// scale and shift scratch vectors.
    SmallVector<Value> operands;
  };
  Value output;
  Value rowStatistics;
  SmallVector<Step> steps;
  SmallVector<Value> scratch;
};

} // namespace dl
} // namespace mlir

#endif // DL_LIB_CONVERSION_DLTOAFFINE_EPILOGUE_H
