//===- VectorizeCopies.cpp - copy loops as vector loads and stores --------===//
//
// The pass `dl-vectorize-copies`: the innermost loops that copy elements
// along the last dimension of two buffers (an affine.load whose value an
// affine.store writes, the store moving one element per iteration, the load
// one or a few: a subsampling copy of a strided convolution) are rewritten
// to copy a vector of elements per iteration. A strided load reads the
// elements its vector spans contiguously and keeps every stride-th one (one
// shuffle); a constant trip count that is not a multiple of the vector
// ends with one masked vector. LLVM would leave these copies scalar: their
// constant trip counts (a 32-channel block) get fully unrolled, and the SLP
// vectorizer may not reorder the loads above stores it cannot prove
// independent; in an OpenMP region (whose outlined body receives every
// buffer through one struct) no pointer is known not to alias another.
// Here, the copy's order is kept and nothing has to be proven: each vector
// store writes what the vector load before it read.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_VECTORIZECOPIES
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using affine::AffineForOp;

namespace {

/// The largest stride of a load that is vectorized: a vector of `width`
/// elements then reads `kMaxLoadStride * width` contiguous ones, and each
/// element of its cache lines is used from a stride of 16 floats on at the
/// latest, which a copy along the loop touches anyway.
constexpr int64_t kMaxLoadStride = 4;

/// The elements `map` (over `operands`) moves along the last dimension of
/// `memref` per step of `iv`, when that is a positive constant, no other
/// index depends on `iv` and the last dimension has unit stride.
std::optional<int64_t> strideAlong(Value memref, AffineMap map,
                                   ValueRange operands, Value iv) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1)
    return std::nullopt;
  if (llvm::count(operands, iv) != 1)
    return std::nullopt;
  unsigned position = llvm::find(operands, iv) - operands.begin();
  if (position >= map.getNumDims())
    return std::nullopt;
  MLIRContext *ctx = map.getContext();
  for (AffineExpr result : map.getResults().drop_back())
    if (result.isFunctionOfDim(position))
      return std::nullopt;
  // The last index is stride * iv + (terms without iv).
  AffineExpr last = map.getResults().back();
  AffineExpr dim = getAffineDimExpr(position, ctx);
  AffineExpr rest = last.replace(dim, getAffineConstantExpr(0, ctx));
  auto stride = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
      last.replace(dim, getAffineConstantExpr(1, ctx)) - rest, map.getNumDims(),
      map.getNumSymbols()));
  if (!stride || stride.getValue() < 1 ||
      simplifyAffineExpr(last - rest - dim * stride.getValue(),
                         map.getNumDims(),
                         map.getNumSymbols()) != getAffineConstantExpr(0, ctx))
    return std::nullopt;
  return stride.getValue();
}

/// A copy loop: `store` writes, one element per iteration, what `load`
/// reads `loadStride` elements apart.
struct CopyLoop {
  AffineForOp loop;
  affine::AffineLoadOp load;
  affine::AffineStoreOp store;
  int64_t loadStride;
};

/// The indices `map` gives `operands`, as values.
SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ValueRange operands) {
  SmallVector<Value> indices;
  for (unsigned result = 0; result < map.getNumResults(); ++result)
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, map.getSubMap({result}), operands));
  return indices;
}

/// A mask of `width` lanes whose first `lanes` are set.
Value prefixMask(OpBuilder &b, Location loc, int64_t width, int64_t lanes) {
  return vector::ConstantMaskOp::create(b, loc,
                                        VectorType::get({width}, b.getI1Type()),
                                        b.getDenseI64ArrayAttr({lanes}));
}

/// Rewrites the body of `copy.loop` to copy `lanes` elements (at most
/// `width`) per iteration by vectors of `width`, and sets its step to
/// `width`.
void vectorizeBody(CopyLoop copy, int64_t width, int64_t lanes) {
  affine::AffineLoadOp load = copy.load;
  affine::AffineStoreOp store = copy.store;
  Location loc = load.getLoc();
  OpBuilder b(load);
  Type element = load.getType();
  auto vectorType = VectorType::get({width}, element);
  Value value;
  if (copy.loadStride == 1 && lanes == width) {
    value = affine::AffineVectorLoadOp::create(
        b, loc, vectorType, load.getMemRef(), load.getAffineMap(),
        load.getMapOperands());
  } else {
    // The elements from the first to the last one the lanes read; those
    // after it are masked off, so no read goes past the copied range.
    int64_t span = copy.loadStride * width;
    auto spanType = VectorType::get({span}, element);
    Value zeros = arith::ConstantOp::create(
        b, loc, spanType,
        DenseElementsAttr::get(spanType, b.getZeroAttr(element)));
    value = vector::MaskedLoadOp::create(
        b, loc, spanType, load.getMemRef(),
        applyMap(b, loc, load.getAffineMap(), load.getMapOperands()),
        prefixMask(b, loc, span, copy.loadStride * (lanes - 1) + 1), zeros);
    if (copy.loadStride > 1) {
      SmallVector<int64_t> every;
      for (int64_t lane = 0; lane < width; ++lane)
        every.push_back(lane * copy.loadStride);
      value = vector::ShuffleOp::create(b, loc, value, value,
                                        b.getDenseI64ArrayAttr(every));
    }
  }
  if (lanes == width)
    affine::AffineVectorStoreOp::create(b, store.getLoc(), value,
                                        store.getMemRef(), store.getAffineMap(),
                                        store.getMapOperands());
  else
    vector::MaskedStoreOp::create(
        b, store.getLoc(), store.getMemRef(),
        applyMap(b, store.getLoc(), store.getAffineMap(),
                 store.getMapOperands()),
        prefixMask(b, store.getLoc(), width, lanes), value);
  store.erase();
  load.erase();
  copy.loop.setStep(width);
}

