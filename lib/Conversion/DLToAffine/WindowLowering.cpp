//===- WindowLowering.cpp - pooling and depthwise convolution to affine ---===//
//
// The ops that reduce a window of each channel on its own: dl.max_pool2d,
// dl.avg_pool2d and dl.depthwise_conv2d, and the dl.conv2d whose groups lie
// within the lanes of a block (`group_lanes`, register tiles only, each
// tap's input vector permuted to its groups' lanes per input channel of a
// group). One nest over the output pixels;
// per pixel, the window's rows and columns inside the image (loop bounds
// clipped by max/min maps, so padding costs nothing and needs no test),
// reduced into a register (plain layout) or into the output's channel
// block, the innermost loop, which LLVM vectorizes (blocked layout).
// Average pooling then scales by the window's size, or by its clipped size
// without count_include_pad. A blocked op of static widths (and, for a
// depthwise convolution, whole channel blocks) computes each output row in
// register tiles instead: the columns whose windows lie inside the image
// kWindowTileColumns pixels at a time, the others one at a time over their
// clipped window, one vector of channels at a time (a narrower one for a
// block's last lanes), accumulated over every tap in registers and stored
// once (the per-pixel nest reads and writes the output block at every tap,
// which bounds it by the stores; docs/heuristics.md, *Window ops in register
// tiles*).
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "Lowerings.h"
#include "NestBuilders.h"

#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Target.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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
  /// Floats per vector of the register tiles: the target's registers (in
  /// 16-float vectors, a tile's accumulators took all 16 of AVX2's and
  /// spilled).
  int64_t vectorFloats = kLoweringVectorFloats;

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

/// Output pixels of a window op's register tile: one vector accumulator
/// each, with a depthwise filter's tap vector and an input vector beside them
/// in the 32 AVX-512 registers (the extra accumulators hide the latency of
/// the FMAs, or of the maxima and sums).
constexpr int64_t kWindowTileColumns = 8;

/// The output columns [first, last) of a window op whose windows lie
/// entirely inside the image: every tap of them reads the input.
std::pair<int64_t, int64_t> interiorColumns(int64_t inWidth, int64_t outWidth,
                                            int64_t filterWidth, int64_t stride,
                                            int64_t pad, int64_t dilation) {
  // o * stride - pad >= 0 and o * stride - pad + (S - 1) * dilation < inWidth.
  int64_t first = llvm::divideCeil(pad, stride);
  int64_t reach = inWidth - 1 + pad - (filterWidth - 1) * dilation;
  int64_t last = reach < 0 ? 0 : reach / stride + 1;
  last = std::min(last, outWidth);
  first = std::min(first, last);
  return {first, last};
}

/// What a blocked window op computes per vector of a channel block.
struct VectorWindowOps {
  /// The accumulators' initial value.
  double identity;
  /// The tap (r, s)'s operands shared by a tile's columns for the `type`
  /// lanes from `first` of the block of `pixel` (n, cb, oh): a depthwise
  /// filter's vector, a group_lanes convolution's one per input channel of
  /// a group; null for pooling.
  function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange pixel,
                                  Value r, Value s, Value first,
                                  VectorType type)>
      loadTap;
  /// `acc` combined with the input vector `x` (and the tap's operands).
  function_ref<Value(OpBuilder &, Location, Value acc, Value x,
                     ValueRange taps)>
      combine;
};

