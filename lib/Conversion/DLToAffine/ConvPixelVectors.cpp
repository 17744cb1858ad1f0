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
// A tap reads the 16 input columns of 16 output columns: a vector, or at a
// column stride of sw, sw vectors whose lanes 0, sw, 2 sw, ... are shuffled
// into one (the last vector ending at the tap's last column, so that no
// load runs past a row's end). Where the convolution has padding, or rows
// shorter than a vector, the taps of a row tile read a window copied from
// the input, with zero rows and columns around it and columns on the right
// up to the last vector's end. A row's last columns are a vector ending at
// its last column (overlapping the one before, which stores the same values
// again); rows shorter than a vector store their lanes one by one.
//
//===----------------------------------------------------------------------===//

#include "ConvPixelVectors.h"

#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// Floats per vector.
constexpr int64_t kLanes = kLoweringVectorFloats;
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
  /// The input (N x C x H x W), or the zero-padded window of the row tile's
  /// input rows (C x rows x columns, see buildWindowCopy).
  Value source;
  /// For a window: its first row, in the rows of the padded input.
  AffineExpr windowRow;

  /// The index in `source` of the first input column of the tap (r, s) of
  /// output pixel (row, column) of image d0 and input channel d4.
  SmallVector<AffineExpr> tapIndex(MLIRContext *ctx, AffineExpr row,
                                   AffineExpr column) const {
    AffineExpr n = getAffineDimExpr(N, ctx), c = getAffineDimExpr(4, ctx),
               r = getAffineDimExpr(5, ctx), s = getAffineDimExpr(6, ctx);
    AffineExpr inRow = row * strideH + r * dilationH;
    AffineExpr inColumn = column * strideW + s * dilationW;
    if (windowRow)
      return {c, inRow - windowRow, inColumn};
    return {n, c, inRow, inColumn};
  }
};

/// Where the `stride` vectors of a strided tap start, in floats from its
/// first column: 16 apart, but none past the tap's last column (15 *
/// stride), which may be its row's last: the last vector ends there (for
/// stride 2, at 0 and 15).
SmallVector<int64_t> tapVectorOffsets(int64_t stride) {
  SmallVector<int64_t> offsets;
  for (int64_t v = 0; v < stride; ++v)
    offsets.push_back(std::min(v * kLanes, (kLanes - 1) * stride + 1 - kLanes));
  return offsets;
}

/// Lanes 0, stride, 2 stride, ... of the floats that `vectors` (16 each,
/// from `offsets`) hold, by shuffles (LLVM merges them into two-source
/// permutes): lane j from the last vector that holds float j * stride.
Value deinterleave(OpBuilder &b, Location loc, ArrayRef<Value> vectors,
                   ArrayRef<int64_t> offsets, int64_t stride) {
  auto source = [&](int64_t lane) {
    int64_t v = vectors.size() - 1;
    while (offsets[v] > lane * stride)
      --v;
    return v;
  };
  Value result;
  for (int64_t v = 0; v < int64_t(vectors.size()); ++v) {
    // The shuffle's lanes 0-15 are result's, 16-31 those of vectors[v].
    SmallVector<int64_t> mask;
    for (int64_t lane = 0; lane < kLanes; ++lane) {
      int64_t position = lane * stride - offsets[v];
      if (source(lane) == v)
        mask.push_back(result ? kLanes + position : position);
      else
        mask.push_back(result ? lane : 0);
    }
    result =
        result
            ? vector::ShuffleOp::create(b, loc, result, vectors[v], mask)
            : vector::ShuffleOp::create(b, loc, vectors[v], vectors[v], mask);
  }
  return result;
}

