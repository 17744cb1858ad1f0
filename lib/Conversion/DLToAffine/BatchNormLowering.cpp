//===- BatchNormLowering.cpp - batch normalization to affine nests --------===//
//
// The lowering of dl.batch_norm_inference and dl.batch_norm_training on plain
// NCHW and blocked NCHW{c}c activations. Both layouts are viewed as runs of
// contiguous elements: per channel group (a channel of NCHW, a channel block
// of NCHW{c}c) and image, the group's H * W elements, which the sweeps read
// a vector at a time (16 floats of one channel along a plain run, with a
// scalar tail; one vector of the block's channels per pixel of a blocked
// run). One loop over the groups holds everything a group needs, so it is
// the loop dl-parallelize-outer-loops runs in parallel:
//
// * training: one statistics sweep carrying the sums of `x - shift` and
//   `(x - shift)^2` in iter_args (the shifted-data algorithm: the shift is
//   the group's first element, so a large mean costs no digits; the biased
//   variance is `q/m - (s/m)^2`, clamped at 0), or, with row statistics
//   from the convolution that wrote the input, their merge; one rsqrt per
//   channel, then the normalize sweep;
// * inference: the normalize sweep alone.
//
// The normalize sweep computes `(x - mean) * (gamma * invStd) + beta` and the
// op's activation, and writes each output element once. An activation whose
// (h, w) are not contiguous (a strided memref) is first copied to a
// contiguous buffer, and the output written through one.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"
#include "NestBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// Floats per vector along a plain run: AVX-512's 16 lanes (LLVM splits the
/// vectors on narrower targets).
constexpr int64_t kRunLanes = 16;

/// Independent chains of the statistics sums: a vector add or FMA takes 3-4
/// cycles, and 4 chains keep one vector load per cycle busy.
constexpr int64_t kStatisticsChains = 4;

/// `value` as a constant of `type` (f32, or a vector of f32 splat).
Value constantOf(OpBuilder &b, Location loc, Type type, double value) {
  if (auto vectorType = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, loc, vectorType,
        DenseElementsAttr::get(vectorType,
                               b.getF32FloatAttr(static_cast<float>(value))));
  return f32Constant(b, loc, value);
}

/// `value` (f32 or of `type`) as a value of `type`.
Value broadcastTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return vector::BroadcastOp::create(b, loc, type, value);
}

/// The activation of `value` (scalar or vector), or `value` without one.
Value applyActivation(OpBuilder &b, Location loc, Value value,
                      std::optional<Activation> activation) {
  if (!activation)
    return value;
  Type type = value.getType();
  Value low =
      arith::MaxNumFOp::create(b, loc, value, constantOf(b, loc, type, 0.0));
  if (*activation == Activation::relu)
    return low;
  return arith::MinNumFOp::create(b, loc, low, constantOf(b, loc, type, 6.0));
}

/// An index-typed count as f32.
Value indexToF32(OpBuilder &b, Location loc, OpFoldResult count) {
  if (std::optional<int64_t> constant = getConstantIntValue(count))
    return f32Constant(b, loc, *constant);
  Value i64 =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), cast<Value>(count));
  return arith::SIToFPOp::create(b, loc, b.getF32Type(), i64);
}

/// An activation viewed as runs: dims (n, group, run position) for plain
/// NCHW, plus the channel within the block for NCHW{c}c.
struct RunView {
  bool blocked;
  /// The vector a sweep moves per step: 16 floats of a plain run, or the
  /// channels of a block.
  VectorType vectorType;
  OpFoldResult batch, groups, runLength;

  RunView(OpBuilder &b, Location loc, Value collapsed) {
    auto type = cast<MemRefType>(collapsed.getType());
    blocked = type.getRank() == 4;
    int64_t lanes = blocked ? type.getDimSize(3) : kRunLanes;
    vectorType = VectorType::get({lanes}, b.getF32Type());
    batch = getSize(b, loc, collapsed, 0);
    groups = getSize(b, loc, collapsed, 1);
    runLength = getSize(b, loc, collapsed, 2);
  }

  /// The type of a per-group value: a channel's scalar, or a block's vector.
  Type groupType(OpBuilder &b) const {
    return blocked ? Type(vectorType) : Type(b.getF32Type());
  }

  /// Whether a plain run ends in elements that fill no whole vector.
  bool hasTail() const {
    if (blocked)
      return false;
    std::optional<int64_t> length = getConstantIntValue(runLength);
    return !length || *length % kRunLanes != 0;
  }
};

