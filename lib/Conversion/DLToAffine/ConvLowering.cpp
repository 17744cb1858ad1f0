//===- ConvLowering.cpp - dl.conv2d to affine nests -----------------------===//
//
// The lowering of dl.conv2d: the plain nest, whose taps in the zero padding
// are skipped with affine.if, or the blocked one, whose filter-row bounds skip
// the padding rows and whose padding columns are a zero-padded copy (or runs
// of filter columns with skip_padding_columns), its (ow, c, k) band a GEMM
// (over blocks of 128 output columns where the output width is dynamic, so
// that its trip count has a bound), and its epilogue applied to each output
// tile after the tile's reduction; pixel_vectors convolutions go to
// ConvPixelVectors.
//
//===----------------------------------------------------------------------===//

#include "ConvPixelVectors.h"
#include "Epilogue.h"
#include "Lowerings.h"
#include "NestBuilders.h"

#include "dl/Dialect/DL/Transforms/Blocking.h"

#include "mlir/IR/IntegerSet.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// The dimension of a blocked convolution's input that the loop its
/// schedule runs in parallel divides among the threads (getDividedInputDim);
/// none without a parallel loop.
std::optional<unsigned> getParallelInputDim(Conv2DOp op) {
  ScheduleAttr schedule = op.getScheduleAttr();
  std::optional<SmallVector<ScheduleDim>> dims = op.getScheduleDims();
  if (!schedule || !dims || !schedule.getParallelLoop())
    return std::nullopt;
  FailureOr<SmallVector<ScheduledLoop>> loops =
      schedule.getLoops(*dims, [] { return InFlightDiagnostic(); });
  if (failed(loops))
    return std::nullopt;
  return getDividedInputDim(
      (*dims)[(*loops)[*schedule.getParallelLoop()].dim].name);
}

/// A copy of the blocked activation `input` with `left` and `right` zero
/// columns beside each row, for a convolution without skip_padding_columns:
/// the accumulation nest then reads in bounds without affine.if and its
/// innermost band stays a GEMM (the form LIBXSMM kernels take); the padding
/// rows are never read (the filter-row bounds skip them). Only the padding
/// columns are zeroed: the interior is written once, by the copy (zeroing
/// all of it first wrote conv1's 635 KB copy twice). With `parallelDim`
/// (getParallelInputDim), the loop over that dimension is the copy's
/// outermost and runs in parallel alone, so that each thread copies about
/// the rows it then reads: divided along the images and rows together
/// (dl-parallelize-outer-loops' coalescing), a thread reading half of
/// every image's rows finds half of them copied by the other core
/// (docs/heuristics.md, "Parallelism model").
Value buildColumnPaddedCopy(OpBuilder &b, Location loc, Value input,
                            int64_t left, int64_t right,
                            std::optional<unsigned> parallelDim) {
  auto type = cast<MemRefType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t extra = d == 3 ? left + right : 0;
    if (!type.isDynamicDim(d)) {
      shape[d] += extra;
      continue;
    }
    Value size = memref::DimOp::create(b, loc, input, d);
    if (extra)
      size = arith::AddIOp::create(
          b, loc, size, arith::ConstantIndexOp::create(b, loc, extra));
    dynamicSizes.push_back(size);
  }
  Value padded = memref::AllocOp::create(
      b, loc, MemRefType::get(shape, type.getElementType()), dynamicSizes);

  // One nest over the rows (the dims before the column one), each written
  // in order: its left zero columns, its copy, its right zero columns. A
  // separate nest of zero fills per side would be a loop of short memsets
  // that LLVM unrolls fully (3 x 8 x 83 rows of 46 channels: 4,000 memsets
  // in one block, 35 s in the instruction scheduler).
  constexpr unsigned kColumnDim = 3;
  Value zero = f32Constant(b, loc, 0.0);
  SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
  // The row loops in nest order: `parallelDim` first.
  SmallVector<unsigned> rowOrder = {0, 1, 2};
  if (parallelDim)
    std::rotate(rowOrder.begin(), rowOrder.begin() + *parallelDim,
                rowOrder.begin() + *parallelDim + 1);
  SmallVector<OpFoldResult> rowSizes;
  for (unsigned dim : rowOrder)
    rowSizes.push_back(inputSizes[dim]);
  ArrayRef<OpFoldResult> elementSizes =
      ArrayRef<OpFoldResult>(inputSizes).drop_front(kColumnDim + 1);
  Value outermostIv;
  buildNest(
      b, loc, rowSizes, [&](OpBuilder &rb, Location rl, ValueRange nestIvs) {
        SmallVector<Value> rowIvs(kColumnDim);
        for (auto [position, dim] : llvm::enumerate(rowOrder))
          rowIvs[dim] = nestIvs[position];
        outermostIv = nestIvs.front();
        // Columns [first, first + count) of the row: `copy` reads them from
        // the input's columns [0, count), else they are zeros.
        auto writeColumns = [&](OpFoldResult count, int64_t first,
                                bool afterInput, bool copy) {
          SmallVector<OpFoldResult> sizes = {count};
          llvm::append_range(sizes, elementSizes);
          buildNest(rb, rl, sizes,
                    [&](OpBuilder &nb, Location l, ValueRange ivs) {
                      SmallVector<Value> operands(rowIvs);
                      llvm::append_range(operands, ivs);
                      SmallVector<Value> symbolValues;
                      AffineExpr column = nb.getAffineDimExpr(kColumnDim);
                      SmallVector<AffineExpr> index =
                          identityIndex(nb, operands.size());
                      index[kColumnDim] = column + first;
                      if (afterInput)
                        index[kColumnDim] =
                            index[kColumnDim] +
                            sizeExpr(nb, inputSizes[kColumnDim], symbolValues);
                      unsigned numDims = operands.size();
                      Value value = zero;
                      if (copy) {
                        SmallVector<AffineExpr> inputIndex =
                            identityIndex(nb, numDims);
                        value = loadAt(nb, l, input, operands, inputIndex);
                      }
                      llvm::append_range(operands, symbolValues);
                      storeAt(nb, l, value, padded, operands, numDims, index);
                    });
        };
        if (left > 0)
          writeColumns(rb.getIndexAttr(left), 0, false, false);
        writeColumns(inputSizes[kColumnDim], left, false, true);
        if (right > 0)
          writeColumns(rb.getIndexAttr(right), left, true, false);
      });
  // Tagged once the nest is built: while it is, its loops have no block.
  if (parallelDim)
    tagParallelLoop(b, outermostIv);
  return padded;
}

