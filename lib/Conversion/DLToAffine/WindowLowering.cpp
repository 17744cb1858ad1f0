//===- WindowLowering.cpp - pooling and depthwise convolution to affine ---===//
//
// The ops that reduce a window of each channel on its own: dl.max_pool2d,
// dl.avg_pool2d and dl.depthwise_conv2d. One nest over the output pixels;
// per pixel, the window's rows and columns inside the image (loop bounds
// clipped by max/min maps, so padding costs nothing and needs no test),
// reduced into a register (plain layout) or into the output's channel
// block, the innermost loop, which LLVM vectorizes (blocked layout).
// Average pooling then scales by the window's size, or by its clipped size
// without count_include_pad.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"
#include "NestBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// The window of one output pixel along one spatial dimension: the loop
/// over the window offsets `r` whose input index
/// `o * stride - pad + r * dilation` lies in [0, size).
struct WindowDim {
  AffineMap lower, upper;
  SmallVector<Value> lowerOperands, upperOperands;
};

WindowDim clippedWindow(OpBuilder &b, Value outIndex, OpFoldResult inSize,
                        OpFoldResult window, int64_t stride, int64_t pad,
                        int64_t dilation) {
  WindowDim dim;
  MLIRContext *ctx = b.getContext();
  AffineExpr o = getAffineDimExpr(0, ctx);
  // r >= 0 and o * stride - pad + r * dilation >= 0.
  dim.lower = AffineMap::get(
      1, 0,
      {getAffineConstantExpr(0, ctx), (pad - o * stride).ceilDiv(dilation)},
      ctx);
  dim.lowerOperands = {outIndex};
  // r < window and o * stride - pad + r * dilation < size.
  SmallVector<Value> symbols;
  AffineExpr size = sizeExpr(b, inSize, symbols);
  AffineExpr windowSize = sizeExpr(b, window, symbols);
  dim.upper = AffineMap::get(
      1, symbols.size(),
      {windowSize, (size + pad - o * stride).ceilDiv(dilation)}, ctx);
  dim.upperOperands = {outIndex};
  llvm::append_range(dim.upperOperands, symbols);
  return dim;
}

/// The number of offsets of `dim`'s clipped window, as an index value.
Value windowExtent(OpBuilder &b, Location loc, const WindowDim &dim) {
  Value upper =
      affine::AffineMinOp::create(b, loc, dim.upper, dim.upperOperands);
  Value lower =
      affine::AffineMaxOp::create(b, loc, dim.lower, dim.lowerOperands);
  return arith::SubIOp::create(b, loc, upper, lower);
}

using WindowBodyFn = function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value r, Value s, ValueRange iterArgs)>;

/// Loops over the clipped window's rows and columns around `body`,
/// threading `inits` through both; their results.
SmallVector<Value> buildWindowLoops(OpBuilder &b, Location loc,
                                    const WindowDim &rows,
                                    const WindowDim &cols, ValueRange inits,
                                    WindowBodyFn body) {
  auto rowLoop = AffineForOp::create(
      b, loc, rows.lowerOperands, rows.lower, rows.upperOperands, rows.upper, 1,
      inits, [&](OpBuilder &rb, Location rl, Value r, ValueRange rowAccs) {
        auto colLoop = AffineForOp::create(
            rb, rl, cols.lowerOperands, cols.lower, cols.upperOperands,
            cols.upper, 1, rowAccs,
            [&](OpBuilder &sb, Location sl, Value s, ValueRange accs) {
              affine::AffineYieldOp::create(sb, sl, body(sb, sl, r, s, accs));
            });
        affine::AffineYieldOp::create(rb, rl, colLoop.getResults());
      });
  return SmallVector<Value>(rowLoop.getResults());
}

/// One window op's geometry and the output pixel a nest body computes.
struct Window {
  Value input, output;
  ArrayRef<int64_t> strides, padding, dilations;
  /// The output pixel's ivs: n, c (or the channel block), oh, ow.
  ValueRange pixel;