/// The register tile of `conv` (vectors along a row, output channels,
/// output rows) for `target`: for each count of vectors, as many output
/// channels, then output rows, as pixelTileAccumulators holds in the
/// target's registers (24 of AVX-512's 32, 6 of the 8 16-float vectors in
/// AVX2's 16); of those, the tile whose channel tiles hold the most
/// accumulators on average (channel tiles of as many channels as can be,
/// the last one holding the rest). Among equals, with AVX-512 the most vectors
/// (its tiles as measured there); where a vector takes two registers (AVX2),
/// the fewest, each broadcast weight then serving the whole vector's rows. On
/// one Zen 3 core, a 4 -> 5-channel 4x117x178 3x3 convolution took 1.71 ms with
/// AVX-512's tile (spilled), 0.69 with 4 vectors and 0.55 with 1
/// (docs/heuristics.md, "Pixel vectors on AVX2").
std::tuple<int64_t, int64_t, int64_t> choosePixelTile(const PixelConv &conv,
                                                      const Target &target) {
  int64_t registers = target.loweringVectorRegisters();
  bool fewestVectors = target.vectorFloats() < kLanes;
  int64_t accumulators = pixelTileAccumulators(registers);
  int64_t rowVectors = llvm::divideCeil(conv.outColumns, kLanes);
  std::tuple<int64_t, int64_t, int64_t> best = {1, 1, 1};
  double bestMean = 0.0;
  for (int64_t vectors = 1; vectors <= std::min(rowVectors, kMaxVectors);
       ++vectors) {
    int64_t channels = std::clamp<int64_t>(
        accumulators / vectors, 1, std::min(kMaxChannels, conv.outChannels));
    // As many channels in each channel tile (9 in 5 and 4, not 8 and 1):
    // the loop over them may be the parallel one.
    channels = llvm::divideCeil(conv.outChannels,
                                llvm::divideCeil(conv.outChannels, channels));
    int64_t rows = std::clamp<int64_t>(accumulators / (vectors * channels), 1,
                                       std::min(kMaxRows, conv.outRows));
    double mean = double(vectors * rows * conv.outChannels) /
                  double(llvm::divideCeil(conv.outChannels, channels));
    if (mean > bestMean || (mean == bestMean && !fewestVectors)) {
      best = {vectors, channels, rows};
      bestMean = mean;
    }
  }
  return best;
}

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
  SmallVector<int64_t> offsets = tapVectorOffsets(conv.strideW);
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
        SmallVector<AffineExpr> index =
            conv.tapIndex(ctx, tile.row + row, tile.columns[column]);
        SmallVector<Value> vectors;
        AffineExpr first = index.back();
        for (int64_t offset : offsets) {
          index.back() = first + offset;
          vectors.push_back(affine::AffineVectorLoadOp::create(
              tb, tl, vectorType, conv.source, map(7, index), operands));
        }
        Value pixels = conv.strideW == 1 ? vectors.front()
                                         : deinterleave(tb, tl, vectors,
                                                        offsets, conv.strideW);
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
        if (column + 1 < numColumns || tile.lastLanes == kLanes) {
          affine::AffineVectorStoreOp::create(
              b, loc, sum, output,
              map(NumOuter, {n, tile.channel + k, tile.row + row, first}),
              outerOperands);
          continue;
        }
        // A loop, not tile.lastLanes stores in the block: the passes after
        // (affine-scalrep's store-to-load forwarding) compare every store
        // with every load of a block.
        AffineForOp::create(
            b, loc, 0, tile.lastLanes, 1, ValueRange{},
            [&](OpBuilder &lb, Location l, Value lane, ValueRange) {
              Value element = vector::ExtractOp::create(lb, l, sum, lane);
              SmallVector<Value> operands(outerOperands);
              operands.push_back(lane);
              affine::AffineStoreOp::create(
                  lb, l, element, output,
                  map(NumOuter + 1, {n, tile.channel + k, tile.row + row,
                                     first + getAffineDimExpr(NumOuter, ctx)}),
                  operands);
              affine::AffineYieldOp::create(lb, l);
            });
      }
}