/// The register tile of a blocked window op's output row (`w.pixel`: n, cb,
/// oh) at `width` columns from `firstColumn`: for each vector of the
/// channel block, one accumulator per column reduced over the window's
/// `rows` and `cols` (`cols` the offsets of the first column: the whole
/// window when `width` > 1, whose windows then lie inside the image), then
/// multiplied by `scale` (when not null) and stored once.
void buildVectorTile(OpBuilder &b, Location loc, const Window &w,
                     const WindowDim &rows, const WindowDim &cols,
                     int64_t block, Value firstColumn, int64_t width,
                     const VectorWindowOps &ops, Value scale) {
  MLIRContext *ctx = b.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx),
             d2 = getAffineDimExpr(2, ctx), d3 = getAffineDimExpr(3, ctx),
             d4 = getAffineDimExpr(4, ctx), d5 = getAffineDimExpr(5, ctx),
             d6 = getAffineDimExpr(6, ctx);
  ValueRange pixel = w.pixel;
  // The `lanes` channels of the block from lane `first`.
  auto buildChunk = [&](OpBuilder &vb, Location vl, Value first,
                        int64_t lanes) {
    auto vectorType = VectorType::get({lanes}, vb.getF32Type());
    Value init = f32Splat(vb, vl, ops.identity, vectorType);
    SmallVector<Value> sums = buildWindowLoops(
        vb, vl, rows, cols, SmallVector<Value>(width, init),
        [&](OpBuilder &tb, Location tl, Value r, Value s, ValueRange accs) {
          SmallVector<Value> taps;
          if (ops.loadTap)
            taps = ops.loadTap(tb, tl, pixel, r, s, first, vectorType);
          SmallVector<Value> next;
          for (int64_t column = 0; column < width; ++column) {
            // input[n][cb][oh * sh - ph + r * dh]
            //      [(firstColumn + column) * sw - pw + s * dw][first ...]
            AffineMap at = AffineMap::get(
                7, 0,
                {d0, d1, d2 * w.strides[0] - w.padding[0] + d4 * w.dilations[0],
                 (d3 + column) * w.strides[1] - w.padding[1] +
                     d5 * w.dilations[1],
                 d6},
                ctx);
            Value x = affine::AffineVectorLoadOp::create(
                tb, tl, vectorType, w.input, at,
                ValueRange{pixel[0], pixel[1], pixel[2], firstColumn, r, s,
                           first});
            next.push_back(ops.combine(tb, tl, accs[column], x, taps));
          }
          return next;
        });
    Value scaleVector =
        scale ? vector::BroadcastOp::create(vb, vl, vectorType, scale)
              : Value();
    for (int64_t column = 0; column < width; ++column) {
      Value sum = sums[column];
      if (scaleVector)
        sum = arith::MulFOp::create(vb, vl, sum, scaleVector);
      affine::AffineVectorStoreOp::create(
          vb, vl, sum, w.output,
          AffineMap::get(5, 0, {d0, d1, d2, d3 + column, d4}, ctx),
          ValueRange{pixel[0], pixel[1], pixel[2], firstColumn, first});
    }
  };
  buildVectorChunks(b, loc, block, buildChunk, w.vectorFloats);
}

/// The static sizes a blocked window op's register tiles need: the input's
/// and output's widths and the window's height and width; none where one
/// is dynamic.
std::optional<std::array<int64_t, 4>>
staticTileSizes(ArrayRef<OpFoldResult> inSizes, ArrayRef<OpFoldResult> outSizes,
                std::array<OpFoldResult, 2> windowSizes) {
  std::array<OpFoldResult, 4> given = {inSizes[3], outSizes[3], windowSizes[0],
                                       windowSizes[1]};
  std::array<int64_t, 4> sizes;
  for (auto [size, value] : llvm::zip_equal(given, sizes)) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant)
      return std::nullopt;
    value = *constant;
  }
  return sizes;
}

