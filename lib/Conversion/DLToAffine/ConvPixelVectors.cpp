//===- ConvPixelVectors.cpp - convolutions vectorized along pixels --------===//
//
// The lowering of a plain dl.conv2d marked `pixel_vectors` (a convolution
// with a few output channels): the vector dimension is the output pixels of
// a row. A tile of output rows x output channels x vectors of 16 output
// columns accumulates in registers over (c, r, s); every input vector it
// loads serves all the tile's output channels, every broadcast weight all
// its vectors. Written here because the blocked kernels (LIBXSMM's, and the
// blocked loop nest) vectorize along the output channels, of which such a
// convolution fills one to a few of 16 lanes, and MLIR's vectorizers do not
// register-tile a convolution on memrefs.
//
// Taps read 16 consecutive floats: from the input itself where the
// convolution has no padding and unit column stride, otherwise from a copy
// whose rows are zero-padded and split by column phase (column q * stride +
// phase of the padded row goes to [phase][q]), so that output columns ow..
// ow+15 of tap s read [s * dilation % stride][ow + s * dilation / stride ..].
// A row's last columns are a vector ending at its last column (overlapping
// the one before, which stores the same values again); rows shorter than a
// vector read the copy, wide enough for one, and store their lanes one by
// one.
//
//===----------------------------------------------------------------------===//

#include "ConvPixelVectors.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// Floats per vector: one AVX-512 register (two AVX2 ones, which LLVM
/// splits it into).
constexpr int64_t kLanes = 16;
/// Accumulators of a tile, of the 32 AVX-512 registers: the others hold the
/// input vector being used and the broadcast weights.
constexpr int64_t kAccumulators = 24;
/// Bounds of a tile's vectors along a row, output channels and output rows.
constexpr int64_t kMaxVectors = 4, kMaxChannels = 8, kMaxRows = 4;

/// The loops around a tile: n, the row tile, the channel tile and the
/// column tile, each an operand of the tile's maps (d0..d3; a constant 0
/// where the nest has no such loop), then the reduction's c, r, s (d4..d6).
enum { N, RowTile, ChannelTile, ColumnTile, NumOuter };

/// One register tile: `rows` output rows from `row`, `channels` output
/// channels from `channel`, and vectors at the output columns `columns`
/// (expressions of the outer loops); of the last vector, `lastLanes` are
/// stored.
struct Tile {
  AffineExpr row, channel;
  int64_t rows, channels;
  SmallVector<AffineExpr> columns;
  int64_t lastLanes;
};

/// The convolution's sizes and where its taps are read.
struct PixelConv {
  Value filter, output;
  int64_t batch, inChannels, outChannels, filterRows, filterColumns, outRows,
      outColumns;
  int64_t strideH, strideW, dilationH, dilationW;
  /// The input, or its padded phase-split copy (rank 5).
  Value source;

  /// The index in `source` of the tap (r, s) of output pixel (row, column)
  /// of image d0 and input channel d4.
  SmallVector<AffineExpr> tapIndex(MLIRContext *ctx, AffineExpr row,
                                   AffineExpr column) const {
    AffineExpr n = getAffineDimExpr(N, ctx), c = getAffineDimExpr(4, ctx),
               r = getAffineDimExpr(5, ctx), s = getAffineDimExpr(6, ctx);
    AffineExpr inRow = row * strideH + r * dilationH;
    if (cast<MemRefType>(source.getType()).getRank() == 4)
      return {n, c, inRow, column + s * dilationW};
    AffineExpr tap = s * dilationW;
    return {n, c, inRow, tap % strideW, column + tap.floorDiv(strideW)};
  }
};

