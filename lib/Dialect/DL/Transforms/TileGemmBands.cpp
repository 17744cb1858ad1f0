//===- TileGemmBands.cpp - microkernel-sized tiles, default order ---------===//
//
// The pass `dl-tile-gemm-bands`: tiles each tagged GEMM band whose loops are
// longer than a microkernel may be, keeping the band's loop order (the
// "default loop order" of PolyDL's Microkernel baseline). Tile sizes divide
// the trip counts so that every tile is full and one statically sized kernel
// serves all of them; a trip count without a good divisor (a prime output
// width) is first split into whole tiles and a remainder. The schedule
// passes of later stages replace this default with modeled choices.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_TILEGEMMBANDS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// The trip count where a band loop of `tripCount` iterations is split in
/// two, when no divisor up to `maxBlock` reaches half of it (181 rows would
/// otherwise give microkernels of one row): whole tiles of `maxBlock`
/// before it, the remainder (a smaller full tile) after it.
std::optional<int64_t> splitPoint(int64_t tripCount, int64_t maxBlock) {
  if (hasGoodBlock(tripCount, maxBlock))
    return std::nullopt;
  return wholeBlocksExtent(tripCount, maxBlock);
}

/// Splits the iteration space of band loop `loops[index]` (constant bounds,
/// step 1) at `point`, returning the band of the second part. The whole
/// perfect nest the band ends is copied (its loops around the band are the
/// microkernel's batch and must stay around each part); the original runs
/// [lb, point) of the loop and the copy after it [point, ub). Legal for a
/// GEMM band: its loops over rows and columns of C write distinct elements
/// in distinct iterations, and a split of its reduction loop keeps each
/// part's order.
AffineForOp splitBand(MutableArrayRef<AffineForOp> loops, unsigned index,
                      int64_t point) {
  Operation *root = loops.front();
  unsigned depth = index;
  while (auto parent = dyn_cast<AffineForOp>(root->getParentOp())) {
    if (parent.getBody()->getOperations().size() != 2)
      break;
    root = parent;
    ++depth;
  }
  OpBuilder b(root);
  b.setInsertionPointAfter(root);
  auto copy = cast<AffineForOp>(b.clone(*root));
  SmallVector<AffineForOp> copied;
  affine::getPerfectlyNestedLoops(copied, copy);
  loops[index].setConstantUpperBound(point);
  copied[depth].setConstantLowerBound(point);
  return copied[depth - index];
}

struct TileGemmBandsPass : dl::impl::TileGemmBandsBase<TileGemmBandsPass> {
  using TileGemmBandsBase::TileGemmBandsBase;

  void runOnOperation() override {
    if (maxBlock < 1) {
      getOperation().emitError("dl-tile-gemm-bands: max-block must be >= 1");
      return signalPassFailure();
    }
    StringRef tag = DLDialect::getGemmBandAttrName();
    SmallVector<AffineForOp> bands;
    getOperation().walk([&](AffineForOp loop) {
      if (loop->hasAttr(tag))
        bands.push_back(loop);
    });
    // Split bands come back to the worklist until no loop needs a split.
    while (!bands.empty()) {
      AffineForOp band = bands.pop_back_val();
      SmallVector<AffineForOp> loops;
      affine::getPerfectlyNestedLoops(loops, band);
      if (loops.size() < 3)
        continue;
      loops.resize(3);
      SmallVector<unsigned> tileSizes;
      bool needed = false, split = false;
      for (auto [index, loop] : llvm::enumerate(loops)) {
        std::optional<uint64_t> tripCount = affine::getConstantTripCount(loop);
        if (!tripCount || loop.getStepAsInt() != 1 ||
            !loop.hasConstantBounds()) {
          tileSizes.clear();
          break;
        }
        if (std::optional<int64_t> point = splitPoint(*tripCount, maxBlock)) {
          bands.push_back(band);
          bands.push_back(
              splitBand(loops, index, loop.getConstantLowerBound() + *point));
          split = true;
          break;
        }
        int64_t tile = largestDivisorAtMost(*tripCount, maxBlock);
        needed |= tile != static_cast<int64_t>(*tripCount);
        tileSizes.push_back(tile);
      }
      if (split || tileSizes.empty() || !needed)
        continue;
      // The tiled nest is new: the mark of an op that runs on one thread
      // goes to its outermost loop.
      StringRef sequential = DLDialect::getSequentialAttrName();
      bool isSequential = loops.front()->hasAttr(sequential);
      SmallVector<AffineForOp> tiled;
      if (failed(affine::tilePerfectlyNested(loops, tileSizes, &tiled)))
        continue;
      for (AffineForOp loop : tiled)
        loop->removeAttr(tag);
      tiled[loops.size()]->setAttr(tag, UnitAttr::get(&getContext()));
      if (isSequential)
        tiled.front()->setAttr(sequential, UnitAttr::get(&getContext()));
    }
  }
};

} // namespace
