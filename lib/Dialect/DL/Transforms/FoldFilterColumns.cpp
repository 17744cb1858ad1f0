//===- FoldFilterColumns.cpp - a few input channels times the filter width ===//
//
// The pass `dl-fold-filter-columns`: a blocked convolution with a few input
// channels (one channel block of under 4) gives each batch element of its
// microkernel calls (a filter tap) that many FMAs per vector, against a
// fixed cost per element. The pass folds the filter's columns into the
// channels: a copy of the input holds, for each output column, the S
// pixels its filter row covers (`in'[n][0][h][ow][s * c + ch] =
// in[n][0][h][ow * stride_w + s - pad_left][ch]`, zeros outside the image),
// the filter is viewed as one column of S * c channels (the same memory),
// and the convolution runs on them with unit column stride and no column
// padding: S times fewer batch elements of S times the depth. A rewrite of
// dl ops, before the ranking and the other layout passes, so that dl-opt
// shows the folded convolution and they see it.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/ParallelismModel.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IntegerSet.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_FOLDFILTERCOLUMNS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// The copy of the blocked `input` (N x 1 x H x W x c) whose row h holds, at
/// output column ow, the S pixels the filter's row covers:
/// copy[n][0][h][ow][s * c + ch] =
///   input[n][0][h][ow * stride + s * dilation - left][ch],
/// zero where that column is outside the image. An affine nest, innermost
/// over the copy's contiguous (s, ch), marked `dl.sequential` where a
/// parallel region would not pay.
Value buildFoldedInput(OpBuilder &b, Location loc, Value input, int64_t columns,
                       int64_t outColumns, int64_t stride, int64_t dilation,
                       int64_t left, bool parallel) {
  auto type = cast<MemRefType>(input.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t batch = shape[0], rows = shape[2], width = shape[3],
          channels = shape[4];
  auto copyType = MemRefType::get(
      {batch, 1, rows, outColumns, columns * channels}, type.getElementType());
  Value copy =
      memref::AllocOp::create(b, loc, copyType, b.getI64IntegerAttr(64));
  MLIRContext *ctx = b.getContext();
  AffineExpr n = getAffineDimExpr(0, ctx), h = getAffineDimExpr(1, ctx),
             ow = getAffineDimExpr(2, ctx), s = getAffineDimExpr(3, ctx),
             ch = getAffineDimExpr(4, ctx);
  AffineExpr column = ow * stride + s * dilation - left;
  // 0 <= column <= width - 1.
  IntegerSet inImage =
      IntegerSet::get(5, 0, {column, width - 1 - column}, {false, false});
  AffineMap source = AffineMap::get(
      5, 0, {n, getAffineConstantExpr(0, ctx), h, column, ch}, ctx);
  AffineMap target = AffineMap::get(
      5, 0, {n, getAffineConstantExpr(0, ctx), h, ow, s * channels + ch}, ctx);

  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> ivs;
  for (int64_t extent : {batch, rows, outColumns, columns, channels}) {
    auto loop = affine::AffineForOp::create(b, loc, 0, extent);
    if (ivs.empty() && !parallel)
      loop->setAttr(DLDialect::getSequentialAttrName(), b.getUnitAttr());
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  bool padded =
      left > 0 ||
      (outColumns - 1) * stride + (columns - 1) * dilation - left >= width;
  if (!padded) {
    Value x = affine::AffineLoadOp::create(b, loc, input, source, ivs);
    affine::AffineStoreOp::create(b, loc, x, copy, target, ivs);
    return copy;
  }
  auto branch = affine::AffineIfOp::create(b, loc, inImage, ivs,
                                           /*withElseRegion=*/true);
  b.setInsertionPointToStart(branch.getThenBlock());
  Value x = affine::AffineLoadOp::create(b, loc, input, source, ivs);
  affine::AffineStoreOp::create(b, loc, x, copy, target, ivs);
  b.setInsertionPointToStart(branch.getElseBlock());
  Value zero = arith::ConstantOp::create(b, loc, type.getElementType(),
                                         b.getZeroAttr(type.getElementType()));
  affine::AffineStoreOp::create(b, loc, zero, copy, target, ivs);
  return copy;
}

/// The blocked `filter` (K/k x 1 x R x S x c x k) as one filter column of
/// S * c channels (K/k x 1 x R x 1 x S*c x k): the same memory, whose
/// (s, ch) are consecutive already.
Value buildFoldedFilter(OpBuilder &b, Location loc, Value filter) {
  auto type = cast<MemRefType>(filter.getType());
  ArrayRef<int64_t> shape = type.getShape();
  Value joined = memref::CollapseShapeOp::create(
      b, loc, filter,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}, {5}});
  auto foldedType = MemRefType::get(
      {shape[0], shape[1], shape[2], 1, shape[3] * shape[4], shape[5]},
      type.getElementType());
  return memref::ExpandShapeOp::create(
      b, loc, foldedType, joined,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}, {5}});
}

struct FoldFilterColumnsPass
    : dl::impl::FoldFilterColumnsBase<FoldFilterColumnsPass> {
  using FoldFilterColumnsBase::FoldFilterColumnsBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    getOperation().walk([&](Conv2DOp op) {
      if (!op.isBlocked() || op.getSchedule() || op.getSkipPaddingColumns() ||
          op.getGroupLanes())
        return;
      auto input = cast<MemRefType>(op.getInput().getType());
      auto filter = cast<MemRefType>(op.getFilter().getType());
      auto output = cast<MemRefType>(op.getOutput().getType());
      if (!input.hasStaticShape() || !filter.hasStaticShape() ||
          !output.hasStaticShape() || !input.getLayout().isIdentity() ||
          !filter.getLayout().isIdentity())
        return;
      // The copy: per image and input row, S pixels per output column.
      int64_t copyBytes = input.getDimSize(0) * input.getDimSize(2) *
                          output.getDimSize(3) * filter.getDimSize(3) *
                          input.getDimSize(4) *
                          (input.getElementTypeBitWidth() / 8);
      if (!foldsFilterColumns(input.getDimSize(1), input.getDimSize(4),
                              filter.getDimSize(3), filter.getDimSize(5),
                              output.getDimSize(3), copyBytes,
                              getTarget(op).l2Bytes()))
        return;
      OpBuilder b(op);
      Location loc = op.getLoc();
      ArrayRef<int64_t> padding = op.getPadding();
      // The copy's outer loops run over the images and input rows.
      bool parallel =
          copiesInParallel(op, input.getDimSize(0) * input.getDimSize(2));
      Value copy = buildFoldedInput(b, loc, op.getInput(), filter.getDimSize(3),
                                    output.getDimSize(3), op.getStrides()[1],
                                    op.getDilations()[1], padding[1], parallel);
      Value folded = buildFoldedFilter(b, loc, op.getFilter());
      op.getInputMutable().assign(copy);
      op.getFilterMutable().assign(folded);
      op.setStrides({op.getStrides()[0], 1});
      op.setDilations({op.getDilations()[0], 1});
      op.setPadding({padding[0], 0, padding[2], 0});
      b.setInsertionPointAfter(op);
      memref::DeallocOp::create(b, loc, copy);
    });
  }
};

} // namespace
