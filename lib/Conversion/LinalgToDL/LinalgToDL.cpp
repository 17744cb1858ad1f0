//===- LinalgToDL.cpp - raising linalg to dl --------------------*- C++ -*-===//
//
// convert-linalg-to-dl: the linalg form MLIR front ends produce (TOSA,
// StableHLO and torch-mlir lower to it) raised to dl ops, so that their GEMMs
// and convolutions take dl's schedules and microkernels. Ops are matched by
// semantics: GEMMs and convolutions by the named op and its indexing maps,
// element-wise ops (linalg.generic or named) by what their body computes.
//
// A linalg GEMM or convolution accumulates into its output; a dl one may
// overwrite it. A zero-filled output (linalg.fill 0, the usual form) is the
// dl op's output as it is; a per-channel bias broadcast into it (TOSA's
// convolution) becomes a dl.bias_add after the op; any other output is added
// after the op (dl.add). A zero padding copy of a convolution's input
// (tensor.pad) becomes the op's padding. NHWC convolutions transpose their
// input and filter to the NCHW and FCHW layouts dl.conv2d takes, and the
// result back (linalg.transpose: dl-fold-layout-transposes folds them into
// the layout copies of a blocked convolution, others lower to loops).
//
//===----------------------------------------------------------------------===//

#include "dl/Conversion/LinalgToDL.h"
#include "dl/Conversion/Passes.h"
#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_CONVERTLINALGTODL
#include "dl/Conversion/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

using Failure = std::optional<std::string>;

bool allF32(Operation *op) {
  return llvm::all_of(op->getOperands(), [](Value value) {
    auto type = dyn_cast<ShapedType>(value.getType());
    return type && type.getElementType().isF32();
  });
}

bool allStatic(Operation *op) {
  return llvm::all_of(op->getOperands(), [](Value value) {
    return cast<ShapedType>(value.getType()).hasStaticShape();
  });
}

bool isConstantFloat(Value value, double expected) {
  FloatAttr attr;
  return matchPattern(value, m_Constant(&attr)) &&
         attr.getValueAsDouble() == expected;
}

/// Where a zero-filled output of `user` starts: on tensors, the destination
/// of the `linalg.fill 0` that defines `init`; on buffers, `init` itself when
/// the op right before `user` fills it with 0. Null otherwise.
Value getZeroFilledDestination(Value init, Operation *user) {
  auto isZeroFill = [](linalg::FillOp fill) {
    return fill && isConstantFloat(fill.getInputs()[0], 0.0);
  };
  if (isa<TensorType>(init.getType())) {
    auto fill = init.getDefiningOp<linalg::FillOp>();
    return isZeroFill(fill) ? fill.getOutputs()[0] : Value();
  }
  auto fill = dyn_cast_or_null<linalg::FillOp>(user->getPrevNode());
  return isZeroFill(fill) && fill.getOutputs()[0] == init ? init : Value();
}

/// A vector broadcast along dimension `channelDim` into a new tensor (the
/// init TOSA gives a convolution with a bias): the vector and the tensor it
/// is broadcast into.
struct BiasBroadcast {
  Value bias, dest;
};
std::optional<BiasBroadcast> getBiasBroadcast(Value init, unsigned channelDim) {
  auto generic = init.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !allF32(generic))
    return std::nullopt;
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  if (!maps[1].isIdentity() || maps[0].getNumResults() != 1 ||
      maps[0].getResult(0) !=
          getAffineDimExpr(channelDim, generic.getContext()))
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (yield.getValues()[0] != generic.getBody()->getArgument(0))
    return std::nullopt;
  return BiasBroadcast{generic.getDpsInputs()[0], generic.getDpsInits()[0]};
}

/// Creates the values a raising needs in the form of the op it raises:
/// tensors (tensor.empty; an op's value is its result) or buffers
/// (memref.alloc, freed after the raised ops; an op's value is its output).
class ShapedValues {
public:
  ShapedValues(PatternRewriter &rewriter, Location loc, bool tensors)
      : rewriter(rewriter), loc(loc), tensors(tensors) {}