/// The (h, w) dims of an NCHW or NCHW{c}c activation collapsed into one.
SmallVector<ReassociationIndices> runReassociation(MemRefType type) {
  if (type.getRank() == 5)
    return {{0}, {1}, {2, 3}, {4}};
  return {{0}, {1}, {2, 3}};
}

/// Where a sweep body reads and writes: a vector (or a tail's scalar) at
/// `map(operands)` of a collapsed activation.
struct RunAccess {
  AffineMap map;
  SmallVector<Value> operands;
  VectorType vectorType; // Null for a scalar of a plain run's tail.

  Value load(OpBuilder &b, Location loc, Value view) const {
    if (vectorType)
      return affine::AffineVectorLoadOp::create(b, loc, vectorType, view, map,
                                                operands);
    return affine::AffineLoadOp::create(b, loc, view, map, operands);
  }
  void store(OpBuilder &b, Location loc, Value value, Value view) const {
    if (vectorType)
      affine::AffineVectorStoreOp::create(b, loc, value, view, map, operands);
    else
      affine::AffineStoreOp::create(b, loc, value, view, map, operands);
  }
};

using RunBodyFn = function_ref<SmallVector<Value>(
    OpBuilder &, Location, const RunAccess &, ValueRange accumulators)>;

/// Builds, in the loop over the channel groups (iv `group`), the loops over
/// the images and their runs: a vector per step, threading the sums
/// `vectorAccumulators` through `vectorBody`, then, where a plain run has a
/// tail, its scalars through `scalarBody` with the sums `scalarAccumulators`.
/// With `chains` > 1, that many vectors per step go to as many independent
/// copies of the vector sums (added up after the loop), so that the adds
/// of consecutive vectors do not wait for each other. Returns the final
/// sums, vector ones first.
SmallVector<Value>
buildRunSweep(OpBuilder &b, Location loc, const RunView &view, Value group,
              ValueRange vectorAccumulators, ValueRange scalarAccumulators,
              RunBodyFn vectorBody, RunBodyFn scalarBody, int64_t chains = 1) {
  unsigned numVector = vectorAccumulators.size();
  SmallVector<Value> inits;
  for (int64_t c = 0; c < chains; ++c)
    llvm::append_range(inits, vectorAccumulators);
  llvm::append_range(inits, scalarAccumulators);
  SmallVector<Value> sums = buildNest(
      b, loc, {view.batch}, inits,
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange accs) {
        Value image = ivs[0];
        SmallVector<Value> symbols;
        AffineExpr length = sizeExpr(nb, view.runLength, symbols);
        AffineExpr vectors =
            length.floorDiv(view.blocked ? 1 : kRunLanes); // Whole vectors.
        AffineExpr d0 = nb.getAffineDimExpr(0), d1 = nb.getAffineDimExpr(1),
                   d2 = nb.getAffineDimExpr(2);
        // The access to vector `d2 * stride + offset` of the run.
        auto vectorAccess = [&](OpBuilder &lb, Value iv, int64_t stride,
                                int64_t offset) {
          RunAccess access;
          access.vectorType = view.vectorType;
          access.operands = {image, group, iv};
          AffineExpr position = d2 * stride + offset;
          access.map =
              view.blocked
                  ? AffineMap::get(
                        3, 0, {d0, d1, position, lb.getAffineConstantExpr(0)},
                        lb.getContext())
                  : AffineMap::get(3, 0, {d0, d1, position * kRunLanes},
                                   lb.getContext());
          return access;
        };
        auto boundMap = [&](AffineExpr bound) {
          return AffineMap::get(0, symbols.size(), bound);
        };
        auto steps = AffineForOp::create(
            nb, l, ValueRange{}, nb.getConstantAffineMap(0), symbols,
            boundMap(vectors.floorDiv(chains)), 1,
            accs.take_front(chains * numVector),
            [&](OpBuilder &lb, Location ll, Value iv, ValueRange iterArgs) {
              SmallVector<Value> yields;
              for (int64_t c = 0; c < chains; ++c)
                llvm::append_range(
                    yields,
                    vectorBody(lb, ll, vectorAccess(lb, iv, chains, c),
                               iterArgs.slice(c * numVector, numVector)));
              affine::AffineYieldOp::create(lb, ll, yields);
            });
        SmallVector<Value> sums(steps.getResults());
        if (chains > 1) {
          // The vectors left over by the steps, into the first chain.
          auto rest = AffineForOp::create(
              nb, l, symbols, boundMap(vectors.floorDiv(chains) * chains),
              symbols, boundMap(vectors), 1,
              ValueRange(sums).take_front(numVector),
              [&](OpBuilder &lb, Location ll, Value iv, ValueRange iterArgs) {
                affine::AffineYieldOp::create(
                    lb, ll,
                    vectorBody(lb, ll, vectorAccess(lb, iv, 1, 0), iterArgs));
              });
          for (unsigned i = 0; i < numVector; ++i)
            sums[i] = rest.getResult(i);
        }
        if (!view.hasTail()) {
          llvm::append_range(sums, accs.drop_front(chains * numVector));
          return sums;
        }
        auto tail = AffineForOp::create(
            nb, l, symbols, boundMap(vectors * kRunLanes), symbols,
            boundMap(length), 1, accs.drop_front(chains * numVector),
            [&](OpBuilder &lb, Location ll, Value iv, ValueRange iterArgs) {
              RunAccess access;
              access.operands = {image, group, iv};
              access.map =
                  AffineMap::getMultiDimIdentityMap(3, lb.getContext());
              affine::AffineYieldOp::create(
                  lb, ll, scalarBody(lb, ll, access, iterArgs));
            });
        llvm::append_range(sums, tail.getResults());
        return sums;
      });
  // The chains' sums, added up.
  for (int64_t c = 1; c < chains; ++c)
    for (unsigned i = 0; i < numVector; ++i)
      sums[i] = arith::AddFOp::create(b, loc, sums[i], sums[c * numVector + i]);
  sums.erase(sums.begin() + numVector, sums.begin() + chains * numVector);
  return sums;
}

