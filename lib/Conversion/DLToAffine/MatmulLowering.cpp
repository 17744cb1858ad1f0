//===- MatmulLowering.cpp - dl.matmul to affine nests ---------------------===//
//
// The lowering of dl.matmul: the reference nest, or with pack_blocks the
// blocked accumulation over bm x bn x bk blocks whose innermost band
// dl-outline-microkernels turns into batch-reduce calls, with the packed
// copies of the operands (whole, or panels inside the nest) and of C that
// dl-pack-gemm-operands decided; stream_a GEMMs go to MatmulStreaming.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "Lowerings.h"
#include "MatmulDynamicBlocks.h"
#include "MatmulStreaming.h"
#include "NestBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <limits>

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// Index of op(X)[row][col] for an operand read as `transposed` or not.
SmallVector<AffineExpr> operandIndex(AffineExpr row, AffineExpr col,
                                     bool transposed) {
  if (transposed)
    return {col, row};
  return {row, col};
}

/// Where a GEMM operand's blocks are copied inside the nest, into a scratch
/// buffer that holds the blocks of one microkernel call's batch, instead of
/// into a packed copy of the whole operand before it: the calls of the loops
/// inside the copy, over the dimension that does not index the operand (j
/// for A, i for B), re-read the scratch from cache, and the packed blocks
/// never go to memory. Used when every block is still copied once (those
/// loops outside the copy run once) and some call re-reads the scratch.
/// Measured at 1 and 2 threads on an 8192x1024x1024 GEMM, whose A panels
/// (4 blocks of 128 x 128) 32 calls re-read: 6-8% faster.
struct PanelPacking {
  /// The copy runs after this many outer loops: past the last loop that
  /// indexes the operand, outside the batch's K loop.
  unsigned position;
  /// K blocks the scratch holds (one call's batch).
  int64_t batchBlocks;
  /// The batch's first K block, from the loops outside `position`.
  AffineExpr firstBlock;
  /// A K block's place in the scratch, from the batch's K loop.
  AffineExpr blockInBatch;
};

/// Largest panel scratch: the calls inside its copy re-read it, so it must
/// stay in a core's caches (one call's batch is bounded by max-batch-bytes,
/// 256 KiB by default; a schedule without a batch bound may hold all K
/// blocks).
constexpr int64_t kMaxPanelBytes = 1 << 20;

constexpr int64_t kF32Bytes = 4;

/// The panel packing of the operand whose blocks have `blockBytes` and are
/// not indexed by `otherDim`, if each block is copied once that way (once
/// per thread where the parallel loop over `otherDim`, outside the copy,
/// has at most `privateIterations` iterations: private panels) and a batch
/// fits in kMaxPanelBytes.
std::optional<PanelPacking> findPanelPacking(const OuterLoops &outer,
                                             unsigned otherDim,
                                             int64_t blockBytes,
                                             int64_t privateIterations = 1) {
  constexpr unsigned kDim = 2;
  unsigned numOuter = outer.bounds.size();
  auto trips = [&](unsigned position) {
    return *getConstantIntValue(outer.bounds[position]);
  };
  // The innermost loop, when over K blocks, is the call's batch.
  unsigned batchLoop = numOuter;
  if (numOuter > 0 && outer.loopDims[numOuter - 1] == kDim)
    batchLoop = numOuter - 1;
  unsigned position = batchLoop;
  while (position > 0 && outer.loopDims[position - 1] == otherDim)
    --position;
  bool privateCopies = false;
  for (unsigned p = 0; p < position; ++p) {
    if (outer.loopDims[p] != otherDim || trips(p) == 1)
      continue;
    if (outer.parallelLoop != p || trips(p) > privateIterations)
      return std::nullopt;
    privateCopies = true;
  }
  // A panel copied right before the one call that reads it has nothing to
  // gain over the packed copy, whose reads stream through whole rows (at 2
  // threads, per-call copies of B's 128-byte row pieces made a
  // 128x2048x4096 GEMM 16% slower), unless the threads would read that copy
  // from each other's cores.
  int64_t rereads = 1;
  for (unsigned p = position; p < batchLoop; ++p)
    rereads *= trips(p);
  if (rereads == 1 && !privateCopies)
    return std::nullopt;
  PanelPacking packing;
  packing.position = position;
  packing.batchBlocks = batchLoop < numOuter ? trips(batchLoop) : 1;
  if (packing.batchBlocks * blockBytes > kMaxPanelBytes)
    return std::nullopt;
  MLIRContext *ctx = outer.dimValues[kDim].getContext();
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  SmallVector<AffineExpr> outside, batch;
  for (unsigned p = 0; p < numOuter; ++p) {
    AffineExpr iv = getAffineDimExpr(p, ctx);
    outside.push_back(p < position ? iv : zero);
    batch.push_back(p == batchLoop ? iv : zero);
  }
  packing.firstBlock = outer.dimValues[kDim].replaceDims(outside);
  packing.blockInBatch = outer.dimValues[kDim].replaceDims(batch);
  return packing;
}