  Value empty(ArrayRef<int64_t> shape) {
    Type f32 = rewriter.getF32Type();
    if (tensors)
      return tensor::EmptyOp::create(rewriter, loc, shape, f32);
    Value buffer =
        memref::AllocOp::create(rewriter, loc, MemRefType::get(shape, f32));
    temporaries.push_back(buffer);
    return buffer;
  }

  /// The result types of an op writing `dest`.
  SmallVector<Type> resultTypes(Value dest) const {
    return tensors ? SmallVector<Type>{dest.getType()} : SmallVector<Type>{};
  }

  /// The value `op` leaves in `dest`.
  Value valueOf(Operation *op, Value dest) const {
    return tensors ? op->getResult(0) : dest;
  }

  /// `value` with its dimensions permuted (result dimension i is dimension
  /// `permutation[i]` of `value`), into `dest` or a new value.
  Value transpose(Value value, ArrayRef<int64_t> permutation, Value dest = {}) {
    auto type = cast<ShapedType>(value.getType());
    if (!dest) {
      SmallVector<int64_t> shape;
      for (int64_t dim : permutation)
        shape.push_back(type.getDimSize(dim));
      dest = empty(shape);
    }
    auto op =
        linalg::TransposeOp::create(rewriter, loc, value, dest, permutation);
    return valueOf(op, dest);
  }

  /// `value` with its dimensions grouped by `groups` (a 1 x M x K batch
  /// as M x K).
  Value collapse(Value value, ArrayRef<ReassociationIndices> groups) {
    if (tensors)
      return tensor::CollapseShapeOp::create(rewriter, loc, value, groups);
    return memref::CollapseShapeOp::create(rewriter, loc, value, groups);
  }

  void freeTemporaries() {
    for (Value buffer : temporaries)
      memref::DeallocOp::create(rewriter, loc, buffer);
  }

  /// Replaces `op` by `value` (tensors) or erases it (buffers).
  void replace(Operation *op, Value value) {
    if (tensors)
      rewriter.replaceOp(op, value);
    else
      rewriter.eraseOp(op);
  }

private:
  PatternRewriter &rewriter;
  Location loc;
  bool tensors;
  SmallVector<Value> temporaries;
};

//===----------------------------------------------------------------------===//
// GEMMs
//===----------------------------------------------------------------------===//

/// The transposes of a linalg.matmul's indexing maps: A x B, A^T x B or
/// A x B^T (the maps linalg.matmul takes for them).
std::optional<std::pair<bool, bool>> getMatmulTransposes(linalg::MatmulOp op) {
  if (!op.hasUserDefinedMaps())
    return std::make_pair(false, false);
  MLIRContext *context = op.getContext();
  AffineExpr m = getAffineDimExpr(0, context), n = getAffineDimExpr(1, context),
             k = getAffineDimExpr(2, context);
  auto map = [&](ArrayRef<AffineExpr> results) {
    return AffineMap::get(3, 0, results, context);
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps[2] != map({m, n}))
    return std::nullopt;
  bool transposeA = maps[0] == map({k, m}), transposeB = maps[1] == map({n, k});
  if ((transposeA || maps[0] == map({m, k})) &&
      (transposeB || maps[1] == map({k, n})))
    return std::make_pair(transposeA, transposeB);
  return std::nullopt;
}

Failure checkMatmul(linalg::MatmulOp op) {
  if (!allF32(op))
    return std::string("its element type is not f32");
  if (!getMatmulTransposes(op))
    return std::string("its indexing maps are not those of A x B, A^T x B or "
                       "A x B^T");
  return std::nullopt;
}

Failure checkBatchMatmul(linalg::BatchMatmulOp op) {
  if (!allF32(op))
    return std::string("its element type is not f32");
  if (op.hasUserDefinedMaps())
    return std::string("its indexing maps are not the default ones");
  int64_t batch =
      cast<ShapedType>(op.getDpsInputs()[0].getType()).getDimSize(0);
  if (batch != 1)
    return ShapedType::isDynamic(batch)
               ? std::string("its batch size is dynamic (dl.matmul computes "
                             "one GEMM)")
               : "it is a batch of " + std::to_string(batch) +
                     " GEMMs (dl.matmul computes one)";
  return std::nullopt;
}

