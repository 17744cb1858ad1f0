//===- ConvEpilogue.h - a convolution's fused element-wise steps -*- C++
//-*-===//
//
// The epilogue of dl.conv2d (its `epilogue` steps, set by dl-fuse-epilogues)
// as the convolution lowerings apply it: per output element, the completed
// sum through bias_add, add, batch_norm_inference, relu and relu6 in order,
// and the per-row statistics a batch normalization in training merges.
// A batch normalization step becomes a per-channel scale and shift computed
// once before the convolution, so each element costs one FMA.
//
//===----------------------------------------------------------------------===//

#ifndef DL_LIB_CONVERSION_DLTOAFFINE_CONVEPILOGUE_H
#define DL_LIB_CONVERSION_DLTOAFFINE_CONVEPILOGUE_H

#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace dl {

class ConvEpilogue {
public:
  /// Prepares `op`'s epilogue at the builder's position (before the
  /// convolution's nests): the scale and shift of a batch normalization.
  ConvEpilogue(OpBuilder &b, Location loc, Conv2DOp op);

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

#endif // DL_LIB_CONVERSION_DLTOAFFINE_CONVEPILOGUE_H