/// The window of a row tile: rows `firstRow` (an expression of `ivs`, in
/// the rows of the input padded with `top` zero rows above) onwards of
/// image `image` (one of `ivs`) of `input`, all channels, each row with
/// `left` zero columns before the input's and zeros after, to `columns`:
/// window[c][i][j] = input[image][c][firstRow + i - top][j - left], zero
/// outside the input. Copied per row tile, inside the parallel loop: each
/// thread reads only the windows it wrote, from its own cache. (A copy of
/// the whole input before the tiles ran slower at 2 threads than at 1 on
/// this machine: the threads' tiles read rows the other thread had just
/// written.)
Value buildWindowCopy(OpBuilder &b, Location loc, Value input, Value image,
                      ValueRange ivs, AffineExpr firstRow, int64_t top,
                      int64_t left, int64_t rows, int64_t columns) {
  ArrayRef<int64_t> shape = cast<MemRefType>(input.getType()).getShape();
  int64_t channels = shape[1], height = shape[2], width = shape[3];
  auto type = MemRefType::get({channels, rows, columns}, b.getF32Type());
  Value window = memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
  MLIRContext *ctx = b.getContext();
  // Maps over `ivs`, then image, channel, window row, column.
  unsigned numIvs = ivs.size();
  AffineExpr n = getAffineDimExpr(numIvs, ctx),
             c = getAffineDimExpr(numIvs + 1, ctx),
             i = getAffineDimExpr(numIvs + 2, ctx),
             j = getAffineDimExpr(numIvs + 3, ctx);
  unsigned numDims = numIvs + 4;
  Value zero =
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f));
  // The columns [first, end) of the row at `rowIvs` (c, i), by `body`.
  auto columnLoop =
      [&](OpBuilder &lb, Location l, ValueRange rowIvs, int64_t first,
          int64_t end,
          function_ref<void(OpBuilder &, Location, ValueRange)> body) {
        if (first >= end)
          return;
        AffineForOp::create(
            lb, l, first, end, 1, ValueRange{},
            [&](OpBuilder &cb, Location cl, Value column, ValueRange) {
              SmallVector<Value> operands(ivs);
              operands.push_back(image);
              llvm::append_range(operands, rowIvs);
              operands.push_back(column);
              body(cb, cl, operands);
              affine::AffineYieldOp::create(cb, cl);
            });
      };
  AffineMap windowMap = AffineMap::get(numDims, 0, {c, i, j}, ctx);
  auto fill = [&](OpBuilder &fb, Location l, ValueRange rowIvs, int64_t first,
                  int64_t end) {
    columnLoop(fb, l, rowIvs, first, end,
               [&](OpBuilder &cb, Location cl, ValueRange operands) {
                 affine::AffineStoreOp::create(cb, cl, zero, window, windowMap,
                                               operands);
               });
  };
  affine::buildAffineLoopNest(
      b, loc, {0, 0}, {channels, rows}, {1, 1},
      [&](OpBuilder &nb, Location l, ValueRange rowIvs) {
        // The window rows that hold input rows; the others are zero.
        AffineExpr inputRow = firstRow + i - top;
        SmallVector<Value> operands(ivs);
        operands.push_back(image);
        llvm::append_range(operands, rowIvs);
        auto inInput = IntegerSet::get(
            numDims - 1, 0, {inputRow, height - 1 - inputRow}, {false, false});
        auto ifOp = affine::AffineIfOp::create(nb, l, inInput, operands,
                                               /*withElseRegion=*/true);
        OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
        fill(thenBuilder, l, rowIvs, 0, left);
        // Contiguous on both sides: dl-vectorize-copies makes it vectors.
        columnLoop(
            thenBuilder, l, rowIvs, left, left + width,
            [&](OpBuilder &cb, Location cl, ValueRange all) {
              Value x = affine::AffineLoadOp::create(
                  cb, cl, input,
                  AffineMap::get(numDims, 0, {n, c, inputRow, j - left}, ctx),
                  all);
              affine::AffineStoreOp::create(cb, cl, x, window, windowMap, all);
            });
        fill(thenBuilder, l, rowIvs, left + width, columns);
        OpBuilder elseBuilder = ifOp.getElseBodyBuilder();
        fill(elseBuilder, l, rowIvs, 0, columns);
      });
  return window;
}

