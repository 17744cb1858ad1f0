//===- TileGemmBands.cpp - microkernel-sized tiles, default order ---------===//
//
// The pass `dl-tile-gemm-bands`: tiles each tagged GEMM band whose loops are
// longer than a microkernel may be, keeping the band's loop order (the
// "default loop order" of PolyDL's Microkernel baseline). Tile sizes divide
// the trip counts so that every tile is full and one statically sized kernel
// serves all of them; the schedule passes of later stages replace this
// default with modeled choices.
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
    for (AffineForOp band : bands) {
      SmallVector<AffineForOp> loops;
      affine::getPerfectlyNestedLoops(loops, band);
      if (loops.size() < 3)
        continue;
      loops.resize(3);
      SmallVector<unsigned> tileSizes;
      bool needed = false;
      for (AffineForOp loop : loops) {
        std::optional<uint64_t> tripCount = affine::getConstantTripCount(loop);
        if (!tripCount || loop.getStepAsInt() != 1) {
          tileSizes.clear();
          break;
        }
        int64_t tile = largestDivisorAtMost(*tripCount, maxBlock);
        needed |= tile != static_cast<int64_t>(*tripCount);
        tileSizes.push_back(tile);
      }
      if (tileSizes.empty() || !needed)
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
