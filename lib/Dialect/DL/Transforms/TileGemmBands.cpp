//===- TileGemmBands.cpp - microkernel-sized tiles, default order ---------===//
//
// The pass `dl-tile-gemm-bands`: tiles each tagged GEMM band whose loops are
// longer than a microkernel may be, keeping the band's loop order (the
// "default loop order" of PolyDL's Microkernel baseline), except that the
// tile loops over C go outside the loops that only reduce into it (filter
// taps, channel blocks), which then stay the microkernel's batch-reduce, and
// the zero fill of C is split per tile so each call may skip reading C.
// Tile sizes divide the trip counts so that every tile is full and one
// statically sized kernel serves all of them; a trip count without a good
// divisor (a prime output width) is first split into whole tiles and a
// remainder. The schedule passes of later stages replace this default with
// modeled choices.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/IR/IRMapping.h"

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

/// The outermost loop of the perfect nest that ends in the band starting at
/// `bandLoop`, and the depth of `bandLoop` in it.
std::pair<AffineForOp, unsigned> nestRoot(AffineForOp bandLoop) {
  AffineForOp root = bandLoop;
  unsigned depth = 0;
  while (auto parent = dyn_cast<AffineForOp>(root->getParentOp())) {
    if (parent.getBody()->getOperations().size() != 2)
      break;
    root = parent;
    ++depth;
  }
  return {root, depth};
}

/// The store in the body of `innermost`: C's in a band (C += A * B), the
/// filled buffer's in a fill.
affine::AffineStoreOp innermostStore(AffineForOp innermost) {
  affine::AffineStoreOp store;
  innermost.walk([&](affine::AffineStoreOp op) { store = op; });
  return store;
}

/// Whether one of `store`'s indices depends on `value` (its map may have
/// operands that no result uses).
bool indexesWith(affine::AffineStoreOp store, Value value) {
  AffineMap map = store.getAffineMap();
  for (auto [position, operand] : llvm::enumerate(store.getMapOperands())) {
    if (operand != value)
      continue;
    unsigned numDims = map.getNumDims();
    if (position < numDims ? map.isFunctionOfDim(position)
                           : map.isFunctionOfSymbol(position - numDims))
      return true;
  }
  return false;
}

/// The value `store` indexes its memref with at result `expr` of its map
/// (a dimension or symbol), or null.
Value indexOperand(affine::AffineStoreOp store, AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return store.getMapOperands()[dim.getPosition()];
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return store.getMapOperands()[store.getAffineMap().getNumDims() +
                                  symbol.getPosition()];
  return {};
}

/// The fill that initializes exactly the part of C a band writes, right
/// before the band's perfect nest: a perfect nest storing one value defined
/// outside it, whose loops run over the same ranges of C's indices as the
/// band's loops over C. Such a fill lets a microkernel call computing a
/// whole block of C skip reading it (beta = 0, dl-outline-microkernels).
/// When the band is tiled or split, its fill is split the same way, so that
/// each part keeps a fill of its own.
struct BandFill {
  AffineForOp root;
  /// Per band loop, the fill's loop over the same index of C (null for the
  /// reduction loop).
  SmallVector<AffineForOp> ofBandLoop;
};

/// Whether index `i` of `fill`'s and of `store`'s memref is the same value
/// computed from the same values, all of them `isOutside` (a merged
/// convolution's row `2 * oh + r` in a fill and a band).
bool isSameOuterIndex(affine::AffineStoreOp fill, affine::AffineStoreOp store,
                      unsigned i, function_ref<bool(Value)> isOutside) {
  affine::AffineValueMap fillIndex(fill.getAffineMap().getSubMap({i}),
                                   fill.getMapOperands());
  affine::AffineValueMap index(store.getAffineMap().getSubMap({i}),
                               store.getMapOperands());
  auto usesOutsideOnly = [&](const affine::AffineValueMap &map) {
    return llvm::all_of(map.getOperands(), [&](Value value) {
      return !map.isFunctionOf(0, value) || isOutside(value);
    });
  };
  affine::AffineValueMap difference;
  affine::AffineValueMap::difference(fillIndex, index, &difference);
  auto zero = dyn_cast<AffineConstantExpr>(difference.getResult(0));
  return zero && zero.getValue() == 0 && usesOutsideOnly(fillIndex) &&
         usesOutsideOnly(index);
}