/// Builds `tile` at the builder's position: the accumulation over (c, r, s)
/// in vector registers, then the stores into the output.
void buildTile(OpBuilder &b, Location loc, const PixelConv &conv,
               ValueRange outerOperands, const Tile &tile) {
  MLIRContext *ctx = b.getContext();
  auto vectorType = VectorType::get({kLanes}, b.getF32Type());
  int64_t numColumns = tile.columns.size();
  auto accIndex = [&](int64_t channel, int64_t row, int64_t column) {
    return (channel * tile.rows + row) * numColumns + column;
  };
  auto map = [&](unsigned numDims, ArrayRef<AffineExpr> results) {
    return AffineMap::get(numDims, 0, results, ctx);
  };
  AffineExpr n = getAffineDimExpr(N, ctx), c = getAffineDimExpr(4, ctx),
             r = getAffineDimExpr(5, ctx), s = getAffineDimExpr(6, ctx);

  Value zero = arith::ConstantOp::create(
      b, loc, vectorType, DenseElementsAttr::get(vectorType, 0.0f));
  SmallVector<Value> inits(tile.channels * tile.rows * numColumns, zero);
  // The reduction loops c, r, s, the accumulators carried through them.
  auto tapBody = [&](OpBuilder &tb, Location tl, ValueRange reductionIvs,
                     ValueRange accs) {
    SmallVector<Value> operands(outerOperands);
    llvm::append_range(operands, reductionIvs);
    SmallVector<Value> weights;
    for (int64_t k = 0; k < tile.channels; ++k) {
      Value weight = affine::AffineLoadOp::create(
          tb, tl, conv.filter, map(7, {tile.channel + k, c, r, s}), operands);
      weights.push_back(
          vector::BroadcastOp::create(tb, tl, vectorType, weight));
    }
    SmallVector<Value> next(accs);
    for (int64_t row = 0; row < tile.rows; ++row)
      for (int64_t column = 0; column < numColumns; ++column) {
        Value pixels = affine::AffineVectorLoadOp::create(
            tb, tl, vectorType, conv.source,
            map(7, conv.tapIndex(ctx, tile.row + row, tile.columns[column])),
            operands);
        for (int64_t k = 0; k < tile.channels; ++k) {
          int64_t i = accIndex(k, row, column);
          next[i] = vector::FMAOp::create(tb, tl, pixels, weights[k], accs[i]);
        }
      }
    return next;
  };
  int64_t extents[] = {conv.inChannels, conv.filterRows, conv.filterColumns};
  std::function<SmallVector<Value>(OpBuilder &, Location, SmallVector<Value>,
                                   ValueRange, unsigned)>
      buildLoop = [&](OpBuilder &lb, Location l, SmallVector<Value> ivs,
                      ValueRange accs, unsigned depth) -> SmallVector<Value> {
    if (depth == 3)
      return tapBody(lb, l, ivs, accs);
    auto loop = AffineForOp::create(
        lb, l, 0, extents[depth], 1, accs,
        [&](OpBuilder &ib, Location il, Value iv, ValueRange iterArgs) {
          SmallVector<Value> inner(ivs);
          inner.push_back(iv);
          affine::AffineYieldOp::create(
              ib, il, buildLoop(ib, il, inner, iterArgs, depth + 1));
        });
    return SmallVector<Value>(loop.getResults());
  };
  SmallVector<Value> sums = buildLoop(b, loc, {}, inits, 0);

  Value output = conv.output;
  for (int64_t k = 0; k < tile.channels; ++k)
    for (int64_t row = 0; row < tile.rows; ++row)
      for (int64_t column = 0; column < numColumns; ++column) {
        Value sum = sums[accIndex(k, row, column)];
        AffineExpr first = tile.columns[column];
        auto outputMap = [&](int64_t lane) {
          return map(NumOuter,
                     {n, tile.channel + k, tile.row + row, first + lane});
        };
        if (column + 1 < numColumns || tile.lastLanes == kLanes) {
          affine::AffineVectorStoreOp::create(b, loc, sum, output, outputMap(0),
                                              outerOperands);
          continue;
        }
        for (int64_t lane = 0; lane < tile.lastLanes; ++lane) {
          Value element = vector::ExtractOp::create(b, loc, sum, lane);
          affine::AffineStoreOp::create(b, loc, element, output,
                                        outputMap(lane), outerOperands);
        }
      }
}

/// Stores zero into `buffer` over the box [lower, upper) (nothing if empty).
void buildZeroFill(OpBuilder &b, Location loc, Value buffer,
                   ArrayRef<int64_t> lower, ArrayRef<int64_t> upper) {
  for (auto [lo, hi] : llvm::zip(lower, upper))
    if (lo >= hi)
      return;
  Value zero =
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f));
  affine::buildAffineLoopNest(
      b, loc, lower, upper, SmallVector<int64_t>(lower.size(), 1),
      [&](OpBuilder &nb, Location l, ValueRange ivs) {
        affine::AffineStoreOp::create(nb, l, zero, buffer, ivs);
      });
}

