//===- PoolLowering.cpp - dl.max_pool2d and dl.avg_pool2d to affine ------===//
//
// One nest over the output pixels; per pixel, the window's rows and columns
// inside the image (loop bounds clipped by max/min maps, so padding costs
// nothing and needs no test), reduced into a register (plain layout) or
// into the output's channel block, the innermost loop, which LLVM
// vectorizes (blocked layout). Average pooling then scales by the window's
// size, or by its clipped size without count_include_pad.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"
#include "NestBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <limits>

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// What a pooling op computes per window.
struct PoolKind {
  bool max;
  /// Average pooling: divide by the window size (else its elements inside
  /// the image).
  bool countIncludePad;
};

/// The window of one output pixel along one spatial dimension: the loop
/// over the window offsets `r` whose input index `o * stride - pad + r` lies
/// in [0, size), and that count.
struct WindowDim {
  AffineMap lower, upper;
  SmallVector<Value> lowerOperands, upperOperands;
};

WindowDim clippedWindow(OpBuilder &b, Value outIndex, OpFoldResult inSize,
                        int64_t window, int64_t stride, int64_t pad) {
  WindowDim dim;
  MLIRContext *ctx = b.getContext();
  AffineExpr o = getAffineDimExpr(0, ctx);
  // r >= 0 and o * stride - pad + r >= 0.
  dim.lower = AffineMap::get(
      1, 0, {getAffineConstantExpr(0, ctx), pad - o * stride}, ctx);
  dim.lowerOperands = {outIndex};
  // r < window and o * stride - pad + r < size.
  SmallVector<Value> symbols;
  AffineExpr size = sizeExpr(b, inSize, symbols);
  dim.upper = AffineMap::get(
      1, symbols.size(),
      {getAffineConstantExpr(window, ctx), size + pad - o * stride}, ctx);
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

template <typename OpTy>
void lowerPool(PatternRewriter &rewriter, OpTy op, PoolKind kind) {
  Location loc = op.getLoc();
  Value input = op.getInput(), output = op.getOutput();
  bool blocked = op.isBlocked();
  ArrayRef<int64_t> window = op.getWindow(), strides = op.getStrides(),
                    padding = op.getPadding();
  SmallVector<OpFoldResult> inSizes = getSizes(rewriter, loc, input);
  SmallVector<OpFoldResult> outSizes = getSizes(rewriter, loc, output);
  int64_t lanes =
      blocked ? cast<ShapedType>(output.getType()).getDimSize(4) : 1;
  double identity = kind.max ? -std::numeric_limits<float>::infinity() : 0.0;

  // Per output pixel [n, c(b), oh, ow]: loops over the clipped window, the
  // channel block innermost.
  ArrayRef<OpFoldResult> pixelBounds = ArrayRef(outSizes).take_front(4);
  buildNest(
      rewriter, loc, pixelBounds,
      [&](OpBuilder &b, Location l, ValueRange pixel) {
        WindowDim rows = clippedWindow(b, pixel[2], inSizes[2], window[0],
                                       strides[0], padding[0]);
        WindowDim cols = clippedWindow(b, pixel[3], inSizes[3], window[1],
                                       strides[1], padding[1]);
        // The element at `lane` of the input pixel at window offset (r, s), or
        // of the output pixel.
        auto inputAt = [&](OpBuilder &ib, Location il, Value r, Value s,
                           Value lane) {
          MLIRContext *ctx = ib.getContext();
          AffineExpr o = getAffineDimExpr(2, ctx), q = getAffineDimExpr(3, ctx),
                     dr = getAffineDimExpr(4, ctx),
                     ds = getAffineDimExpr(5, ctx);
          SmallVector<Value> operands(pixel);
          operands.append({r, s});
          SmallVector<AffineExpr> index = {getAffineDimExpr(0, ctx),
                                           getAffineDimExpr(1, ctx),
                                           o * strides[0] - padding[0] + dr,
                                           q * strides[1] - padding[1] + ds};
          if (lane) {
            operands.push_back(lane);
            index.push_back(getAffineDimExpr(6, ctx));
          }
          return loadAt(ib, il, input, operands, operands.size(), index);
        };
        auto combine = [&](OpBuilder &cb, Location cl, Value acc, Value x) {
          return kind.max
                     ? arith::MaximumFOp::create(cb, cl, acc, x).getResult()
                     : arith::AddFOp::create(cb, cl, acc, x).getResult();
        };
        auto outputIndex = [&](Value lane) {
          SmallVector<Value> operands(pixel);
          if (lane)
            operands.push_back(lane);
          return operands;
        };
        // The divisor's reciprocal of average pooling.
        Value scale;
        if (!kind.max) {
          if (kind.countIncludePad) {
            scale = f32Constant(b, l, 1.0 / double(window[0] * window[1]));
          } else {
            Value count = arith::MulIOp::create(b, l, windowExtent(b, l, rows),
                                                windowExtent(b, l, cols));
            Value countF = arith::UIToFPOp::create(
                b, l, b.getF32Type(),
                arith::IndexCastUIOp::create(b, l, b.getI64Type(), count));
            scale = arith::DivFOp::create(b, l, f32Constant(b, l, 1.0), countF);
          }
        }
        // Loops over the window's rows and columns around `body`, threading
        // `inits` through both.
        auto overWindow =
            [&](OpBuilder &wb, Location wl, ValueRange inits,
                function_ref<SmallVector<Value>(OpBuilder &, Location, Value,
                                                Value, ValueRange)>
                    body) {
              auto rowLoop = AffineForOp::create(
                  wb, wl, rows.lowerOperands, rows.lower, rows.upperOperands,
                  rows.upper, 1, inits,
                  [&](OpBuilder &rb, Location rl, Value r, ValueRange rowAccs) {
                    auto colLoop = AffineForOp::create(
                        rb, rl, cols.lowerOperands, cols.lower,
                        cols.upperOperands, cols.upper, 1, rowAccs,
                        [&](OpBuilder &sb, Location sl, Value s,
                            ValueRange accs) {
                          affine::AffineYieldOp::create(
                              sb, sl, body(sb, sl, r, s, accs));
                        });
                    affine::AffineYieldOp::create(rb, rl, colLoop.getResults());
                  });
              return rowLoop.getResults();
            };

        if (!blocked) {
          // The window reduced in a register.
          Value init = f32Constant(b, l, identity);
          Value acc = overWindow(
              b, l, init,
              [&](OpBuilder &ib, Location il, Value r, Value s,
                  ValueRange accs) {
                return SmallVector<Value>{
                    combine(ib, il, accs[0], inputAt(ib, il, r, s, Value()))};
              })[0];
          if (scale)
            acc = arith::MulFOp::create(b, l, acc, scale);
          SmallVector<Value> operands = outputIndex(Value());
          storeAt(b, l, acc, output, operands, operands.size(),
                  identityIndex(b, operands.size()));
          return;
        }
        // Blocked: the output's channel block accumulates, lane by lane.
        auto overLanes =
            [&](OpBuilder &lb, Location ll,
                function_ref<void(OpBuilder &, Location, Value)> fn) {
              buildNest(lb, ll, {lb.getIndexAttr(lanes)},
                        [&](OpBuilder &cb, Location cl, ValueRange lane) {
                          fn(cb, cl, lane[0]);
                        });
            };
        auto store = [&](OpBuilder &sb, Location sl, Value value, Value lane) {
          SmallVector<Value> operands = outputIndex(lane);
          storeAt(sb, sl, value, output, operands, operands.size(),
                  identityIndex(sb, operands.size()));
        };
        auto load = [&](OpBuilder &sb, Location sl, Value lane) {
          SmallVector<Value> operands = outputIndex(lane);
          return loadAt(sb, sl, output, operands, operands.size(),
                        identityIndex(sb, operands.size()));
        };
        overLanes(b, l, [&](OpBuilder &cb, Location cl, Value lane) {
          store(cb, cl, f32Constant(cb, cl, identity), lane);
        });
        overWindow(
            b, l, ValueRange{},
            [&](OpBuilder &ib, Location il, Value r, Value s, ValueRange) {
              overLanes(ib, il, [&](OpBuilder &cb, Location cl, Value lane) {
                store(cb, cl,
                      combine(cb, cl, load(cb, cl, lane),
                              inputAt(cb, cl, r, s, lane)),
                      lane);
              });
              return SmallVector<Value>{};
            });
        if (scale)
          overLanes(b, l, [&](OpBuilder &cb, Location cl, Value lane) {
            store(cb, cl,
                  arith::MulFOp::create(cb, cl, load(cb, cl, lane), scale),
                  lane);
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

} // namespace

void dl::populatePoolLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPoolLowering, AvgPoolLowering>(patterns.getContext());
}
