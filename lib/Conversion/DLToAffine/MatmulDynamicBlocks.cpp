//===- MatmulDynamicBlocks.cpp - blocked GEMMs of dynamic sizes -----------===//
//
// A dl.matmul whose sizes are known only at run time, blocked by
// dl-parametric-versioning (`pack_blocks`, `pad_blocks`): A, B and C are
// copied into packed buffers of ceil(size / block) blocks each, so every
// block the microkernels read or write has static leading dimensions
// (bk, bn, bn) whatever the sizes; the last block along M and N is partial.
// K's whole blocks and its rest (K mod bk) go to separate buffers, so that
// the rest's block is at a constant index (a K block index K / bk in an
// access would not be linear, and the band would stay loops). The
// accumulation runs over the whole K blocks, `batch_blocks` of them per
// batch-reduce call, then over the rest; the loops over a block's rows and
// columns end at the partial block's size, a bound dl-outline-microkernels
// passes to a kernel dispatched with run-time sizes. No element beyond the
// operands is read or computed, so the padding of the packed buffers is
// never initialized:
//
//   Ap[ib][kb][r][t] = alpha * op(A)[ib*bm + r][kb*bk + t]  (kb < Kf = K / bk)
//   Ar[ib][0][r][t]  = alpha * op(A)[ib*bm + r][Kf*bk + t]  (t < K mod bk)
//   (Bp, Br and Cp alike)
//   for ib < ceil(M/bm), jb < ceil(N/bn):
//     for kt < ceil(Kf/c), kb < min(c, Kf - kt*c):
//       for r < min(bm, M - ib*bm), s < min(bn, N - jb*bn), t < bk:
//         Cp[ib][jb][r][s] += Ap[ib][kt*c+kb][r][t] * Bp[jb][kt*c+kb][t][s]
//     for r, s as above, t < K mod bk:
//       Cp[ib][jb][r][s] += Ar[ib][0][r][t] * Br[jb][0][t][s]
//   C[ib*bm + r][jb*bn + s] = Cp[ib][jb][r][s]
//
// The static path (MatmulLowering.cpp) zero-pads instead, so that one kernel
// of static sizes serves every block; here the sizes are unknown, and the
// kernels of the partial blocks are dispatched once per shape by the runtime.
//
//===----------------------------------------------------------------------===//

#include "MatmulDynamicBlocks.h"
#include "NestBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// A range of one dimension of the GEMM in blocks: its size, its block and
/// where it starts in the operands.
struct BlockedDim {
  OpFoldResult size;
  int64_t block;
  OpFoldResult offset = {};
};

/// `affine.for %iv = 0 to f(size)` for an expression `f` of symbol 0, at
/// the builder's position.
AffineForOp buildLoopTo(OpBuilder &b, Location loc, OpFoldResult size,
                        function_ref<AffineExpr(AffineExpr)> bound) {
  SmallVector<Value> symbols;
  AffineExpr expr = bound(sizeExpr(b, size, symbols));
  return AffineForOp::create(b, loc, ValueRange{}, b.getConstantAffineMap(0),
                             symbols, AffineMap::get(0, symbols.size(), expr),
                             1);
}

/// `affine.for %iv = 0 to ceil(size / block)`, the loop over the blocks of
/// `dim`, at the builder's position; its body is left for the caller.
AffineForOp buildBlockLoop(OpBuilder &b, Location loc, BlockedDim dim) {
  return buildLoopTo(b, loc, dim.size,
                     [&](AffineExpr size) { return size.ceilDiv(dim.block); });
}

/// `affine.for %iv = 0 to min(block, size - blockIv * block)`, the loop over
/// the elements of block `blockIv` of `dim` (fewer in its last block).
AffineForOp buildElementLoop(OpBuilder &b, Location loc, BlockedDim dim,
                             Value blockIv) {
  SmallVector<Value> symbols;
  AffineExpr size = sizeExpr(b, dim.size, symbols);
  AffineExpr iv = b.getAffineDimExpr(0);
  SmallVector<Value> operands = {blockIv};
  llvm::append_range(operands, symbols);
  return AffineForOp::create(b, loc, ValueRange{}, b.getConstantAffineMap(0),
                             operands,
                             AffineMap::get(1, symbols.size(),
                                            {b.getAffineConstantExpr(dim.block),
                                             size - iv * dim.block},
                                            b.getContext()),
                             1);
}