  /// The input element at window offset (r, s) of the pixel, at `lane` of
  /// the channel block (blocked layout; null for the plain one).
  Value loadInput(OpBuilder &b, Location loc, Value r, Value s,
                  Value lane) const {
    MLIRContext *ctx = b.getContext();
    AffineExpr o = getAffineDimExpr(2, ctx), q = getAffineDimExpr(3, ctx),
               dr = getAffineDimExpr(4, ctx), ds = getAffineDimExpr(5, ctx);
    SmallVector<Value> operands(pixel);
    operands.append({r, s});
    SmallVector<AffineExpr> index = {
        getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
        o * strides[0] - padding[0] + dr * dilations[0],
        q * strides[1] - padding[1] + ds * dilations[1]};
    if (lane) {
      operands.push_back(lane);
      index.push_back(getAffineDimExpr(6, ctx));
    }
    return loadAt(b, loc, input, operands, operands.size(), index);
  }

  /// The clipped windows of the pixel's rows and columns, for a filter or
  /// window of `sizes` (height, width) on an input of `inSizes`.
  std::pair<WindowDim, WindowDim>
  clippedWindows(OpBuilder &b, ArrayRef<OpFoldResult> inSizes,
                 std::array<OpFoldResult, 2> sizes) const {
    return {clippedWindow(b, pixel[2], inSizes[2], sizes[0], strides[0],
                          padding[0], dilations[0]),
            clippedWindow(b, pixel[3], inSizes[3], sizes[1], strides[1],
                          padding[1], dilations[1])};
  }

  SmallVector<Value> outputOperands(Value lane) const {
    SmallVector<Value> operands(pixel);
    if (lane)
      operands.push_back(lane);
    return operands;
  }
  Value loadOutput(OpBuilder &b, Location loc, Value lane) const {
    SmallVector<Value> operands = outputOperands(lane);
    return loadAt(b, loc, output, operands, operands.size(),
                  identityIndex(b, operands.size()));
  }
  void storeOutput(OpBuilder &b, Location loc, Value value, Value lane) const {
    SmallVector<Value> operands = outputOperands(lane);
    storeAt(b, loc, value, output, operands, operands.size(),
            identityIndex(b, operands.size()));
  }
};

/// A loop over the lanes of a channel block, `0 to bound` (`bound` applied
/// to the pixel's ivs), around `body`.
void buildLaneLoop(OpBuilder &b, Location loc, AffineMap bound,
                   ValueRange boundOperands,
                   function_ref<void(OpBuilder &, Location, Value)> body) {
  AffineForOp::create(b, loc, ValueRange{}, b.getConstantAffineMap(0),
                      boundOperands, bound, 1, ValueRange{},
                      [&](OpBuilder &lb, Location ll, Value lane, ValueRange) {
                        body(lb, ll, lane);
                        affine::AffineYieldOp::create(lb, ll);
                      });
}

/// What a pooling op computes per window.
struct PoolKind {
  bool max;
  /// Average pooling: divide by the window size (else its elements inside
  /// the image).
  bool countIncludePad;
};