bool haveSameConstantRange(AffineForOp a, AffineForOp b) {
  return a.hasConstantBounds() && b.hasConstantBounds() &&
         a.getStepAsInt() == 1 && b.getStepAsInt() == 1 &&
         a.getConstantLowerBound() == b.getConstantLowerBound() &&
         a.getConstantUpperBound() == b.getConstantUpperBound();
}

std::optional<BandFill> matchBandFill(ArrayRef<AffineForOp> band) {
  AffineForOp root = nestRoot(band.front()).first;
  auto fill = dyn_cast_or_null<AffineForOp>(root->getPrevNode());
  affine::AffineStoreOp store = innermostStore(band.back());
  if (!fill || !store)
    return std::nullopt;
  SmallVector<AffineForOp> fillLoops;
  affine::getPerfectlyNestedLoops(fillLoops, fill);
  Block *body = fillLoops.back().getBody();
  auto fillStore = dyn_cast<affine::AffineStoreOp>(body->front());
  if (!fillStore || body->getOperations().size() != 2 ||
      fillStore.getMemRef() != store.getMemRef() ||
      fill->isAncestor(fillStore.getValue().getParentRegion()->getParentOp()))
    return std::nullopt;
  AffineMap fillMap = fillStore.getAffineMap(), map = store.getAffineMap();
  BandFill result{fill, SmallVector<AffineForOp>(band.size())};
  unsigned matched = 0;
  // Values an index of C computed from outside both nests may use.
  auto isOutside = [&](Value value) {
    Operation *owner = value.getParentBlock()->getParentOp();
    return !fill->isAncestor(owner) && !root->isAncestor(owner);
  };
  for (auto [i, exprs] : llvm::enumerate(
           llvm::zip_equal(fillMap.getResults(), map.getResults()))) {
    auto [fillExpr, expr] = exprs;
    if (isa<AffineConstantExpr>(fillExpr) && fillExpr == expr)
      continue;
    Value fillIndex = indexOperand(fillStore, fillExpr);
    Value index = indexOperand(store, expr);
    if (!fillIndex || !index) {
      // A compound index, the same in both from the same outer values.
      if (!isSameOuterIndex(fillStore, store, i, isOutside))
        return std::nullopt;
      continue;
    }
    const auto *fillLoop = llvm::find_if(fillLoops, [&](AffineForOp loop) {
      return loop.getInductionVar() == fillIndex;
    });
    if (fillLoop == fillLoops.end()) {
      if (fillIndex != index)
        return std::nullopt;
      continue;
    }
    const auto *bandLoop = llvm::find_if(band, [&](AffineForOp loop) {
      return loop.getInductionVar() == index;
    });
    if (bandLoop == band.end() || result.ofBandLoop[bandLoop - band.begin()] ||
        !haveSameConstantRange(*fillLoop, *bandLoop))
      return std::nullopt;
    result.ofBandLoop[bandLoop - band.begin()] = *fillLoop;
    ++matched;
  }
  if (matched != fillLoops.size())
    return std::nullopt;
  return result;
}

