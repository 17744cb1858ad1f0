//===- FoldLayoutTransposes.cpp - transposes as views of layout copies ----===//
//
// The pass `dl-fold-layout-transposes`: a `linalg.transpose` into a local
// buffer that only a `dl.pack` reads, or out of a local buffer that only a
// `dl.unpack` writes, is folded into that layout copy, which then reads or
// writes a `memref.transpose` view of the other side. NHWC convolutions
// raised from linalg transpose their activations to NCHW and back around
// the plain convolution; once it runs blocked, these transposes are whole
// extra passes over the activations that the packing copy can do itself
// (it reads and writes any strided layout). Upstream MLIR folds transposes
// into other linalg ops, not into copies of another dialect, hence this
// pass.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_FOLDLAYOUTTRANSPOSES
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// `buffer` as a local allocation of identity layout in `block`, or null.
memref::AllocOp getLocalAlloc(Value buffer, Block *block) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != block ||
      !alloc.getType().getLayout().isIdentity())
    return nullptr;
  return alloc;
}

/// Whether every op strictly between `first` and `last` (same block, in
/// this order) leaves memory alone but for local allocations: it writes
/// (and, with `noReads`, reads) only buffers that a memref.alloc defines,
/// which cannot alias the transposed operand.
bool touchesOnlyLocalBuffers(Operation *first, Operation *last, bool noReads) {
  for (Operation *op = first->getNextNode(); op && op != last;
       op = op->getNextNode()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      bool relevant = isa<MemoryEffects::Write>(effect.getEffect()) ||
                      (noReads && isa<MemoryEffects::Read>(effect.getEffect()));
      if (!relevant)
        continue;
      Value value = effect.getValue();
      if (!value || !value.getDefiningOp<memref::AllocOp>())
        return false;
    }
  }
  return true;
}

/// The view of `buffer` whose dimension i is dimension permutation[i] of
/// `buffer` (linalg.transpose's permutation, on the result side).
Value transposedView(OpBuilder &b, Location loc, Value buffer,
                     ArrayRef<int64_t> permutation) {
  SmallVector<unsigned> dims(permutation.begin(), permutation.end());
  AffineMap map = AffineMap::getPermutationMap(dims, b.getContext());
  return memref::TransposeOp::create(b, loc, buffer, AffineMapAttr::get(map));
}

/// The users of a transposed buffer `alloc` other than the transpose `op`
/// and the deallocations (which go to `deallocs`).
SmallVector<Operation *> getCopyUsers(memref::AllocOp alloc, Operation *op,
                                      SmallVector<Operation *> &deallocs) {
  SmallVector<Operation *> users;
  for (Operation *user : alloc->getUsers()) {
    if (user == op)
      continue;
    if (isa<memref::DeallocOp>(user))
      deallocs.push_back(user);
    else
      users.push_back(user);
  }
  return users;
}

/// Erases the folded transpose `op`, its buffer and the buffer's
/// deallocations.
void eraseFolded(PatternRewriter &rewriter, Operation *op,
                 memref::AllocOp alloc, ArrayRef<Operation *> deallocs) {
  for (Operation *dealloc : deallocs)
    rewriter.eraseOp(dealloc);
  rewriter.eraseOp(op);
  rewriter.eraseOp(alloc);
}

/// linalg.transpose ins(%x) outs(%t) + dl.pack ins(%t): the packs read a
/// transposed view of %x.
struct FoldTransposeIntoPack : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "not on buffers");
    memref::AllocOp alloc = getLocalAlloc(op.getInit(), op->getBlock());
    if (!alloc)
      return rewriter.notifyMatchFailure(
          op, "the transposed buffer is not a local allocation");
    SmallVector<PackOp> packs;
    SmallVector<Operation *> deallocs;
    for (Operation *user : getCopyUsers(alloc, op, deallocs)) {
      auto pack = dyn_cast<PackOp>(user);
      if (!pack || pack.getSource() != alloc.getResult() ||
          pack->getBlock() != op->getBlock() || pack->isBeforeInBlock(op))
        return rewriter.notifyMatchFailure(
            op, "the transposed buffer has users other than later dl.packs");
      packs.push_back(pack);
    }
    if (packs.empty())
      return rewriter.notifyMatchFailure(op, "no dl.pack reads the result");
    for (PackOp pack : packs)
      if (!touchesOnlyLocalBuffers(op, pack, /*noReads=*/false))
        return rewriter.notifyMatchFailure(
            op, "the transposed operand may be written before a dl.pack");

    rewriter.setInsertionPoint(op);
    Value view = transposedView(rewriter, op.getLoc(), op.getInput(),
                                op.getPermutation());
    for (PackOp pack : packs)
      rewriter.modifyOpInPlace(pack,
                               [&] { pack.getSourceMutable().assign(view); });
    eraseFolded(rewriter, op, alloc, deallocs);
    return success();
  }
};

/// dl.unpack outs(%t) + linalg.transpose ins(%t) outs(%y): the unpack
/// writes a transposed view of %y.
struct FoldTransposeIntoUnpack : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "not on buffers");
    memref::AllocOp alloc = getLocalAlloc(op.getInput(), op->getBlock());
    if (!alloc)
      return rewriter.notifyMatchFailure(
          op, "the transposed buffer is not a local allocation");
    UnpackOp unpack;
    SmallVector<Operation *> deallocs;
    for (Operation *user : getCopyUsers(alloc, op, deallocs)) {
      auto candidate = dyn_cast<UnpackOp>(user);
      if (!candidate || unpack || candidate.getDest() != alloc.getResult() ||
          candidate->getBlock() != op->getBlock() ||
          !candidate->isBeforeInBlock(op))
        return rewriter.notifyMatchFailure(
            op, "the transposed buffer has users other than one earlier "
                "dl.unpack");
      unpack = candidate;
    }
    if (!unpack)
      return rewriter.notifyMatchFailure(op, "no dl.unpack writes the input");
    Value dest = op.getInit();
    if (Operation *def = dest.getDefiningOp())
      if (def->getBlock() == op->getBlock() && !def->isBeforeInBlock(unpack))
        return rewriter.notifyMatchFailure(
            op, "the destination is defined after the dl.unpack");
    if (!touchesOnlyLocalBuffers(unpack, op, /*noReads=*/true))
      return rewriter.notifyMatchFailure(
          op, "the destination may be accessed between the dl.unpack and "
              "the transpose");

    rewriter.setInsertionPoint(unpack);
    Value view = transposedView(rewriter, op.getLoc(), dest,
                                invertPermutationVector(op.getPermutation()));
    rewriter.modifyOpInPlace(unpack,
                             [&] { unpack.getDestMutable().assign(view); });
    eraseFolded(rewriter, op, alloc, deallocs);
    return success();
  }
};

struct FoldLayoutTransposesPass
    : dl::impl::FoldLayoutTransposesBase<FoldLayoutTransposesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFoldLayoutTransposesPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void dl::populateFoldLayoutTransposesPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldTransposeIntoPack, FoldTransposeIntoUnpack>(
      patterns.getContext());
}
