//===- OutlineMicrokernels.cpp - GEMM bands to microkernel calls ----------===//
//
// The pass `dl-outline-microkernels`: a tagged band C[m][n] += A[m][k] *
// B[k][n], plus the loops right around it that move only A and B (its
// batch-reduce), becomes a dl.gemm_dispatch (hoistable) and, under
// `scf.if kernel != 0`, a dl.gemm_invoke; the loops stay in the else branch
// for the shapes the runtime has no kernel for. Which operand is A, B or C
// and the kernel's sizes, leading dimensions and batch strides are read off
// the linearized affine accesses, so any loop order and any row-major
// layout of the band is recognized, and nothing is trusted from the tag
// alone; a leading dimension that is a dynamic stride is read at run time,
// and a trip count that is a dynamic size is bounded by the guards around
// the band (the small version of a GEMM of dynamic sizes, in place). One
// batch loop may have bounds that vary with the loops outside the call (a
// convolution's filter rows that skip its padding rows): each
// call starts at its lower bound and takes the blocks of its iterations,
// which lead the offset tables. A B whose rows overlap (closer than their
// length) runs as a batch of one-row kernels. Where splitting C's columns in
// halves makes LIBXSMM's register passes re-read fewer B blocks (short rows of
// C, an A that stays in the L1), each call computes half the columns.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/CacheModel.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_OUTLINEMICROKERNELS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// Largest batch given by a table of offsets; longer batches keep only
/// their innermost loop (strided) in the kernel.
constexpr int64_t kMaxOffsetTable = 1 << 16;

/// Register passes of LIBXSMM 1.17's AVX-512 kernel over `rows` rows of C
/// with `vectors` vector registers per row: it blocks the rows so that the
/// accumulators, one register per vector of B's row and one for A's
/// broadcast fit the 32 registers, in equal passes, except that exactly 7
/// rows are one pass. Each pass runs the whole batch: it re-reads all of
/// the call's B blocks.
static int64_t registerPasses(int64_t rows, int64_t vectors) {
  if (rows == 7)
    return 1;
  int64_t rowsPerPass = std::max<int64_t>(1, (32 - 1 - vectors) / vectors);
  return llvm::divideCeil(rows, rowsPerPass);
}

/// The columns of C one call computes: `n`, or `n / 2` when the kernel's
/// register passes re-read B from the L2 (B's blocks and A's do not fit the
/// L1 together) and two halves of at most 2 passes each re-read less of it
/// while A stays in the L1 for the second half. Only for AVX-512 kernels
/// with a row of 4 vectors (the widest LIBXSMM keeps in registers), split
/// into rows of 2. Not split: B in the L1 with A, rows of 4 passes per half
/// or more, rows of one pass either way (docs/heuristics.md, "Half rows of
/// C").
static int64_t columnsPerCall(int64_t m, int64_t n, int64_t k, int64_t batch,
                              int64_t vectorBits, int64_t l1Bytes) {
  if (vectorBits != 512 || n != microkernelColumns(vectorBits))
    return n;
  int64_t aBytes = m * k * batch * int64_t(sizeof(float));
  int64_t bBytes = k * n * batch * int64_t(sizeof(float));
  if (aBytes > l1Bytes || aBytes + bBytes <= l1Bytes)
    return n;
  int64_t halfPasses = registerPasses(m, 2);
  bool fewerReads =
      2 * halfPasses * (bBytes / 2) < registerPasses(m, 4) * bBytes;
  return halfPasses <= 2 && fewerReads ? n / 2 : n;
}

/// An affine access of the band rewritten over one dimension space: d0..d2
/// are the offsets of the three band loops from their lower bounds, the
/// following dims are "leaf" values (ivs of the batch loops, and values
/// defined outside the outlined loops).
struct Access {
  Value memref;
  SmallVector<AffineExpr> index;          // One expression per memref dim.
  SmallVector<SmallVector<int64_t>> flat; // Flattened index expressions.
  SmallVector<int64_t> strides;           // Memref strides (may be dynamic).

  /// Coefficient of dimension `dim` in the linearized (element) offset, or
  /// nullopt when it multiplies a dynamic stride.
  std::optional<int64_t> coefficient(unsigned dim) const {
    int64_t sum = 0;
    for (auto [row, stride] : llvm::zip(flat, strides)) {
      if (row[dim] == 0)
        continue;
      if (ShapedType::isDynamic(stride))
        return std::nullopt;
      sum += row[dim] * stride;
    }
    return sum;
  }

  /// coefficient(dim) built as a value before `b`'s insertion point, the
  /// dynamic strides read from the memref.
  Value coefficientValue(OpBuilder &b, Location loc, unsigned dim) const {
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    AffineExpr sum = getAffineConstantExpr(0, b.getContext());
    SmallVector<OpFoldResult> strideValues;
    for (auto [row, stride, value] :
         llvm::zip(flat, strides, metadata.getStrides())) {
      if (row[dim] == 0)
        continue;
      sum = sum +
            getAffineSymbolExpr(strideValues.size(), b.getContext()) * row[dim];
      strideValues.push_back(ShapedType::isDynamic(stride)
                                 ? OpFoldResult(value)
                                 : OpFoldResult(b.getIndexAttr(stride)));
    }
    return getValueOrCreateConstantIndexOp(
        b, loc,
        affine::makeComposedFoldedAffineApply(
            b, loc, AffineMap::get(0, strideValues.size(), sum), strideValues));
  }
};

/// A leading dimension of a kernel's operand: a constant, or the
/// coefficient of band dimension `dim` in `access` (a multiple of a dynamic
/// stride), read at run time.
struct LeadingDim {
  std::optional<int64_t> constant;
  const Access *access = nullptr;
  unsigned dim = 0;
};

/// A batch loop whose bounds vary with the loops outside the call: every
/// iteration lies in the constant range [first, last) (a constant result of
/// its max lower bound and of its min upper bound).
struct VariableBatchLoop {
  AffineForOp loop;
  int64_t first, last;
};

