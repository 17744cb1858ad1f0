//===- ReduceConvStrides.cpp - strided 1x1 convolutions at unit stride ----===//
//
// The pass `dl-reduce-conv-strides`: a blocked pointwise convolution (1x1
// filter, no padding) with strides reads one pixel in `stride_h * stride_w`,
// and each output-channel block re-reads them. Where a pixel's channel block
// is narrower than a cache line, those re-reads also fetch the skipped
// pixels that share its lines; where that waste outweighs a copy's traffic,
// the pass gives the convolution a dense copy of the pixels it reads (an
// affine copy nest into a buffer with its output's rows and columns) and
// sets its strides to 1, as oneDNN's "reduce to unit stride". Otherwise the
// microkernels read the pixels in place (lda = stride_w * block). On the dl
// op, before the ranking and dl-merge-conv-rows, so that both see the
// unit-stride convolution (whose short rows the latter then merges).
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/ParallelismModel.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_REDUCECONVSTRIDES
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// A dense copy of the pixels a 1x1 unpadded convolution with `strides`
/// reads from the blocked activation `input` (N x C/c x H x W x c):
/// copy[n][cb][oh][ow][c] = input[n][cb][oh * sh][ow * sw][c], with
/// OH = (H - 1) / sh + 1 (and likewise OW), so every read is in bounds
/// whatever the run-time sizes; the output's sizes are checked against the
/// copy's when the convolution is lowered. Its outer loop is marked
/// `dl.sequential` unless `parallel`.
Value buildSubsampledCopy(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> strides, bool parallel) {
  auto type = cast<MemRefType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  // Each dimension's run-time size, where it is dynamic.
  SmallVector<Value> sizes(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t stride = d == 2 || d == 3 ? strides[d - 2] : 1;
    if (!type.isDynamicDim(d)) {
      shape[d] = (shape[d] - 1) / stride + 1;
      continue;
    }
    sizes[d] = memref::DimOp::create(b, loc, input, d);
    if (stride != 1)
      sizes[d] = affine::AffineApplyOp::create(
          b, loc,
          AffineMap::get(1, 0,
                         (b.getAffineDimExpr(0) - 1).floorDiv(stride) + 1),
          sizes[d]);
  }
  SmallVector<Value> dynamicSizes(llvm::make_filter_range(
      sizes, [](Value size) { return static_cast<bool>(size); }));
  Value copy = memref::AllocOp::create(
      b, loc, MemRefType::get(shape, type.getElementType()), dynamicSizes,
      b.getI64IntegerAttr(64));

  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> ivs;
  for (int64_t d = 0; d < rank; ++d) {
    auto loop = sizes[d] ? affine::AffineForOp::create(
                               b, loc, ValueRange(), b.getConstantAffineMap(0),
                               sizes[d], b.getDimIdentityMap())
                         : affine::AffineForOp::create(b, loc, 0, shape[d]);
    if (ivs.empty() && !parallel)
      loop->setAttr(DLDialect::getSequentialAttrName(), b.getUnitAttr());
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  SmallVector<AffineExpr> pixel =
      llvm::to_vector(llvm::map_range(llvm::seq<int64_t>(rank), [&](int64_t d) {
        return b.getAffineDimExpr(d);
      }));
  pixel[2] = pixel[2] * strides[0];
  pixel[3] = pixel[3] * strides[1];
  Value x = affine::AffineLoadOp::create(
      b, loc, input, AffineMap::get(rank, 0, pixel, b.getContext()), ivs);
  affine::AffineStoreOp::create(b, loc, x, copy, ivs);
  return copy;
}

/// Whether the strided pixels `op` reads are worth a dense copy: its
/// `K / k` output-channel blocks each re-read them, fetching per pixel the
/// `fetched` bytes of the lines it shares with skipped pixels, against the
/// `used` bytes of its channel block; a copy reads them once and writes them
/// dense (`fetched + used`), after which every re-read fetches `used`.
bool isCopyWorthIt(Conv2DOp op, int64_t cacheLineBytes) {
  ShapedType input = op.getInput().getType();
  int64_t block = input.getDimSize(4);
  // A dynamic channel block: its lines are unknown, reading in place is
  // always correct.
  if (ShapedType::isDynamic(block))
    return false;
  int64_t used = block * input.getElementTypeBitWidth() / 8;
  if (used >= cacheLineBytes)
    return false;
  int64_t fetched = std::min(cacheLineBytes, op.getStrides()[1] * used);
  if (fetched == used)
    return false;
  int64_t reReads = op.getFilter().getType().getDimSize(0);
  // A dynamic count of output-channel blocks is taken as many: the re-reads'
  // waste then outweighs the copy's traffic.
  return ShapedType::isDynamic(reReads) ||
         reReads * (fetched - used) > fetched + used;
}

/// Whether `op` is a plain `pixel_vectors` convolution whose lowering would
/// copy a window of the input per row tile (its rows are shorter than the
/// strided vectors of its output columns): the dense copy is smaller (the
/// pixels it reads, not whole rows of them) and its rows, at unit stride,
/// join into one (docs/heuristics.md, "Reduced strides").
bool pixelVectorsNeedWindows(Conv2DOp op) {
  ShapedType input = op.getInput().getType(), output = op.getOutput().getType();
  if (!op.getPixelVectors() || !input.hasStaticShape() ||
      !output.hasStaticShape())
    return false;
  return pixelVectorLastColumn(output.getDimSize(3), op.getStrides()[1],
                               /*filterColumns=*/1,
                               op.getDilations()[1]) >= input.getDimSize(3);
}

struct ReduceConvStridesPass
    : dl::impl::ReduceConvStridesBase<ReduceConvStridesPass> {
  using ReduceConvStridesBase::ReduceConvStridesBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (cacheLineBytes <= 0) {
      getOperation().emitError(
          "dl-reduce-conv-strides: cache-line-bytes must be > 0");
      return signalPassFailure();
    }
    getOperation().walk([&](Conv2DOp op) {
      if (!op.isUnpaddedPointwise() ||
          llvm::all_of(op.getStrides(), [](int64_t s) { return s == 1; }) ||
          !(op.isBlocked() ? isCopyWorthIt(op, cacheLineBytes)
                           : pixelVectorsNeedWindows(op)))
        return;
      OpBuilder b(op);
      // The copy's outer loops run over the images and channel blocks.
      ShapedType input = op.getInput().getType();
      bool parallel =
          input.isDynamicDim(0) || input.isDynamicDim(1) ||
          copiesInParallel(op, input.getDimSize(0) * input.getDimSize(1));
      Value copy = buildSubsampledCopy(b, op.getLoc(), op.getInput(),
                                       op.getStrides(), parallel);
      op.getInputMutable().assign(copy);
      op.setStrides({1, 1});
      b.setInsertionPointAfter(op);
      memref::DeallocOp::create(b, op.getLoc(), copy);
    });
  }
};

} // namespace