/// The copy of a GEMM operand's blocks into a panel scratch (PanelPacking):
/// scratch[b][r][c] = scale * op(source)[row][col] for the batch's K blocks
/// b, where the K block gives the row (B) or the column (A) block and
/// `fixedBlock` (an expression of the enclosing loops) the other.
struct PanelCopy {
  PanelPacking panel;
  Value source;
  bool transposed;
  int64_t rowBlock, colBlock;
  bool kIsRow;
  AffineExpr fixedBlock;
  Value scale;
  /// Whether each iteration of the parallel loop copies into its own scratch.
  bool perIteration;
  Value scratch;

  void alloc(OpBuilder &b, Location loc) {
    auto type = MemRefType::get({panel.batchBlocks, rowBlock, colBlock},
                                b.getF32Type());
    scratch = memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
  }

  /// op(source)'s index of element (r, c) of the batch's block b, all three
  /// given as expressions.
  SmallVector<AffineExpr> sourceIndex(AffineExpr block, AffineExpr r,
                                      AffineExpr c) const {
    AffineExpr kBlock = panel.firstBlock + block;
    AffineExpr row = (kIsRow ? kBlock : fixedBlock) * rowBlock + r;
    AffineExpr col = (kIsRow ? fixedBlock : kBlock) * colBlock + c;
    return operandIndex(row, col, transposed);
  }

  void fill(OpBuilder &b, Location loc, ValueRange enclosingIvs) {
    SmallVector<OpFoldResult> bounds = {b.getIndexAttr(panel.batchBlocks),
                                        b.getIndexAttr(rowBlock),
                                        b.getIndexAttr(colBlock)};
    unsigned first = enclosingIvs.size();
    buildNest(b, loc, bounds, [&](OpBuilder &nb, Location l, ValueRange local) {
      SmallVector<Value> ivs(enclosingIvs);
      llvm::append_range(ivs, local);
      auto d = [&](unsigned i) { return nb.getAffineDimExpr(first + i); };
      Value value = loadAt(nb, l, source, ivs, sourceIndex(d(0), d(1), d(2)));
      if (scale)
        value = arith::MulFOp::create(nb, l, scale, value);
      storeAt(nb, l, value, scratch, ivs, {d(0), d(1), d(2)});
    });
  }
};

struct MatmulLowering : OpRewritePattern<MatmulOp> {
  MatmulLowering(MLIRContext *ctx, const DLToAffineOptions &options)
      : OpRewritePattern(ctx), options(options) {}
  DLToAffineOptions options;

  using BlockedCopyBodyFn =
      function_ref<void(OpBuilder &, Location, ValueRange, AffineExpr,
                        AffineExpr, ArrayRef<AffineExpr>)>;

