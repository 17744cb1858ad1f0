//===- LayoutLowering.cpp - data movement ops to affine nests -------------===//
//
// The lowering of dl.pack and dl.unpack: copies between a plain tensor and
// its blocked layout, in boxes of whole and partial channel blocks, the
// padding of a partial block zeroed (a grouped convolution's filter: its
// groups' weights on zeros); and of dl.concat: each input copied
// into its box of the output.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"
#include "NestBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// Index into the plain tensor for a nest over the blocked tensor's dims:
/// activations [n][cb][h][w][c] -> [n][cb*C + c][h][w];
/// filters [kb][cb][r][s][c][k] -> [kb*K + k][cb*C + c][r][s];
/// matrices [nb][kb][k][n] -> [kb*K + k][nb*N + n].
SmallVector<AffineExpr> plainFromBlocked(OpBuilder &b, MemRefType blocked,
                                         MemRefType plain) {
  auto d = [&](unsigned i) { return b.getAffineDimExpr(i); };
  if (plain.getRank() == 2)
    return {d(1) * blocked.getDimSize(2) + d(2),
            d(0) * blocked.getDimSize(3) + d(3)};
  AffineExpr channel = elementChannel(b, blocked);
  if (blocked.getRank() == 5)
    return {d(0), channel, d(2), d(3)};
  return {d(0) * blocked.getDimSize(5) + d(5), channel, d(2), d(3)};
}

/// A box of a buffer: per dimension, its first index and its extent.
struct Box {
  SmallVector<OpFoldResult> offsets, sizes;
  bool empty() const {
    return llvm::any_of(sizes, [](OpFoldResult size) {
      return getConstantIntValue(size) == 0;
    });
  }
};

/// Copies between the plain tensor and the blocked one, in either direction
/// (`toBlocked`: pack), by nests over the blocked tensor's dims. Their
/// innermost dim (the channel within a block) is contiguous there and one
/// plane apart in the plain tensor; the other order (contiguous in the
/// plain tensor) measured slower both ways (docs/heuristics.md, "Layout
/// copies"). A channel
/// count the block does not divide splits the nest in two along it: the
/// whole blocks, and the channels of the last block (a filter's two channel
/// dims give up to four nests, each with constant bounds when the sizes are
/// static); a pack then zeroes the last block's padding channels.
void lowerLayoutCopy(PatternRewriter &rewriter, Operation *op, Value plain,
                     Value blocked, bool toBlocked) {
  Location loc = op->getLoc();
  auto blockedType = cast<MemRefType>(blocked.getType());
  auto plainType = cast<MemRefType>(plain.getType());
  SmallVector<AffineExpr> plainIndex =
      plainFromBlocked(rewriter, blockedType, plainType);
  SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, blocked);
  SmallVector<OpFoldResult> origin(sizes.size(), rewriter.getIndexAttr(0));
  SmallVector<Box> copies = {{origin, sizes}}, padding;
  // (blocks dim, block dim, plain dim) of the channels a block may pad.
  SmallVector<std::array<unsigned, 3>, 2> channelDims;
  if (plainType.getRank() == 4) {
    channelDims.push_back({1, 4, 1});
    if (blockedType.getRank() == 6)
      channelDims.push_back({0, 5, 0});
  }
  AffineExpr s0 = rewriter.getAffineSymbolExpr(0),
             s1 = rewriter.getAffineSymbolExpr(1);
  auto apply = [&](AffineExpr expr, ArrayRef<OpFoldResult> operands) {
    return affine::makeComposedFoldedAffineApply(
        rewriter, loc, AffineMap::get(0, operands.size(), expr), operands);
  };
  for (auto [blocksDim, blockDim, plainDim] : channelDims) {
    OpFoldResult channels = getSize(rewriter, loc, plain, plainDim);
    int64_t block = blockedType.getDimSize(blockDim);
    OpFoldResult whole = apply(s0.floorDiv(block), {channels});
    OpFoldResult rest = apply(s0 % block, {channels});
    // The last block when it is partial: 0 or 1 blocks.
    OpFoldResult partial =
        apply(s1 - s0.floorDiv(block), {channels, sizes[blocksDim]});
    if (getConstantIntValue(partial) == 0)
      continue;
    SmallVector<Box> split;
    for (const Box &box : copies) {
      Box wholeBlocks = box, lastBlock = box;
      wholeBlocks.sizes[blocksDim] = whole;
      lastBlock.offsets[blocksDim] = whole;
      lastBlock.sizes[blocksDim] = partial;
      lastBlock.sizes[blockDim] = rest;
      split.append({wholeBlocks, lastBlock});
    }
    copies = std::move(split);
    Box zeros = {origin, sizes};
    zeros.offsets[blocksDim] = whole;
    zeros.sizes[blocksDim] = partial;
    zeros.offsets[blockDim] = rest;
    zeros.sizes[blockDim] = apply(block - s0, {rest});
    padding.push_back(zeros);
  }
  if (toBlocked) {
    Value zero = f32Constant(rewriter, loc, 0.0);
    for (const Box &box : padding)
      if (!box.empty())
        buildBoxFill(rewriter, loc, zero, blocked, box.offsets, box.sizes);
  }
  for (const Box &box : copies) {
    if (box.empty())
      continue;
    buildBoxNest(
        rewriter, loc, box.offsets, box.sizes,
        [&](OpBuilder &b, Location l, ValueRange operands, unsigned numDims,
            ArrayRef<AffineExpr> blockedIndex) {
          SmallVector<AffineExpr> index =
              llvm::map_to_vector(plainIndex, [&](AffineExpr expr) {
                return expr.replaceDims(blockedIndex);
              });
          if (toBlocked)
            storeAt(b, l, loadAt(b, l, plain, operands, numDims, index),
                    blocked, operands, numDims, blockedIndex);
          else
            storeAt(b, l,
                    loadAt(b, l, blocked, operands, numDims, blockedIndex),
                    plain, operands, numDims, index);
        });
  }
  rewriter.eraseOp(op);
}

