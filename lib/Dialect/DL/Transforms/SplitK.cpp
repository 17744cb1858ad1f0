//===- SplitK.cpp - a GEMM's K blocks divided among the threads -----------===//
//
// The pass `dl-split-k`: applies the `split_k` that dl-decide-parallelism
// records on a dl.matmul whose loops over M and N cannot keep the threads
// busy (a few rows and columns of C, a long K). The GEMM becomes an
// `affine.parallel` over t chunks of K's blocks, each a dl.matmul of its own
// on subviews at the chunk's offset, the first into C (with the GEMM's
// beta), every other into a scratch copy of C; the copies are then added to
// C, and the blocks the equal chunks leave over computed into it. The
// parts keep the GEMM's blocks and packing decisions and run on one thread
// each (`dl.sequential`): convert-dl-to-affine lowers them where they are.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "dl-split-k"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_SPLITK
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// `schedule` for a part of `kBlocks` K blocks: each tile of a loop over
/// `k` the largest divisor of the enclosing one (the part's blocks
/// outermost) up to the tile, so that the tiles still divide; no parallel
/// loop.
ScheduleAttr scheduleForPart(ScheduleAttr schedule, int64_t kBlocks) {
  if (!schedule)
    return nullptr;
  SmallVector<int64_t> tiles(schedule.getTiles());
  int64_t enclosing = kBlocks;
  for (auto [dim, tile] : llvm::zip(schedule.getDims(), tiles)) {
    if (dim.getValue() != "k" || tile == 0)
      continue;
    tile = largestDivisorAtMost(enclosing, tile);
    enclosing = tile;
  }
  return ScheduleAttr::get(schedule.getContext(), schedule.getDims(), tiles,
                           /*parallel=*/-1);
}

struct SplitKPattern : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> chunks = op.getSplitK();
    if (!chunks)
      return rewriter.notifyMatchFailure(op, "no split_k");
    if (op->getNumResults() != 0)
      return rewriter.notifyMatchFailure(op, "not in buffer form");
    // The verifier guarantees static sizes, pack_blocks without padding
    // and at least `chunks` K blocks.
    bool transposeA = op.getTransposeA(), transposeB = op.getTransposeB();
    auto cType = cast<MemRefType>(op.getC().getType());
    int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
    int64_t k = op.getA().getType().getDimSize(transposeA ? 0 : 1);
    int64_t bk = (*op.getPackBlocks())[2];
    int64_t kBlocks = k / bk, perChunk = kBlocks / *chunks,
            leftOver = kBlocks % *chunks;
    int64_t chunkK = perChunk * bk;
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    LLVM_DEBUG(llvm::dbgs()
               << "[" DEBUG_TYPE "] " << *chunks << " chunks of " << perChunk
               << " K blocks, " << leftOver << " left over: " << op << "\n");

    // A part of the GEMM over `blocks` K blocks into `c`, on one thread.
    auto part = [&](OpBuilder &b, Value a, Value bPart, Value c, int64_t blocks,
                    std::optional<float> beta) {
      auto clone = cast<MatmulOp>(b.clone(*op));
      clone->setOperands({a, bPart, c});
      clone.removeSplitKAttr();
      if (beta)
        clone.setBeta(APFloat(*beta));
      if (std::optional<int64_t> batch = op.getBatchBlocks())
        clone.setBatchBlocks(largestDivisorAtMost(blocks, *batch));
      if (ScheduleAttr schedule = scheduleForPart(op.getScheduleAttr(), blocks))
        clone.setScheduleAttr(schedule);
      clone->setAttr(DLDialect::getSequentialAttrName(), UnitAttr::get(ctx));
    };

    Type element = cType.getElementType();
    Value scratch = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({*chunks - 1, m, n}, element));
    auto scratchCopy = [&](OpBuilder &b, OpFoldResult index) {
      auto scratchType = cast<MemRefType>(scratch.getType());
      SmallVector<OpFoldResult> offsets = {index, b.getIndexAttr(0),
                                           b.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(m),
                                         b.getIndexAttr(n)};
      SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
      MemRefType type = memref::SubViewOp::inferRankReducedResultType(
          {m, n}, scratchType, offsets, sizes, strides);
      return memref::SubViewOp::create(b, loc, type, scratch, offsets, sizes,
                                       strides);
    };

    // The chunks, in parallel: chunk 0 into C, chunk t > 0 into copy t - 1.
    auto parallel = affine::AffineParallelOp::create(
        rewriter, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{},
        ArrayRef<int64_t>{*chunks});
    {
      OpBuilder b = parallel.getBodyBuilder();
      Value t = parallel.getIVs()[0];
      AffineExpr d0 = b.getAffineDimExpr(0);
      Value offset = affine::AffineApplyOp::create(
          b, loc, AffineMap::get(1, 0, d0 * chunkK), ValueRange{t});
      Value a = sliceGemmOperand(b, loc, op.getA(), b.getIndexAttr(0), m,
                                 offset, chunkK, transposeA);
      Value bChunk = sliceGemmOperand(b, loc, op.getB(), offset, chunkK,
                                      b.getIndexAttr(0), n, transposeB);
      auto first = affine::AffineIfOp::create(
          b, loc, TypeRange{}, IntegerSet::get(1, 0, {d0}, {true}),
          ValueRange{t}, /*withElseRegion=*/true);
      OpBuilder thenBuilder = first.getThenBodyBuilder();
      part(thenBuilder, a, bChunk, op.getC(), perChunk, std::nullopt);
      OpBuilder elseBuilder = first.getElseBodyBuilder();
      Value copyIndex = affine::AffineApplyOp::create(
          elseBuilder, loc, AffineMap::get(1, 0, d0 - 1), ValueRange{t});
      part(elseBuilder, a, bChunk, scratchCopy(elseBuilder, copyIndex),
           perChunk, 0.0f);
    }

    // The copies added to C, then the blocks left over, on one thread.
    for (int64_t copy = 0; copy + 1 < *chunks; ++copy) {
      auto add = AddOp::create(
          rewriter, loc, TypeRange{}, op.getC(),
          scratchCopy(rewriter, rewriter.getIndexAttr(copy)), op.getC());
      add->setAttr(DLDialect::getSequentialAttrName(), UnitAttr::get(ctx));
    }
    if (leftOver > 0) {
      OpFoldResult offset = rewriter.getIndexAttr(*chunks * chunkK);
      int64_t rest = leftOver * bk;
      Value a =
          sliceGemmOperand(rewriter, loc, op.getA(), rewriter.getIndexAttr(0),
                           m, offset, rest, transposeA);
      Value b = sliceGemmOperand(rewriter, loc, op.getB(), offset, rest,
                                 rewriter.getIndexAttr(0), n, transposeB);
      part(rewriter, a, b, op.getC(), leftOver, 1.0f);
    }
    memref::DeallocOp::create(rewriter, loc, scratch);
    rewriter.eraseOp(op);
    return success();
  }
};

struct SplitKPass : dl::impl::SplitKBase<SplitKPass> {
  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateSplitKPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void dl::populateSplitKPatterns(RewritePatternSet &patterns) {
  patterns.add<SplitKPattern>(patterns.getContext());
}