/// The constant range of `loop`'s iterations when its bounds are not
/// constant but its unit-step iterations stay in one.
static std::optional<VariableBatchLoop> getVariableBatchLoop(AffineForOp loop) {
  if (loop.hasConstantBounds() || loop.getStepAsInt() != 1)
    return std::nullopt;
  std::optional<int64_t> first, last;
  for (AffineExpr result : loop.getLowerBoundMap().getResults())
    if (auto constant = dyn_cast<AffineConstantExpr>(result))
      first =
          std::max(first.value_or(constant.getValue()), constant.getValue());
  for (AffineExpr result : loop.getUpperBoundMap().getResults())
    if (auto constant = dyn_cast<AffineConstantExpr>(result))
      last = std::min(last.value_or(constant.getValue()), constant.getValue());
  if (!first || !last || *first >= *last)
    return std::nullopt;
  return VariableBatchLoop{loop, *first, *last};
}

/// Whether `a` and `b` are the same size: one value, or the same dimension
/// of one memref read by two memref.dim ops.
static bool isSameSize(Value a, Value b) {
  if (a == b)
    return true;
  auto dimA = a.getDefiningOp<memref::DimOp>();
  auto dimB = b.getDefiningOp<memref::DimOp>();
  if (!dimA || !dimB || dimA.getSource() != dimB.getSource())
    return false;
  std::optional<int64_t> indexA = dimA.getConstantIndex();
  std::optional<int64_t> indexB = dimB.getConstantIndex();
  return indexA && indexA == indexB;
}

/// The least bound `c` that a constraint `c - size >= 0` (or `size == c`)
/// of an affine.if around `op`, whose then region holds it, puts on `size`
/// (a version of an op for small sizes, under its guard).
static std::optional<int64_t> getGuardedBound(Operation *op, Value size) {
  std::optional<int64_t> least;
  for (Operation *inner = op, *parent = op->getParentOp(); parent;
       inner = parent, parent = parent->getParentOp()) {
    auto guard = dyn_cast<affine::AffineIfOp>(parent);
    if (!guard || inner->getParentRegion() != &guard.getThenRegion())
      continue;
    IntegerSet set = guard.getIntegerSet();
    unsigned numVars = set.getNumDims() + set.getNumSymbols();
    for (auto [i, constraint] : llvm::enumerate(set.getConstraints())) {
      SmallVector<int64_t> flat;
      if (failed(getFlattenedAffineExpr(constraint, set.getNumDims(),
                                        set.getNumSymbols(), &flat)) ||
          flat.size() != numVars + 1)
        continue;
      // One variable, with coefficient -1 (or +-1 in an equality).
      std::optional<unsigned> var;
      for (unsigned v = 0; v < numVars; ++v)
        if (flat[v] != 0)
          var = var ? numVars : v;
      if (!var || *var == numVars || !isSameSize(guard.getOperand(*var), size))
        continue;
      std::optional<int64_t> bound;
      if (flat[*var] == -1)
        bound = flat.back();
      else if (flat[*var] == 1 && set.isEq(i))
        bound = -flat.back();
      if (bound)
        least = std::min(least.value_or(*bound), *bound);
    }
  }
  return least;
}

/// `loop`'s upper bound map composed with the affine.apply ops of its
/// operands, and its operands.
static std::pair<AffineMap, SmallVector<Value>>
getComposedUpperBound(AffineForOp loop) {
  AffineMap map = loop.getUpperBoundMap();
  SmallVector<Value> operands(loop.getUpperBoundOperands());
  affine::fullyComposeAffineMapAndOperands(&map, &operands);
  return {map, std::move(operands)};
}

/// The operand that `result` of `map` is (a dim or a symbol), else null.
static Value getOperandOf(AffineMap map, ArrayRef<Value> operands,
                          AffineExpr result) {
  if (auto dim = dyn_cast<AffineDimExpr>(result))
    return operands[dim.getPosition()];
  if (auto symbol = dyn_cast<AffineSymbolExpr>(result))
    return operands[map.getNumDims() + symbol.getPosition()];
  return nullptr;
}

/// The size `loop` runs to: the value of its upper bound when that is one
/// operand (composed with the affine.apply ops of its operands), else null.
static Value getUpperBoundSize(AffineForOp loop) {
  auto [map, operands] = getComposedUpperBound(loop);
  if (map.getNumResults() != 1)
    return nullptr;
  return getOperandOf(map, operands, map.getResult(0));
}

/// Whether loops `a` and `b` run the same iterations: equal constant lower
/// bounds and steps, and upper bounds of one size (a constant, or the same
/// value).
static bool haveSameIterations(AffineForOp a, AffineForOp b) {
  if (!a.hasConstantLowerBound() || !b.hasConstantLowerBound() ||
      a.getConstantLowerBound() != b.getConstantLowerBound() ||
      a.getStepAsInt() != b.getStepAsInt())
    return false;
  if (a.hasConstantUpperBound() || b.hasConstantUpperBound())
    return a.hasConstantUpperBound() && b.hasConstantUpperBound() &&
           a.getConstantUpperBound() == b.getConstantUpperBound();
  Value sizeA = getUpperBoundSize(a), sizeB = getUpperBoundSize(b);
  return sizeA && sizeB && isSameSize(sizeA, sizeB);
}

/// The largest trip count of `loop` with a constant lower bound whose upper
/// bound (composed with the affine.apply ops of its operands) is a minimum
/// with a constant among its results, a remainder `e mod c`, or a size the
/// guards around the loop bound. Written here because MLIR's
/// getBoundForAffineExpr takes no `mod` and no guard.
static std::optional<int64_t> getConstantTripBound(AffineForOp loop) {
  if (!loop.hasConstantLowerBound())
    return std::nullopt;
  auto [map, operands] = getComposedUpperBound(loop);
  std::optional<int64_t> upper;
  for (AffineExpr result : map.getResults()) {
    std::optional<int64_t> bound;
    if (auto constant = dyn_cast<AffineConstantExpr>(result))
      bound = constant.getValue();
    else if (auto binary = dyn_cast<AffineBinaryOpExpr>(result);
             binary && binary.getKind() == AffineExprKind::Mod) {
      if (auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS()))
        bound = divisor.getValue() - 1;
    } else if (Value size = getOperandOf(map, operands, result)) {
      bound = getGuardedBound(loop, size);
    }
    if (bound)
      upper = std::min(upper.value_or(*bound), *bound);
  }
  if (!upper)
    return std::nullopt;
  return *upper - loop.getConstantLowerBound();
}