/// `image` (N x C x H x W) as N x C x 1 x (H * W), a view of the same
/// buffer; null where its layout does not keep a row's end next to the
/// next row's start.
Value joinRows(OpBuilder &b, Location loc, Value image) {
  auto type = cast<MemRefType>(image.getType());
  SmallVector<ReassociationIndices> reassociation = {{0}, {1}, {2, 3}};
  if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, reassociation))
    return Value();
  Value collapsed =
      memref::CollapseShapeOp::create(b, loc, image, reassociation);
  ArrayRef<int64_t> shape = type.getShape();
  auto joinedType = memref::ExpandShapeOp::computeExpandedType(
      cast<MemRefType>(collapsed.getType()),
      {shape[0], shape[1], 1, shape[2] * shape[3]}, reassociation);
  if (failed(joinedType))
    return Value();
  return memref::ExpandShapeOp::create(b, loc, *joinedType, collapsed,
                                       reassociation);
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

  // A pointwise convolution at unit stride reads each output pixel's own
  // input pixel: the rows of both images join into one row (views of the
  // same buffers), whose vectors then run across the rows' ends.
  int64_t pixels = conv.outRows * conv.outColumns;
  if (op.hasJoinableRows() && pixels >= kLanes) {
    Value joinedInput = joinRows(rewriter, loc, op.getInput());
    Value joinedOutput = joinRows(rewriter, loc, op.getOutput());
    if (joinedInput && joinedOutput) {
      conv.source = joinedInput;
      conv.output = joinedOutput;
      conv.outRows = 1;
      conv.outColumns = pixels;
    }
  }

  // A window copy per row tile, unless every tap's vectors are in the
  // input's rows.
  ArrayRef<int64_t> padding = op.getPadding();
  int64_t lastColumn = pixelVectorLastColumn(
      conv.outColumns, conv.strideW, conv.filterColumns, conv.dilationW);
  int64_t width = cast<MemRefType>(conv.source.getType()).getDimSize(3);
  bool windowed =
      llvm::any_of(padding, [](int64_t p) { return p; }) || lastColumn >= width;

  // The register tile.
  int64_t vectors, channels, rows;
  std::tie(vectors, channels, rows) = choosePixelTile(conv, getTarget(op));

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

  Value zeroIndex = arith::ConstantIndexOp::create(rewriter, loc, 0);
  // One nest over n and the row tiles (the last one, when rows do not
  // divide the output's, the rest of the rows: an affine.if in the same
  // loop, so that the parallel loops share it out with the others); in it,
  // the window copy, then the column tiles (whole tiles, then the rest of
  // the row), each computing all channel tiles (whole tiles, then the rest
  // of the channels), which read the column tile's input from cache. The
  // loop over the column tiles is the first long one of a single row.
  int64_t wholeRowTiles = conv.outRows / rows;
  int64_t rowTiles = llvm::divideCeil(conv.outRows, rows);
  struct Part {
    int64_t tiles, size, first;
  };
  SmallVector<Part> channelParts;
  if (conv.outChannels / channels > 0)
    channelParts.push_back({conv.outChannels / channels, channels, 0});
  if (conv.outChannels % channels > 0)
    channelParts.push_back({0, conv.outChannels % channels,
                            conv.outChannels / channels * channels});
  AffineExpr rowTile = getAffineDimExpr(RowTile, ctx);
  // The tile of `part`'s channels at the columns of `tile`.
  auto buildChannelPart = [&](OpBuilder &b, Location l,
                              const PixelConv &tileConv, ValueRange outer,
                              const Part &part, Tile tile) {
    tile.row = rowTile * rows;
    tile.channel = part.tiles ? getAffineDimExpr(ChannelTile, ctx) * part.size
                              : getAffineConstantExpr(part.first, ctx);
    tile.rows = rows;
    tile.channels = part.size;
    if (wholeRowTiles == rowTiles) {
      buildTile(b, l, tileConv, outer, tile);
      return;
    }
    auto whole =
        IntegerSet::get(NumOuter, 0, {wholeRowTiles - 1 - rowTile}, {false});
    auto ifOp = affine::AffineIfOp::create(b, l, whole, outer,
                                           /*withElseRegion=*/true);
    OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
    buildTile(thenBuilder, l, tileConv, outer, tile);
    OpBuilder elseBuilder = ifOp.getElseBodyBuilder();
    tile.rows = conv.outRows % rows;
    buildTile(elseBuilder, l, tileConv, outer, tile);
  };
  // Every channel tile at the columns of `tile`.
  auto buildChannels = [&](OpBuilder &b, Location l, const PixelConv &tileConv,
                           ValueRange outer, const Tile &tile) {
    for (const Part &part : channelParts) {
      if (!part.tiles) {
        buildChannelPart(b, l, tileConv, outer, part, tile);
        continue;
      }
      AffineForOp::create(
          b, l, 0, part.tiles, 1, ValueRange{},
          [&](OpBuilder &cb, Location cl, Value channelTile, ValueRange) {
            SmallVector<Value> operands(outer);
            operands[ChannelTile] = channelTile;
            buildChannelPart(cb, cl, tileConv, operands, part, tile);
            affine::AffineYieldOp::create(cb, cl);
          });
    }
  };
  affine::buildAffineLoopNest(
      rewriter, loc, {0, 0}, {conv.batch, rowTiles}, {1, 1},
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        SmallVector<Value> outer(NumOuter, zeroIndex);
        outer[N] = ivs[0];
        outer[RowTile] = ivs[1];
        PixelConv tileConv = conv;
        Value window;
        if (windowed) {
          // The padded rows the row tile's taps read.
          int64_t windowRows = (rows - 1) * conv.strideH +
                               (conv.filterRows - 1) * conv.dilationH + 1;
          AffineExpr firstRow =
              getAffineDimExpr(1, ctx) * (rows * conv.strideH);
          window =
              buildWindowCopy(b, l, op.getInput(), ivs[0], ivs, firstRow,
                              padding[0], padding[1], windowRows,
                              std::max(lastColumn + 1, padding[1] + width));
          tileConv.source = window;
          tileConv.windowRow = rowTile * (rows * conv.strideH);
        }
        // The last column tile also computes the rest of the row (whose
        // last vector overlaps it), so that no two iterations write the
        // same columns and the loop nest stays perfect: the parallel loops
        // then share the column tiles out where the images and row tiles
        // are few.
        AffineForOp::create(
            b, l, 0, std::max<int64_t>(columnTiles, 1), 1, ValueRange{},
            [&](OpBuilder &cb, Location cl, Value columnTile, ValueRange) {
              SmallVector<Value> operands(outer);
              operands[ColumnTile] = columnTile;
              if (columnTiles > 0) {
                Tile whole;
                whole.lastLanes = kLanes;
                for (int64_t v = 0; v < vectors; ++v)
                  whole.columns.push_back(getAffineDimExpr(ColumnTile, ctx) *
                                              (vectors * kLanes) +
                                          v * kLanes);
                buildChannels(cb, cl, tileConv, operands, whole);
              }
              if (!restColumns.empty()) {
                Tile rest;
                rest.columns = restColumns;
                rest.lastLanes = lastLanes;
                if (columnTiles <= 1) {
                  buildChannels(cb, cl, tileConv, operands, rest);
                } else {
                  auto last = IntegerSet::get(
                      NumOuter, 0,
                      {getAffineDimExpr(ColumnTile, ctx) - (columnTiles - 1)},
                      {true});
                  auto ifOp = affine::AffineIfOp::create(
                      cb, cl, last, operands, /*withElseRegion=*/false);
                  OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
                  buildChannels(thenBuilder, cl, tileConv, operands, rest);
                }
              }
              affine::AffineYieldOp::create(cb, cl);
            });
        if (window)
          memref::DeallocOp::create(b, l, window);
      });
}