/// Makes the fill's loop `fillLoop` run [0, trips) and its store's index
/// what the loop's iv was plus `offset` (a tile loop's iv, or the constant
/// `constantOffset` without one): the fill of one tile or split part, its
/// loops from 0 as dl-outline-microkernels matches them.
void restrictFillLoop(AffineForOp fillLoop, int64_t trips, Value offset,
                      int64_t constantOffset) {
  affine::AffineStoreOp store = innermostStore(fillLoop);
  MLIRContext *ctx = fillLoop.getContext();
  AffineMap map = store.getAffineMap();
  SmallVector<Value> operands(store.getMapOperands());
  unsigned numDims = map.getNumDims();
  AffineExpr shift = getAffineConstantExpr(constantOffset, ctx);
  if (offset) {
    operands.insert(operands.begin() + numDims, offset);
    shift = getAffineDimExpr(numDims, ctx);
  }
  SmallVector<AffineExpr> dims, symbols;
  for (unsigned d = 0; d < numDims; ++d) {
    AffineExpr dim = getAffineDimExpr(d, ctx);
    dims.push_back(operands[d] == fillLoop.getInductionVar() ? dim + shift
                                                             : dim);
  }
  for (unsigned i = 0; i < map.getNumSymbols(); ++i)
    symbols.push_back(getAffineSymbolExpr(i, ctx));
  AffineMap shifted = map.replaceDimsAndSymbols(
      dims, symbols, numDims + (offset ? 1 : 0), map.getNumSymbols());
  OpBuilder b(store);
  affine::AffineStoreOp::create(b, store.getLoc(), store.getValueToStore(),
                                store.getMemRef(), shifted, operands);
  store.erase();
  fillLoop.setConstantLowerBound(0);
  fillLoop.setConstantUpperBound(trips);
}

/// Splits the iteration space of band loop `loops[index]` (constant bounds,
/// step 1) at `point`, returning the band of the second part. The whole
/// perfect nest the band ends is copied (its loops around the band are the
/// microkernel's batch and must stay around each part); the original runs
/// [lb, point) of the loop and the copy after it [point, ub). A split of a
/// loop over C splits the band's fill too. Legal for a GEMM band: its loops
/// over rows and columns of C write distinct elements in distinct
/// iterations, and a split of its reduction loop keeps each part's order.
AffineForOp splitBand(MutableArrayRef<AffineForOp> loops, unsigned index,
                      int64_t point, const std::optional<BandFill> &fill) {
  auto [root, depth] = nestRoot(loops.front());
  depth += index;
  OpBuilder b(root);
  b.setInsertionPointAfter(root);
  auto copy = cast<AffineForOp>(b.clone(*root));
  SmallVector<AffineForOp> copied;
  affine::getPerfectlyNestedLoops(copied, copy);
  loops[index].setConstantUpperBound(point);
  copied[depth].setConstantLowerBound(point);
  if (fill && fill->ofBandLoop[index]) {
    b.setInsertionPoint(copy);
    IRMapping mapping;
    b.clone(*fill->root, mapping);
    AffineForOp fillLoop = fill->ofBandLoop[index];
    int64_t upper = fillLoop.getConstantUpperBound();
    fillLoop.setConstantUpperBound(point);
    restrictFillLoop(cast<AffineForOp>(mapping.lookup(fillLoop.getOperation())),
                     upper - point, Value(), point);
  }
  return copied[depth - index];
}