/// `expr` with each floordiv, ceildiv or mod that involves none of the
/// first `numVarying` dims (the band offsets and the batch loop candidates)
/// replaced by a new dim, from `numDims` on (`extra` counts them): such a
/// term is constant over the outlined loops (a grouped convolution's first
/// input block, `(kb floordiv p) * q`), so the access stays linear in them.
static AffineExpr opaqueOuterDivisions(AffineExpr expr, unsigned numVarying,
                                       unsigned numDims, unsigned &extra) {
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return expr;
  AffineExprKind kind = expr.getKind();
  if (kind == AffineExprKind::FloorDiv || kind == AffineExprKind::CeilDiv ||
      kind == AffineExprKind::Mod) {
    for (unsigned dim = 0; dim < numVarying; ++dim)
      if (expr.isFunctionOfDim(dim))
        return expr;
    return getAffineDimExpr(numDims + extra++, expr.getContext());
  }
  AffineExpr lhs =
      opaqueOuterDivisions(binary.getLHS(), numVarying, numDims, extra);
  AffineExpr rhs =
      opaqueOuterDivisions(binary.getRHS(), numVarying, numDims, extra);
  return kind == AffineExprKind::Add ? lhs + rhs : lhs * rhs;
}

/// Matches one tagged band and outlines it.
class BandOutliner {
public:
  BandOutliner(AffineForOp band, SymbolTable &symbols, int64_t maxBatchBytes,
               int64_t vectorBits, int64_t l1Bytes, int64_t streamedCBytes)
      : symbols(symbols), band(band), maxBatchBytes(maxBatchBytes),
        vectorBits(vectorBits), l1Bytes(l1Bytes),
        streamedCBytes(streamedCBytes) {}

  /// Outlines the band, or returns why it stays in loop form.
  LogicalResult run(std::string &reason);
  /// Whether the calls, which overwrite their blocks of `c`, store them past
  /// the caches: `c` is at least streamedCBytes, so its blocks leave the
  /// caches before anything reads them, and nothing in the loop nest around
  /// the band (an epilogue on each block) reads it.
  bool streamsC(const Access &c) const;

private:
  LogicalResult fail(std::string &reason, const Twine &why) {
    reason = why.str();
    return failure();
  }
  /// `v` as an expression over the band offsets and leaves.
  AffineExpr expand(Value v);
  /// The access of `op` over the band offsets and leaves.
  FailureOr<Access> expandAccess(Operation *op);
  /// The nest right before the outlined loops when it stores 0.0 into
  /// exactly the block of C the kernel computes, else null.
  AffineForOp matchZeroFill(const Access &c, ArrayRef<unsigned> mnk);
  /// Creates the dispatch, the branch and the invoke; with a `zeroFill`, the
  /// kernel does not read C (beta = 0) and the fill moves to the fallback.
  /// With `rowsAsBatch`, the kernel computes one row of K per batch element
  /// (see asRowBatch).
  void rewrite(const Access &a, const Access &b, const Access &c,
               ArrayRef<unsigned> mnk, ArrayRef<LeadingDim> lds,
               AffineForOp zeroFill, bool rowsAsBatch);
  /// Whether a band whose B rows lie `ldb < n` apart can run as a batch of
  /// kernels of one row of K each: static strides of A and B along K, K's
  /// trip count known, no batch loop with varying bounds.
  bool asRowBatch(const Access &a, const Access &b, unsigned kDim, int64_t k,
                  int64_t n) const {
    std::optional<int64_t> strideA = a.coefficient(kDim),
                           strideB = b.coefficient(kDim);
    return strideA && strideB && *strideB > 0 && *strideB < n &&
           !llvm::is_contained(runtimeTrips, true) && !variable;
  }
  /// Whether the batch loops of more than one iteration are one loop that
  /// moves A and B by `k` rows of K: the batch and K's rows are then one
  /// strided batch.
  bool continuesRows(const Access &a, const Access &b, unsigned kDim,
                     int64_t k) const {
    SmallVector<AffineForOp> moving = llvm::filter_to_vector(
        batch, [&](AffineForOp loop) { return batchTrips(loop) > 1; });
    if (moving.size() > 1)
      return false;
    if (moving.empty())
      return true;
    int64_t step = moving.front().getStepAsInt();
    unsigned dim = leafDim(moving.front());
    return *a.coefficient(dim) * step == *a.coefficient(kDim) * k &&
           *b.coefficient(dim) * step == *b.coefficient(kDim) * k;
  }
  /// The dimension of leaf `v` in the expanded accesses.
  unsigned leafDim(Value v) const {
    return 3 + (llvm::find(leaves, v) - leaves.begin());
  }
  unsigned leafDim(AffineForOp loop) const {
    return leafDim(loop.getInductionVar());
  }
  /// Index of the first element of the outlined block of `access`, from
  /// column `column` of the band's N loop.
  SmallVector<Value> baseIndex(OpBuilder &builder, const Access &access,
                               unsigned nDim = 0, int64_t column = 0);
  /// The batch loop with varying bounds, if the batch has one.
  std::optional<VariableBatchLoop> variableInBatch() const {
    if (variable && llvm::is_contained(batch, variable->loop))
      return variable;
    return std::nullopt;
  }
  /// Iterations of a batch loop (of its constant range when it varies).
  int64_t batchTrips(AffineForOp loop) const {
    if (variable && variable->loop == loop)
      return variable->last - variable->first;
    return *affine::getConstantTripCount(loop);
  }

  SymbolTable &symbols;
  AffineForOp band;
  int64_t maxBatchBytes;                     // 0: no bound.
  int64_t vectorBits;                        // Of the kernels' registers.
  int64_t l1Bytes;                           // The L1 data cache.
  int64_t streamedCBytes;                    // C from this size on streams.
  SmallVector<AffineForOp, 3> loops;         // The band, outermost first.
  SmallVector<int64_t, 3> tripCounts;        // Of `loops`, or their bounds.
  SmallVector<bool, 3> runtimeTrips;         // Trip count known at run time.
  SmallVector<AffineForOp> batch;            // Batch loops, outermost first.
  std::optional<VariableBatchLoop> variable; // At most one candidate.
  Value variableLower; // Its lower bound, computed before the call.
  SmallVector<Value> leaves;
  bool expansionFailed = false;
};