/// A blocked window op of static widths and window (`sizes`, see
/// staticTileSizes) in register tiles: per output row, the columns whose
/// windows the image clips pixel by pixel, the others in tiles of
/// kWindowTileColumns. `scaleOf` gives a tile's scale from its clipped
/// rows and its columns' window (null: the whole window), or null.
void buildVectorWindowRows(
    OpBuilder &builder, Location loc, const Window &geometry,
    ArrayRef<OpFoldResult> inSizes, ArrayRef<OpFoldResult> outSizes,
    std::array<int64_t, 4> sizes, int64_t block, const VectorWindowOps &ops,
    function_ref<Value(OpBuilder &, Location, const WindowDim &rows,
                       const WindowDim *cols)>
        scaleOf) {
  auto [inWidth, outWidth, windowHeight, windowWidth] = sizes;
  auto [first, last] =
      interiorColumns(inWidth, outWidth, windowWidth, geometry.strides[1],
                      geometry.padding[1], geometry.dilations[1]);
  buildNest(
      builder, loc, outSizes.take_front(3),
      [&](OpBuilder &b, Location l, ValueRange row) {
        Window w = geometry;
        w.pixel = row;
        WindowDim rows =
            clippedWindow(b, row[2], inSizes[2], b.getIndexAttr(windowHeight),
                          w.strides[0], w.padding[0], w.dilations[0]);
        // The columns whose windows the image clips, pixel by pixel.
        for (auto [from, to] :
             {std::pair(int64_t(0), first), std::pair(last, outWidth)}) {
          if (from == to)
            continue;
          affine::buildAffineLoopNest(
              b, l, {from}, {to}, {1},
              [&](OpBuilder &pb, Location pl, ValueRange column) {
                WindowDim cols = clippedWindow(
                    pb, column[0], inSizes[3], pb.getIndexAttr(windowWidth),
                    w.strides[1], w.padding[1], w.dilations[1]);
                Value scale = scaleOf ? scaleOf(pb, pl, rows, &cols) : Value();
                buildVectorTile(pb, pl, w, rows, cols, block, column[0], 1, ops,
                                scale);
              });
        }
        WindowDim wholeRow{b.getConstantAffineMap(0),
                           b.getConstantAffineMap(windowWidth),
                           {},
                           {}};
        Value scale = scaleOf ? scaleOf(b, l, rows, nullptr) : Value();
        int64_t tiles = (last - first) / kWindowTileColumns;
        int64_t remainder = (last - first) % kWindowTileColumns;
        if (tiles > 0)
          affine::buildAffineLoopNest(
              b, l, {0}, {tiles}, {1},
              [&](OpBuilder &tb, Location tl, ValueRange tile) {
                Value column = affine::AffineApplyOp::create(
                    tb, tl,
                    AffineMap::get(1, 0,
                                   tb.getAffineDimExpr(0) * kWindowTileColumns +
                                       first,
                                   tb.getContext()),
                    tile[0]);
                buildVectorTile(tb, tl, w, rows, wholeRow, block, column,
                                kWindowTileColumns, ops, scale);
              });
        if (remainder > 0)
          buildVectorTile(b, l, w, rows, wholeRow, block,
                          arith::ConstantIndexOp::create(
                              b, l, first + tiles * kWindowTileColumns),
                          remainder, ops, scale);
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
  geometry.vectorFloats = getTarget(op).vectorFloats();
  SmallVector<OpFoldResult> inSizes = getSizes(rewriter, loc, op.getInput());
  SmallVector<OpFoldResult> outSizes = getSizes(rewriter, loc, op.getOutput());
  double identity = kind.max ? -std::numeric_limits<float>::infinity() : 0.0;
  auto combine = [&](OpBuilder &b, Location l, Value acc, Value x) {
    return kind.max ? arith::MaximumFOp::create(b, l, acc, x,
                                                arith::FastMathFlags::nnan |
                                                    arith::FastMathFlags::nsz)
                          .getResult()
                    : arith::AddFOp::create(b, l, acc, x).getResult();
  };

  // Blocked with static widths: register tiles.
  std::optional<std::array<int64_t, 4>> sizes =
      op.isBlocked() ? staticTileSizes(inSizes, outSizes,
                                       {rewriter.getIndexAttr(window[0]),
                                        rewriter.getIndexAttr(window[1])})
                     : std::nullopt;
  if (sizes) {
    int64_t block = cast<ShapedType>(op.getOutput().getType()).getDimSize(4);
    // The reciprocal of the divisor of average pooling: the window's size,
    // or the number of its offsets inside the image.
    auto scaleOf = [&](OpBuilder &b, Location l, const WindowDim &rows,
                       const WindowDim *cols) -> Value {
      if (kind.countIncludePad)
        return f32Constant(b, l, 1.0 / double(window[0] * window[1]));
      Value rowCount = windowExtent(b, l, rows);
      Value colCount = cols ? windowExtent(b, l, *cols)
                            : arith::ConstantIndexOp::create(b, l, window[1]);
      Value count = arith::MulIOp::create(b, l, rowCount, colCount);
      Value countF = arith::UIToFPOp::create(
          b, l, b.getF32Type(),
          arith::IndexCastUIOp::create(b, l, b.getI64Type(), count));
      return arith::DivFOp::create(b, l, f32Constant(b, l, 1.0), countF);
    };
    auto combineVectors = [&](OpBuilder &b, Location l, Value acc, Value x,
                              ValueRange) { return combine(b, l, acc, x); };
    buildVectorWindowRows(
        rewriter, loc, geometry, inSizes, outSizes, *sizes, block,
        {identity, nullptr, combineVectors},
        kind.max ? function_ref<Value(OpBuilder &, Location, const WindowDim &,
                                      const WindowDim *)>()
                 : scaleOf);
    rewriter.eraseOp(op);
    return;
  }

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
    geometry.vectorFloats = getTarget(op).vectorFloats();
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

    // The pixel's window clipped to the image, reduced at every tap.
    auto perPixel = [&](OpBuilder &b, Location l, ValueRange pixel) {
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
        Value acc = buildWindowLoops(
            b, l, rows, cols, f32Constant(b, l, 0.0),
            [&](OpBuilder &ib, Location il, Value r, Value s, ValueRange accs) {
              Value x = w.loadInput(ib, il, r, s, Value());
              Value tap = loadTap(ib, il, r, s, Value());
              return SmallVector<Value>{multiplyAdd(ib, il, accs[0], x, tap)};
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
                                          multiplyAdd(cb, cl, acc, x, tap), c);
                          });
            return SmallVector<Value>{};
          });
    };

    // Register tiles where every size is static. With a padded last block
    // (the filter has no channel for its last lanes) the filter's vectors
    // are read masked, zeros past the channels: the padding lanes, zero in
    // the input, stay zero.
    std::optional<std::array<int64_t, 4>> sizes =
        op.isBlocked() && staticChannels
            ? staticTileSizes(inSizes, outSizes,
                              {filterSizes[0], filterSizes[1]})
            : std::nullopt;
    if (!sizes) {
      buildNest(rewriter, loc, ArrayRef(outSizes).take_front(4), perPixel);
      rewriter.eraseOp(op);
      return success();
    }
    auto loadTap = [&](OpBuilder &tb, Location tl, ValueRange pixel, Value r,
                       Value s, Value first,
                       VectorType type) -> SmallVector<Value> {
      // filter[r][s][cb * block + first ...]
      MLIRContext *ctx = tb.getContext();
      AffineMap channel = AffineMap::get(
          2, 0, getAffineDimExpr(0, ctx) * block + getAffineDimExpr(1, ctx),
          ctx);
      if (!whole) {
        Value index = affine::AffineApplyOp::create(
            tb, tl, channel, ValueRange{pixel[1], first});
        Value zero = f32Constant(tb, tl, 0.0);
        return {vector::TransferReadOp::create(tb, tl, type, filter,
                                               ValueRange{r, s, index}, zero,
                                               ArrayRef<bool>{false})};
      }
      return {affine::AffineVectorLoadOp::create(
          tb, tl, type, filter,
          AffineMap::get(
              4, 0,
              {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
               channel.getResult(0).replaceDims(
                   {getAffineDimExpr(2, ctx), getAffineDimExpr(3, ctx)})},
              ctx),
          ValueRange{r, s, pixel[1], first})};
    };
    auto fma = [](OpBuilder &fb, Location fl, Value acc, Value x,
                  ValueRange taps) -> Value {
      return vector::FMAOp::create(fb, fl, x, taps.front(), acc);
    };
    buildVectorWindowRows(rewriter, loc, geometry, inSizes, outSizes, *sizes,
                          block, {0.0, loadTap, fma}, nullptr);
    rewriter.eraseOp(op);
    return success();
  }
};