/// The input copy for taps that read 16 consecutive floats:
/// copy[n][c][top + h][phase][q] = input[n][c][h][q * stride + phase - left]
/// where that column is in the input, zero elsewhere (the padding), with
/// `columns` values of q.
Value buildPhaseSplitCopy(OpBuilder &b, Location loc, Conv2DOp op,
                          int64_t columns) {
  Value input = op.getInput();
  ArrayRef<int64_t> shape = cast<MemRefType>(input.getType()).getShape();
  int64_t batch = shape[0], channels = shape[1], height = shape[2],
          width = shape[3];
  ArrayRef<int64_t> padding = op.getPadding();
  int64_t top = padding[0], left = padding[1], bottom = padding[2];
  int64_t stride = op.getStrides()[1];
  int64_t rows = top + height + bottom;
  auto type =
      MemRefType::get({batch, channels, rows, stride, columns}, b.getF32Type());
  Value copy = memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
  // The padding rows, whole.
  buildZeroFill(b, loc, copy, {0, 0, 0, 0, 0},
                {batch, channels, top, stride, columns});
  buildZeroFill(b, loc, copy, {0, 0, top + height, 0, 0},
                {batch, channels, rows, stride, columns});
  MLIRContext *ctx = b.getContext();
  for (int64_t phase = 0; phase < stride; ++phase) {
    // The q whose column q * stride + phase - left is in [0, width).
    int64_t first = std::clamp<int64_t>(
        llvm::divideCeilSigned(left - phase, stride), 0, columns);
    int64_t end = std::clamp<int64_t>(
        llvm::divideFloorSigned(width - 1 + left - phase, stride) + 1, first,
        columns);
    buildZeroFill(b, loc, copy, {0, 0, top, phase, 0},
                  {batch, channels, top + height, phase + 1, first});
    buildZeroFill(b, loc, copy, {0, 0, top, phase, end},
                  {batch, channels, top + height, phase + 1, columns});
    if (first >= end)
      continue;
    AffineExpr n = getAffineDimExpr(0, ctx), c = getAffineDimExpr(1, ctx),
               h = getAffineDimExpr(2, ctx), q = getAffineDimExpr(3, ctx);
    affine::buildAffineLoopNest(
        b, loc, {0, 0, 0, first}, {batch, channels, height, end}, {1, 1, 1, 1},
        [&](OpBuilder &nb, Location l, ValueRange ivs) {
          Value x = affine::AffineLoadOp::create(
              nb, l, input,
              AffineMap::get(4, 0, {n, c, h, q * stride + phase - left}, ctx),
              ivs);
          affine::AffineStoreOp::create(
              nb, l, x, copy,
              AffineMap::get(
                  4, 0, {n, c, h + top, getAffineConstantExpr(phase, ctx), q},
                  ctx),
              ivs);
        });
  }
  return copy;
}

} // namespace