AffineExpr BandOutliner::expand(Value v) {
  MLIRContext *ctx = band.getContext();
  for (auto [i, loop] : llvm::enumerate(loops)) {
    if (loop.getInductionVar() != v)
      continue;
    AffineMap lb = loop.getLowerBoundMap();
    if (lb.getNumResults() != 1) {
      expansionFailed = true;
      return getAffineConstantExpr(0, ctx);
    }
    SmallVector<AffineExpr> dimReplacements, symReplacements;
    for (auto [j, operand] : llvm::enumerate(loop.getLowerBoundOperands()))
      (j < lb.getNumDims() ? dimReplacements : symReplacements)
          .push_back(expand(operand));
    return lb.getResult(0).replaceDimsAndSymbols(dimReplacements,
                                                 symReplacements) +
           getAffineDimExpr(i, ctx);
  }
  if (!llvm::is_contained(leaves, v))
    leaves.push_back(v);
  return getAffineDimExpr(leafDim(v), ctx);
}

FailureOr<Access> BandOutliner::expandAccess(Operation *op) {
  // The op's own map, not MemRefAccess's composed one: affine.apply
  // operands (e.g. of coalesced parallel loops) stay opaque leaves.
  AffineMap map;
  ValueRange operands;
  Value memref;
  if (auto load = dyn_cast<affine::AffineReadOpInterface>(op)) {
    map = load.getAffineMap();
    operands = load.getMapOperands();
    memref = load.getMemRef();
  } else {
    auto store = cast<affine::AffineWriteOpInterface>(op);
    map = store.getAffineMap();
    operands = store.getMapOperands();
    memref = store.getMemRef();
  }
  SmallVector<AffineExpr> dimReplacements, symReplacements;
  for (auto [j, operand] : llvm::enumerate(operands))
    (j < map.getNumDims() ? dimReplacements : symReplacements)
        .push_back(expand(operand));
  Access access;
  access.memref = memref;
  for (AffineExpr result : map.getResults())
    access.index.push_back(
        result.replaceDimsAndSymbols(dimReplacements, symReplacements));
  int64_t offset;
  if (failed(cast<MemRefType>(access.memref.getType())
                 .getStridesAndOffset(access.strides, offset)))
    return failure();
  return access;
}

SmallVector<Value> BandOutliner::baseIndex(OpBuilder &builder,
                                           const Access &access, unsigned nDim,
                                           int64_t column) {
  // Band offsets are 0 (N's `column`) and batch ivs their lower bounds at
  // the first element (constants, or the varying one's value); the
  // remaining leaves are operands of an affine.apply.
  MLIRContext *ctx = band.getContext();
  SmallVector<AffineExpr> replacements(3, getAffineConstantExpr(0, ctx));
  replacements[nDim] = getAffineConstantExpr(column, ctx);
  SmallVector<OpFoldResult> operands;
  for (Value leaf : leaves) {
    auto owner = affine::getForInductionVarOwner(leaf);
    bool inBatch = owner && llvm::is_contained(batch, owner);
    bool varyingInBatch = inBatch && variableLower && owner == variable->loop;
    if (inBatch && !varyingInBatch) {
      replacements.push_back(
          getAffineConstantExpr(owner.getConstantLowerBound(), ctx));
      continue;
    }
    replacements.push_back(getAffineDimExpr(operands.size(), ctx));
    operands.push_back(varyingInBatch ? variableLower : leaf);
  }
  SmallVector<Value> index;
  for (AffineExpr expr : access.index) {
    AffineMap map =
        AffineMap::get(operands.size(), 0, expr.replaceDims(replacements), ctx);
    index.push_back(getValueOrCreateConstantIndexOp(
        builder, band.getLoc(),
        affine::makeComposedFoldedAffineApply(builder, band.getLoc(), map,
                                              operands)));
  }
  return index;
}