/// A per-channel vector's value for `group`: the channel's element, or the
/// block's channels as a vector.
Value loadGroupValue(OpBuilder &b, Location loc, const RunView &view,
                     Value vector, Value group) {
  if (!view.blocked)
    return affine::AffineLoadOp::create(b, loc, vector, group);
  AffineMap map = AffineMap::get(
      1, 0, b.getAffineDimExpr(0) * view.vectorType.getNumElements());
  return affine::AffineVectorLoadOp::create(b, loc, view.vectorType, vector,
                                            map, group);
}

void storeGroupValue(OpBuilder &b, Location loc, const RunView &view,
                     Value value, Value vector, Value group) {
  if (!view.blocked) {
    affine::AffineStoreOp::create(b, loc, value, vector, group);
    return;
  }
  AffineMap map = AffineMap::get(
      1, 0, b.getAffineDimExpr(0) * view.vectorType.getNumElements());
  affine::AffineVectorStoreOp::create(b, loc, value, vector, map, group);
}

/// The shift of a group's statistics: its first element (per channel of a
/// block), or 0 for a group without elements.
Value buildShift(OpBuilder &b, Location loc, const RunView &view, Value input,
                 Value group) {
  Type type = view.groupType(b);
  auto loadFirst = [&](OpBuilder &lb, Location ll) -> Value {
    SmallVector<AffineExpr> index = {lb.getAffineConstantExpr(0),
                                     lb.getAffineDimExpr(0),
                                     lb.getAffineConstantExpr(0)};
    if (!view.blocked)
      return loadAt(lb, ll, input, group, index);
    index.push_back(lb.getAffineConstantExpr(0));
    return affine::AffineVectorLoadOp::create(
        lb, ll, view.vectorType, input,
        AffineMap::get(1, 0, index, lb.getContext()), group);
  };
  std::optional<int64_t> batch = getConstantIntValue(view.batch);
  std::optional<int64_t> length = getConstantIntValue(view.runLength);
  if (batch && length)
    return *batch * *length > 0 ? loadFirst(b, loc)
                                : constantOf(b, loc, type, 0.0);
  // Dynamic sizes: load only when the group has an element.
  SmallVector<Value> symbols;
  AffineExpr n = sizeExpr(b, view.batch, symbols);
  AffineExpr hw = sizeExpr(b, view.runLength, symbols);
  IntegerSet nonEmpty =
      IntegerSet::get(0, symbols.size(), {n - 1, hw - 1}, {false, false});
  auto ifOp = affine::AffineIfOp::create(b, loc, TypeRange{type}, nonEmpty,
                                         symbols, /*withElseRegion=*/true);
  OpBuilder thenBuilder = OpBuilder::atBlockEnd(ifOp.getThenBlock());
  affine::AffineYieldOp::create(thenBuilder, loc, loadFirst(thenBuilder, loc));
  OpBuilder elseBuilder = OpBuilder::atBlockEnd(ifOp.getElseBlock());
  affine::AffineYieldOp::create(elseBuilder, loc,
                                constantOf(elseBuilder, loc, type, 0.0));
  return ifOp.getResult(0);
}