/// C = A x B (+ C unless C is zero-filled) as a dl.matmul; a batch of one
/// GEMM through collapsed views.
LogicalResult raiseGemm(PatternRewriter &rewriter, Operation *op, bool batch,
                        bool transposeA, bool transposeB) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  Value a = linalgOp.getDpsInputs()[0], b = linalgOp.getDpsInputs()[1],
        c = linalgOp.getDpsInits()[0];
  bool tensors = isa<TensorType>(c.getType());
  ShapedValues values(rewriter, op->getLoc(), tensors);
  Value dest = getZeroFilledDestination(c, op);
  bool accumulate = !dest;
  if (accumulate)
    dest = c;
  SmallVector<ReassociationIndices> dropBatch = {{0, 1}, {2}};
  if (batch) {
    a = values.collapse(a, dropBatch);
    b = values.collapse(b, dropBatch);
    dest = values.collapse(dest, dropBatch);
  }
  SmallVector<NamedAttribute> attrs = {rewriter.getNamedAttr(
      "beta", rewriter.getF32FloatAttr(accumulate ? 1.0f : 0.0f))};
  if (transposeA)
    attrs.push_back(
        rewriter.getNamedAttr("transpose_a", rewriter.getUnitAttr()));
  if (transposeB)
    attrs.push_back(
        rewriter.getNamedAttr("transpose_b", rewriter.getUnitAttr()));
  auto matmul =
      dl::MatmulOp::create(rewriter, op->getLoc(), values.resultTypes(dest),
                           ValueRange{a, b, dest}, attrs);
  Value result = values.valueOf(matmul, dest);
  if (batch && tensors)
    result = tensor::ExpandShapeOp::create(rewriter, op->getLoc(), c.getType(),
                                           result, dropBatch);
  values.replace(op, result);
  return success();
}

struct RaiseMatmul : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (Failure failure = checkMatmul(op))
      return rewriter.notifyMatchFailure(op, *failure);
    auto [transposeA, transposeB] = *getMatmulTransposes(op);
    return raiseGemm(rewriter, op, /*batch=*/false, transposeA, transposeB);
  }
};

struct RaiseBatchMatmul : OpRewritePattern<linalg::BatchMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (Failure failure = checkBatchMatmul(op))
      return rewriter.notifyMatchFailure(op, *failure);
    return raiseGemm(rewriter, op, /*batch=*/true, false, false);
  }
};

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

/// How a linalg convolution's layout maps to dl.conv2d's: the permutations
/// to NCHW (input) and FCHW (filter), empty where the layout is already
/// dl's, and the position of the channels and rows in the input and output.
struct ConvLayout {
  SmallVector<int64_t, 4> inputToNCHW, filterToFCHW;
  unsigned channelDim, heightDim;
  bool isNCHW() const { return inputToNCHW.empty(); }
};

const ConvLayout kNCHWFCHW = {{}, {}, /*channelDim=*/1, /*heightDim=*/2};
const ConvLayout kNHWCHWCF = {{0, 3, 1, 2}, {3, 2, 0, 1}, 3, 1};
const ConvLayout kNHWCFHWC = {{0, 3, 1, 2}, {0, 3, 1, 2}, 3, 1};

Failure checkConv(linalg::LinalgOp op) {
  if (!allF32(op))
    return std::string("its element type is not f32");
  if (!allStatic(op))
    return std::string("it has dynamic sizes (its layout changes and "
                       "temporaries are built for static ones)");
  return std::nullopt;
}

/// Folds a zero padding of the spatial dimensions of `input` (a tensor.pad
/// of constant 0, the copy TOSA pads with) into `padding` ([top, left,
/// bottom, right]) and returns the unpadded input; `input` otherwise.
Value foldZeroPadding(Value input, const ConvLayout &layout,
                      SmallVectorImpl<int64_t> &padding) {
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (!pad || !pad.getConstantPaddingValue() ||
      !isConstantFloat(pad.getConstantPaddingValue(), 0.0))
    return input;
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  unsigned h = layout.heightDim, w = layout.heightDim + 1;
  for (unsigned dim : {0u, layout.channelDim})
    if (low[dim] != 0 || high[dim] != 0)
      return input;
  for (int64_t size : {low[h], low[w], high[h], high[w]})
    if (ShapedType::isDynamic(size) || size < 0)
      return input;
  padding.assign({low[h], low[w], high[h], high[w]});
  return pad.getSource();
}