LogicalResult BandOutliner::run(std::string &reason) {
  affine::getPerfectlyNestedLoops(loops, band);
  if (loops.size() != 3)
    return fail(reason, "the band is not a perfect nest of three loops");
  for (AffineForOp loop : loops) {
    std::optional<uint64_t> tripCount = affine::getConstantTripCount(loop);
    if (loop.getStepAsInt() == 1 && tripCount && *tripCount > 0) {
      tripCounts.push_back(*tripCount);
      runtimeTrips.push_back(false);
      continue;
    }
    // A partial block of a dynamic size: the kernel gets its trip count at
    // run time, at most the bound's constant.
    std::optional<int64_t> bound = getConstantTripBound(loop);
    if (!bound || *bound <= 0 || loop.getStepAsInt() != 1)
      return fail(reason, "a band loop has no constant trip count or bound, "
                          "or a step other than 1");
    tripCounts.push_back(*bound);
    runtimeTrips.push_back(true);
  }

  // The body: store(load(C) + load(X) * load(Y)) into C, nothing else.
  Block *body = loops.back().getBody();
  auto store =
      dyn_cast<affine::AffineStoreOp>(body->getTerminator()->getPrevNode());
  if (!store || body->getOperations().size() != 7)
    return fail(reason, "the band body is not C += A * B");
  auto add = store.getValueToStore().getDefiningOp<arith::AddFOp>();
  if (!add)
    return fail(reason, "the band body is not C += A * B");
  affine::AffineLoadOp cLoad, xLoad, yLoad;
  arith::MulFOp mul;
  for (Value operand : add->getOperands()) {
    if (auto load = operand.getDefiningOp<affine::AffineLoadOp>())
      cLoad = load;
    else if (auto product = operand.getDefiningOp<arith::MulFOp>())
      mul = product;
  }
  if (!cLoad || !mul ||
      affine::MemRefAccess(cLoad) != affine::MemRefAccess(store))
    return fail(reason, "the band body is not C += A * B");
  xLoad = mul.getLhs().getDefiningOp<affine::AffineLoadOp>();
  yLoad = mul.getRhs().getDefiningOp<affine::AffineLoadOp>();
  if (!xLoad || !yLoad || xLoad.getMemRef() == store.getMemRef() ||
      yLoad.getMemRef() == store.getMemRef())
    return fail(reason, "the band body is not C += A * B");

  // Candidate batch loops: the perfectly nested loops around the band with
  // constant bounds, or one with bounds in a constant range. Their ivs are
  // the first leaves.
  SmallVector<AffineForOp> candidates;
  for (Operation *parent = band->getParentOp();
       auto loop = dyn_cast_or_null<AffineForOp>(parent);
       parent = loop->getParentOp()) {
    if (loop.getBody()->getOperations().size() != 2)
      break;
    if (!loop.hasConstantBounds()) {
      std::optional<VariableBatchLoop> range = getVariableBatchLoop(loop);
      if (!range || variable)
        break;
      variable = range;
    }
    candidates.push_back(loop);
    leaves.push_back(loop.getInductionVar());
  }

  FailureOr<Access> c = expandAccess(store);
  FailureOr<Access> x = expandAccess(xLoad);
  FailureOr<Access> y = expandAccess(yLoad);
  if (failed(c) || failed(x) || failed(y) || expansionFailed)
    return fail(reason, "an operand has no strided layout or a band loop "
                        "has a multi-result lower bound");
  unsigned numDims = 3 + leaves.size();
  unsigned numVarying = 3 + candidates.size();
  for (Access *access : {&*c, &*x, &*y}) {
    for (AffineExpr expr : access->index) {
      // The divisions of A's and B's indices that are constant over the
      // outlined loops drop out of their coefficients (C's are compared
      // with a fill's whole).
      unsigned extra = 0;
      if (access != &*c)
        expr = opaqueOuterDivisions(expr, numVarying, numDims, extra);
      SmallVector<int64_t> flat;
      if (failed(getFlattenedAffineExpr(expr, numDims + extra, 0, &flat)) ||
          flat.size() != numDims + extra + 1)
        return fail(reason, "an access is not linear in the band loops");
      flat.erase(flat.begin() + numDims, flat.begin() + numDims + extra);
      access->flat.push_back(std::move(flat));
    }
  }

  // The batch: the innermost candidates that leave C in place.
  for (AffineForOp loop : candidates) {
    std::optional<int64_t> inC = c->coefficient(leafDim(loop));
    if (!inC || *inC != 0)
      break;
    batch.insert(batch.begin(), loop);
  }
  // The varying loop's bounds are computed before the call: the batch
  // starts inside the batch loops they read.
  auto boundsReadBatch = [&] {
    return variableInBatch() &&
           llvm::any_of(variable->loop->getOperands(), [&](Value operand) {
             auto owner = affine::getForInductionVarOwner(operand);
             return owner && llvm::is_contained(batch, owner);
           });
  };
  while (boundsReadBatch())
    batch.erase(batch.begin());
  auto batchCount = [&] {
    int64_t count = 1;
    for (AffineForOp loop : batch)
      count *= batchTrips(loop);
    return count;
  };
  while (batch.size() > 1 && batchCount() > kMaxOffsetTable)
    batch.erase(batch.begin());
  // A batch loop of no iteration (e.g. the filter rows of an output row
  // that lies entirely in the padding) leaves the band nothing to compute:
  // its loops stay, run no iteration, and C keeps its initial values. A
  // call would compute one block instead.
  if (batchCount() == 0) {
    band->removeAttr(DLDialect::getGemmBandAttrName());
    return success();
  }

  // Values used by the block's base index must exist outside the outlined
  // loops.
  Operation *outermost = batch.empty() ? band : batch.front();
  for (Value leaf : leaves) {
    auto owner = affine::getForInductionVarOwner(leaf);
    if (owner && llvm::is_contained(batch, owner))
      continue;
    if (outermost->isAncestor(leaf.getParentRegion()->getParentOp()))
      return fail(reason, "the band's indices depend on values computed "
                          "inside the loops to outline");
  }

  for (auto [loop, runtime] : llvm::zip(loops, runtimeTrips))
    if (runtime && llvm::any_of(loop.getUpperBoundOperands(), [&](Value v) {
          return outermost->isAncestor(v.getParentRegion()->getParentOp());
        }))
      return fail(reason, "a band loop's trip count depends on values "
                          "computed inside the loops to outline");

  // Assign M, N, K to the band loops and A, B to the loads: C is indexed by
  // M (leading dim ldc) and N (unit stride), A by M (lda) and K (unit), B by
  // K (ldb) and N (unit). A loop of one iteration matches any coefficient.
  std::array<unsigned, 3> mnk = {0, 1, 2};
  do {
    auto [mDim, nDim, kDim] = std::tuple(mnk[0], mnk[1], mnk[2]);
    int64_t m = tripCounts[mDim], n = tripCounts[nDim], k = tripCounts[kDim];
    auto is = [](const Access &access, unsigned dim, int64_t trip,
                 int64_t expected) {
      std::optional<int64_t> coefficient = access.coefficient(dim);
      return coefficient && (trip == 1 || *coefficient == expected);
    };
    // A leading dimension that multiplies a dynamic stride is read at run
    // time: the rows of a memref do not overlap, so it is at least the row
    // length of the in-bounds accesses.
    auto leadingDim = [](const Access &access, unsigned dim, int64_t trip,
                         int64_t rowLength) -> std::optional<LeadingDim> {
      std::optional<int64_t> coefficient = access.coefficient(dim);
      if (trip == 1)
        return LeadingDim{std::max(coefficient.value_or(0), rowLength)};
      if (!coefficient)
        return LeadingDim{std::nullopt, &access, dim};
      if (*coefficient < rowLength)
        return std::nullopt;
      return LeadingDim{coefficient};
    };
    if (!is(*c, nDim, n, 1) || !is(*c, kDim, k, 0))
      continue;
    std::optional<LeadingDim> ldc = leadingDim(*c, mDim, m, n);
    for (auto [a, b] : {std::pair(&*x, &*y), std::pair(&*y, &*x)}) {
      if (!ldc || !is(*a, kDim, k, 1) || !is(*a, nDim, n, 0) ||
          !is(*b, nDim, n, 1) || !is(*b, mDim, m, 0))
        continue;
      std::optional<LeadingDim> lda = leadingDim(*a, mDim, m, k);
      std::optional<LeadingDim> ldb = leadingDim(*b, kDim, k, n);
      // B's rows closer than its row length (an overlapping view: whole
      // vectors read past each row, dl-split-gemm-remainders): LIBXSMM
      // takes no such leading dimension, but each row on its own is a
      // kernel of one row of K, and the rows a strided batch.
      bool rowsAsBatch = !ldb && lda && asRowBatch(*a, *b, kDim, k, n);
      if (rowsAsBatch)
        ldb = LeadingDim{n};
      if (!lda || !ldb)
        continue;
      // LIBXSMM 1.17's batch-reduce kernel runs the whole batch inside each
      // of its register tiles, so it reads the batch's blocks once per
      // tile: blocks beyond the L2 come from memory every time
      // (docs/heuristics.md, "GEMM blocks and packing"). Outer batch loops stay
      // around the call until the A and B blocks of one call fit
      // `maxBatchBytes`.
      int64_t blockBytes = batchElementBytes(m, n, k);
      while (maxBatchBytes > 0 && batch.size() > 1 &&
             batchCount() * blockBytes > maxBatchBytes)
        batch.erase(batch.begin());
      // The kernel's batch strides and offsets are static: a loop that
      // moves a block by a dynamic stride (a convolution's filter rows in
      // an input of dynamic width) stays around the call, with the loops
      // outside it.
      auto staticStride = [&](AffineForOp loop) {
        return a->coefficient(leafDim(loop)) && b->coefficient(leafDim(loop));
      };
      while (!batch.empty() && !llvm::all_of(batch, staticStride))
        batch.erase(batch.begin());
      // Rows as a batch: the batch loops must continue K's rows with its
      // strides (K blocks of B in place), else they stay around the call.
      while (rowsAsBatch && !batch.empty() && !continuesRows(*a, *b, kDim, k))
        batch.erase(batch.begin());
      rewrite(*a, *b, *c, {mDim, nDim, kDim}, {*lda, *ldb, *ldc},
              matchZeroFill(*c, {mDim, nDim, kDim}), rowsAsBatch);
      return success();
    }
  } while (std::next_permutation(mnk.begin(), mnk.end()));
  return fail(reason, "the accesses are not a row-major GEMM with unit "
                      "stride along its rows");
}