/// Orders the loops of a tiled band so that its tile loops over C's rows and
/// columns come first: above the perfectly nested loops around the band that
/// do not index C (a convolution's input-channel blocks and filter taps),
/// and above the tile loop of the reduction. The loops around then enclose
/// the band's remaining loops directly and become the microkernel's
/// batch-reduce (dl-outline-microkernels): a tile of C stays in registers
/// over its whole reduction instead of being loaded and stored once per tap.
/// The band's fill moves into the tile loops over C, restricted to the
/// tile, so that each call sees its block of C freshly filled. Legal:
/// different iterations of a tile loop over C write distinct elements, and
/// each element's reduction keeps its order. `tiled` is the perfect nest of
/// tile loops then intra-tile loops that tiling returned, of `tileSizes`
/// (whole tiles). A GEMM's bound on its calls' batch (`maxBatch`, its
/// batch_blocks) limits the loops around taken into the batch to the
/// innermost ones whose iterations stay within it: the others stay outside
/// the tile loops over C, which then walk the columns of one K block after
/// another (B's rows in memory order) instead of each walking down all of K,
/// and the fill stays before them. Returns the outermost loop of the
/// reordered nest.
AffineForOp orderOutputTilesFirst(ArrayRef<AffineForOp> tiled,
                                  ArrayRef<unsigned> tileSizes,
                                  const std::optional<BandFill> &fill,
                                  std::optional<int64_t> maxBatch) {
  unsigned bandSize = tiled.size() / 2;
  affine::AffineStoreOp store = innermostStore(tiled.back());
  if (!store)
    return tiled.front();
  auto indexesC = [&](AffineForOp loop) {
    return indexesWith(store, loop.getInductionVar());
  };
  // The loops around the band that are not C's: perfectly nested, without
  // a mark of another pass (dl.*), and not indexing C.
  auto isMarked = [](Operation *op) {
    return llvm::any_of(op->getAttrs(), [](NamedAttribute attr) {
      return attr.getName().strref().starts_with("dl.");
    });
  };
  SmallVector<AffineForOp> around;
  bool bounded = false;
  int64_t batch = 1;
  for (auto parent = dyn_cast<AffineForOp>(tiled.front()->getParentOp());
       parent && parent.getBody()->getOperations().size() == 2 &&
       !isMarked(parent) && !indexesC(parent);
       parent = dyn_cast<AffineForOp>(parent->getParentOp())) {
    std::optional<uint64_t> trips = affine::getConstantTripCount(parent);
    if (maxBatch &&
        (!trips || batch * static_cast<int64_t>(*trips) > *maxBatch)) {
      bounded = true;
      break;
    }
    batch *= trips.value_or(1);
    around.insert(around.begin(), parent);
  }
  SmallVector<unsigned> outputTiles, reductionTiles;
  for (unsigned i = 0; i < bandSize; ++i)
    (indexesC(tiled[bandSize + i]) ? outputTiles : reductionTiles).push_back(i);
  if (outputTiles.empty())
    return around.empty() ? tiled.front() : around.front();
  // New order: C's tile loops, the loops around, the reduction's tile loops.
  SmallVector<AffineForOp> nest(around);
  nest.append(tiled.begin(), tiled.begin() + bandSize);
  SmallVector<unsigned> permutation(nest.size());
  unsigned position = 0;
  for (unsigned i : outputTiles)
    permutation[around.size() + i] = position++;
  for (unsigned i = 0; i < around.size(); ++i)
    permutation[i] = position++;
  for (unsigned i : reductionTiles)
    permutation[around.size() + i] = position++;
  affine::permuteLoops(nest, permutation);

  if (fill && !bounded) {
    AffineForOp innermostTile = tiled[outputTiles.back()];
    fill->root->moveBefore(&innermostTile.getBody()->front());
    for (unsigned i : outputTiles)
      if (AffineForOp fillLoop = fill->ofBandLoop[i])
        restrictFillLoop(fillLoop, tileSizes[i],
                         AffineForOp(tiled[i]).getInductionVar(), 0);
  }
  // A reduction tile loop of one iteration (a reduction no longer than its
  // tile) would stand between the band and the loops around it, which
  // dl-outline-microkernels then could not take as the call's batch.
  for (unsigned i : reductionTiles)
    (void)affine::promoteIfSingleIteration(tiled[i]);
  return tiled[outputTiles.front()];
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
          bands.push_back(splitBand(loops, index,
                                    loop.getConstantLowerBound() + *point,
                                    matchBandFill(loops)));
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
      std::optional<BandFill> fill = matchBandFill(loops);
      std::optional<int64_t> maxBatch;
      if (auto bound = loops.front()->getAttrOfType<IntegerAttr>(
              DLDialect::getMaxBatchAttrName()))
        maxBatch = bound.getInt();
      SmallVector<AffineForOp> tiled;
      if (failed(affine::tilePerfectlyNested(loops, tileSizes, &tiled)))
        continue;
      for (AffineForOp loop : tiled)
        loop->removeAttr(tag);
      tiled[loops.size()]->setAttr(tag, UnitAttr::get(&getContext()));
      AffineForOp outermost =
          orderOutputTilesFirst(tiled, tileSizes, fill, maxBatch);
      if (isSequential)
        outermost->setAttr(sequential, UnitAttr::get(&getContext()));
    }
    // The bound is for this pass only.
    getOperation().walk([](AffineForOp loop) {
      loop->removeAttr(DLDialect::getMaxBatchAttrName());
    });
  }
};

} // namespace