LogicalResult raiseConv(PatternRewriter &rewriter, linalg::LinalgOp op,
                        const ConvLayout &layout, DenseIntElementsAttr strides,
                        DenseIntElementsAttr dilations) {
  Location loc = op.getLoc();
  Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1],
        output = op.getDpsInits()[0];
  bool tensors = isa<TensorType>(output.getType());
  ShapedValues values(rewriter, loc, tensors);
  SmallVector<int64_t> padding = {0, 0, 0, 0};
  if (tensors)
    input = foldZeroPadding(input, layout, padding);
  if (!layout.isNCHW()) {
    input = values.transpose(input, layout.inputToNCHW);
    filter = values.transpose(filter, layout.filterToFCHW);
  }
  // Where the convolution's sums go, and what is added to them.
  Value dest = getZeroFilledDestination(output, op);
  std::optional<BiasBroadcast> bias;
  if (!dest && tensors && (bias = getBiasBroadcast(output, layout.channelDim)))
    dest = bias->dest;
  bool accumulate = !dest;
  ArrayRef<int64_t> outputShape = cast<ShapedType>(output.getType()).getShape();
  SmallVector<int64_t> nchwShape(outputShape);
  if (!layout.isNCHW())
    nchwShape.assign(
        {outputShape[0], outputShape[3], outputShape[1], outputShape[2]});
  Value sums = layout.isNCHW() && !accumulate ? dest : values.empty(nchwShape);
  auto conv = dl::Conv2DOp::create(
      rewriter, loc, values.resultTypes(sums), input, filter, sums,
      llvm::to_vector(strides.getValues<int64_t>()), padding,
      llvm::to_vector(dilations.getValues<int64_t>()), /*groups=*/1,
      /*group_lanes=*/nullptr,
      /*schedule=*/nullptr,
      /*skip_padding_columns=*/false, /*pixel_vectors=*/false,
      /*epilogue_operands=*/ValueRange{}, /*row_statistics=*/Value(),
      /*epilogue=*/nullptr, /*epilogue_epsilon=*/nullptr);
  Value result = values.valueOf(conv, sums);
  if (bias) {
    auto add = dl::BiasAddOp::create(rewriter, loc, values.resultTypes(result),
                                     result, bias->bias, result);
    result = values.valueOf(add, result);
  }
  if (!layout.isNCHW())
    result =
        values.transpose(result, {0, 2, 3, 1}, accumulate ? Value() : dest);
  if (accumulate) {
    auto add = dl::AddOp::create(rewriter, loc, values.resultTypes(output),
                                 result, output, output);
    result = values.valueOf(add, output);
  }
  values.freeTemporaries();
  values.replace(op, result);
  return success();
}

template <typename ConvOp> struct RaiseConv : OpRewritePattern<ConvOp> {
  RaiseConv(MLIRContext *context, const ConvLayout &layout)
      : OpRewritePattern<ConvOp>(context), layout(layout) {}
  LogicalResult matchAndRewrite(ConvOp op,
                                PatternRewriter &rewriter) const override {
    if (Failure failure = checkConv(op))
      return rewriter.notifyMatchFailure(op, *failure);
    return raiseConv(rewriter, op, layout, op.getStrides(), op.getDilations());
  }
  ConvLayout layout;
};

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

enum class Elementwise { Relu, Relu6, Add, BiasAdd, BatchNormInference };

/// What an all-parallel linalg op's body computes, on which of its inputs
/// (for a batch normalization: x, gamma, beta, mean, variance).
struct ElementwiseMatch {
  Elementwise kind;
  SmallVector<unsigned, 5> inputs;
  double epsilon = 0.0;
};