template <typename OpTy>
void lowerPool(PatternRewriter &rewriter, OpTy op, PoolKind kind) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> window = op.getWindow();
  SmallVector<int64_t> unitDilations = {1, 1};
  Window geometry{op.getInput(),   op.getOutput(), op.getStrides(),
                  op.getPadding(), unitDilations,  {}};
  SmallVector<OpFoldResult> inSizes = getSizes(rewriter, loc, op.getInput());
  SmallVector<OpFoldResult> outSizes = getSizes(rewriter, loc, op.getOutput());
  double identity = kind.max ? -std::numeric_limits<float>::infinity() : 0.0;
  auto combine = [&](OpBuilder &b, Location l, Value acc, Value x) {
    return kind.max ? arith::MaximumFOp::create(b, l, acc, x).getResult()
                    : arith::AddFOp::create(b, l, acc, x).getResult();
  };

  buildNest(
      rewriter, loc, ArrayRef(outSizes).take_front(4),
      [&](OpBuilder &b, Location l, ValueRange pixel) {
        Window w = geometry;
        w.pixel = pixel;
        auto [rows, cols] = w.clippedWindows(
            b, inSizes, {b.getIndexAttr(window[0]), b.getIndexAttr(window[1])});
        // The divisor's reciprocal of average pooling.
        Value scale;
        if (!kind.max && kind.countIncludePad) {
          scale = f32Constant(b, l, 1.0 / double(window[0] * window[1]));
        } else if (!kind.max) {
          // (Values built in a fixed order: argument evaluation order is
          // unspecified.)
          Value rowCount = windowExtent(b, l, rows);
          Value colCount = windowExtent(b, l, cols);
          Value count = arith::MulIOp::create(b, l, rowCount, colCount);
          Value countF = arith::UIToFPOp::create(
              b, l, b.getF32Type(),
              arith::IndexCastUIOp::create(b, l, b.getI64Type(), count));
          scale = arith::DivFOp::create(b, l, f32Constant(b, l, 1.0), countF);
        }

        if (!op.isBlocked()) {
          // The window reduced in a register.
          Value acc = buildWindowLoops(
              b, l, rows, cols, f32Constant(b, l, identity),
              [&](OpBuilder &ib, Location il, Value r, Value s,
                  ValueRange accs) {
                return SmallVector<Value>{combine(
                    ib, il, accs[0], w.loadInput(ib, il, r, s, Value()))};
              })[0];
          if (scale)
            acc = arith::MulFOp::create(b, l, acc, scale);
          w.storeOutput(b, l, acc, Value());
          return;
        }
        // Blocked: the output's channel block accumulates, lane by lane.
        AffineMap lanes = b.getConstantAffineMap(
            cast<ShapedType>(op.getOutput().getType()).getDimSize(4));
        buildLaneLoop(b, l, lanes, {},
                      [&](OpBuilder &cb, Location cl, Value c) {
                        w.storeOutput(cb, cl, f32Constant(cb, cl, identity), c);
                      });
        buildWindowLoops(
            b, l, rows, cols, ValueRange{},
            [&](OpBuilder &ib, Location il, Value r, Value s, ValueRange) {
              buildLaneLoop(ib, il, lanes, {},
                            [&](OpBuilder &cb, Location cl, Value c) {
                              Value x = w.loadInput(cb, cl, r, s, c);
                              Value acc = w.loadOutput(cb, cl, c);
                              w.storeOutput(cb, cl, combine(cb, cl, acc, x), c);
                            });
              return SmallVector<Value>{};
            });
        if (scale)
          buildLaneLoop(
              b, l, lanes, {}, [&](OpBuilder &cb, Location cl, Value c) {
                w.storeOutput(cb, cl,
                              arith::MulFOp::create(
                                  cb, cl, w.loadOutput(cb, cl, c), scale),
                              c);
              });
      });
  rewriter.eraseOp(op);
}

struct MaxPoolLowering : OpRewritePattern<MaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MaxPool2DOp op,
                                PatternRewriter &rewriter) const override {
    lowerPool(rewriter, op, {/*max=*/true, /*countIncludePad=*/false});
    return success();
  }
};

struct AvgPoolLowering : OpRewritePattern<AvgPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AvgPool2DOp op,
                                PatternRewriter &rewriter) const override {
    lowerPool(rewriter, op, {/*max=*/false, op.getCountIncludePad()});
    return success();
  }
};