/// The builder at the start of `loop`'s body.
OpBuilder bodyBuilder(AffineForOp loop) {
  return OpBuilder::atBlockBegin(loop.getBody());
}

/// A new buffer of the blocks of `rowDim` x `colDim`, each of `rowDim.block`
/// x `colDim.block` elements: [row blocks][column blocks][rows][columns],
/// the block indices swapped when `columnBlocksOuter`.
Value allocBlocks(OpBuilder &b, Location loc, BlockedDim rowDim,
                  BlockedDim colDim, bool columnBlocksOuter = false) {
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  SmallVector<BlockedDim, 2> order = {rowDim, colDim};
  if (columnBlocksOuter)
    std::swap(order[0], order[1]);
  for (BlockedDim dim : order) {
    OpFoldResult blocks = affine::makeComposedFoldedAffineApply(
        b, loc, b.getAffineSymbolExpr(0).ceilDiv(dim.block), {dim.size});
    if (std::optional<int64_t> constant = getConstantIntValue(blocks)) {
      shape.push_back(*constant);
      continue;
    }
    shape.push_back(ShapedType::kDynamic);
    dynamicSizes.push_back(cast<Value>(blocks));
  }
  shape.append({rowDim.block, colDim.block});
  return memref::AllocOp::create(b, loc, MemRefType::get(shape, b.getF32Type()),
                                 dynamicSizes, b.getI64IntegerAttr(64));
}

using CopyBodyFn = function_ref<void(
    OpBuilder &, Location, ValueRange operands, unsigned numDims,
    AffineExpr row, AffineExpr col, ArrayRef<AffineExpr> blocked)>;

/// A nest over the elements of a matrix of `rowDim` x `colDim` in blocks:
/// loops (block row, row, block column, column), in the order of a
/// row-major matrix. Along the columns, the whole blocks and the partial
/// last one are separate loops, so that the copies of whole blocks have a
/// constant trip count (dl-vectorize-copies copies them by vectors).
/// The nest runs on one thread (`dl.sequential`). `body` gets the map operands
/// (the ivs, then the ranges' offsets and the column count that are not
/// constants, as symbols), the number of ivs, the element's (row, column) in
/// the operand (offsets included) and its index (block row, block column, row,
/// column) among the blocks.
void buildBlockedElementNest(OpBuilder &b, Location loc, BlockedDim rowDim,
                             BlockedDim colDim, CopyBodyFn body) {
  AffineForOp rowBlocks = buildBlockLoop(b, loc, rowDim);
  // The copies run on one thread, the accumulation in parallel: at 2
  // threads, a 65^3 GEMM whose seven nests each ran a parallel region took
  // 45 us, against 8 on one thread.
  rowBlocks->setAttr(DLDialect::getSequentialAttrName(), b.getUnitAttr());
  OpBuilder rb = bodyBuilder(rowBlocks);
  AffineForOp rows =
      buildElementLoop(rb, loc, rowDim, rowBlocks.getInductionVar());
  OpBuilder rowsBody = bodyBuilder(rows);
  SmallVector<Value> symbols;
  auto offset = [&](BlockedDim dim) {
    return dim.offset ? sizeExpr(b, dim.offset, symbols)
                      : b.getAffineConstantExpr(0);
  };
  AffineExpr rowOffset = offset(rowDim), colOffset = offset(colDim);
  AffineExpr columns = sizeExpr(b, colDim.size, symbols);
  int64_t block = colDim.block;
  auto d = [&](unsigned i) { return b.getAffineDimExpr(i); };
  AffineExpr row = rowOffset + d(0) * rowDim.block + d(1);
  auto emit = [&](OpBuilder &inner, SmallVector<Value> ivs, AffineExpr colBlock,
                  AffineExpr col) {
    unsigned numDims = ivs.size();
    llvm::append_range(ivs, symbols);
    body(inner, loc, ivs, numDims, row, colOffset + colBlock * block + col,
         {d(0), colBlock, d(1), col});
  };
  auto isEmpty = [](AffineExpr count) {
    auto constant = dyn_cast<AffineConstantExpr>(count);
    return constant && constant.getValue() == 0;
  };
  Value rowBlock = rowBlocks.getInductionVar(), rowIv = rows.getInductionVar();
  if (!isEmpty(columns.floorDiv(block))) {
    AffineForOp colBlocks =
        buildLoopTo(rowsBody, loc, colDim.size,
                    [&](AffineExpr size) { return size.floorDiv(block); });
    OpBuilder cb = bodyBuilder(colBlocks);
    AffineForOp cols = AffineForOp::create(cb, loc, 0, block, 1);
    OpBuilder inner = bodyBuilder(cols);
    emit(inner,
         {rowBlock, rowIv, colBlocks.getInductionVar(), cols.getInductionVar()},
         d(2), d(3));
  }
  if (!isEmpty(columns % block)) {
    AffineForOp cols =
        buildLoopTo(rowsBody, loc, colDim.size,
                    [&](AffineExpr size) { return size % block; });
    OpBuilder inner = bodyBuilder(cols);
    emit(inner, {rowBlock, rowIv, cols.getInductionVar()},
         columns.floorDiv(block), d(2));
  }
}

