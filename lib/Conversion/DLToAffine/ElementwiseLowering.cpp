//===- ElementwiseLowering.cpp - element-wise dl ops to affine nests ------===//
//
// The lowering of the element-wise dl ops (dl.relu, dl.relu6, dl.sigmoid,
// dl.silu, dl.hard_sigmoid, dl.hard_swish, dl.add, dl.mul, dl.bias_add): one
// nest over the output, each element computed from the inputs at the same
// index (the bias at its channel, a broadcast operand at index 0 of its
// dimensions of size 1), the innermost dimension in vectors where its size
// is static (docs/heuristics.md, *Element-wise ops in vectors*). exp is
// math.exp, which dl-approximate-math turns into a polynomial.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"
#include "NestBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// An input of an element-wise op: the buffer and the index it is read at,
/// in terms of the output's index (d0, ..., d(rank-1)).
struct ElementInput {
  Value value;
  SmallVector<AffineExpr> index;
};

/// `value` as an f32 constant of `like`'s type: a scalar, or a vector of it.
Value constantLike(OpBuilder &b, Location loc, double value, Value like) {
  auto vectorType = dyn_cast<VectorType>(like.getType());
  return vectorType ? f32Splat(b, loc, value, vectorType)
                    : f32Constant(b, loc, value);
}

/// The largest value of `expr` (non-negative coefficients) over the static
/// `sizes` of the dims it uses; none where one is dynamic.
std::optional<int64_t> largestIndex(AffineExpr expr,
                                    ArrayRef<OpFoldResult> sizes) {
  SmallVector<AffineExpr> last;
  for (OpFoldResult size : sizes) {
    std::optional<int64_t> value = getConstantIntValue(size);
    if (!value)
      return std::nullopt;
    last.push_back(getAffineConstantExpr(*value - 1, expr.getContext()));
  }
  auto constant = dyn_cast<AffineConstantExpr>(
      simplifyAffineExpr(expr.replaceDims(last), 0, 0));
  return constant ? std::optional<int64_t>(constant.getValue()) : std::nullopt;
}

/// How an input is read along the output's innermost dimension: the same
/// element for every lane (a scalar broadcast) or contiguous lanes (a vector
/// load).
enum class LaneAccess { Broadcast, Vector };