/// A set of linear offsets {sum coefficient_i * x_i : 0 <= x_i < trips_i}
/// in a canonical form: axes of one value dropped, sorted by coefficient,
/// an axis that continues the previous one contiguously merged into it. Equal
/// forms denote equal sets.
static SmallVector<std::pair<int64_t, int64_t>>
canonicalBox(SmallVector<std::pair<int64_t, int64_t>> axes) {
  llvm::erase_if(axes, [](auto axis) { return axis.second == 1; });
  llvm::sort(axes);
  SmallVector<std::pair<int64_t, int64_t>> merged;
  for (auto axis : axes) {
    if (!merged.empty() &&
        merged.back().first * merged.back().second == axis.first) {
      merged.back().second *= axis.second;
      continue;
    }
    merged.push_back(axis);
  }
  return merged;
}

AffineForOp BandOutliner::matchZeroFill(const Access &c,
                                        ArrayRef<unsigned> mnk) {
  bool runtimeSizes = llvm::is_contained(runtimeTrips, true);
  Operation *outermost = batch.empty() ? band : batch.front();
  auto fill = dyn_cast_or_null<AffineForOp>(outermost->getPrevNode());
  if (!fill)
    return nullptr;
  SmallVector<AffineForOp> fillLoops;
  affine::getPerfectlyNestedLoops(fillLoops, fill);
  Block *body = fillLoops.back().getBody();
  auto store = dyn_cast<affine::AffineStoreOp>(&body->front());
  auto zero =
      store ? store.getValueToStore().getDefiningOp<arith::ConstantFloatOp>()
            : nullptr;
  if (body->getOperations().size() != 2 || !zero || !zero.value().isPosZero() ||
      store.getMemRef() != c.memref)
    return nullptr;
  for (AffineForOp loop : fillLoops)
    if (!loop.hasConstantLowerBound() || loop.getConstantLowerBound() != 0 ||
        loop.getStepAsInt() != 1 ||
        (!runtimeSizes && !loop.hasConstantUpperBound()))
      return nullptr;

  // The fill's linear offset over (its loops, then the band's leaves): its
  // operands other than its own ivs must be leaves of the band's accesses.
  MLIRContext *ctx = band.getContext();
  unsigned numFill = fillLoops.size();
  AffineMap map = store.getAffineMap();
  SmallVector<AffineExpr> replacements;
  for (Value operand : store.getMapOperands()) {
    const auto *loop = llvm::find_if(fillLoops, [&](AffineForOp l) {
      return l.getInductionVar() == operand;
    });
    if (loop != fillLoops.end()) {
      replacements.push_back(getAffineDimExpr(loop - fillLoops.begin(), ctx));
      continue;
    }
    // The iv of a loop of one iteration around both (a normalized tile loop
    // over a single block) is its lower bound.
    if (!llvm::is_contained(leaves, operand)) {
      auto owner = affine::getForInductionVarOwner(operand);
      if (!owner || !owner.hasConstantLowerBound() ||
          affine::getConstantTripCount(owner) != 1)
        return nullptr;
      replacements.push_back(
          getAffineConstantExpr(owner.getConstantLowerBound(), ctx));
      continue;
    }
    replacements.push_back(getAffineDimExpr(
        numFill + (llvm::find(leaves, operand) - leaves.begin()), ctx));
  }
  unsigned numDims = numFill + leaves.size();
  // With run-time sizes (and strides), the fill's loops must be the band's
  // M and N loops (the same iterations) and its index C's.
  if (runtimeSizes) {
    if (numFill != 2)
      return nullptr;
    for (auto [first, second] :
         {std::pair(mnk[0], mnk[1]), std::pair(mnk[1], mnk[0])}) {
      if (!haveSameIterations(fillLoops[0], loops[first]) ||
          !haveSameIterations(fillLoops[1], loops[second]))
        continue;
      SmallVector<AffineExpr> toBand = {getAffineDimExpr(first, ctx),
                                        getAffineDimExpr(second, ctx)};
      for (unsigned leaf = 0; leaf < leaves.size(); ++leaf)
        toBand.push_back(getAffineDimExpr(3 + leaf, ctx));
      auto sameIndex = [&](auto pair) {
        auto [result, expected] = pair;
        AffineExpr index =
            result
                .replaceDimsAndSymbols(
                    ArrayRef(replacements).take_front(map.getNumDims()),
                    ArrayRef(replacements).drop_front(map.getNumDims()))
                .replaceDims(toBand);
        return simplifyAffineExpr(index, toBand.size() + 1, 0) ==
               simplifyAffineExpr(expected, toBand.size() + 1, 0);
      };
      if (llvm::all_of(llvm::zip(map.getResults(), c.index), sameIndex))
        return fill;
    }
    return nullptr;
  }
  SmallVector<int64_t> fillOffset(numDims + 1, 0);
  for (auto [result, stride] : llvm::zip(map.getResults(), c.strides)) {
    SmallVector<int64_t> flat;
    if (failed(getFlattenedAffineExpr(
            result.replaceDimsAndSymbols(
                ArrayRef(replacements).take_front(map.getNumDims()),
                ArrayRef(replacements).drop_front(map.getNumDims())),
            numDims, 0, &flat)) ||
        ShapedType::isDynamic(stride))
      return nullptr;
    for (auto [sum, term] : llvm::zip(fillOffset, flat))
      sum += term * stride;
  }

  // Same first element (leaf terms and constant), then the same box of
  // offsets: the kernel's rows (ldc apart) x columns (unit stride).
  int64_t constantC = 0;
  for (auto [row, stride] : llvm::zip(c.flat, c.strides))
    constantC += row.back() * stride;
  if (fillOffset.back() != constantC)
    return nullptr;
  for (unsigned leaf = 0; leaf < leaves.size(); ++leaf)
    if (c.coefficient(3 + leaf) != fillOffset[numFill + leaf])
      return nullptr;
  SmallVector<std::pair<int64_t, int64_t>> fillAxes, kernelAxes;
  for (auto [i, loop] : llvm::enumerate(fillLoops))
    fillAxes.push_back({fillOffset[i], *affine::getConstantTripCount(loop)});
  for (unsigned dim : mnk.take_front(2))
    kernelAxes.push_back({*c.coefficient(dim), tripCounts[dim]});
  if (canonicalBox(fillAxes) != canonicalBox(kernelAxes))
    return nullptr;
  return fill;
}

