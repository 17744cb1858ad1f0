//===- MergeConvRows.cpp - longer microkernel rows for 1x1 convolutions ---===//
//
// The pass `dl-merge-conv-rows`: a blocked pointwise convolution (1x1
// filter, stride 1, no padding) reads and writes whole activation rows, so g
// consecutive output rows of one channel block are one contiguous
// (g * OW) x k matrix, as are the input rows they read. Where the output
// rows are short (7 or 14 pixels in ResNet-50's last stages), the pass runs
// the convolution on views of its input and output with g rows merged
// into one (memref.collapse_shape then memref.expand_shape: no copy), so
// the microkernel's M is g * OW instead of OW. The views are the decision,
// on the IR for dl-opt to show.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_MERGECONVROWS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// Rows merged for a pointwise convolution with `rows` x `width` outputs:
/// the fewest (a divisor of `rows`, so every merged row is full) that make
/// a merged row at least `minRows` pixels long, else all rows; 1 when the
/// rows are long enough already.
int64_t rowsToMerge(int64_t rows, int64_t width, int64_t minRows) {
  if (width >= minRows)
    return 1;
  for (int64_t g = 2; g < rows; ++g)
    if (rows % g == 0 && g * width >= minRows)
      return g;
  return rows;
}

/// H and W of an N x B x H x W x b activation as one dimension.
SmallVector<ReassociationIndices> rowsAndPixels() {
  return {{0}, {1}, {2, 3}, {4}};
}

/// `buffer` (N x B x H x W x b, identity layout) viewed as
/// N x B x H/g x (W*g) x b.
Value mergedRowsView(OpBuilder &b, Location loc, Value buffer, int64_t g) {
  auto type = cast<MemRefType>(buffer.getType());
  Value pixels =
      memref::CollapseShapeOp::create(b, loc, buffer, rowsAndPixels());
  ArrayRef<int64_t> shape = type.getShape();
  auto mergedType = MemRefType::get(
      {shape[0], shape[1], shape[2] / g, shape[3] * g, shape[4]},
      type.getElementType(), MemRefLayoutAttrInterface(),
      type.getMemorySpace());
  return memref::ExpandShapeOp::create(b, loc, mergedType, pixels,
                                       rowsAndPixels());
}

struct MergeConvRowsPass : dl::impl::MergeConvRowsBase<MergeConvRowsPass> {
  using MergeConvRowsBase::MergeConvRowsBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (minRows < 1) {
      getOperation().emitError("dl-merge-conv-rows: min-rows must be >= 1");
      return signalPassFailure();
    }
    getOperation().walk([&](Conv2DOp op) {
      // A schedule's row tiles refer to the rows as they are.
      if (!op.isBlocked() || op.getScheduleAttr())
        return;
      auto input = cast<MemRefType>(op.getInput().getType());
      auto filter = cast<MemRefType>(op.getFilter().getType());
      auto output = cast<MemRefType>(op.getOutput().getType());
      if (!input.hasStaticShape() || !filter.hasStaticShape() ||
          !output.hasStaticShape())
        return;
      if (!op.isUnpaddedPointwise() ||
          !llvm::all_of(op.getStrides(), [](int64_t s) { return s == 1; }))
        return;
      int64_t g =
          rowsToMerge(output.getDimSize(2), output.getDimSize(3), minRows);
      // Rows of a strided layout (a subview) may not be contiguous.
      if (g == 1 || !input.getLayout().isIdentity() ||
          !output.getLayout().isIdentity())
        return;
      OpBuilder b(op);
      op.getInputMutable().assign(
          mergedRowsView(b, op.getLoc(), op.getInput(), g));
      op.getOutputMutable().assign(
          mergedRowsView(b, op.getLoc(), op.getOutput(), g));
    });
  }
};

} // namespace