struct Conv2DLowering : OpRewritePattern<Conv2DOp> {
  Conv2DLowering(MLIRContext *ctx, const DLToAffineOptions &options)
      : OpRewritePattern(ctx), options(options) {}
  DLToAffineOptions options;
  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getGroupLanes())
      return rewriter.notifyMatchFailure(
          op, "group_lanes: lowered in register tiles (WindowLowering.cpp)");
    Location loc = op.getLoc();
    Epilogue epilogue(rewriter, loc, op);
    if (op.getPixelVectors()) {
      lowerPixelVectorConv(rewriter, op);
      epilogue.applyToOutput(rewriter, loc);
      epilogue.finish(rewriter, loc);
      rewriter.eraseOp(op);
      return success();
    }
    Value input = op.getInput(), filter = op.getFilter(),
          output = op.getOutput();
    bool blocked = op.isBlocked();
    SmallVector<OpFoldResult> outSizes = getSizes(rewriter, loc, output);
    SmallVector<OpFoldResult> filterSizes = getSizes(rewriter, loc, filter);
    ArrayRef<int64_t> dilations = op.getDilations();
    ArrayRef<int64_t> strides = op.getStrides();
    SmallVector<int64_t> padding(op.getPadding());

    // Plain convolutions test each tap against the padding. Blocked ones
    // keep their GEMM band free of affine.if: the bounds of the filter-row
    // loop skip the taps above and below the input (PolyDL's microkernel
    // then multiplies no zero rows: 2 of 21 row calls on a 7x7 output, the
    // taps oneDNN's brgconv skips too). With skip_padding_columns, each run
    // of filter columns is its own nest over the output columns it reads
    // the input at (the band of a 3x3 filter's left tap on a 7x7 output is
    // 6 rows long: 2 of 21 column products skipped as well); without, they
    // read a copy that materializes the padding columns. (In the optimized
    // pipeline, dl-reduce-conv-strides has given the blocked strided 1x1
    // ones a dense copy to read at unit stride.)
    Value inputCopy;
    std::optional<SmallVector<TapColumns>> tapRuns;
    if (op.getSkipPaddingColumns()) {
      tapRuns = op.getTapColumns();
    } else if (blocked && (padding[1] != 0 || padding[3] != 0)) {
      inputCopy = buildColumnPaddedCopy(rewriter, loc, input, padding[1],
                                        padding[3], getParallelInputDim(op));
      padding[1] = padding[3] = 0;
      input = inputCopy;
    }

    // H and W for the padding tests, symbols when dynamic.
    SmallVector<Value> symbols;
    SmallVector<AffineExpr> inputSpatialSizes;
    for (int d = 0; d < 2; ++d)
      inputSpatialSizes.push_back(
          sizeExpr(rewriter, getSize(rewriter, loc, input, 2 + d), symbols));

    // output = 0: all of it before the plain nest; for the blocked one, per
    // tile right before its reduction loops.
    Value zero = f32Constant(rewriter, loc, 0.0);
    bool initializePerTile = blocked && options.initializePerTile;
    if (!initializePerTile)
      buildNest(rewriter, loc, outSizes,
                [&](OpBuilder &b, Location l, ValueRange ivs) {
                  storeAt(b, l, zero, output, ivs,
                          identityIndex(b, ivs.size()));
                });

    // Positions of each loop in the accumulation nest.
    //   plain:   (n, k, oh, ow, c, r, s)
    //   blocked: (n, kb, oh, cb, r, s, ow, c, k), the outer (n, kb, oh, cb)
    //            as the schedule orders and tiles them: the innermost band
    //            (ow, c, k) is a GEMM out[ow][k] += in[ow][c] * w[c][k],
    //            and (cb, r, s) around it its batch-reduce (cb's
    //            innermost loop).
    //   A dynamic output width runs the band over blocks of
    //   kMaxKernelRows columns (owb, last), the last block partial: the
    //   band's trip count is bounded by a constant, and its kernels take
    //   their rows at run time.
    enum { N, K, OH, OW, C, R, S, CB, KI, OWB, NumLoops };
    std::array<unsigned, NumLoops> pos;
    SmallVector<OpFoldResult> bounds;
    OuterLoops outer;
    if (!blocked) {
      pos[N] = 0, pos[K] = 1, pos[OH] = 2, pos[OW] = 3, pos[C] = 4, pos[R] = 5,
      pos[S] = 6;
      bounds = {outSizes[0],    outSizes[1],    outSizes[2],   outSizes[3],
                filterSizes[1], filterSizes[2], filterSizes[3]};
    } else {
      outer = getOuterLoops(
          rewriter, op.getScheduleAttr(), op.getScheduleDims(),
          {outSizes[0], outSizes[1], outSizes[2], filterSizes[1]});
      unsigned first = outer.bounds.size();
      pos[R] = first, pos[S] = first + 1, pos[OW] = first + 2,
      pos[C] = first + 3, pos[KI] = first + 4, pos[OWB] = first + 5;
      bounds = outer.bounds;
      bounds.append({filterSizes[2], filterSizes[3], outSizes[3],
                     filterSizes[4], filterSizes[5]});
    }

    bool columnBlocks = blocked && !getConstantIntValue(outSizes[3]);
    SmallVector<Value> bandIvs;
    Value parallelIv;
    auto body = [&](OpBuilder &b, Location l, ValueRange ivs) {
      auto d = [&](int loop) {
        if (blocked && (loop == N || loop == K || loop == OH || loop == CB))
          return outer.dimValues[loop == N    ? 0
                                 : loop == K  ? 1
                                 : loop == OH ? 2
                                              : 3];
        return b.getAffineDimExpr(pos[loop]);
      };
      if (outer.parallelLoop)
        parallelIv = ivs[*outer.parallelLoop];
      AffineExpr ih = d(OH) * strides[0] + d(R) * dilations[0] - padding[0];
      AffineExpr ow = d(OW);
      if (columnBlocks)
        ow = ow + d(OWB) * kMaxKernelRows;
      AffineExpr iw = ow * strides[1] + d(S) * dilations[1] - padding[1];
      if (blocked)
        bandIvs.push_back(ivs[pos[OW]]);

      // Skip the taps that fall in the zero padding (the blocked nest's
      // loop bounds skip them).
      OpBuilder::InsertionGuard guard(b);
      SmallVector<AffineExpr> inBounds;
      if (!blocked && padding[0] > 0)
        inBounds.push_back(ih);
      if (!blocked && padding[2] > 0)
        inBounds.push_back(inputSpatialSizes[0] - 1 - ih);
      if (!blocked && padding[1] > 0)
        inBounds.push_back(iw);
      if (!blocked && padding[3] > 0)
        inBounds.push_back(inputSpatialSizes[1] - 1 - iw);
      if (!inBounds.empty()) {
        auto set = IntegerSet::get(ivs.size(), symbols.size(), inBounds,
                                   SmallVector<bool>(inBounds.size(), false));
        SmallVector<Value> operands(ivs);
        llvm::append_range(operands, symbols);
        auto ifOp = affine::AffineIfOp::create(b, l, set, operands,
                                               /*withElseRegion=*/false);
        b.setInsertionPointToStart(ifOp.getThenBlock());
      }

      // The input channel (block) of the filter's: with groups, offset by
      // the first of output channel (block) k's group.
      AffineExpr inChannel = blocked ? d(CB) : d(C);
      if (int64_t groups = op.getGroups(); groups > 1) {
        ArrayRef<int64_t> filterShape = op.getFilter().getType().getShape();
        inChannel =
            inChannel + d(K).floorDiv(filterShape[0] / groups) * filterShape[1];
      }
      SmallVector<AffineExpr> inIdx, filterIdx, outIdx;
      if (!blocked) {
        inIdx = {d(N), inChannel, ih, iw};
        filterIdx = {d(K), d(C), d(R), d(S)};
        outIdx = {d(N), d(K), d(OH), ow};
      } else {
        inIdx = {d(N), inChannel, ih, iw, d(C)};
        filterIdx = {d(K), d(CB), d(R), d(S), d(C), d(KI)};
        outIdx = {d(N), d(K), d(OH), ow, d(KI)};
      }
      // Separate statements: the IR's order must not depend on the
      // compiler's order of evaluating arguments.
      Value in = loadAt(b, l, input, ivs, inIdx);
      Value weight = loadAt(b, l, filter, ivs, filterIdx);
      Value product = arith::MulFOp::create(b, l, in, weight);
      Value acc = loadAt(b, l, output, ivs, outIdx);
      storeAt(b, l, arith::AddFOp::create(b, l, acc, product), output, ivs,
              outIdx);
    };
    if (!blocked) {
      buildNest(rewriter, loc, bounds, body);
      epilogue.applyToOutput(rewriter, loc);
    } else {
      // The tile of (n, kb, oh) and all of (ow, k) per reduction: set to
      // zero before it, through the epilogue after it.
      auto storeTile = [&](OpBuilder &b, Location l, ValueRange outerIvs,
                           const AccumulatorTile &tile,
                           function_ref<Value(OpBuilder &, Location, ValueRange,
                                              ArrayRef<AffineExpr>)>
                               value) {
        SmallVector<OpFoldResult> extents;
        SmallVector<AffineExpr> base(tile.base.begin(), tile.base.begin() + 3);
        for (unsigned d : {0, 1, 2})
          extents.push_back(b.getIndexAttr(tile.extent[d]));
        for (unsigned d : {3, 4}) {
          extents.push_back(outSizes[d]);
          base.push_back(b.getAffineConstantExpr(0));
        }
        buildTileStore(b, l, output, outerIvs, base, extents, value);
      };
      auto initTile = [&](OpBuilder &b, Location l, ValueRange outerIvs,
                          const AccumulatorTile &tile) {
        if (initializePerTile)
          storeTile(b, l, outerIvs, tile,
                    [&](OpBuilder &, Location, ValueRange,
                        ArrayRef<AffineExpr>) { return zero; });
      };
      auto finishTile = [&](OpBuilder &b, Location l, ValueRange outerIvs,
                            const AccumulatorTile &tile) {
        if (epilogue.hasSteps())
          storeTile(b, l, outerIvs, tile,
                    [&](OpBuilder &tb, Location tl, ValueRange ivs,
                        ArrayRef<AffineExpr> index) {
                      Value sum = loadAt(tb, tl, output, ivs, index);
                      return epilogue.apply(tb, tl, sum, ivs, ivs.size(),
                                            index);
                    });
        if (epilogue.hasRowStatistics())
          epilogue.buildRowStatistics(b, l, outerIvs,
                                      ArrayRef(tile.base).take_front(3),
                                      ArrayRef(tile.extent).take_front(3));
      };
      // The filter rows r whose input row oh * stride + r * dilation - top
      // is in [0, H), as bounds over the outer loops (oh is an expression of
      // them): max(0, ceildiv(top - oh * stride, dilation)) to
      // min(R, ceildiv(H + top - oh * stride, dilation)).
      unsigned numOuter = outer.bounds.size();
      SmallVector<Value> rowOperands(symbols);
      AffineExpr firstRow = padding[0] - outer.dimValues[2] * strides[0];
      SmallVector<AffineExpr> rowLower = {rewriter.getAffineConstantExpr(0)};
      SmallVector<AffineExpr> rowUpper = {
          sizeExpr(rewriter, filterSizes[2], rowOperands)};
      if (padding[0] > 0)
        rowLower.push_back(firstRow.ceilDiv(dilations[0]));
      if (padding[2] > 0)
        rowUpper.push_back(
            (inputSpatialSizes[0] + firstRow).ceilDiv(dilations[0]));
      auto rowMap = [&](ArrayRef<AffineExpr> results) {
        return AffineMap::get(numOuter, rowOperands.size(), results,
                              rewriter.getContext());
      };
      // The filter-row loop around `inner`, which gets the row's iv.
      auto buildFilterRowLoop =
          [&](OpBuilder &b, Location l, ValueRange outerIvs,
              function_ref<void(OpBuilder &, Location, Value)> inner) {
            SmallVector<Value> lowerOperands(outerIvs);
            llvm::append_range(lowerOperands, rowOperands);
            SmallVector<Value> upperOperands(lowerOperands);
            AffineMap lower = rowMap(rowLower), upper = rowMap(rowUpper);
            affine::canonicalizeMapAndOperands(&lower, &lowerOperands);
            affine::canonicalizeMapAndOperands(&upper, &upperOperands);
            AffineForOp::create(
                b, l, lowerOperands, lower, upperOperands, upper, 1,
                ValueRange{},
                [&](OpBuilder &rb, Location rl, Value row, ValueRange) {
                  inner(rb, rl, row);
                  affine::AffineYieldOp::create(rb, rl);
                });
          };
      // The loops inside the schedule's: (r, s, ow, c, k); with tapRuns,
      // per run (s, r, [the run's ow range], c, k), so that each run's band
      // keeps its taps and the filter rows in its batch-reduce. (Runs
      // around the schedule's innermost input-channel-block loops instead,
      // which would join the batch too, made res4a_branch2b's calls read 12
      // filter blocks instead of 3 and ran it 4-10% slower under its ranked
      // schedule, 1 thread.)
      ArrayRef<OpFoldResult> channelBounds =
          ArrayRef(bounds).drop_front(pos[C]);
      // The band's (c, k) loops at filter row `row` and column `tap`,
      // output column `column` (of block `columnBlock` of a dynamic output
      // width, if any).
      auto buildChannelLoops = [&](OpBuilder &b, Location l,
                                   ValueRange outerIvs, Value row, Value tap,
                                   Value column, Value columnBlock) {
        buildNest(b, l, channelBounds,
                  [&](OpBuilder &nb, Location nl, ValueRange inner) {
                    SmallVector<Value> ivs(outerIvs);
                    ivs.append({row, tap, column});
                    llvm::append_range(ivs, inner);
                    if (columnBlock)
                      ivs.push_back(columnBlock);
                    body(nb, nl, ivs);
                  });
      };
      Value outWidth = dyn_cast<Value>(outSizes[3]);
      // The band of block `columnBlock` of a dynamic output width: (ow, c,
      // k), ow to min(kMaxKernelRows, OW - columnBlock * kMaxKernelRows).
      auto buildColumnBlockBand = [&](OpBuilder &b, Location l,
                                      ValueRange outerIvs, Value row, Value tap,
                                      Value columnBlock) {
        AffineExpr block = b.getAffineDimExpr(0),
                   width = b.getAffineSymbolExpr(0);
        AffineMap upper =
            AffineMap::get(1, 1,
                           {b.getAffineConstantExpr(kMaxKernelRows),
                            width - block * kMaxKernelRows},
                           b.getContext());
        AffineForOp::create(
            b, l, ValueRange{}, b.getConstantAffineMap(0),
            ValueRange{columnBlock, outWidth}, upper, 1, ValueRange{},
            [&](OpBuilder &cb, Location cl, Value column, ValueRange) {
              buildChannelLoops(cb, cl, outerIvs, row, tap, column,
                                columnBlock);
              affine::AffineYieldOp::create(cb, cl);
            });
      };
      auto reduction = [&](OpBuilder &b, Location l, ValueRange outerIvs) {
        if (columnBlocks) {
          AffineMap blocks = AffineMap::get(
              0, 1, b.getAffineSymbolExpr(0).ceilDiv(kMaxKernelRows),
              b.getContext());
          AffineForOp::create(
              b, l, ValueRange{}, b.getConstantAffineMap(0), outWidth, blocks,
              1, ValueRange{},
              [&](OpBuilder &ob, Location ol, Value columnBlock, ValueRange) {
                buildFilterRowLoop(
                    ob, ol, outerIvs,
                    [&](OpBuilder &rb, Location rl, Value row) {
                      buildNest(
                          rb, rl, {bounds[pos[S]]},
                          [&](OpBuilder &sb, Location sl, ValueRange tap) {
                            buildColumnBlockBand(sb, sl, outerIvs, row,
                                                 tap.front(), columnBlock);
                          });
                    });
                affine::AffineYieldOp::create(ob, ol);
              });
          return;
        }
        if (!tapRuns) {
          buildFilterRowLoop(
              b, l, outerIvs, [&](OpBuilder &rb, Location rl, Value row) {
                buildNest(rb, rl, ArrayRef(bounds).drop_front(pos[R] + 1),
                          [&](OpBuilder &nb, Location nl, ValueRange inner) {
                            SmallVector<Value> ivs(outerIvs);
                            ivs.push_back(row);
                            llvm::append_range(ivs, inner);
                            body(nb, nl, ivs);
                          });
              });
          return;
        }
        for (const TapColumns &run : *tapRuns) {
          auto columns = [&](OpBuilder &rb, Location rl, Value tap, Value row) {
            AffineForOp::create(
                rb, rl, run.firstColumn, run.endColumn, 1, ValueRange{},
                [&](OpBuilder &cb, Location cl, Value column, ValueRange) {
                  buildChannelLoops(cb, cl, outerIvs, row, tap, column,
                                    Value());
                  affine::AffineYieldOp::create(cb, cl);
                });
          };
          AffineForOp::create(
              b, l, run.firstTap, run.endTap, 1, ValueRange{},
              [&](OpBuilder &sb, Location sl, Value tap, ValueRange) {
                buildFilterRowLoop(sb, sl, outerIvs,
                                   [&](OpBuilder &rb, Location rl, Value row) {
                                     columns(rb, rl, tap, row);
                                   });
                affine::AffineYieldOp::create(sb, sl);
              });
        }
      };
      buildAccumulationNest(rewriter, loc, outer, {false, false, false, true},
                            {}, initTile, reduction, {},
                            epilogue.hasSteps() || epilogue.hasRowStatistics()
                                ? AccumulatorInitFn(finishTile)
                                : AccumulatorInitFn(nullptr));
    }
    for (Value bandIv : bandIvs)
      tagGemmBand(rewriter, bandIv);
    if (parallelIv)
      tagParallelLoop(rewriter, parallelIv);
    if (inputCopy)
      memref::DeallocOp::create(rewriter, loc, inputCopy);
    epilogue.finish(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void dl::populateConvLoweringPatterns(RewritePatternSet &patterns,
                                      const DLToAffineOptions &options) {
  patterns.add<Conv2DLowering>(patterns.getContext(), options);
}