/// Depthwise convolution: the window's products with the channel's filter
/// taps summed; blocked, the filter's channels of a block are contiguous
/// (R x S x C), and only the lanes holding channels accumulate (padding
/// lanes stay zero).
struct DepthwiseConvLowering : OpRewritePattern<DepthwiseConv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DepthwiseConv2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value filter = op.getFilter();
    Window geometry{op.getInput(),   op.getOutput(),    op.getStrides(),
                    op.getPadding(), op.getDilations(), {}};
    SmallVector<OpFoldResult> inSizes = getSizes(rewriter, loc, op.getInput());
    SmallVector<OpFoldResult> outSizes =
        getSizes(rewriter, loc, op.getOutput());
    SmallVector<OpFoldResult> filterSizes = getSizes(rewriter, loc, filter);
    int64_t block =
        op.isBlocked()
            ? cast<ShapedType>(op.getOutput().getType()).getDimSize(4)
            : 1;
    // The lanes of channel block `cb` that hold channels:
    // min(block, C - cb * block), or the block where it divides C.
    SmallVector<Value> channelSymbols;
    AffineExpr channels = sizeExpr(rewriter, filterSizes[2], channelSymbols);
    std::optional<int64_t> staticChannels = getConstantIntValue(filterSizes[2]);
    bool whole = staticChannels && *staticChannels % block == 0;
    AffineExpr cb = rewriter.getAffineDimExpr(0);
    AffineMap lanes =
        whole ? rewriter.getConstantAffineMap(block)
              : AffineMap::get(1, channelSymbols.size(),
                               {rewriter.getAffineConstantExpr(block),
                                channels - cb * block},
                               rewriter.getContext());
    AffineMap allLanes = rewriter.getConstantAffineMap(block);

    buildNest(
        rewriter, loc, ArrayRef(outSizes).take_front(4),
        [&](OpBuilder &b, Location l, ValueRange pixel) {
          Window w = geometry;
          w.pixel = pixel;
          auto [rows, cols] =
              w.clippedWindows(b, inSizes, {filterSizes[0], filterSizes[1]});
          // The filter tap (r, s) of channel `cb * block + lane`.
          auto loadTap = [&](OpBuilder &tb, Location tl, Value r, Value s,
                             Value lane) {
            MLIRContext *ctx = tb.getContext();
            SmallVector<Value> operands = {r, s, pixel[1]};
            AffineExpr channel = getAffineDimExpr(2, ctx) * block;
            if (lane) {
              operands.push_back(lane);
              channel = channel + getAffineDimExpr(3, ctx);
            }
            return loadAt(
                tb, tl, filter, operands, operands.size(),
                {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx), channel});
          };
          auto multiplyAdd = [](OpBuilder &mb, Location ml, Value acc, Value x,
                                Value f) -> Value {
            return arith::AddFOp::create(mb, ml, acc,
                                         arith::MulFOp::create(mb, ml, x, f));
          };
          if (!op.isBlocked()) {
            Value acc =
                buildWindowLoops(b, l, rows, cols, f32Constant(b, l, 0.0),
                                 [&](OpBuilder &ib, Location il, Value r,
                                     Value s, ValueRange accs) {
                                   Value x = w.loadInput(ib, il, r, s, Value());
                                   Value tap = loadTap(ib, il, r, s, Value());
                                   return SmallVector<Value>{
                                       multiplyAdd(ib, il, accs[0], x, tap)};
                                 })[0];
            w.storeOutput(b, l, acc, Value());
            return;
          }
          SmallVector<Value> laneOperands = {pixel[1]};
          llvm::append_range(laneOperands, channelSymbols);
          if (whole)
            laneOperands.clear();
          buildLaneLoop(b, l, allLanes, {},
                        [&](OpBuilder &cb, Location cl, Value c) {
                          w.storeOutput(cb, cl, f32Constant(cb, cl, 0.0), c);
                        });
          buildWindowLoops(
              b, l, rows, cols, ValueRange{},
              [&](OpBuilder &ib, Location il, Value r, Value s, ValueRange) {
                buildLaneLoop(ib, il, lanes, laneOperands,
                              [&](OpBuilder &cb, Location cl, Value c) {
                                Value x = w.loadInput(cb, cl, r, s, c);
                                Value tap = loadTap(cb, cl, r, s, c);
                                Value acc = w.loadOutput(cb, cl, c);
                                w.storeOutput(cb, cl,
                                              multiplyAdd(cb, cl, acc, x, tap),
                                              c);
                              });
                return SmallVector<Value>{};
              });
        });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void dl::populateWindowLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPoolLowering, AvgPoolLowering, DepthwiseConvLowering>(
      patterns.getContext());
}