  /// Builds the loops (block row, row, block column, column) over the
  /// `blocks[0] x blocks[1]` blocks of `rowBlock x colBlock` elements from
  /// block (`base[0]`, `base[1]`) (expressions of `outerIvs`) of a matrix,
  /// in the order a row-major matrix is laid out, over the first
  /// `extent[0] x extent[1]` elements of each block (all of it when
  /// empty). `body` gets all ivs, the element's (row, column) in the matrix
  /// and its (block row, block column, row, column) in the matrix's tiles.
  static void buildBlockedCopyNest(OpBuilder &b, Location loc,
                                   ValueRange outerIvs,
                                   ArrayRef<AffineExpr> base,
                                   ArrayRef<int64_t> blocks, int64_t rowBlock,
                                   int64_t colBlock, BlockedCopyBodyFn body,
                                   ArrayRef<int64_t> extent = {}) {
    int64_t rows = extent.empty() ? rowBlock : extent[0];
    int64_t cols = extent.empty() ? colBlock : extent[1];
    SmallVector<OpFoldResult> bounds = llvm::map_to_vector(
        ArrayRef<int64_t>{blocks[0], rows, blocks[1], cols},
        [&](int64_t size) -> OpFoldResult { return b.getIndexAttr(size); });
    buildNest(b, loc, bounds, [&](OpBuilder &nb, Location l, ValueRange ivs) {
      SmallVector<Value> all(outerIvs);
      llvm::append_range(all, ivs);
      auto d = [&](unsigned i) {
        return nb.getAffineDimExpr(outerIvs.size() + i);
      };
      AffineExpr blockRow = base[0] + d(0), blockCol = base[1] + d(2);
      body(nb, l, all, blockRow * rowBlock + d(1), blockCol * colBlock + d(3),
           {blockRow, blockCol, d(1), d(3)});
    });
  }

  /// buildBlockedCopyNest over all of a `rows x cols` matrix in `rowBlock x
  /// colBlock` tiles whose last row or column of tiles may be partial (a
  /// padded packing): one nest per box of tiles of one extent (whole
  /// tiles, the partial last row and column, their corner), each with
  /// constant bounds.
  static void buildWholeBlockedCopy(OpBuilder &b, Location loc, int64_t rows,
                                    int64_t cols, int64_t rowBlock,
                                    int64_t colBlock, BlockedCopyBodyFn body) {
    // Per dimension: (first tile, tiles, elements of each).
    auto parts = [](int64_t size, int64_t block) {
      SmallVector<std::array<int64_t, 3>, 2> result;
      if (size / block > 0)
        result.push_back({0, size / block, block});
      if (size % block != 0)
        result.push_back({size / block, 1, size % block});
      return result;
    };
    for (auto [firstRow, rowTiles, rowExtent] : parts(rows, rowBlock))
      for (auto [firstCol, colTiles, colExtent] : parts(cols, colBlock))
        buildBlockedCopyNest(b, loc, {},
                             {b.getAffineConstantExpr(firstRow),
                              b.getAffineConstantExpr(firstCol)},
                             {rowTiles, colTiles}, rowBlock, colBlock, body,
                             {rowExtent, colExtent});
  }

  /// Zeros the elements of a packed buffer (`[rows/rowBlock][cols/colBlock]
  /// [rowBlock][colBlock]`, rounded up, the tile indices swapped when
  /// `columnTilesOuter`) beyond its `rows x cols` matrix: the rows past it
  /// in the last row of tiles, the columns past it in the last column.
  static void zeroPackedPadding(OpBuilder &b, Location loc, Value buffer,
                                int64_t rows, int64_t cols, int64_t rowBlock,
                                int64_t colBlock, bool columnTilesOuter) {
    int64_t rowTiles = llvm::divideCeilSigned(rows, rowBlock);
    int64_t colTiles = llvm::divideCeilSigned(cols, colBlock);
    Value zero = f32Constant(b, loc, 0.0);
    auto fill = [&](SmallVector<int64_t> offsets, SmallVector<int64_t> sizes) {
      if (columnTilesOuter) {
        std::swap(offsets[0], offsets[1]);
        std::swap(sizes[0], sizes[1]);
      }
      auto attrs = [&](ArrayRef<int64_t> values) {
        return llvm::map_to_vector(values, [&](int64_t v) -> OpFoldResult {
          return b.getIndexAttr(v);
        });
      };
      buildBoxFill(b, loc, zero, buffer, attrs(offsets), attrs(sizes));
    };
    if (rows % rowBlock != 0)
      fill({rowTiles - 1, 0, rows % rowBlock, 0},
           {1, colTiles, rowBlock - rows % rowBlock, colBlock});
    if (cols % colBlock != 0)
      fill({0, colTiles - 1, 0, cols % colBlock},
           {rowTiles, 1, rowBlock, colBlock - cols % colBlock});
  }