bool BandOutliner::streamsC(const Access &c) const {
  auto type = dyn_cast<MemRefType>(c.memref.getType());
  if (streamedCBytes <= 0 || !type || !type.hasStaticShape() ||
      type.getNumElements() * int64_t(sizeof(float)) < streamedCBytes)
    return false;
  // The nest the band is in: the ancestor of the band right in the
  // function's body.
  Operation *nest = band;
  while (nest->getParentOp() && !isa<func::FuncOp>(nest->getParentOp()))
    nest = nest->getParentOp();
  // Anything in it reading c other than the band itself.
  WalkResult reads = nest->walk([&](Operation *op) {
    if (band->isAncestor(op))
      return WalkResult::skip();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return llvm::is_contained(op->getOperands(), c.memref)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    if (effects.getEffectOnValue<MemoryEffects::Read>(c.memref))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !reads.wasInterrupted();
}

void BandOutliner::rewrite(const Access &a, const Access &b, const Access &c,
                           ArrayRef<unsigned> mnk, ArrayRef<LeadingDim> lds,
                           AffineForOp zeroFill, bool rowsAsBatch) {
  Operation *outermost = batch.empty() ? band : batch.front();
  Location loc = band.getLoc();
  OpBuilder builder(outermost);
  MLIRContext *ctx = builder.getContext();

  // Batch: loops of one iteration only fix an index; one loop that varies is
  // a constant stride; several give offset tables. A loop with varying
  // bounds leads the tables, so the blocks of the iterations it runs from
  // its lower bound on are their first entries.
  std::optional<VariableBatchLoop> varyingBounds = variableInBatch();
  SmallVector<AffineForOp> varying =
      llvm::filter_to_vector(batch, [&](AffineForOp loop) {
        return batchTrips(loop) > 1 ||
               (varyingBounds && varyingBounds->loop == loop);
      });
  if (varyingBounds) {
    llvm::erase(varying, varyingBounds->loop);
    varying.insert(varying.begin(), varyingBounds->loop);
  }
  IntegerAttr strideA, strideB;
  UnitAttr withOffsets;
  SmallVector<int64_t> offsetsA = {0}, offsetsB = {0};
  if (varying.size() == 1) {
    int64_t step = varying.front().getStepAsInt();
    unsigned dim = leafDim(varying.front());
    strideA = builder.getI64IntegerAttr(*a.coefficient(dim) * step);
    strideB = builder.getI64IntegerAttr(*b.coefficient(dim) * step);
  } else if (!varying.empty()) {
    withOffsets = builder.getUnitAttr();
  }
  for (AffineForOp loop : varying) {
    int64_t step = loop.getStepAsInt();
    int64_t trips = batchTrips(loop);
    int64_t moveA = *a.coefficient(leafDim(loop)) * step;
    int64_t moveB = *b.coefficient(leafDim(loop)) * step;
    SmallVector<int64_t> nextA, nextB;
    for (auto [offA, offB] : llvm::zip(offsetsA, offsetsB))
      for (int64_t t = 0; t < trips; ++t) {
        nextA.push_back(offA + t * moveA);
        nextB.push_back(offB + t * moveB);
      }
    offsetsA = std::move(nextA);
    offsetsB = std::move(nextB);
  }
  int64_t count = offsetsA.size();
  int64_t kernelK = tripCounts[mnk[2]];
  if (rowsAsBatch) {
    // One row of K per batch element, the batch loop (if any) continuing
    // the rows (continuesRows): one strided batch of count x K rows.
    strideA = builder.getI64IntegerAttr(*a.coefficient(mnk[2]));
    strideB = builder.getI64IntegerAttr(*b.coefficient(mnk[2]));
    count *= kernelK;
    kernelK = 1;
  }
  // Trip counts known at run time are the kernel's sizes; C's columns are
  // then not split.
  SmallVector<Value> sizes;
  if (llvm::is_contained(runtimeTrips, true))
    for (unsigned dim : mnk) {
      AffineForOp loop = loops[dim];
      OpFoldResult upper = affine::makeComposedFoldedAffineMin(
          builder, loc, loop.getUpperBoundMap(),
          getAsOpFoldResult(loop.getUpperBoundOperands()));
      OpFoldResult trips = affine::makeComposedFoldedAffineApply(
          builder, loc, getAffineDimExpr(0, ctx) - loop.getConstantLowerBound(),
          {upper});
      sizes.push_back(getValueOrCreateConstantIndexOp(builder, loc, trips));
    }
  int64_t columns = sizes.empty()
                        ? columnsPerCall(tripCounts[mnk[0]], tripCounts[mnk[1]],
                                         kernelK, count, vectorBits, l1Bytes)
                        : tripCounts[mnk[1]];

  // Leading dimensions are attributes, or all three values when one is
  // known at run time only.
  SmallVector<IntegerAttr, 3> ldAttrs(3);
  SmallVector<Value, 3> ldValues;
  if (llvm::all_of(lds, [](const LeadingDim &ld) { return ld.constant; }))
    for (auto [attr, ld] : llvm::zip(ldAttrs, lds))
      attr = builder.getI64IntegerAttr(*ld.constant);
  else
    for (const LeadingDim &ld : lds)
      ldValues.push_back(
          ld.constant
              ? arith::ConstantIndexOp::create(builder, loc, *ld.constant)
              : ld.access->coefficientValue(builder, loc, ld.dim));
  auto dispatch = GemmDispatchOp::create(
      builder, loc, builder.getI64Type(), sizes, ldValues,
      builder.getI64IntegerAttr(tripCounts[mnk[0]]),
      builder.getI64IntegerAttr(columns), builder.getI64IntegerAttr(kernelK),
      ldAttrs[0], ldAttrs[1], ldAttrs[2], strideA, strideB, withOffsets,
      zeroFill ? builder.getUnitAttr() : UnitAttr(),
      zeroFill && streamsC(c) ? builder.getUnitAttr() : UnitAttr());
  Value zero = arith::ConstantIntOp::create(builder, loc, 0, 64);
  Value found = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                      dispatch, zero);
  // With varying bounds [lower, upper), the call starts at lower and takes
  // (upper - lower) * perIteration blocks; the loops run when there are none
  // (they zero C if the kernel would have).
  OpFoldResult runtimeCount;
  if (varyingBounds) {
    AffineForOp loop = varyingBounds->loop;
    int64_t perIteration = count / (varyingBounds->last - varyingBounds->first);
    OpFoldResult lower = affine::makeComposedFoldedAffineMax(
        builder, loc, loop.getLowerBoundMap(),
        getAsOpFoldResult(loop.getLowerBoundOperands()));
    OpFoldResult upper = affine::makeComposedFoldedAffineMin(
        builder, loc, loop.getUpperBoundMap(),
        getAsOpFoldResult(loop.getUpperBoundOperands()));
    variableLower = getValueOrCreateConstantIndexOp(builder, loc, lower);
    AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
    runtimeCount = affine::makeComposedFoldedAffineApply(
        builder, loc, (d1 - d0) * perIteration, {lower, upper});
    Value positive = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sgt,
        getValueOrCreateConstantIndexOp(builder, loc, runtimeCount),
        arith::ConstantIndexOp::create(builder, loc, 0));
    found = arith::AndIOp::create(builder, loc, found, positive);
  }
  auto branch = scf::IfOp::create(builder, loc, found, /*withElseRegion=*/true);
  if (zeroFill)
    zeroFill->moveBefore(branch.elseBlock()->getTerminator());
  outermost->moveBefore(branch.elseBlock()->getTerminator());

  builder.setInsertionPoint(branch.thenBlock()->getTerminator());
  Value batchCount, tableA, tableB;
  if (varyingBounds)
    batchCount = getValueOrCreateConstantIndexOp(builder, loc, runtimeCount);
  else if (!varying.empty() || rowsAsBatch)
    batchCount = arith::ConstantIndexOp::create(builder, loc, count);
  if (withOffsets) {
    auto tableType = MemRefType::get({count}, IntegerType::get(ctx, 64));
    auto makeTable = [&](ArrayRef<int64_t> offsets, StringRef name) {
      OpBuilder moduleBuilder(symbols.getOp()->getRegion(0));
      auto global = memref::GlobalOp::create(
          moduleBuilder, loc, builder.getStringAttr(name),
          builder.getStringAttr("private"), TypeAttr::get(tableType),
          DenseIntElementsAttr::get(
              RankedTensorType::get({count}, tableType.getElementType()),
              offsets),
          builder.getUnitAttr(), IntegerAttr());
      symbols.insert(global);
      return memref::GetGlobalOp::create(builder, loc, tableType,
                                         global.getSymName());
    };
    tableA = makeTable(offsetsA, "__dl_batch_offsets_a");
    tableB = makeTable(offsetsB, "__dl_batch_offsets_b");
  }
  band->removeAttr(DLDialect::getGemmBandAttrName());
  SmallVector<Value> baseA = baseIndex(builder, a);
  for (int64_t column = 0; column < tripCounts[mnk[1]]; column += columns)
    GemmInvokeOp::create(builder, loc, dispatch, a.memref, baseA, b.memref,
                         baseIndex(builder, b, mnk[1], column), c.memref,
                         baseIndex(builder, c, mnk[1], column), batchCount,
                         tableA, tableB);
}