/// Per-group mean and biased variance of `input` by the shifted-data
/// algorithm, in one sweep.
std::pair<Value, Value> buildStatistics(OpBuilder &b, Location loc,
                                        const RunView &view, Value input,
                                        Value group, Value count) {
  Value shift = buildShift(b, loc, view, input, group);
  Value vectorShift = broadcastTo(b, loc, shift, view.vectorType);
  Value vectorZero = constantOf(b, loc, view.vectorType, 0.0);
  Value zero = f32Constant(b, loc, 0.0);
  auto accumulate = [&](Value shiftValue) {
    return [&, shiftValue](OpBuilder &sb, Location l, const RunAccess &access,
                           ValueRange accs) -> SmallVector<Value> {
      Value centered =
          arith::SubFOp::create(sb, l, access.load(sb, l, input), shiftValue);
      return {arith::AddFOp::create(sb, l, accs[0], centered),
              math::FmaOp::create(sb, l, centered, centered, accs[1])};
    };
  };
  SmallVector<Value> sums = buildRunSweep(
      b, loc, view, group, {vectorZero, vectorZero},
      view.hasTail() ? SmallVector<Value>{zero, zero} : SmallVector<Value>{},
      accumulate(vectorShift), accumulate(shift), kStatisticsChains);
  Value sum = sums[0], squares = sums[1];
  if (!view.blocked) {
    // The lanes and the tail of a channel: one reduction each.
    bool tail = view.hasTail();
    auto reduce = [&](Value vector, Value tailSum) {
      return vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD,
                                         vector, tailSum,
                                         arith::FastMathFlags::reassoc)
          .getResult();
    };
    sum = reduce(sum, tail ? sums[2] : zero);
    squares = reduce(squares, tail ? sums[3] : zero);
  }
  Type type = view.groupType(b);
  Value m = broadcastTo(b, loc, count, type);
  Value meanShift = arith::DivFOp::create(b, loc, sum, m);
  Value mean = arith::AddFOp::create(b, loc, shift, meanShift);
  Value meanSquare = arith::DivFOp::create(b, loc, squares, m);
  Value variance = arith::SubFOp::create(
      b, loc, meanSquare, arith::MulFOp::create(b, loc, meanShift, meanShift));
  variance =
      arith::MaxNumFOp::create(b, loc, variance, constantOf(b, loc, type, 0.0));
  return {mean, variance};
}