/// Whether input `input` of `op` is a vector along dimension 1 (the
/// channels of NCHW, the columns of a matrix): indexed by d1 alone, or, for a
/// 4-D op, a 1 x C x 1 x 1 operand broadcast along the others (TOSA's and
/// torch-mlir's form: every result but the second indexes a dimension of size
/// 1), which RaiseElementwise reads collapsed to its C values.
bool isChannelVector(linalg::LinalgOp op, unsigned input) {
  AffineMap map = op.getIndexingMapsArray()[input];
  AffineExpr channel = getAffineDimExpr(1, op.getContext());
  if (map.getNumResults() == 1)
    return map.getResult(0) == channel;
  auto type = dyn_cast<ShapedType>(op.getDpsInputs()[input].getType());
  if (op.getNumLoops() != 4 || map.getNumResults() != 4 || !type ||
      map.getResult(1) != channel)
    return false;
  for (unsigned dim : {0u, 2u, 3u})
    if (type.getDimSize(dim) != 1)
      return false;
  auto buffer = dyn_cast<MemRefType>(type);
  return !buffer || memref::CollapseShapeOp::isGuaranteedCollapsible(
                        buffer, {{0, 1, 2, 3}});
}

/// Matches the values of an element-wise body.
class BodyMatcher {
public:
  explicit BodyMatcher(linalg::LinalgOp op) : op(op) {}

  /// The input whose element `value` is.
  std::optional<unsigned> inputOf(Value value) const {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || arg.getOwner() != op.getBlock() ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return std::nullopt;
    return arg.getArgNumber();
  }

  /// Whether `value` is `constant` everywhere: a constant, or the element of
  /// an input filled with it (linalg.max of a tensor and zeros).
  bool isConstant(Value value, double constant) const {
    if (isConstantFloat(value, constant))
      return true;
    std::optional<unsigned> input = inputOf(value);
    if (!input)
      return false;
    Value operand = op.getDpsInputs()[*input];
    if (auto fill = operand.getDefiningOp<linalg::FillOp>())
      return isConstantFloat(fill.getInputs()[0], constant);
    DenseElementsAttr splat;
    return matchPattern(operand, m_Constant(&splat)) && splat.isSplat() &&
           splat.getSplatValue<APFloat>().convertToDouble() == constant;
  }

  /// Whether `value` is at least the largest finite f32 (a clamp without an
  /// upper bound).
  bool isUnbounded(Value value) const {
    FloatAttr attr;
    return matchPattern(value, m_Constant(&attr)) &&
           attr.getValueAsDouble() >= std::numeric_limits<float>::max();
  }