/// `loop`, if it is a copy loop.
std::optional<CopyLoop> matchCopyLoop(AffineForOp loop) {
  if (loop.getStepAsInt() != 1 || loop.getNumIterOperands() != 0 ||
      !llvm::hasNItems(loop.getBody()->without_terminator(), 2))
    return std::nullopt;
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
    return std::nullopt;
  Value iv = loop.getInductionVar();
  std::optional<int64_t> loadStride = strideAlong(
      load.getMemRef(), load.getAffineMap(), load.getMapOperands(), iv);
  std::optional<int64_t> storeStride = strideAlong(
      store.getMemRef(), store.getAffineMap(), store.getMapOperands(), iv);
  if (!loadStride || *loadStride > kMaxLoadStride || storeStride != 1)
    return std::nullopt;
  return CopyLoop{loop, load, store, *loadStride};
}

/// A copy of `loop` after it that runs its iterations from `from` (a map of
/// its upper bound's operands) on; `loop` stops there.
AffineForOp splitRest(AffineForOp loop, AffineMap from) {
  SmallVector<Value> operands(loop.getUpperBoundOperands());
  OpBuilder b(loop->getBlock(), std::next(loop->getIterator()));
  auto rest = cast<AffineForOp>(b.clone(*loop));
  rest.setLowerBound(operands, from);
  loop.setUpperBound(operands, from);
  return rest;
}

/// Rewrites `loop` if it is a copy loop: its iterations in vectors of
/// `width` (of the power of two that holds them when they are fewer), a
/// constant trip count that is not a multiple of it ending in one masked
/// vector; of a number known at run time (from 0 to a single-result upper
/// bound `u`), the first `floor(u / width) * width` by vectors, then the
/// rest one by one, in a loop of its own.
void vectorizeCopy(AffineForOp loop, int64_t width) {
  std::optional<CopyLoop> copy = matchCopyLoop(loop);
  if (!copy)
    return;
  std::optional<uint64_t> trips = affine::getConstantTripCount(loop);
  if (!trips) {
    if (!loop.hasConstantLowerBound() || loop.getConstantLowerBound() != 0 ||
        loop.getUpperBoundMap().getNumResults() != 1)
      return;
    AffineMap upper = loop.getUpperBoundMap();
    splitRest(loop, AffineMap::get(upper.getNumDims(), upper.getNumSymbols(),
                                   upper.getResult(0).floorDiv(width) * width,
                                   loop.getContext()));
    vectorizeBody(*copy, width, width);
    return;
  }
  int64_t count = static_cast<int64_t>(*trips);
  if (count < 2)
    return;
  if (count < width)
    width = static_cast<int64_t>(llvm::PowerOf2Ceil(count));
  int64_t whole = count / width * width, rest = count - whole;
  if (whole > 0 && rest > 0) {
    // The masked vector is the last iteration of a loop of its own.
    if (!loop.hasConstantLowerBound())
      return;
    AffineMap upper = loop.getUpperBoundMap();
    AffineForOp restLoop = splitRest(
        loop, AffineMap::get(
                  upper.getNumDims(), upper.getNumSymbols(),
                  getAffineConstantExpr(loop.getConstantLowerBound() + whole,
                                        loop.getContext())));
    vectorizeBody(*matchCopyLoop(restLoop), width, rest);
  }
  vectorizeBody(*copy, width, whole > 0 ? width : rest);
}

struct VectorizeCopiesPass
    : dl::impl::VectorizeCopiesBase<VectorizeCopiesPass> {
  using VectorizeCopiesBase::VectorizeCopiesBase;

  void runOnOperation() override {
    if (width == 1 || width < 0) {
      getOperation().emitError("dl-vectorize-copies: width must be >= 2, or "
                               "0 for the target's vector width");
      return signalPassFailure();
    }
    int64_t elements =
        width ? width : dl::getTarget(getOperation()).vectorFloats();
    getOperation().walk(
        [&](AffineForOp loop) { vectorizeCopy(loop, elements); });
  }
};

} // namespace