/// Per-group mean and biased variance merged from `rows`
/// (`R1 x R2 x 2 x C`: per group of `rowCount` elements, their mean and sum
/// of squared deviations) by Chan et al.'s pairwise update, which keeps the
/// merged sums of squared deviations as exact as the rows'.
std::pair<Value, Value> mergeRowStatistics(OpBuilder &b, Location loc,
                                           const RunView &view, Value rows,
                                           Value group, Value count) {
  auto rowsType = cast<MemRefType>(rows.getType());
  int64_t numRows = rowsType.getDimSize(0) * rowsType.getDimSize(1);
  Type type = view.groupType(b);
  Value rowCount =
      f32Constant(b, loc,
                  static_cast<double>(*getConstantIntValue(view.batch)) *
                      *getConstantIntValue(view.runLength) / numRows);
  Value zero = constantOf(b, loc, type, 0.0);
  SmallVector<Value> merged = buildNest(
      b, loc,
      {b.getIndexAttr(rowsType.getDimSize(0)),
       b.getIndexAttr(rowsType.getDimSize(1))},
      {f32Constant(b, loc, 0.0), zero, zero},
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange acc) {
        // Statistic `which` of the rows' group: a channel, or a block's
        // channels as a vector.
        auto load = [&](int64_t which) -> Value {
          SmallVector<Value> operands(ivs);
          operands.push_back(group);
          AffineExpr channel = nb.getAffineDimExpr(2);
          if (view.blocked)
            channel = channel * view.vectorType.getNumElements();
          AffineMap map =
              AffineMap::get(3, 0,
                             {nb.getAffineDimExpr(0), nb.getAffineDimExpr(1),
                              nb.getAffineConstantExpr(which), channel},
                             nb.getContext());
          if (view.blocked)
            return affine::AffineVectorLoadOp::create(nb, l, view.vectorType,
                                                      rows, map, operands);
          return affine::AffineLoadOp::create(nb, l, rows, map, operands);
        };
        Value countA = acc[0], meanA = acc[1], squaresA = acc[2];
        Value meanB = load(0), squaresB = load(1);
        Value countAB = arith::AddFOp::create(nb, l, countA, rowCount);
        Value delta = arith::SubFOp::create(nb, l, meanB, meanA);
        // The row's share of the merged count, and the weight of delta^2.
        Value share = arith::DivFOp::create(nb, l, rowCount, countAB);
        Value weightB = broadcastTo(nb, l, share, type);
        Value weightAB = broadcastTo(
            nb, l, arith::MulFOp::create(nb, l, countA, share), type);
        Value mean = math::FmaOp::create(nb, l, delta, weightB, meanA);
        Value deltaSquared = arith::MulFOp::create(nb, l, delta, delta);
        Value squaresAB = arith::AddFOp::create(nb, l, squaresA, squaresB);
        Value squares =
            math::FmaOp::create(nb, l, deltaSquared, weightAB, squaresAB);
        return SmallVector<Value>{countAB, mean, squares};
      });
  Value variance = arith::DivFOp::create(b, loc, merged[2],
                                         broadcastTo(b, loc, count, type));
  variance = arith::MaxNumFOp::create(b, loc, variance, zero);
  return {merged[1], variance};
}

/// The normalize sweep of a group: `activation((x - mean) * scale + beta)`
/// with per-group `mean`, `scale` (gamma * invStd) and `beta`.
void buildNormalizeSweep(OpBuilder &b, Location loc, const RunView &view,
                         Value group, Value input, Value output, Value mean,
                         Value scale, Value beta,
                         std::optional<Activation> activation) {
  Value vectorMean = broadcastTo(b, loc, mean, view.vectorType);
  Value vectorScale = broadcastTo(b, loc, scale, view.vectorType);
  Value vectorBeta = broadcastTo(b, loc, beta, view.vectorType);
  auto normalize = [&](Value m, Value s, Value bt) {
    return [&, m, s, bt](OpBuilder &sb, Location l, const RunAccess &access,
                         ValueRange) -> SmallVector<Value> {
      Value centered =
          arith::SubFOp::create(sb, l, access.load(sb, l, input), m);
      Value y = math::FmaOp::create(sb, l, centered, s, bt);
      access.store(sb, l, applyActivation(sb, l, y, activation), output);
      return {};
    };
  };
  buildRunSweep(b, loc, view, group, {}, {},
                normalize(vectorMean, vectorScale, vectorBeta),
                normalize(mean, scale, beta));
}

/// 1 / sqrt(variance + epsilon).
Value buildInvStd(OpBuilder &b, Location loc, Value variance, float epsilon) {
  Value shifted = arith::AddFOp::create(
      b, loc, variance, constantOf(b, loc, variance.getType(), epsilon));
  return math::RsqrtOp::create(b, loc, shifted);
}

/// A view of a batch normalization's input and output with (h, w) collapsed
/// and unit-stride vectors; an activation without one goes through a
/// contiguous copy.
struct ContiguousActivations {
  Value input, output;
  /// A strided output, and the contiguous buffer written in its place.
  Value stridedOutput, outputScratch;
  SmallVector<Value> scratch;

  ContiguousActivations(OpBuilder &b, Location loc, Value in, Value out) {
    input = collapse(b, loc, in, /*copyIn=*/true);
    size_t numScratch = scratch.size();
    output = collapse(b, loc, out, /*copyIn=*/false);
    if (scratch.size() > numScratch) {
      stridedOutput = out;
      outputScratch = scratch.back();
    }
  }