  /// `max(x, 0)` (either order, maximumf or maxnumf, or a select of x where
  /// x > 0): the x.
  Value matchMaxWithZero(Value value) const {
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<arith::MaximumFOp, arith::MaxNumFOp>(def)) {
      for (auto [x, zero] : {std::pair(def->getOperand(0), def->getOperand(1)),
                             std::pair(def->getOperand(1), def->getOperand(0))})
        if (isConstant(zero, 0.0))
          return x;
      return {};
    }
    auto select = dyn_cast_or_null<arith::SelectOp>(def);
    auto compare = select ? select.getCondition().getDefiningOp<arith::CmpFOp>()
                          : arith::CmpFOp();
    if (!compare || !isConstant(select.getFalseValue(), 0.0) ||
        compare.getLhs() != select.getTrueValue() ||
        !isConstant(compare.getRhs(), 0.0))
      return {};
    using P = arith::CmpFPredicate;
    P predicate = compare.getPredicate();
    bool greater = predicate == P::OGT || predicate == P::UGT ||
                   predicate == P::OGE || predicate == P::UGE;
    return greater ? select.getTrueValue() : Value();
  }

  /// `min(x, bound)` (either order, minimumf or minnumf): x and the bound.
  std::optional<std::pair<Value, Value>> matchMin(Value value) const {
    Operation *def = value.getDefiningOp();
    if (!isa_and_nonnull<arith::MinimumFOp, arith::MinNumFOp>(def))
      return std::nullopt;
    FloatAttr attr;
    if (matchPattern(def->getOperand(0), m_Constant(&attr)))
      return std::make_pair(def->getOperand(1), def->getOperand(0));
    return std::make_pair(def->getOperand(0), def->getOperand(1));
  }

  /// ReLU or ReLU6 as max(x, 0), a clamp min(max(x, 0), hi) or
  /// max(min(x, hi), 0), hi 6 or unbounded.
  std::optional<ElementwiseMatch> matchActivation(Value value) const {
    auto withBound = [&](Value x,
                         Value bound) -> std::optional<ElementwiseMatch> {
      std::optional<unsigned> input = inputOf(x);
      if (!input)
        return std::nullopt;
      if (isConstant(bound, 6.0))
        return ElementwiseMatch{Elementwise::Relu6, {*input}};
      if (isUnbounded(bound))
        return ElementwiseMatch{Elementwise::Relu, {*input}};
      return std::nullopt;
    };
    if (Value x = matchMaxWithZero(value)) {
      if (std::optional<unsigned> input = inputOf(x))
        return ElementwiseMatch{Elementwise::Relu, {*input}};
      if (auto min = matchMin(x))
        return withBound(min->first, min->second);
      return std::nullopt;
    }
    if (auto min = matchMin(value))
      if (Value x = matchMaxWithZero(min->first))
        return withBound(x, min->second);
    return std::nullopt;
  }

  /// lhs + rhs of two inputs: a residual add where both are indexed as the
  /// output, a bias add where one is a vector along dimension 1 (the
  /// channels of NCHW, the columns of a matrix).
  std::optional<ElementwiseMatch> matchAdd(Value value) const {
    auto add = value.getDefiningOp<arith::AddFOp>();
    if (!add)
      return std::nullopt;
    std::optional<unsigned> lhs = inputOf(add.getLhs()),
                            rhs = inputOf(add.getRhs());
    if (!lhs || !rhs || lhs == rhs)
      return std::nullopt;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    auto isBias = [&](unsigned input) { return isChannelVector(op, input); };
    if (maps[*lhs].isIdentity() && maps[*rhs].isIdentity())
      return ElementwiseMatch{Elementwise::Add, {*lhs, *rhs}};
    unsigned rank = op.getNumLoops();
    if (rank != 2 && rank != 4)
      return std::nullopt;
    if (maps[*lhs].isIdentity() && isBias(*rhs))
      return ElementwiseMatch{Elementwise::BiasAdd, {*lhs, *rhs}};
    if (maps[*rhs].isIdentity() && isBias(*lhs))
      return ElementwiseMatch{Elementwise::BiasAdd, {*rhs, *lhs}};
    return std::nullopt;
  }

private:
  mutable linalg::LinalgOp op;
};

/// The body of `op` evaluated in double at `inputs` (one value per input),
/// or nullopt where it has an op this does not model (the arithmetic a
/// batch normalization's scale and shift are written with).
std::optional<double> evaluateBody(linalg::LinalgOp op,
                                   ArrayRef<double> inputs) {
  DenseMap<Value, double> values;
  for (auto [i, value] : llvm::enumerate(inputs))
    values[op.getBlock()->getArgument(i)] = value;
  auto get = [&](Value value) -> std::optional<double> {
    if (auto it = values.find(value); it != values.end())
      return it->second;
    FloatAttr constant;
    if (matchPattern(value, m_Constant(&constant)))
      return constant.getValueAsDouble();
    return std::nullopt;
  };
  for (Operation &inner : op.getBlock()->without_terminator()) {
    SmallVector<double, 2> operands;
    for (Value operand : inner.getOperands()) {
      std::optional<double> value = get(operand);
      if (!value)
        return std::nullopt;
      operands.push_back(*value);
    }
    std::optional<double> result =
        TypeSwitch<Operation *, std::optional<double>>(&inner)
            .Case([&](arith::AddFOp) { return operands[0] + operands[1]; })
            .Case([&](arith::SubFOp) { return operands[0] - operands[1]; })
            .Case([&](arith::MulFOp) { return operands[0] * operands[1]; })
            .Case([&](arith::DivFOp) { return operands[0] / operands[1]; })
            .Case([&](arith::NegFOp) { return -operands[0]; })
            .Case([&](math::SqrtOp) { return std::sqrt(operands[0]); })
            .Case([&](math::RsqrtOp) { return 1.0 / std::sqrt(operands[0]); })
            .Case([&](arith::ConstantOp) -> std::optional<double> {
              FloatAttr constant = dyn_cast<FloatAttr>(
                  cast<arith::ConstantOp>(inner).getValue());
              if (!constant)
                return std::nullopt;
              return constant.getValueAsDouble();
            })
            .Default([](Operation *) { return std::nullopt; });
    if (!result || inner.getNumResults() != 1)
      return std::nullopt;
    values[inner.getResult(0)] = *result;
  }
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  return get(yield.getValues()[0]);
}