/// Index of op(X)[row][col] for an operand read as `transposed` or not.
SmallVector<AffineExpr> operandIndex(AffineExpr row, AffineExpr col,
                                     bool transposed) {
  if (transposed)
    return {col, row};
  return {row, col};
}

/// Copies `scale * op(source)` (scale may be null) over `rowDim` x
/// `colDim` into `buffer`, in blocks:
/// buffer[rb][cb][r][c] = op(source)[rb*rowBlock+r][cb*colBlock+c] (from
/// the ranges' offsets), the block indices swapped ([cb][rb]) when
/// `columnBlocksOuter` (B's blocks go along N). The padding of partial
/// blocks is left as it is.
void copyIntoBlocks(OpBuilder &b, Location loc, Value source, bool transposed,
                    Value buffer, BlockedDim rowDim, BlockedDim colDim,
                    bool columnBlocksOuter, Value scale) {
  buildBlockedElementNest(
      b, loc, rowDim, colDim,
      [&](OpBuilder &nb, Location l, ValueRange operands, unsigned numDims,
          AffineExpr row, AffineExpr col, ArrayRef<AffineExpr> blocked) {
        Value value = loadAt(nb, l, source, operands, numDims,
                             operandIndex(row, col, transposed));
        if (scale)
          value = arith::MulFOp::create(nb, l, scale, value);
        SmallVector<AffineExpr> index(blocked);
        if (columnBlocksOuter)
          std::swap(index[0], index[1]);
        storeAt(nb, l, value, buffer, operands, numDims, index);
      });
}

/// copyIntoBlocks into a new buffer of the blocks of `rowDim` x `colDim`.
Value packOperand(OpBuilder &b, Location loc, Value source, bool transposed,
                  BlockedDim rowDim, BlockedDim colDim, bool columnBlocksOuter,
                  Value scale) {
  Value buffer = allocBlocks(b, loc, rowDim, colDim, columnBlocksOuter);
  copyIntoBlocks(b, loc, source, transposed, buffer, rowDim, colDim,
                 columnBlocksOuter, scale);
  return buffer;
}

} // namespace