  /// Copies `scale * op(source)` (scale may be null) into a new buffer of
  /// `rowBlock x colBlock` tiles, each contiguous:
  /// buffer[rb][cb][r][c] = op(source)[rb*rowBlock+r][cb*colBlock+c], with
  /// the tile indices swapped ([cb][rb]) when `columnTilesOuter` (B's panels
  /// go along N). The copy loops run (rb, r, cb, c), in the order op(source)
  /// is laid out, so the source is read sequentially. Blocks that do not
  /// divide the sizes (pad_blocks) leave partial tiles, zero beyond it.
  static Value packOperand(OpBuilder &b, Location loc, Value source,
                           bool transposed, int64_t rows, int64_t cols,
                           int64_t rowBlock, int64_t colBlock,
                           bool columnTilesOuter, Value scale) {
    SmallVector<int64_t> shape = {llvm::divideCeilSigned(rows, rowBlock),
                                  llvm::divideCeilSigned(cols, colBlock),
                                  rowBlock, colBlock};
    if (columnTilesOuter)
      std::swap(shape[0], shape[1]);
    auto type = MemRefType::get(shape, b.getF32Type());
    Value buffer =
        memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
    zeroPackedPadding(b, loc, buffer, rows, cols, rowBlock, colBlock,
                      columnTilesOuter);
    buildWholeBlockedCopy(
        b, loc, rows, cols, rowBlock, colBlock,
        [&](OpBuilder &nb, Location l, ValueRange ivs, AffineExpr row,
            AffineExpr col, ArrayRef<AffineExpr> tiled) {
          Value value =
              loadAt(nb, l, source, ivs, operandIndex(row, col, transposed));
          if (scale)
            value = arith::MulFOp::create(nb, l, scale, value);
          SmallVector<AffineExpr> index(tiled);
          if (columnTilesOuter)
            std::swap(index[0], index[1]);
          storeAt(nb, l, value, buffer, ivs, index);
        });
    return buffer;
  }

  /// The value `betaValue * C[index]` (just beta when it is 0: C is not
  /// read, as in BLAS).
  static Value scaledC(OpBuilder &b, Location loc, MatmulOp op, Value betaValue,
                       ValueRange ivs, ArrayRef<AffineExpr> index) {
    if (op.getBeta().convertToFloat() == 0.0f)
      return betaValue;
    return arith::MulFOp::create(b, loc, betaValue,
                                 loadAt(b, loc, op.getC(), ivs, index));
  }

  /// The body of copyCTile and copyWholeC: one element between C and packed C.
  static auto copyCElement(MatmulOp op, Value packedC, Value betaValue,
                           bool intoPacked) {
    return [=](OpBuilder &nb, Location l, ValueRange ivs, AffineExpr row,
               AffineExpr col, ArrayRef<AffineExpr> packedIndex) mutable {
      SmallVector<AffineExpr> index = {row, col};
      if (!intoPacked) {
        storeAt(nb, l, loadAt(nb, l, packedC, ivs, packedIndex), op.getC(), ivs,
                index);
        return;
      }
      Value value = betaValue ? scaledC(nb, l, op, betaValue, ivs, index)
                              : loadAt(nb, l, op.getC(), ivs, index);
      storeAt(nb, l, value, packedC, ivs, packedIndex);
    };
  }

  /// Copies the tile of C made of `extent[0] x extent[1]` blocks from block
  /// (`base[0]`, `base[1]`) (expressions of `outerIvs`) between C and its
  /// packed buffer `packedC[M/bm][N/bn][bm][bn]`: into it as beta * C (zeros
  /// when beta is 0; `betaValue` is null when beta is 1), or back into C. The
  /// innermost loop is contiguous in both buffers.
  static void copyCTile(OpBuilder &b, Location loc, MatmulOp op, Value packedC,
                        ValueRange outerIvs, ArrayRef<AffineExpr> base,
                        ArrayRef<int64_t> extent, Value betaValue,
                        bool intoPacked) {
    auto shape = cast<MemRefType>(packedC.getType()).getShape();
    buildBlockedCopyNest(b, loc, outerIvs, base, extent, shape[2], shape[3],
                         copyCElement(op, packedC, betaValue, intoPacked));
  }