struct OutlineMicrokernelsPass
    : dl::impl::OutlineMicrokernelsBase<OutlineMicrokernelsPass> {
  using OutlineMicrokernelsBase::OutlineMicrokernelsBase;

  void runOnOperation() override {
    Target target = getTarget(getOperation());
    int64_t l1Bytes = target.cache.levels.front().bytes;
    // A C beyond the last cache level and beyond kStreamedCL2s L2s leaves
    // the caches before anything reads it again. The last level holds a
    // core's stores well past what dl-probe finds it holds of its reads:
    // on a Zen 5 VM of 512 KiB L2s and a 32 MiB L3, the probe's 2 MB
    // against stores faster than non-temporal ones up to about 20 MB
    // (docs/heuristics.md, "Streamed C").
    constexpr int64_t kStreamedCL2s = 32;
    int64_t streamedCBytes = target.l2Bytes() > 0
                                 ? std::max(target.cache.levels.back().bytes,
                                            kStreamedCL2s * target.l2Bytes())
                                 : 0;
    SymbolTable symbols(getOperation());
    SmallVector<AffineForOp> bands;
    getOperation().walk([&](AffineForOp loop) {
      if (loop->hasAttr(DLDialect::getGemmBandAttrName()))
        bands.push_back(loop);
    });
    for (AffineForOp band : bands) {
      std::string reason;
      if (failed(BandOutliner(band, symbols, target.maxBatchBytes,
                              target.vectorBits, l1Bytes, streamedCBytes)
                     .run(reason)) &&
          reportFallbacks)
        band.emitRemark("GEMM band kept as loops: ") << reason;
    }
  }
};

} // namespace
