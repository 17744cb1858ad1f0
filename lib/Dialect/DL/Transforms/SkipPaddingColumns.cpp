//===- SkipPaddingColumns.cpp - skip the padding columns of convolutions --===//
//
// The pass `dl-skip-padding-columns`: sets `skip_padding_columns` on the
// blocked convolutions with left or right padding whose skipped products
// (the taps that would multiply padding zeros) and skipped input copy (the
// column-padded copy the lowering otherwise reads) outweigh the extra passes
// over the accumulators that the split filter columns cost. The attribute is
// the decision, on the IR for dl-opt to show; convert-dl-to-affine applies it.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

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
    Target target = getTarget(getOperation());
    int64_t vectorFloats = target.vectorFloats();
    getOperation().walk([&](Conv2DOp op) {
      // (A group_lanes convolution skips its padding columns itself.)
      if (op.getSkipPaddingColumns() || op.getGroupLanes())
        return;
      std::optional<SmallVector<TapColumns>> runs = op.getTapColumns();
      if (!runs)
        return;
      // Per output row, output-channel vector and filter row of an image
      // and input-channel block.
      ArrayRef<int64_t> input = op.getInput().getType().getShape();
      ArrayRef<int64_t> filter = op.getFilter().getType().getShape();
      ArrayRef<int64_t> output = op.getOutput().getType().getShape();
      if (ShapedType::isDynamic(input[2]) || ShapedType::isDynamic(output[2]) ||
          !op.getFilter().getType().hasStaticShape())
        return;
      int64_t outputWidth = output[3], filterWidth = filter[3];
      int64_t channelBlock = filter[4];
      int64_t products = filterWidth * outputWidth, columns = 0;
      for (const TapColumns &run : *runs) {
        int64_t width = run.endColumn - run.firstColumn;
        products -= (run.endTap - run.firstTap) * width;
        columns += width;
      }
      double skipped = double(channelBlock) * double(products);
      // The column-padded copy moves each row of the input block, padding
      // included, as vectors loaded and stored once: spread over the output
      // rows, output-channel vectors and filter rows that read it. It reads
      // all of the input and writes all of the copy in one sweep, at the
      // bandwidth of the level that holds both (cPassCost is a pass in the
      // L1). One Emerald Rapids core (2 MiB L2, memory at a twentieth of
      // the L1's bandwidth), with the copy and without: 4 x 415 -> 19
      // channels, 51x51, 3x3 (an 18 MB input) 20.4-21.3 ms and 16.9-17.4
      // (oneDNN 15.0-15.8); 64 -> 32 channels, 56x56, 3x3 (0.8 MB) 0.69-0.70
      // and 0.66-0.67 (oneDNN 0.66).
      int64_t paddedWidth = input[3] + op.getPadding()[1] + op.getPadding()[3];
      double copiedVectors =
          double(input[2] * paddedWidth * channelBlock) / double(vectorFloats);
      double units = double(output[2] * filter[2] * filter[0] *
                            llvm::divideCeil(filter[5], vectorFloats));
      int64_t sweptBytes = op.getInput().getType().getNumElements() *
                           int64_t(sizeof(float)) * (paddedWidth + input[3]) /
                           input[3];
      double copy = cPassCost * copiedVectors / units /
                    target.sweepBandwidthShare(sweptBytes);
      double extraPasses = cPassCost * double(columns - outputWidth);
      if (skipped + copy > extraPasses)
        op.setSkipPaddingColumns(true);
    });
  }
};

} // namespace
