//===- ReduceConvStrides.cpp - strided 1x1 convolutions at unit stride ----===//
//
// The pass `dl-reduce-conv-strides`: a blocked pointwise convolution (1x1
// filter, no padding) with strides reads one pixel in `stride_h * stride_w`.
// The pass gives it a dense copy of the pixels it reads (an affine copy nest
// into a buffer with its output's rows and columns) and sets its
// strides to 1, as oneDNN's "reduce to unit stride": the microkernels then
// read contiguous pixels, and the output-channel blocks re-read a copy a
// quarter of the input's size (at stride 2). On the dl op, before the
// ranking and dl-merge-conv-rows, so that both see the unit-stride
// convolution (whose short rows the latter then merges).
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
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
/// copy's when the convolution is lowered.
Value buildSubsampledCopy(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> strides) {
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

struct ReduceConvStridesPass
    : dl::impl::ReduceConvStridesBase<ReduceConvStridesPass> {
  void runOnOperation() override {
    getOperation().walk([&](Conv2DOp op) {
      if (!op.isBlocked() || !op.isUnpaddedPointwise() ||
          llvm::all_of(op.getStrides(), [](int64_t s) { return s == 1; }))
        return;
      OpBuilder b(op);
      Value copy =
          buildSubsampledCopy(b, op.getLoc(), op.getInput(), op.getStrides());
      op.getInputMutable().assign(copy);
      op.setStrides({1, 1});
      b.setInsertionPointAfter(op);
      memref::DeallocOp::create(b, op.getLoc(), copy);
    });
  }
};

} // namespace
