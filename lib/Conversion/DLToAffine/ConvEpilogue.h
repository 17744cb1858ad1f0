//===- ConvEpilogue.h - a convolution's fused element-wise steps -*- C++
//-*-===//
//
// The epilogue of dl.conv2d (its `epilogue` steps, set by dl-fuse-epilogues)
// as the convolution lowerings apply it: per output element, the completed
// sum through bias_add, add, batch_norm_inference, relu and relu6 in order.
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

  bool empty() const { return steps.empty(); }

  /// The output element at `index` (over map `operands` whose first
  /// `numDims` are dims) after the epilogue, given its completed sum.
  Value apply(OpBuilder &b, Location loc, Value sum, ValueRange operands,
              unsigned numDims, ArrayRef<AffineExpr> index) const;

  /// Applies the epilogue to the whole output in one sweep (for lowerings
  /// without per-tile completion points).
  void applyToOutput(OpBuilder &b, Location loc) const;

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
  SmallVector<Step> steps;
  SmallVector<Value> scratch;
};

} // namespace dl
} // namespace mlir

#endif // DL_LIB_CONVERSION_DLTOAFFINE_CONVEPILOGUE_H
