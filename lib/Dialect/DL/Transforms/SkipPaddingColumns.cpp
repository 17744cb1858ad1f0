//===- SkipPaddingColumns.cpp - skip the padding columns of convolutions --===//
//
// The pass `dl-skip-padding-columns`: sets `skip_padding_columns` on the
// blocked convolutions with left or right padding whose skipped products
// (the taps that would multiply padding zeros) outweigh the extra passes
// over the accumulators that the split filter columns cost. The attribute is
// the decision, on the IR for dl-opt to show; convert-dl-to-affine applies it.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_SKIPPADDINGCOLUMNS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

struct SkipPaddingColumnsPass
    : dl::impl::SkipPaddingColumnsBase<SkipPaddingColumnsPass> {
  using SkipPaddingColumnsBase::SkipPaddingColumnsBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (cPassCost < 0) {
      getOperation().emitError(
          "dl-skip-padding-columns: c-pass-cost must be >= 0");
      return signalPassFailure();
    }
    getOperation().walk([&](Conv2DOp op) {
      // (A group_lanes convolution skips its padding columns itself.)
      if (op.getSkipPaddingColumns() || op.getGroupLanes())
        return;
      std::optional<SmallVector<TapColumns>> runs = op.getTapColumns();
      if (!runs)
        return;
      // Per output row, output-channel vector and filter row.
      int64_t outputWidth = op.getOutput().getType().getDimSize(3);
      int64_t filterWidth = op.getFilter().getType().getDimSize(3);
      int64_t channelBlock = op.getFilter().getType().getDimSize(4);
      int64_t products = filterWidth * outputWidth, columns = 0;
      for (const TapColumns &run : *runs) {
        int64_t width = run.endColumn - run.firstColumn;
        products -= (run.endTap - run.firstTap) * width;
        columns += width;
      }
      double skipped = double(channelBlock) * double(products);
      double extraPasses = cPassCost * double(columns - outputWidth);
      if (skipped > extraPasses)
        op.setSkipPaddingColumns(true);
    });
  }
};

} // namespace