/// How `input` is read, or none when its lanes are not contiguous or not
/// provably inside it.
std::optional<LaneAccess> laneAccess(OpBuilder &b, const ElementInput &input,
                                     ArrayRef<OpFoldResult> sizes) {
  unsigned inner = sizes.size() - 1;
  auto type = cast<MemRefType>(input.value.getType());
  // An input of the output's shape (the op's size relations, checked at
  // run time where dynamic) read at the output's index.
  if (type.getRank() == static_cast<int64_t>(sizes.size()) &&
      ArrayRef(input.index) == ArrayRef(identityIndex(b, sizes.size())) &&
      type.getLayout().isIdentity())
    return LaneAccess::Vector;
  if (llvm::none_of(input.index,
                    [&](AffineExpr e) { return e.isFunctionOfDim(inner); }))
    return LaneAccess::Broadcast;
  // Only the last index moves with the lane, by one element, and the
  // buffer's last dimension is contiguous.
  AffineExpr lastIndex = input.index.back();
  AffineExpr rest = simplifyAffineExpr(
      lastIndex - getAffineDimExpr(inner, lastIndex.getContext()), sizes.size(),
      0);
  int64_t offset;
  SmallVector<int64_t> strides;
  if (rest.isFunctionOfDim(inner) ||
      llvm::any_of(ArrayRef(input.index).drop_back(),
                   [&](AffineExpr e) { return e.isFunctionOfDim(inner); }) ||
      failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return std::nullopt;
  std::optional<int64_t> largest = largestIndex(lastIndex, sizes);
  if (type.hasStaticShape() && largest && *largest < type.getShape().back())
    return LaneAccess::Vector;
  return std::nullopt;
}

/// Lowers an element-wise op to one nest over `output` whose body computes
/// each element from the `inputs` read at their indices; `compute` builds
/// the element from the loaded inputs (scalars or vectors: its constants
/// come from constantLike). Where the output's innermost size is static and
/// every input's lanes are contiguous or one element, the innermost
/// dimension is computed in 16-float vectors (a narrower one for its last
/// lanes): a loaded bias or broadcast operand could alias the output, so
/// LLVM's vectorizer would not vectorize the scalar loop.
void lowerElementwise(
    PatternRewriter &rewriter, Operation *op, ArrayRef<ElementInput> inputs,
    Value output,
    function_ref<Value(OpBuilder &, Location, ValueRange)> compute) {
  Location loc = op->getLoc();
  SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, output);
  unsigned rank = sizes.size();
  std::optional<int64_t> inner =
      rank > 0 ? getConstantIntValue(sizes.back()) : std::nullopt;
  SmallVector<LaneAccess> access;
  for (const ElementInput &input : inputs) {
    std::optional<LaneAccess> how =
        inner ? laneAccess(rewriter, input, sizes) : std::nullopt;
    if (!how)
      break;
    access.push_back(*how);
  }
  if (!inner || access.size() != inputs.size()) {
    buildNest(rewriter, loc, sizes,
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                SmallVector<Value> loaded =
                    llvm::map_to_vector(inputs, [&](const ElementInput &in) {
                      return loadAt(b, l, in.value, ivs, in.index);
                    });
                storeAt(b, l, compute(b, l, loaded), output, ivs,
                        identityIndex(b, ivs.size()));
              });
    rewriter.eraseOp(op);
    return;
  }

  MLIRContext *ctx = rewriter.getContext();
  auto identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  buildNest(
      rewriter, loc, ArrayRef(sizes).drop_back(),
      [&](OpBuilder &b, Location l, ValueRange outer) {
        // The `lanes` elements of the innermost dimension from `lane`.
        auto buildChunk = [&](OpBuilder &vb, Location vl, Value lane,
                              int64_t lanes) {
          auto vectorType = VectorType::get({lanes}, vb.getF32Type());
          SmallVector<Value> ivs(outer);
          ivs.push_back(lane);
          SmallVector<Value> loaded;
          for (auto [input, how] : llvm::zip_equal(inputs, access)) {
            AffineMap map = AffineMap::get(rank, 0, input.index, ctx);
            if (how == LaneAccess::Broadcast) {
              Value scalar =
                  affine::AffineLoadOp::create(vb, vl, input.value, map, ivs);
              loaded.push_back(
                  vector::BroadcastOp::create(vb, vl, vectorType, scalar));
            } else {
              loaded.push_back(affine::AffineVectorLoadOp::create(
                  vb, vl, vectorType, input.value, map, ivs));
            }
          }
          affine::AffineVectorStoreOp::create(vb, vl, compute(vb, vl, loaded),
                                              output, identity, ivs);
        };
        buildVectorChunks(b, l, *inner, buildChunk);
      });
  rewriter.eraseOp(op);
}

/// The inputs of a unary or same-shape element-wise op, read at the
/// output's index.
SmallVector<ElementInput> sameIndex(OpBuilder &b, ValueRange values) {
  return llvm::map_to_vector(values, [&](Value value) {
    return ElementInput{
        value, identityIndex(b, cast<ShapedType>(value.getType()).getRank())};
  });
}

// ReLU and ReLU6 use IEEE maxNum / minNum (NaN gives the other operand, so
// ReLU(NaN) = 0): x86's vmaxps computes maxNum(x, 0) in one instruction. With
// NaN-propagating `maximumf` an in-place ReLU stores only the lanes that are
// not NaN, and LLVM emits a masked store (vmaskmovps), which made a 56x56x256
// in-place ReLU 4x slower than the same ReLU into another buffer here.
struct ReluLowering : OpRewritePattern<ReluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReluOp op,
                                PatternRewriter &rewriter) const override {
    lowerElementwise(rewriter, op, sameIndex(rewriter, op.getInput()),
                     op.getOutput(),
                     [&](OpBuilder &b, Location l, ValueRange x) -> Value {
                       return arith::MaxNumFOp::create(
                           b, l, x[0], constantLike(b, l, 0.0, x[0]));
                     });
    return success();
  }
};

