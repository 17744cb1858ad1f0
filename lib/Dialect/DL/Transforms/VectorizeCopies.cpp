//===- VectorizeCopies.cpp - copy loops as vector loads and stores --------===//
//
// The pass `dl-vectorize-copies`: the innermost loops that copy contiguous
// elements (an affine.load whose value an affine.store writes, both moving
// along their last dimension with the loop) are rewritten to copy `width`
// elements per iteration with affine.vector_load / affine.vector_store.
// LLVM would leave them scalar: their constant trip counts (a 32-channel
// block) get fully unrolled, and the SLP vectorizer may not reorder the
// loads above stores it cannot prove independent; in an OpenMP region
// (whose outlined body receives every buffer through one struct) no
// pointer is known not to alias another. Here, the copy's order is kept
// and nothing has to be proven: each vector store writes what the vector
// load before it read.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_VECTORIZECOPIES
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using affine::AffineForOp;

namespace {

/// True if `map` (over `operands`) moves along the last dimension of
/// `memref` with `iv`, one element per step, and no other index depends on
/// `iv`; the last dimension must have unit stride.
bool isContiguousAlong(Value memref, AffineMap map, ValueRange operands,
                       Value iv) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1)
    return false;
  if (llvm::count(operands, iv) != 1)
    return false;
  unsigned position = llvm::find(operands, iv) - operands.begin();
  if (position >= map.getNumDims())
    return false;
  for (auto [index, result] : llvm::enumerate(map.getResults())) {
    bool last = index + 1 == map.getNumResults();
    if (!last) {
      if (result.isFunctionOfDim(position))
        return false;
      continue;
    }
    // The last index is iv + (terms without iv).
    AffineExpr rest = simplifyAffineExpr(
        result - getAffineDimExpr(position, map.getContext()), map.getNumDims(),
        map.getNumSymbols());
    if (rest.isFunctionOfDim(position))
      return false;
  }
  return true;
}

/// Rewrites the body of `loop`, a copy (`load`, then `store` of its value),
/// to copy `width` elements per iteration.
void vectorizeBody(AffineForOp loop, affine::AffineLoadOp load,
                   affine::AffineStoreOp store, int64_t width) {
  OpBuilder b(load);
  auto vectorType = VectorType::get({width}, load.getType());
  auto vectorLoad = affine::AffineVectorLoadOp::create(
      b, load.getLoc(), vectorType, load.getMemRef(), load.getAffineMap(),
      load.getMapOperands());
  affine::AffineVectorStoreOp::create(b, store.getLoc(), vectorLoad,
                                      store.getMemRef(), store.getAffineMap(),
                                      store.getMapOperands());
  store.erase();
  load.erase();
  loop.setStep(width);
}

/// Rewrites `loop` if it is such a copy: of a multiple of `width` elements,
/// or of a number known at run time (from 0 to a single-result upper bound
/// `u`: the copy of the first `floor(u / width) * width` elements by
/// vectors, then of the rest one by one, in a loop of its own).
void vectorizeCopy(AffineForOp loop, int64_t width) {
  std::optional<uint64_t> trips = affine::getConstantTripCount(loop);
  bool runtimeTrips = !trips && loop.hasConstantLowerBound() &&
                      loop.getConstantLowerBound() == 0 &&
                      loop.getUpperBoundMap().getNumResults() == 1;
  if ((!runtimeTrips && (!trips || *trips == 0 || *trips % width != 0)) ||
      loop.getStepAsInt() != 1 || loop.getNumIterOperands() != 0 ||
      !llvm::hasNItems(loop.getBody()->without_terminator(), 2))
    return;
  auto load = dyn_cast<affine::AffineLoadOp>(loop.getBody()->front());
  auto store =
      dyn_cast<affine::AffineStoreOp>(*std::next(loop.getBody()->begin()));
  // Within one buffer, a vector store could overwrite elements that later
  // scalar iterations would have read first (a shift by one). Distinct
  // memrefs are taken not to overlap, as MLIR's affine dependence analysis
  // does.
  if (!load || !store || store.getValueToStore() != load.getResult() ||
      !load.getResult().hasOneUse() || load.getMemRef() == store.getMemRef() ||
      !VectorType::isValidElementType(load.getType()))
    return;
  Value iv = loop.getInductionVar();
  if (!isContiguousAlong(load.getMemRef(), load.getAffineMap(),
                         load.getMapOperands(), iv) ||
      !isContiguousAlong(store.getMemRef(), store.getAffineMap(),
                         store.getMapOperands(), iv))
    return;
  if (runtimeTrips) {
    AffineMap upper = loop.getUpperBoundMap();
    AffineMap whole = AffineMap::get(upper.getNumDims(), upper.getNumSymbols(),
                                     upper.getResult(0).floorDiv(width) * width,
                                     loop.getContext());
    SmallVector<Value> operands(loop.getUpperBoundOperands());
    OpBuilder b(loop->getBlock(), std::next(loop->getIterator()));
    auto rest = cast<AffineForOp>(b.clone(*loop));
    rest.setLowerBound(operands, whole);
    loop.setUpperBound(operands, whole);
  }
  vectorizeBody(loop, load, store, width);
}

struct VectorizeCopiesPass
    : dl::impl::VectorizeCopiesBase<VectorizeCopiesPass> {
  using VectorizeCopiesBase::VectorizeCopiesBase;

  void runOnOperation() override {
    if (width < 2) {
      getOperation().emitError("dl-vectorize-copies: width must be >= 2");
      return signalPassFailure();
    }
    getOperation().walk([&](AffineForOp loop) { vectorizeCopy(loop, width); });
  }
};

} // namespace