void dl::lowerPixelVectorConv(PatternRewriter &rewriter, Conv2DOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  ArrayRef<int64_t> filter = op.getFilter().getType().getShape();
  ArrayRef<int64_t> output = op.getOutput().getType().getShape();
  PixelConv conv{op.getFilter(),
                 op.getOutput(),
                 output[0],
                 filter[1],
                 filter[0],
                 filter[2],
                 filter[3],
                 output[2],
                 output[3],
                 op.getStrides()[0],
                 op.getStrides()[1],
                 op.getDilations()[0],
                 op.getDilations()[1],
                 op.getInput()};
  if (llvm::is_contained(output, 0))
    return; // No output element.

  // The copy, unless every tap's 16 floats are in the input's row already.
  bool padded = llvm::any_of(op.getPadding(), [](int64_t p) { return p; });
  Value copy;
  if (padded || conv.strideW != 1 || conv.outColumns < kLanes) {
    int64_t columns = std::max(conv.outColumns, kLanes) +
                      (conv.filterColumns - 1) * conv.dilationW / conv.strideW;
    copy = buildPhaseSplitCopy(rewriter, loc, op, columns);
    conv.source = copy;
  }

  // The register tile: vectors along the row, then output channels, then
  // output rows, within kAccumulators.
  int64_t rowVectors = llvm::divideCeil(conv.outColumns, kLanes);
  int64_t vectors = std::min(rowVectors, kMaxVectors);
  int64_t channels = std::clamp<int64_t>(
      kAccumulators / vectors, 1, std::min(kMaxChannels, conv.outChannels));
  int64_t rows = std::clamp<int64_t>(kAccumulators / (vectors * channels), 1,
                                     std::min(kMaxRows, conv.outRows));

  // The columns: tiles of `vectors` whole vectors, then the rest of the row
  // as vectors whose last ends at the row's last column (or, in a row
  // shorter than a vector, one vector of which the row's lanes are stored).
  int64_t columnTiles = conv.outColumns / (vectors * kLanes);
  int64_t tiled = columnTiles * vectors * kLanes;
  SmallVector<AffineExpr> restColumns;
  int64_t lastLanes = kLanes;
  if (conv.outColumns < kLanes) {
    restColumns.push_back(getAffineConstantExpr(0, ctx));
    lastLanes = conv.outColumns;
  } else if (tiled < conv.outColumns) {
    int64_t restVectors = llvm::divideCeil(conv.outColumns - tiled, kLanes);
    for (int64_t v = 0; v + 1 < restVectors; ++v)
      restColumns.push_back(getAffineConstantExpr(tiled + v * kLanes, ctx));
    restColumns.push_back(getAffineConstantExpr(conv.outColumns - kLanes, ctx));
  }

  // One nest per part of the rows (whole tiles, the rest) and of the
  // channels: loops over n and the tiles, then the column tiles and the
  // row's rest.
  Value zeroIndex = arith::ConstantIndexOp::create(rewriter, loc, 0);
  struct Part {
    int64_t tiles, size, first;
  };
  auto parts = [](int64_t extent, int64_t size) {
    SmallVector<Part> result;
    if (extent / size > 0)
      result.push_back({extent / size, size, 0});
    if (extent % size > 0)
      result.push_back({0, extent % size, extent / size * size});
    return result;
  };
  for (Part rowPart : parts(conv.outRows, rows))
    for (Part channelPart : parts(conv.outChannels, channels)) {
      SmallVector<int64_t> upper = {conv.batch};
      if (rowPart.tiles)
        upper.push_back(rowPart.tiles);
      if (channelPart.tiles)
        upper.push_back(channelPart.tiles);
      affine::buildAffineLoopNest(
          rewriter, loc, SmallVector<int64_t>(upper.size(), 0), upper,
          SmallVector<int64_t>(upper.size(), 1),
          [&](OpBuilder &b, Location l, ValueRange ivs) {
            SmallVector<Value> outer(NumOuter, zeroIndex);
            unsigned next = 0;
            outer[N] = ivs[next++];
            if (rowPart.tiles)
              outer[RowTile] = ivs[next++];
            if (channelPart.tiles)
              outer[ChannelTile] = ivs[next++];
            Tile tile;
            tile.row = rowPart.tiles
                           ? getAffineDimExpr(RowTile, ctx) * rowPart.size
                           : getAffineConstantExpr(rowPart.first, ctx);
            tile.channel =
                channelPart.tiles
                    ? getAffineDimExpr(ChannelTile, ctx) * channelPart.size
                    : getAffineConstantExpr(channelPart.first, ctx);
            tile.rows = rowPart.size;
            tile.channels = channelPart.size;
            if (columnTiles > 0) {
              AffineForOp::create(b, l, 0, columnTiles, 1, ValueRange{},
                                  [&](OpBuilder &cb, Location cl,
                                      Value columnTile, ValueRange) {
                                    SmallVector<Value> operands(outer);
                                    operands[ColumnTile] = columnTile;
                                    Tile whole = tile;
                                    whole.lastLanes = kLanes;
                                    for (int64_t v = 0; v < vectors; ++v)
                                      whole.columns.push_back(
                                          getAffineDimExpr(ColumnTile, ctx) *
                                              (vectors * kLanes) +
                                          v * kLanes);
                                    buildTile(cb, cl, conv, operands, whole);
                                    affine::AffineYieldOp::create(cb, cl);
                                  });
            }
            if (!restColumns.empty()) {
              Tile rest = tile;
              rest.columns = restColumns;
              rest.lastLanes = lastLanes;
              buildTile(b, l, conv, outer, rest);
            }
          });
    }
  if (copy)
    memref::DeallocOp::create(rewriter, loc, copy);
}