struct Relu6Lowering : OpRewritePattern<Relu6Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Relu6Op op,
                                PatternRewriter &rewriter) const override {
    lowerElementwise(
        rewriter, op, sameIndex(rewriter, op.getInput()), op.getOutput(),
        [&](OpBuilder &b, Location l, ValueRange x) -> Value {
          Value low = arith::MaxNumFOp::create(b, l, x[0],
                                               constantLike(b, l, 0.0, x[0]));
          return arith::MinNumFOp::create(b, l, low,
                                          constantLike(b, l, 6.0, x[0]));
        });
    return success();
  }
};

/// `1 / (1 + exp(-x))`.
Value buildSigmoid(OpBuilder &b, Location l, Value x) {
  Value one = constantLike(b, l, 1.0, x);
  Value exp = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, x));
  return arith::DivFOp::create(b, l, one,
                               arith::AddFOp::create(b, l, one, exp));
}

/// `min(max(x / 6 + 1 / 2, 0), 1)`.
Value buildHardSigmoid(OpBuilder &b, Location l, Value x) {
  Value scaled = arith::AddFOp::create(
      b, l, arith::MulFOp::create(b, l, x, constantLike(b, l, 1.0 / 6.0, x)),
      constantLike(b, l, 0.5, x));
  Value low =
      arith::MaxNumFOp::create(b, l, scaled, constantLike(b, l, 0.0, x));
  return arith::MinNumFOp::create(b, l, low, constantLike(b, l, 1.0, x));
}

/// A unary element-wise op whose elements `compute` gives.
template <typename OpTy, Value (*compute)(OpBuilder &, Location, Value)>
struct UnaryLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    lowerElementwise(rewriter, op, sameIndex(rewriter, op.getInput()),
                     op.getOutput(),
                     [](OpBuilder &b, Location l, ValueRange x) -> Value {
                       return compute(b, l, x[0]);
                     });
    return success();
  }
};

Value buildSilu(OpBuilder &b, Location l, Value x) {
  return arith::MulFOp::create(b, l, x, buildSigmoid(b, l, x));
}

Value buildHardSwish(OpBuilder &b, Location l, Value x) {
  return arith::MulFOp::create(b, l, x, buildHardSigmoid(b, l, x));
}

struct AddLowering : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    lowerElementwise(
        rewriter, op, sameIndex(rewriter, {op.getLhs(), op.getRhs()}),
        op.getOutput(), [](OpBuilder &b, Location l, ValueRange x) -> Value {
          return arith::AddFOp::create(b, l, x[0], x[1]);
        });
    return success();
  }
};

/// The product with rhs read at index 0 along its dimensions of size 1.
struct MulLowering : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<int64_t> rhsShape = op.getRhs().getType().getShape();
    SmallVector<ElementInput> inputs = sameIndex(rewriter, op.getLhs());
    SmallVector<AffineExpr> broadcast =
        identityIndex(rewriter, rhsShape.size());
    for (auto [dim, size] : llvm::enumerate(rhsShape))
      if (size == 1)
        broadcast[dim] = rewriter.getAffineConstantExpr(0);
    inputs.push_back({op.getRhs(), broadcast});
    lowerElementwise(rewriter, op, inputs, op.getOutput(),
                     [](OpBuilder &b, Location l, ValueRange x) -> Value {
                       return arith::MulFOp::create(b, l, x[0], x[1]);
                     });
    return success();
  }
};

struct BiasAddLowering : OpRewritePattern<BiasAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BiasAddOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<ElementInput> inputs = sameIndex(rewriter, op.getInput());
    inputs.push_back(
        {op.getBias(), {elementChannel(rewriter, op.getInput().getType())}});
    lowerElementwise(rewriter, op, inputs, op.getOutput(),
                     [](OpBuilder &b, Location l, ValueRange x) -> Value {
                       return arith::AddFOp::create(b, l, x[0], x[1]);
                     });
    return success();
  }
};

} // namespace

void dl::populateElementwiseLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<ReluLowering, Relu6Lowering, AddLowering, MulLowering,
               BiasAddLowering, UnaryLowering<SigmoidOp, buildSigmoid>,
               UnaryLowering<SiluOp, buildSilu>,
               UnaryLowering<HardSigmoidOp, buildHardSigmoid>,
               UnaryLowering<HardSwishOp, buildHardSwish>>(
      patterns.getContext());
}