  /// copyCTile over all of C, whose last blocks in packed C may be partial
  /// (pad_blocks; their padding is zeroed on the way in).
  static void copyWholeC(OpBuilder &b, Location loc, MatmulOp op, Value packedC,
                         Value betaValue, bool intoPacked) {
    auto shape = cast<MemRefType>(packedC.getType()).getShape();
    int64_t m = op.getC().getType().getDimSize(0);
    int64_t n = op.getC().getType().getDimSize(1);
    if (intoPacked)
      zeroPackedPadding(b, loc, packedC, m, n, shape[2], shape[3],
                        /*columnTilesOuter=*/false);
    buildWholeBlockedCopy(b, loc, m, n, shape[2], shape[3],
                          copyCElement(op, packedC, betaValue, intoPacked));
  }

  /// C = beta * C + alpha * op(A) * op(B) over bm x bn blocks of C, each
  /// accumulated over the K blocks: loops (M/bm, N/bn, K/bk, bm, bn, bk).
  /// The innermost three are the GEMM band; the K-block loop around it moves
  /// only A and B, so it becomes the batch of a batch-reduce microkernel.
  /// Packed operands (pack_a / pack_b) are read from contiguous copies. The
  /// beta scaling runs per tile of C, right before its K loops; with pack_c,
  /// the tile is computed in packed blocks, copied in there and back right
  /// after its K loops.
  void buildBlockedAccumulation(PatternRewriter &rewriter, MatmulOp op,
                                ArrayRef<int64_t> blocks, Value betaValue,
                                Value alphaValue,
                                const Epilogue &epilogue) const {
    Location loc = op.getLoc();
    int64_t m = op.getC().getType().getDimSize(0);
    int64_t n = op.getC().getType().getDimSize(1);
    int64_t k = op.getA().getType().getDimSize(op.getTransposeA() ? 0 : 1);
    int64_t bm = blocks[0], bn = blocks[1], bk = blocks[2];
    int64_t mBlocks = llvm::divideCeilSigned(m, bm),
            nBlocks = llvm::divideCeilSigned(n, bn),
            kBlocks = llvm::divideCeilSigned(k, bk);
    // With pad_blocks, the last blocks may be partial: C is then copied in
    // and out whole, where it exists, instead of per tile.
    bool paddedC = op.getPackC() && op.hasPartialCBlocks();
    bool perTileC = options.initializePerTile && !paddedC;
    // The block loops (i, j, k) as scheduled, then the band (bm, bn, bk).
    auto blockCount = [&](int64_t size) -> OpFoldResult {
      return rewriter.getIndexAttr(size);
    };
    OuterLoops outer = getOuterLoops(
        rewriter, op.getEffectiveSchedule(), op.getScheduleDims(),
        {blockCount(mBlocks), blockCount(nBlocks), blockCount(kBlocks)});
    // Packed operands: copied in the nest with panel_a / panel_b (decided by
    // dl-decide-panels from choosePanels), else into a packed copy before
    // it.
    // Private panels (the parallel loop outside the copy) were decided for
    // the threads: any iteration count of that loop is taken.
    constexpr int64_t kAnyIterations = std::numeric_limits<int64_t>::max();
    std::optional<PanelPacking> panelA, panelB;
    if (op.getPanelA())
      panelA = findPanelPacking(outer, /*otherDim=*/1, bm * bk * kF32Bytes,
                                kAnyIterations);
    if (op.getPanelB())
      panelB = findPanelPacking(outer, /*otherDim=*/0, bk * bn * kF32Bytes,
                                kAnyIterations);
    Value packedA, packedB;
    if (op.getPackA() && !panelA)
      packedA = packOperand(rewriter, loc, op.getA(), op.getTransposeA(), m, k,
                            bm, bk, /*columnTilesOuter=*/false, alphaValue);
    if (op.getPackB() && !panelB)
      packedB = packOperand(rewriter, loc, op.getB(), op.getTransposeB(), k, n,
                            bk, bn, /*columnTilesOuter=*/true, Value());
    // A blocked B is in packOperand's layout already: read in place.
    Value blocksOfB = op.hasBlockedB() ? op.getB() : packedB;
    // The alpha scaling is in packed A; without it, in the product.
    Value productScale = packedA || panelA ? Value() : alphaValue;
    // Packed C: filled and read back per tile of C in the nest, or, without
    // per-tile initialization, for the whole of C around it.
    Value packedC;
    if (op.getPackC()) {
      auto type =
          MemRefType::get({mBlocks, nBlocks, bm, bn}, rewriter.getF32Type());
      packedC = memref::AllocOp::create(rewriter, loc, type,
                                        rewriter.getI64IntegerAttr(64));
      if (!perTileC)
        copyWholeC(rewriter, loc, op, packedC, betaValue, /*intoPacked=*/true);
    }

    // Panel copies: into a scratch per iteration of the parallel loop when
    // the copy runs inside it, else into one allocated before the nest.
    auto inParallelLoop = [&](const std::optional<PanelPacking> &panel) {
      return outer.parallelLoop && *outer.parallelLoop < panel->position;
    };
    SmallVector<PanelCopy, 2> panelCopies;
    if (panelA)
      panelCopies.push_back({*panelA, op.getA(), op.getTransposeA(), bm, bk,
                             /*kIsRow=*/false, outer.dimValues[0], alphaValue,
                             inParallelLoop(panelA)});
    if (panelB)
      panelCopies.push_back({*panelB, op.getB(), op.getTransposeB(), bk, bn,
                             /*kIsRow=*/true, outer.dimValues[1], Value(),
                             inParallelLoop(panelB)});
    SmallVector<NestHook> hooks;
    for (PanelCopy &copy : panelCopies) {
      if (copy.perIteration) {
        // Allocated and freed in each iteration of the parallel loop (with
        // the runtime's allocator, a cached block of the thread).
        hooks.push_back({*outer.parallelLoop + 1,
                         [&copy](OpBuilder &b, Location l, ValueRange) {
                           copy.alloc(b, l);
                         },
                         [&copy](OpBuilder &b, Location l, ValueRange) {
                           memref::DeallocOp::create(b, l, copy.scratch);
                         }});
      } else {
        copy.alloc(rewriter, loc);
      }
      hooks.push_back({copy.panel.position, [&copy](OpBuilder &b, Location l,
                                                    ValueRange enclosingIvs) {
                         copy.fill(b, l, enclosingIvs);
                       }});
    }
    unsigned band = outer.bounds.size();
    auto initTile = [&](OpBuilder &b, Location l, ValueRange outerIvs,
                        const AccumulatorTile &tile) {
      if (!perTileC)
        return;
      if (packedC)
        return copyCTile(b, l, op, packedC, outerIvs, tile.base, tile.extent,
                         betaValue, /*intoPacked=*/true);
      if (!betaValue)
        return;
      buildTileStore(b, l, op.getC(), outerIvs,
                     {tile.base[0] * bm, tile.base[1] * bn},
                     {b.getIndexAttr(tile.extent[0] * bm),
                      b.getIndexAttr(tile.extent[1] * bn)},
                     [&](OpBuilder &sb, Location sl, ValueRange ivs,
                         ArrayRef<AffineExpr> index) {
                       return scaledC(sb, sl, op, betaValue, ivs, index);
                     });
    };
    // After a tile of C's last K block: its copy back from packed C, then
    // the epilogue on it.
    auto finishTile = [&](OpBuilder &b, Location l, ValueRange outerIvs,
                          const AccumulatorTile &tile) {
      if (packedC)
        copyCTile(b, l, op, packedC, outerIvs, tile.base, tile.extent, Value(),
                  /*intoPacked=*/false);
      if (epilogue.hasSteps())
        buildTileStore(
            b, l, op.getC(), outerIvs, {tile.base[0] * bm, tile.base[1] * bn},
            {b.getIndexAttr(tile.extent[0] * bm),
             b.getIndexAttr(tile.extent[1] * bn)},
            [&](OpBuilder &sb, Location sl, ValueRange ivs,
                ArrayRef<AffineExpr> index) {
              Value sum = loadAt(sb, sl, op.getC(), ivs, index);
              return epilogue.apply(sb, sl, sum, ivs, ivs.size(), index);
            });
    };
    AccumulatorInitFn finish = nullptr;
    if (perTileC && (packedC || epilogue.hasSteps()))
      finish = finishTile;
    Value bandIv, parallelIv;
    buildAccumulationNest(
        rewriter, loc, outer, {false, false, true},
        llvm::map_to_vector(ArrayRef<int64_t>{bm, bn, bk}, blockCount),
        initTile,
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          bandIv = ivs[band];
          if (outer.parallelLoop)
            parallelIv = ivs[*outer.parallelLoop];
          auto d = [&](unsigned i) { return b.getAffineDimExpr(band + i); };
          AffineExpr ib = outer.dimValues[0], jb = outer.dimValues[1],
                     kb = outer.dimValues[2];
          AffineExpr row = ib * bm + d(0), col = jb * bn + d(1),
                     red = kb * bk + d(2);
          Value a = panelA ? loadAt(b, l, panelCopies.front().scratch, ivs,
                                    {panelA->blockInBatch, d(0), d(2)})
                    : packedA
                        ? loadAt(b, l, packedA, ivs, {ib, kb, d(0), d(2)})
                        : loadAt(b, l, op.getA(), ivs,
                                 operandIndex(row, red, op.getTransposeA()));
          Value bv = panelB ? loadAt(b, l, panelCopies.back().scratch, ivs,
                                     {panelB->blockInBatch, d(2), d(1)})
                     : blocksOfB
                         ? loadAt(b, l, blocksOfB, ivs, {jb, kb, d(2), d(1)})
                         : loadAt(b, l, op.getB(), ivs,
                                  operandIndex(red, col, op.getTransposeB()));
          Value product = arith::MulFOp::create(b, l, a, bv);
          if (productScale)
            product = arith::MulFOp::create(b, l, productScale, product);
          Value cBuffer = packedC ? packedC : op.getC();
          SmallVector<AffineExpr> cIndex =
              packedC ? SmallVector<AffineExpr>{ib, jb, d(0), d(1)}
                      : SmallVector<AffineExpr>{row, col};
          Value c = loadAt(b, l, cBuffer, ivs, cIndex);
          storeAt(b, l, arith::AddFOp::create(b, l, c, product), cBuffer, ivs,
                  cIndex);
        },
        hooks, finish);
    if (packedC && !perTileC)
      copyWholeC(rewriter, loc, op, packedC, Value(), /*intoPacked=*/false);
    if (!perTileC)
      epilogue.applyToOutput(rewriter, loc);
    bool readsTransposed = (!op.getPackA() && op.getTransposeA()) ||
                           (!op.getPackB() && op.getTransposeB());
    if (!productScale && !readsTransposed) {
      tagGemmBand(rewriter, bandIv);
      if (std::optional<int64_t> batch = op.getBatchBlocks())
        affine::getForInductionVarOwner(bandIv)->setAttr(
            DLDialect::getMaxBatchAttrName(),
            rewriter.getI64IntegerAttr(*batch));
    }
    if (parallelIv)
      tagParallelLoop(rewriter, parallelIv);
    SmallVector<Value> buffers = {packedA, packedB, packedC};
    for (const PanelCopy &copy : panelCopies)
      if (!copy.perIteration)
        buffers.push_back(copy.scratch);
    for (Value buffer : buffers)
      if (buffer)
        memref::DeallocOp::create(rewriter, loc, buffer);
  }

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpFoldResult m = getSize(rewriter, loc, op.getC(), 0);
    OpFoldResult n = getSize(rewriter, loc, op.getC(), 1);
    OpFoldResult k =
        getSize(rewriter, loc, op.getA(), op.getTransposeA() ? 0 : 1);
    float alpha = op.getAlpha().convertToFloat();
    float beta = op.getBeta().convertToFloat();
    Value betaValue = beta != 1.0f ? f32Constant(rewriter, loc, beta) : Value();
    Value alphaValue =
        alpha != 1.0f ? f32Constant(rewriter, loc, alpha) : Value();
    // Prepared before the nests; applied per tile of C by the blocked
    // accumulation, else in one sweep after the nests.
    Epilogue epilogue(rewriter, loc, op);
    auto finish = [&] {
      epilogue.finish(rewriter, loc);
      rewriter.eraseOp(op);
      return success();
    };
    if (op.getStreamA()) {
      lowerStreamingMatmul(rewriter, op);
      epilogue.applyToOutput(rewriter, loc);
      return finish();
    }
    std::optional<ArrayRef<int64_t>> blocks = op.getPackBlocks();
    // C = beta * C (per tile in the blocked accumulation, or in the copy into
    // packed C), then
    // C[i][j] += alpha * op(A)[i][k] * op(B)[k][j].
    if (betaValue && !(blocks && (options.initializePerTile || op.getPackC())))
      buildNest(rewriter, loc, {m, n},
                [&](OpBuilder &b, Location l, ValueRange ivs) {
                  SmallVector<AffineExpr> ij = dims(b, {0, 1});
                  storeAt(b, l, scaledC(b, l, op, betaValue, ivs, ij),
                          op.getC(), ivs, ij);
                });
    if (blocks && op.hasDynamicSizes()) {
      lowerDynamicBlockedMatmul(rewriter, op, betaValue, alphaValue);
      epilogue.applyToOutput(rewriter, loc);
      return finish();
    }
    if (blocks) {
      buildBlockedAccumulation(rewriter, op, *blocks, betaValue, alphaValue,
                               epilogue);
      return finish();
    }
    // Without transposes or scaling, the nest is the GEMM band itself. With
    // the columns innermost, the loops run over (i, k, j).
    bool columnsInnermost =
        op->hasAttr(DLDialect::getColumnsInnermostAttrName());
    SmallVector<OpFoldResult> extents = {m, n, k};
    if (columnsInnermost)
      std::swap(extents[1], extents[2]);
    Value bandIv;
    buildNest(rewriter, loc, extents,
              [&](OpBuilder &b, Location l, ValueRange loopIvs) {
                bandIv = loopIvs[0];
                SmallVector<Value> ivs(loopIvs);
                if (columnsInnermost)
                  std::swap(ivs[1], ivs[2]);
                SmallVector<AffineExpr> ij = dims(b, {0, 1});
                Value a = loadAt(b, l, op.getA(), ivs,
                                 dims(b, op.getTransposeA()
                                             ? ArrayRef<unsigned>{2, 0}
                                             : ArrayRef<unsigned>{0, 2}));
                Value bv = loadAt(
                    b, l, op.getB(), ivs,
                    opBIndex(op, b.getAffineDimExpr(1), b.getAffineDimExpr(2)));
                Value product = arith::MulFOp::create(b, l, a, bv);
                if (alphaValue)
                  product = arith::MulFOp::create(b, l, alphaValue, product);
                Value c = loadAt(b, l, op.getC(), ivs, ij);
                storeAt(b, l, arith::AddFOp::create(b, l, c, product),
                        op.getC(), ivs, ij);
              });
    if (op.hasPlainGemmBand() && !columnsInnermost)
      tagGemmBand(rewriter, bandIv);
    epilogue.applyToOutput(rewriter, loc);
    return finish();
  }
};

} // namespace