  Value collapse(OpBuilder &b, Location loc, Value activation, bool copyIn) {
    auto type = cast<MemRefType>(activation.getType());
    SmallVector<ReassociationIndices> reassociation = runReassociation(type);
    SmallVector<int64_t> strides;
    int64_t offset;
    bool unitStride = succeeded(type.getStridesAndOffset(strides, offset)) &&
                      strides.back() == 1;
    if (!unitStride || !memref::CollapseShapeOp::isGuaranteedCollapsible(
                           type, reassociation)) {
      SmallVector<Value> dynamicSizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          dynamicSizes.push_back(memref::DimOp::create(b, loc, activation, d));
      Value contiguous = memref::AllocOp::create(
          b, loc, MemRefType::get(type.getShape(), type.getElementType()),
          dynamicSizes);
      scratch.push_back(contiguous);
      if (copyIn)
        copy(b, loc, activation, contiguous);
      activation = contiguous;
    }
    return memref::CollapseShapeOp::create(b, loc, activation, reassociation);
  }

  static void copy(OpBuilder &b, Location loc, Value from, Value to) {
    buildNest(b, loc, getSizes(b, loc, from),
              [&](OpBuilder &nb, Location l, ValueRange ivs) {
                SmallVector<AffineExpr> index = identityIndex(nb, ivs.size());
                storeAt(nb, l, loadAt(nb, l, from, ivs, index), to, ivs, index);
              });
  }

  /// Copies a strided output back and frees the scratch buffers.
  void finish(OpBuilder &b, Location loc) {
    if (stridedOutput)
      copy(b, loc, outputScratch, stridedOutput);
    for (Value buffer : scratch)
      memref::DeallocOp::create(b, loc, buffer);
  }
};

struct BatchNormInferenceLowering : OpRewritePattern<BatchNormInferenceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormInferenceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ContiguousActivations activations(rewriter, loc, op.getInput(),
                                      op.getOutput());
    RunView view(rewriter, loc, activations.input);
    float epsilon = op.getEpsilon().convertToFloat();
    buildNest(rewriter, loc, {view.groups},
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                Value group = ivs[0];
                auto param = [&](Value vector) {
                  return loadGroupValue(b, l, view, vector, group);
                };
                Value invStd =
                    buildInvStd(b, l, param(op.getVariance()), epsilon);
                Value scale =
                    arith::MulFOp::create(b, l, param(op.getGamma()), invStd);
                // Separate statements: the IR's order must not depend on the
                // compiler's order of evaluating arguments.
                Value mean = param(op.getMean());
                Value beta = param(op.getBeta());
                buildNormalizeSweep(b, l, view, group, activations.input,
                                    activations.output, mean, scale, beta,
                                    op.getActivation());
              });
    activations.finish(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct BatchNormTrainingLowering : OpRewritePattern<BatchNormTrainingOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormTrainingOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ContiguousActivations activations(rewriter, loc, op.getInput(),
                                      op.getOutput());
    RunView view(rewriter, loc, activations.input);
    OpFoldResult elements = view.runLength;
    if (std::optional<int64_t> batch = getConstantIntValue(view.batch);
        batch && getConstantIntValue(elements))
      elements = rewriter.getIndexAttr(*batch * *getConstantIntValue(elements));
    else
      elements =
          arith::MulIOp::create(
              rewriter, loc,
              getValueOrCreateConstantIndexOp(rewriter, loc, view.batch),
              getValueOrCreateConstantIndexOp(rewriter, loc, view.runLength))
              .getResult();
    Value count = indexToF32(rewriter, loc, elements);
    float epsilon = op.getEpsilon().convertToFloat();
    buildNest(
        rewriter, loc, {view.groups},
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value group = ivs[0];
          auto [mean, variance] =
              op.getRowStatistics()
                  ? mergeRowStatistics(b, l, view, op.getRowStatistics(), group,
                                       count)
                  : buildStatistics(b, l, view, activations.input, group,
                                    count);
          storeGroupValue(b, l, view, mean, op.getSavedMean(), group);
          storeGroupValue(b, l, view, variance, op.getSavedVariance(), group);
          Value invStd = buildInvStd(b, l, variance, epsilon);
          if (Value savedInvStd = op.getSavedInvStd())
            storeGroupValue(b, l, view, invStd, savedInvStd, group);
          Value scale = arith::MulFOp::create(
              b, l, loadGroupValue(b, l, view, op.getGamma(), group), invStd);
          buildNormalizeSweep(b, l, view, group, activations.input,
                              activations.output, mean, scale,
                              loadGroupValue(b, l, view, op.getBeta(), group),
                              op.getActivation());
        });
    activations.finish(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void dl::populateBatchNormLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<BatchNormInferenceLowering, BatchNormTrainingLowering>(
      patterns.getContext());
}