/// The pack of a grouped convolution's filter (static sizes): zeros, then
/// each weight of the plain `K x C/G x R x S` filter stored at its place,
/// a nest over the plain filter. Output channel o = kb * kBlock + k of
/// group o / (K/G) reads input channel (o / (K/G)) * (C/G) + j; its block
/// kb reads the input channels from ((kb * kBlock) / (K/G)) * (C/G) on,
/// so the weight's channel there is that difference, in blocks cb of
/// cBlock channels c.
void lowerGroupedFilterPack(PatternRewriter &rewriter, PackOp op) {
  Location loc = op.getLoc();
  Value plain = op.getPlain(), blocked = op.getBlocked();
  ArrayRef<int64_t> blockedShape =
      cast<MemRefType>(blocked.getType()).getShape();
  ArrayRef<int64_t> plainShape = cast<MemRefType>(plain.getType()).getShape();
  int64_t outPerGroup = plainShape[0] / op.getGroups();
  int64_t inPerGroup = plainShape[1];
  int64_t cBlock = blockedShape[4], kBlock = blockedShape[5];
  SmallVector<OpFoldResult> origin(blockedShape.size(),
                                   rewriter.getIndexAttr(0));
  buildBoxFill(rewriter, loc, f32Constant(rewriter, loc, 0.0), blocked, origin,
               getSizes(rewriter, loc, blocked));
  buildNest(
      rewriter, loc, getSizes(rewriter, loc, plain),
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        AffineExpr o = b.getAffineDimExpr(0), j = b.getAffineDimExpr(1);
        AffineExpr kb = o.floorDiv(kBlock);
        AffineExpr channel = o.floorDiv(outPerGroup) * inPerGroup + j -
                             (kb * kBlock).floorDiv(outPerGroup) * inPerGroup;
        SmallVector<AffineExpr> index = {kb,
                                         channel.floorDiv(cBlock),
                                         b.getAffineDimExpr(2),
                                         b.getAffineDimExpr(3),
                                         channel % cBlock,
                                         o % kBlock};
        storeAt(b, l, loadAt(b, l, plain, ivs, identityIndex(b, ivs.size())),
                blocked, ivs, index);
      });
  rewriter.eraseOp(op);
}

struct PackLowering : OpRewritePattern<PackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PackOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getGroups() > 1) {
      lowerGroupedFilterPack(rewriter, op);
      return success();
    }
    lowerLayoutCopy(rewriter, op, op.getPlain(), op.getBlocked(),
                    /*toBlocked=*/true);
    return success();
  }
};

struct UnpackLowering : OpRewritePattern<UnpackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(UnpackOp op,
                                PatternRewriter &rewriter) const override {
    lowerLayoutCopy(rewriter, op, op.getPlain(), op.getBlocked(),
                    /*toBlocked=*/false);
    return success();
  }
};

/// Each input copied into its box of the output: at the sum of the sizes
/// before it along the axis.
struct ConcatLowering : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    Value output = op.getOutput();
    int64_t rank = cast<ShapedType>(output.getType()).getRank();
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (auto [position, input] : llvm::enumerate(op.getInputs())) {
      SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, input);
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[axis] = offset;
      buildBoxNest(rewriter, loc, offsets, sizes,
                   [&](OpBuilder &b, Location l, ValueRange operands,
                       unsigned numDims, ArrayRef<AffineExpr> index) {
                     // The input's element is the box's ivs.
                     Value element = loadAt(b, l, input, operands, numDims,
                                            identityIndex(b, numDims));
                     storeAt(b, l, element, output, operands, numDims, index);
                   });
      if (position + 1 == op.getInputs().size())
        break;
      AffineExpr s0, s1;
      bindSymbols(rewriter.getContext(), s0, s1);
      offset = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 + s1,
                                                     {offset, sizes[axis]});
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void dl::populateLayoutLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<PackLowering, UnpackLowering, ConcatLowering>(
      patterns.getContext());
}