/// An inference batch normalization, `gamma * (x - mean) / sqrt(variance +
/// epsilon) + beta`, in whatever arithmetic the body writes it (as
/// torch-mlir's lowering and elementwise fusion of TOSA's ops do): x indexed
/// as the output, four vectors along the channels (dimension 1, NCHW),
/// epsilon one of the body's constants. Matched by evaluating the body at
/// sample points for each assignment of the vectors to the four roles.
std::optional<ElementwiseMatch> matchBatchNormInference(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 5 || op.getNumLoops() != 4)
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  std::optional<unsigned> x;
  SmallVector<unsigned, 4> vectors;
  for (unsigned i = 0; i < 5; ++i) {
    if (maps[i].isIdentity() && !x)
      x = i;
    else if (isChannelVector(op, i))
      vectors.push_back(i);
  }
  if (!x || vectors.size() != 4)
    return std::nullopt;
  SmallVector<double> epsilons;
  op.getBlock()->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands()) {
      FloatAttr constant;
      if (matchPattern(operand, m_Constant(&constant)))
        epsilons.push_back(constant.getValueAsDouble());
    }
  });
  // Samples of (x, gamma, beta, mean, variance), variance positive.
  const double samples[][5] = {{0.7, 1.3, -0.4, 0.2, 0.9},
                               {-1.9, 0.6, 0.8, -0.7, 1.7},
                               {2.3, -1.1, 0.1, 1.4, 0.35},
                               {0.05, 2.2, -1.6, -0.3, 2.9}};
  SmallVector<unsigned, 4> roles(vectors);
  llvm::sort(roles);
  do {
    for (double epsilon : epsilons) {
      if (!(epsilon > 0))
        continue;
      bool matches = true;
      for (const auto &sample : samples) {
        SmallVector<double, 5> inputs(5);
        inputs[*x] = sample[0];
        for (unsigned role = 0; role < 4; ++role)
          inputs[roles[role]] = sample[role + 1];
        double expected = sample[1] * (sample[0] - sample[3]) /
                              std::sqrt(sample[4] + epsilon) +
                          sample[2];
        std::optional<double> value = evaluateBody(op, inputs);
        if (!value ||
            !(std::abs(*value - expected) <= 1e-9 * (1 + std::abs(expected)))) {
          matches = false;
          break;
        }
      }
      if (matches)
        return ElementwiseMatch{Elementwise::BatchNormInference,
                                {*x, roles[0], roles[1], roles[2], roles[3]},
                                epsilon};
    }
  } while (std::next_permutation(roles.begin(), roles.end()));
  return std::nullopt;
}

/// Whether `op` is an element-wise op the raising looks at: all loops
/// parallel, one output indexed as the loops, one or two inputs (five for a
/// batch normalization).
bool isElementwiseCandidate(linalg::LinalgOp op) {
  return !isa<linalg::FillOp, linalg::TransposeOp, linalg::CopyOp>(op) &&
         op.getNumDpsInits() == 1 && op.getNumDpsInputs() >= 1 &&
         (op.getNumDpsInputs() <= 2 || op.getNumDpsInputs() == 5) &&
         op.getNumParallelLoops() == op.getNumLoops() && op.getBlock() &&
         op.getIndexingMapsArray().back().isIdentity();
}