void dl::lowerDynamicBlockedMatmul(PatternRewriter &rewriter, MatmulOp op,
                                   Value betaValue, Value alphaValue) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> blocks = *op.getPackBlocks();
  BlockedDim m{getSize(rewriter, loc, op.getC(), 0), blocks[0]};
  BlockedDim n{getSize(rewriter, loc, op.getC(), 1), blocks[1]};
  OpFoldResult kSize =
      getSize(rewriter, loc, op.getA(), op.getTransposeA() ? 0 : 1);
  int64_t bk = blocks[2];
  auto applyToK = [&](AffineExpr expr) {
    return affine::makeComposedFoldedAffineApply(rewriter, loc, expr, {kSize});
  };
  AffineExpr s0 = rewriter.getAffineSymbolExpr(0);
  // K's whole blocks, and its rest after them (at most one partial block).
  OpFoldResult wholeKSize = applyToK(s0 - s0 % bk);
  BlockedDim wholeK{wholeKSize, bk};
  BlockedDim restK{applyToK(s0 % bk), bk, wholeKSize};
  std::optional<int64_t> staticWhole = getConstantIntValue(wholeK.size);
  std::optional<int64_t> staticRest = getConstantIntValue(restK.size);
  bool hasWhole = !staticWhole || *staticWhole > 0;
  bool hasRest = !staticRest || *staticRest > 0;

  Value packedA, packedB, restA, restB;
  if (hasWhole) {
    packedA = packOperand(rewriter, loc, op.getA(), op.getTransposeA(), m,
                          wholeK, /*columnBlocksOuter=*/false, alphaValue);
    packedB = packOperand(rewriter, loc, op.getB(), op.getTransposeB(), wholeK,
                          n, /*columnBlocksOuter=*/true, Value());
  }
  if (hasRest) {
    // One block of K: its size is the block, not the rest, so the buffer's
    // shape is static along it.
    BlockedDim restBlock{rewriter.getIndexAttr(bk), bk};
    restA = allocBlocks(rewriter, loc, m, restBlock);
    restB = allocBlocks(rewriter, loc, restBlock, n,
                        /*columnBlocksOuter=*/true);
    copyIntoBlocks(rewriter, loc, op.getA(), op.getTransposeA(), restA, m,
                   restK, /*columnBlocksOuter=*/false, alphaValue);
    copyIntoBlocks(rewriter, loc, op.getB(), op.getTransposeB(), restB, restK,
                   n, /*columnBlocksOuter=*/true, Value());
  }
  Value packedC = allocBlocks(rewriter, loc, m, n);
  bool readsC = op.getBeta().convertToFloat() != 0.0f;
  buildBlockedElementNest(
      rewriter, loc, m, n,
      [&](OpBuilder &nb, Location l, ValueRange operands, unsigned numDims,
          AffineExpr row, AffineExpr col, ArrayRef<AffineExpr> blocked) {
        // beta * C, or zeros without reading C when beta is 0.
        Value value = betaValue;
        if (readsC) {
          value = loadAt(nb, l, op.getC(), operands, numDims, {row, col});
          if (betaValue)
            value = arith::MulFOp::create(nb, l, betaValue, value);
        }
        storeAt(nb, l, value, packedC, operands, numDims, blocked);
      });

  // The blocks of C.
  AffineForOp rowBlocks = buildBlockLoop(rewriter, loc, m);
  OpBuilder rb = bodyBuilder(rowBlocks);
  AffineForOp colBlocks = buildBlockLoop(rb, loc, n);
  OpBuilder cb = bodyBuilder(colBlocks);
  Value ib = rowBlocks.getInductionVar(), jb = colBlocks.getInductionVar();

  // One band Cp[ib][jb] += a[ib][kIndex] * b[jb][kIndex] over the block's
  // rows and columns and `kExtent` elements of K; kIndex is an expression of
  // `kIvs`.
  auto buildBand = [&](OpBuilder &b, Value a, Value bBlocks, ValueRange kIvs,
                       AffineExpr kIndex, OpFoldResult kExtent) {
    AffineForOp rows = buildElementLoop(b, loc, m, ib);
    OpBuilder rowsBody = bodyBuilder(rows);
    AffineForOp cols = buildElementLoop(rowsBody, loc, n, jb);
    OpBuilder colsBody = bodyBuilder(cols);
    SmallVector<Value> symbols;
    AffineExpr extent = sizeExpr(colsBody, kExtent, symbols);
    AffineForOp reduction = AffineForOp::create(
        colsBody, loc, ValueRange{}, colsBody.getConstantAffineMap(0), symbols,
        AffineMap::get(0, symbols.size(), extent), 1);
    OpBuilder body = bodyBuilder(reduction);
    // Map operands: ib, jb, the K ivs, then r, s, t.
    SmallVector<Value> ivs = {ib, jb};
    llvm::append_range(ivs, kIvs);
    ivs.append({rows.getInductionVar(), cols.getInductionVar(),
                reduction.getInductionVar()});
    auto d = [&](unsigned i) { return body.getAffineDimExpr(i); };
    unsigned r = 2 + kIvs.size();
    AffineExpr kb = kIndex.shiftDims(kIvs.size(), 2);
    Value av = loadAt(body, loc, a, ivs, {d(0), kb, d(r), d(r + 2)});
    Value bv = loadAt(body, loc, bBlocks, ivs, {d(1), kb, d(r + 2), d(r + 1)});
    SmallVector<AffineExpr> cIndex = {d(0), d(1), d(r), d(r + 1)};
    Value c = loadAt(body, loc, packedC, ivs, cIndex);
    Value sum = arith::AddFOp::create(body, loc, c,
                                      arith::MulFOp::create(body, loc, av, bv));
    storeAt(body, loc, sum, packedC, ivs, cIndex);
    tagGemmBand(body, rows.getInductionVar());
  };

  if (hasWhole) {
    // The whole K blocks, `batch_blocks` per batch-reduce call (all of them
    // without a bound).
    SmallVector<Value> kSymbols;
    AffineExpr wholeKBlocks = sizeExpr(cb, kSize, kSymbols).floorDiv(bk);
    OpFoldResult blockSize = cb.getIndexAttr(bk);
    if (std::optional<int64_t> batch = op.getBatchBlocks()) {
      AffineForOp batches = AffineForOp::create(
          cb, loc, ValueRange{}, cb.getConstantAffineMap(0), kSymbols,
          AffineMap::get(0, kSymbols.size(), wholeKBlocks.ceilDiv(*batch)), 1);
      OpBuilder bb = bodyBuilder(batches);
      SmallVector<Value> operands = {batches.getInductionVar()};
      llvm::append_range(operands, kSymbols);
      AffineForOp inBatch = AffineForOp::create(
          bb, loc, ValueRange{}, bb.getConstantAffineMap(0), operands,
          AffineMap::get(1, kSymbols.size(),
                         {bb.getAffineConstantExpr(*batch),
                          wholeKBlocks - bb.getAffineDimExpr(0) * *batch},
                         bb.getContext()),
          1);
      OpBuilder inner = bodyBuilder(inBatch);
      buildBand(inner, packedA, packedB,
                {batches.getInductionVar(), inBatch.getInductionVar()},
                inner.getAffineDimExpr(0) * *batch + inner.getAffineDimExpr(1),
                blockSize);
    } else {
      AffineForOp kBlocks = AffineForOp::create(
          cb, loc, ValueRange{}, cb.getConstantAffineMap(0), kSymbols,
          AffineMap::get(0, kSymbols.size(), wholeKBlocks), 1);
      OpBuilder inner = bodyBuilder(kBlocks);
      buildBand(inner, packedA, packedB, {kBlocks.getInductionVar()},
                inner.getAffineDimExpr(0), blockSize);
    }
  }
  if (hasRest) {
    cb.setInsertionPoint(colBlocks.getBody()->getTerminator());
    buildBand(cb, restA, restB, {}, cb.getAffineConstantExpr(0), restK.size);
  }

  // C from its packed copy.
  buildBlockedElementNest(
      rewriter, loc, m, n,
      [&](OpBuilder &nb, Location l, ValueRange operands, unsigned numDims,
          AffineExpr row, AffineExpr col, ArrayRef<AffineExpr> blocked) {
        storeAt(nb, l, loadAt(nb, l, packedC, operands, numDims, blocked),
                op.getC(), operands, numDims, {row, col});
      });
  for (Value buffer : {packedA, packedB, restA, restB, packedC})
    if (buffer)
      memref::DeallocOp::create(rewriter, loc, buffer);
}