/// A blocked convolution with `group_lanes` L: a depthwise convolution's
/// register tiles, where a tap of a vector of output channels is, per input
/// channel j of a group, the input vector permuted so that each lane holds
/// channel j of its group, `(lane / L) * L + j`, times that weight vector.
/// The weights are first gathered from the block-diagonal filter into
/// K/k x R x S x L x k (one vector per tap and j); the epilogue runs after
/// the tiles.
struct GroupLaneConvLowering : OpRewritePattern<Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<uint64_t> lanes = op.getGroupLanes();
    if (!lanes)
      return rewriter.notifyMatchFailure(op, "no group_lanes");
    Location loc = op.getLoc();
    int64_t groupLanes = *lanes;
    Epilogue epilogue(rewriter, loc, op);
    ArrayRef<int64_t> filterShape = op.getFilter().getType().getShape();
    int64_t block = filterShape[5];
    // weights[kb][r][s][j][k] = filter[kb][0][r][s][(k / L) * L + j][k].
    auto weightsType = MemRefType::get(
        {filterShape[0], filterShape[2], filterShape[3], groupLanes, block},
        rewriter.getF32Type());
    Value weights = memref::AllocOp::create(rewriter, loc, weightsType);
    buildNest(rewriter, loc, getSizes(rewriter, loc, weights),
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                auto d = [&](unsigned i) { return b.getAffineDimExpr(i); };
                Value weight = loadAt(
                    b, l, op.getFilter(), ivs,
                    {d(0), b.getAffineConstantExpr(0), d(1), d(2),
                     d(4).floorDiv(groupLanes) * groupLanes + d(3), d(4)});
                storeAt(b, l, weight, weights, ivs, identityIndex(b, 5));
              });

    Window geometry{op.getInput(),   op.getOutput(),    op.getStrides(),
                    op.getPadding(), op.getDilations(), {}};
    geometry.vectorFloats = getTarget(op).vectorFloats();
    SmallVector<OpFoldResult> inSizes = getSizes(rewriter, loc, op.getInput());
    SmallVector<OpFoldResult> outSizes =
        getSizes(rewriter, loc, op.getOutput());
    std::optional<std::array<int64_t, 4>> sizes =
        staticTileSizes(inSizes, outSizes,
                        {rewriter.getIndexAttr(filterShape[2]),
                         rewriter.getIndexAttr(filterShape[3])});
    auto loadTaps = [&](OpBuilder &tb, Location tl, ValueRange pixel, Value r,
                        Value s, Value first,
                        VectorType type) -> SmallVector<Value> {
      SmallVector<Value> taps;
      MLIRContext *ctx = tb.getContext();
      for (int64_t j = 0; j < groupLanes; ++j)
        taps.push_back(affine::AffineVectorLoadOp::create(
            tb, tl, type, weights,
            AffineMap::get(4, 0,
                           {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
                            getAffineDimExpr(2, ctx),
                            getAffineConstantExpr(j, ctx),
                            getAffineDimExpr(3, ctx)},
                           ctx),
            ValueRange{pixel[1], r, s, first}));
      return taps;
    };
    auto permutedProducts = [&](OpBuilder &fb, Location fl, Value acc, Value x,
                                ValueRange taps) -> Value {
      int64_t width = cast<VectorType>(x.getType()).getNumElements();
      for (auto [j, tap] : llvm::enumerate(taps)) {
        SmallVector<int64_t> mask;
        for (int64_t lane = 0; lane < width; ++lane)
          mask.push_back(lane / groupLanes * groupLanes + int64_t(j));
        Value permuted = vector::ShuffleOp::create(fb, fl, x, x, mask);
        acc = vector::FMAOp::create(fb, fl, permuted, tap, acc);
      }
      return acc;
    };
    buildVectorWindowRows(rewriter, loc, geometry, inSizes, outSizes, *sizes,
                          block, {0.0, loadTaps, permutedProducts}, nullptr);
    memref::DeallocOp::create(rewriter, loc, weights);
    epilogue.applyToOutput(rewriter, loc);
    epilogue.finish(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void dl::populateWindowLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPoolLowering, AvgPoolLowering, DepthwiseConvLowering,
               GroupLaneConvLowering>(patterns.getContext());
}