FailureOr<ElementwiseMatch> matchElementwise(linalg::LinalgOp op,
                                             std::string &reason) {
  if (!allF32(op)) {
    reason = "its element type is not f32";
    return failure();
  }
  if (op.payloadUsesValueFromOperand(op.getDpsInitOperand(0))) {
    reason = "its body reads the output";
    return failure();
  }
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  BodyMatcher matcher(op);
  std::optional<ElementwiseMatch> match =
      matcher.matchActivation(yield.getValues()[0]);
  if (!match)
    match = matcher.matchAdd(yield.getValues()[0]);
  if (!match)
    match = matchBatchNormInference(op);
  if (!match) {
    reason = "its body is not a ReLU, a ReLU6 (or clamp), an add, a bias "
             "add or a batch normalization";
    return failure();
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (match->kind != Elementwise::BiasAdd &&
      match->kind != Elementwise::BatchNormInference &&
      !llvm::all_of(match->inputs,
                    [&](unsigned input) { return maps[input].isIdentity(); })) {
    reason = "an input is not indexed as the output";
    return failure();
  }
  return *match;
}

struct RaiseElementwise : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwiseCandidate(op))
      return rewriter.notifyMatchFailure(op, "not an element-wise op");
    std::string reason;
    FailureOr<ElementwiseMatch> match = matchElementwise(op, reason);
    if (failed(match))
      return rewriter.notifyMatchFailure(op, reason);
    Value output = op.getDpsInits()[0];
    ShapedValues values(rewriter, op.getLoc(),
                        isa<TensorType>(output.getType()));
    SmallVector<Value> inputs;
    for (unsigned input : match->inputs) {
      Value value = op.getDpsInputs()[input];
      // A 1 x C x 1 x 1 channel vector as its C values.
      if (cast<ShapedType>(value.getType()).getRank() == 4 &&
          isChannelVector(op, input))
        value = values.collapse(value, {{0, 1, 2, 3}});
      inputs.push_back(value);
    }
    SmallVector<Type> types = values.resultTypes(output);
    Location loc = op.getLoc();
    Operation *raised = nullptr;
    switch (match->kind) {
    case Elementwise::Relu:
      raised = dl::ReluOp::create(rewriter, loc, types, inputs[0], output);
      break;
    case Elementwise::Relu6:
      raised = dl::Relu6Op::create(rewriter, loc, types, inputs[0], output);
      break;
    case Elementwise::Add:
      raised =
          dl::AddOp::create(rewriter, loc, types, inputs[0], inputs[1], output);
      break;
    case Elementwise::BiasAdd:
      raised = dl::BiasAddOp::create(rewriter, loc, types, inputs[0], inputs[1],
                                     output);
      break;
    case Elementwise::BatchNormInference:
      raised = dl::BatchNormInferenceOp::create(
          rewriter, loc, types,
          ValueRange{inputs[0], inputs[1], inputs[2], inputs[3], inputs[4],
                     output},
          {rewriter.getNamedAttr("epsilon",
                                 rewriter.getF32FloatAttr(match->epsilon))});
      break;
    }
    values.replace(op, values.valueOf(raised, output));
    return success();
  }
};

struct ConvertLinalgToDLPass
    : dl::impl::ConvertLinalgToDLBase<ConvertLinalgToDLPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLinalgToDLPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation()->walk([](linalg::LinalgOp op) {
      if (Failure failure = getRaisingFailure(op))
        op->emitRemark() << "left as linalg: " << *failure;
    });
  }
};

} // namespace

std::optional<std::string> mlir::dl::getRaisingFailure(Operation *op) {
  return TypeSwitch<Operation *, Failure>(op)
      .Case([](linalg::MatmulOp matmul) { return checkMatmul(matmul); })
      .Case(
          [](linalg::BatchMatmulOp matmul) { return checkBatchMatmul(matmul); })
      .Case<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp,
            linalg::Conv2DNhwcFhwcOp>([](auto conv) { return checkConv(conv); })
      .Case([](linalg::LinalgOp linalgOp) -> Failure {
        if (!isElementwiseCandidate(linalgOp))
          return std::nullopt;
        std::string reason;
        if (succeeded(matchElementwise(linalgOp, reason)))
          return std::nullopt;
        return reason;
      })
      .Default([](Operation *) { return std::nullopt; });
}

void mlir::dl::populateLinalgToDLPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<RaiseMatmul, RaiseBatchMatmul, RaiseElementwise>(context);
  patterns.add<RaiseConv<linalg::Conv2DNchwFchwOp>>(context, kNCHWFCHW);
  patterns.add<RaiseConv<linalg::Conv2DNhwcHwcfOp>>(context, kNHWCHWCF);
  patterns.add<RaiseConv<linalg::Conv2DNhwcFhwcOp>>(context, kNHWCFHWC);
}