PanelChoice dl::choosePanels(MatmulOp op, int64_t threads) {
  // Only under a #dl.schedule, which names the loop that runs in parallel (a
  // panel inside it is private to each iteration): without one,
  // dl-parallelize-outer-loops may run any outer loop in parallel, and a
  // panel shared by its iterations would keep them sequential.
  std::optional<SmallVector<ScheduleDim>> dims = op.getScheduleDims();
  if (!op.getScheduleAttr() || op.getPadBlocks() || !dims ||
      !(op.getPackA() || op.getPackB()))
    return {};
  OpBuilder b(op.getContext());
  SmallVector<OpFoldResult> counts;
  for (const ScheduleDim &dim : *dims)
    counts.push_back(b.getIndexAttr(dim.extent));
  OuterLoops outer = getOuterLoops(b, op.getScheduleAttr(), dims, counts);
  ArrayRef<int64_t> blocks = *op.getPackBlocks();
  int64_t bm = blocks[0], bn = blocks[1], bk = blocks[2];
  PanelChoice choice;
  choice.a = op.getPackA() && findPanelPacking(outer, /*otherDim=*/1,
                                               bm * bk * kF32Bytes, threads);
  choice.b = op.getPackB() && findPanelPacking(outer, /*otherDim=*/0,
                                               bk * bn * kF32Bytes, threads);
  return choice;
}

void dl::populateMatmulLoweringPatterns(RewritePatternSet &patterns,
                                        const DLToAffineOptions &options) {
  patterns.add<MatmulLowering>(patterns.getContext(), options);
}
