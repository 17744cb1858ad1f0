//===- DLToAffine.cpp - lower dl ops to affine loop nests -------*- C++ -*-===//
//
// The pass `convert-dl-to-affine`: every dl op becomes a plain affine.for nest
// computing its reference semantics. No tiling or reordering happens here
// unless the op carries its decisions (GEMM blocks, a #dl.schedule of its
// outer loops), so this lowering doubles as the reference that optimized code
// is checked against. Loop bounds are constants for static sizes and memref.dim
// symbols for dynamic ones; the filter rows of a padded blocked convolution
// are bounded by max/min maps of its output row, so they skip the padding,
// and with skip_padding_columns each run of its filter columns covers only
// the output columns whose taps read the input.
//
//===----------------------------------------------------------------------===//

#include "dl/Conversion/DLToAffine.h"
#include "ConvPixelVectors.h"
#include "MatmulStreaming.h"
#include "dl/Conversion/Passes.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/IR/SizeRelations.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_CONVERTDLTOAFFINE
#include "dl/Conversion/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

//===----------------------------------------------------------------------===//
// Loop-nest building helpers
//===----------------------------------------------------------------------===//

/// Size of dimension `dim` of `memref`: a constant when static, else a
/// memref.dim created at the builder's position (a valid affine symbol when
/// created outside the nests).
OpFoldResult getSize(OpBuilder &b, Location loc, Value memref, int64_t dim) {
  int64_t size = cast<MemRefType>(memref.getType()).getDimSize(dim);
  if (!ShapedType::isDynamic(size))
    return b.getIndexAttr(size);
  return memref::DimOp::create(b, loc, memref, dim).getResult();
}

/// Sizes of all dimensions of `memref`.
SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value memref) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0, e = cast<MemRefType>(memref.getType()).getRank(); d < e;
       ++d)
    sizes.push_back(getSize(b, loc, memref, d));
  return sizes;
}

/// `size` in an affine map: a constant, or a new symbol for its value
/// (appended to `symbolValues`, the map's symbol operands).
AffineExpr sizeExpr(OpBuilder &b, OpFoldResult size,
                    SmallVectorImpl<Value> &symbolValues) {
  if (std::optional<int64_t> constant = getConstantIntValue(size))
    return b.getAffineConstantExpr(*constant);
  symbolValues.push_back(cast<Value>(size));
  return b.getAffineSymbolExpr(symbolValues.size() - 1);
}

using NestBodyFn = function_ref<SmallVector<Value>(
    OpBuilder &, Location, ValueRange ivs, ValueRange iterArgs)>;

/// Builds a perfect nest of `affine.for %iv = 0 to ub` loops, one per entry of
/// `upperBounds`, threading `inits` through every level as iter_args. The
/// body receives all induction variables (outermost first) and the current
/// iter_args, and returns the values to yield. Returns the nest's results.
SmallVector<Value> buildNest(OpBuilder &b, Location loc,
                             ArrayRef<OpFoldResult> upperBounds,
                             ValueRange inits, NestBodyFn body,
                             SmallVectorImpl<Value> &ivs) {
  if (upperBounds.empty())
    return body(b, loc, ivs, inits);
  auto bodyBuilder = [&](OpBuilder &nb, Location nloc, Value iv,
                         ValueRange iterArgs) {
    ivs.push_back(iv);
    SmallVector<Value> results =
        buildNest(nb, nloc, upperBounds.drop_front(), iterArgs, body, ivs);
    affine::AffineYieldOp::create(nb, nloc, results);
  };
  AffineForOp loop;
  OpFoldResult ub = upperBounds.front();
  if (auto attr = dyn_cast<Attribute>(ub)) {
    loop = AffineForOp::create(b, loc, 0, cast<IntegerAttr>(attr).getInt(), 1,
                               inits, bodyBuilder);
  } else {
    loop = AffineForOp::create(
        b, loc, ValueRange{}, b.getConstantAffineMap(0), cast<Value>(ub),
        AffineMap::get(0, 1, b.getAffineSymbolExpr(0)), 1, inits, bodyBuilder);
  }
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> buildNest(OpBuilder &b, Location loc,
                             ArrayRef<OpFoldResult> upperBounds,
                             ValueRange inits, NestBodyFn body) {
  SmallVector<Value> ivs;
  return buildNest(b, loc, upperBounds, inits, body, ivs);
}

/// Builds a nest without iter_args whose body only has side effects.
void buildNest(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> upperBounds,
               function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  buildNest(b, loc, upperBounds, ValueRange{},
            [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
              body(nb, nloc, ivs);
              return SmallVector<Value>{};
            });
}

/// An affine.load or affine.store at `index`, whose dims are the first
/// `numDims` of `operands` and whose symbols the others.
Value loadAt(OpBuilder &b, Location loc, Value memref, ValueRange operands,
             unsigned numDims, ArrayRef<AffineExpr> index) {
  auto map =
      AffineMap::get(numDims, operands.size() - numDims, index, b.getContext());
  return affine::AffineLoadOp::create(b, loc, memref, map, operands);
}
void storeAt(OpBuilder &b, Location loc, Value value, Value memref,
             ValueRange operands, unsigned numDims,
             ArrayRef<AffineExpr> index) {
  auto map =
      AffineMap::get(numDims, operands.size() - numDims, index, b.getContext());
  affine::AffineStoreOp::create(b, loc, value, memref, map, operands);
}

/// Loads `memref[exprs(ivs)]` with an affine.load whose map has one dim per
/// induction variable.
Value loadAt(OpBuilder &b, Location loc, Value memref, ValueRange ivs,
             ArrayRef<AffineExpr> exprs) {
  return loadAt(b, loc, memref, ivs, ivs.size(), exprs);
}

void storeAt(OpBuilder &b, Location loc, Value value, Value memref,
             ValueRange ivs, ArrayRef<AffineExpr> exprs) {
  storeAt(b, loc, value, memref, ivs, ivs.size(), exprs);
}

/// d0, d1, ... for the given induction-variable positions.
SmallVector<AffineExpr> dims(OpBuilder &b, ArrayRef<unsigned> positions) {
  return llvm::map_to_vector(positions,
                             [&](unsigned p) { return b.getAffineDimExpr(p); });
}

/// d0, ..., d(n-1): the index of a nest over all dims of a buffer.
SmallVector<AffineExpr> identityIndex(OpBuilder &b, unsigned n) {
  return dims(b, llvm::to_vector(llvm::seq<unsigned>(0, n)));
}

Value f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                        APFloat(static_cast<float>(value)));
}

/// The loops of a per-channel computation over a plain NCHW (channel dim 1)
/// or blocked NCHW{c}c (channel dims 1 and 4) activation, and how to address
/// elements and per-channel vectors from the loop ivs.
struct ChannelLayout {
  /// Loop over the channels: {C} for plain, {C/c, c} for blocked.
  SmallVector<OpFoldResult> channelBounds;
  /// Loops over the other dims (N, H, W) in order.
  SmallVector<OpFoldResult> otherBounds;
  bool blocked;
  int64_t block = 1; // Channel block size (static, verified) when blocked.

  ChannelLayout(OpBuilder &b, Location loc, Value activation) {
    blocked = cast<MemRefType>(activation.getType()).getRank() == 5;
    SmallVector<OpFoldResult> sizes = getSizes(b, loc, activation);
    channelBounds.push_back(sizes[1]);
    if (blocked) {
      channelBounds.push_back(sizes[4]);
      block = cast<MemRefType>(activation.getType()).getDimSize(4);
    }
    otherBounds = {sizes[0], sizes[2], sizes[3]};
  }

  /// Index into a per-channel vector from the channel ivs (d0[, d1]).
  AffineExpr channelIndex(OpBuilder &b) const {
    if (!blocked)
      return b.getAffineDimExpr(0);
    return b.getAffineDimExpr(0) * block + b.getAffineDimExpr(1);
  }

  /// Index of an activation element for a nest whose ivs are the channel
  /// ivs followed by (n, h, w).
  SmallVector<AffineExpr> elementIndex(OpBuilder &b) const {
    auto d = [&](unsigned i) { return b.getAffineDimExpr(i); };
    if (!blocked)
      return {d(1), d(0), d(2), d(3)};
    return {d(2), d(0), d(3), d(4), d(1)};
  }
};

/// The (input) channel of the element at the ivs of a nest over all dims of
/// `tensor` in order: d1, or d1 * c + d4 when dims 1 and 4 hold the channel
/// block and the channel within it (blocked activations and filters).
AffineExpr elementChannel(OpBuilder &b, MemRefType tensor) {
  AffineExpr channel = b.getAffineDimExpr(1);
  if (tensor.getRank() < 5)
    return channel;
  return channel * tensor.getDimSize(4) + b.getAffineDimExpr(4);
}

/// Converts an index-typed count to f32.
Value indexToF32(OpBuilder &b, Location loc, OpFoldResult count) {
  if (auto attr = dyn_cast<Attribute>(count))
    return f32Constant(b, loc, cast<IntegerAttr>(attr).getInt());
  Value i64 =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), cast<Value>(count));
  return arith::SIToFPOp::create(b, loc, b.getF32Type(), i64);
}

/// Product of index sizes, folded when all are constant.
OpFoldResult multiplySizes(OpBuilder &b, Location loc,
                           ArrayRef<OpFoldResult> sizes) {
  int64_t constant = 1;
  Value dynamic;
  for (OpFoldResult size : sizes) {
    if (auto attr = dyn_cast<Attribute>(size)) {
      constant *= cast<IntegerAttr>(attr).getInt();
      continue;
    }
    dynamic = dynamic
                  ? arith::MulIOp::create(b, loc, dynamic, cast<Value>(size))
                        .getResult()
                  : cast<Value>(size);
  }
  if (!dynamic)
    return b.getIndexAttr(constant);
  if (constant == 1)
    return dynamic;
  Value c = arith::ConstantIndexOp::create(b, loc, constant);
  return arith::MulIOp::create(b, loc, dynamic, c).getResult();
}

//===----------------------------------------------------------------------===//
// Heavy ops
//===----------------------------------------------------------------------===//

/// Marks the loop of `iv` as the outermost loop of a GEMM band (once the nest
/// is built: loops under construction have no parent yet).
void tagGemmBand(OpBuilder &b, Value iv) {
  affine::getForInductionVarOwner(iv)->setAttr(DLDialect::getGemmBandAttrName(),
                                               b.getUnitAttr());
}

/// The outer loops of a heavy op's nest as its schedule orders them: their
/// bounds, the value of each schedule dimension as an affine expression of
/// the loop ivs (d0 = outermost), and the loop to run in parallel.
struct OuterLoops {
  SmallVector<OpFoldResult> bounds;
  SmallVector<AffineExpr> dimValues;
  std::optional<unsigned> parallelLoop;
  /// Per loop: its dimension and how far one iteration moves it.
  SmallVector<unsigned> loopDims;
  SmallVector<int64_t> loopStrides;
};

/// Without a schedule, one loop per dimension in their order, over `sizes`
/// (which may be dynamic). With one, its loops (the op's verifier checked it
/// against `dims`).
OuterLoops getOuterLoops(OpBuilder &b, ScheduleAttr schedule,
                         std::optional<SmallVector<ScheduleDim>> dims,
                         ArrayRef<OpFoldResult> sizes) {
  OuterLoops outer;
  if (!schedule) {
    outer.bounds.assign(sizes.begin(), sizes.end());
    for (unsigned i = 0; i < sizes.size(); ++i) {
      outer.dimValues.push_back(b.getAffineDimExpr(i));
      outer.loopDims.push_back(i);
      outer.loopStrides.push_back(1);
    }
    return outer;
  }
  SmallVector<ScheduledLoop> loops =
      *schedule.getLoops(*dims, [] { return InFlightDiagnostic(); });
  outer.dimValues.assign(dims->size(), b.getAffineConstantExpr(0));
  for (auto [position, loop] : llvm::enumerate(loops)) {
    outer.bounds.push_back(b.getIndexAttr(loop.tripCount));
    outer.dimValues[loop.dim] =
        outer.dimValues[loop.dim] + b.getAffineDimExpr(position) * loop.stride;
    outer.loopDims.push_back(loop.dim);
    outer.loopStrides.push_back(loop.stride);
  }
  outer.parallelLoop = schedule.getParallelLoop();
  return outer;
}

/// Marks the loop of `iv` as the one its schedule runs in parallel.
void tagParallelLoop(OpBuilder &b, Value iv) {
  affine::getForInductionVarOwner(iv)->setAttr(
      DLDialect::getParallelLoopAttrName(), b.getUnitAttr());
}

/// The part of a heavy op's result that one iteration of the loops outside
/// its outermost reduction loop accumulates into: per outer dimension, its
/// first value (an expression of the enclosing ivs) and its number of values.
struct AccumulatorTile {
  SmallVector<AffineExpr> base;
  SmallVector<int64_t> extent;
};

using AccumulatorInitFn = function_ref<void(
    OpBuilder &, Location, ValueRange outerIvs, const AccumulatorTile &)>;

/// Code a nest builder emits at one loop depth, once the `position`
/// outermost loops are opened (their ivs given; position 0: outside the
/// nest): `before` the loops inside them and, optionally, `after` them.
struct NestHook {
  unsigned position;
  std::function<void(OpBuilder &, Location, ValueRange)> before;
  std::function<void(OpBuilder &, Location, ValueRange)> after = nullptr;
};

/// Builds a perfect nest over `bounds` around `body`, but for `hooks` (sorted
/// by position), which run at their depths.
void buildHookedNest(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> bounds,
                     ArrayRef<NestHook> hooks,
                     function_ref<void(OpBuilder &, Location, ValueRange)> body,
                     SmallVector<Value> enclosingIvs = {}) {
  unsigned depth = enclosingIvs.size();
  if (hooks.empty()) {
    buildNest(b, loc, bounds.drop_front(depth),
              [&](OpBuilder &nb, Location l, ValueRange ivs) {
                SmallVector<Value> all(enclosingIvs);
                llvm::append_range(all, ivs);
                body(nb, l, all);
              });
    return;
  }
  const NestHook &hook = hooks.front();
  buildNest(b, loc, bounds.slice(depth, hook.position - depth),
            [&](OpBuilder &nb, Location l, ValueRange ivs) {
              SmallVector<Value> all(enclosingIvs);
              llvm::append_range(all, ivs);
              hook.before(nb, l, all);
              buildHookedNest(nb, l, bounds, hooks.drop_front(), body, all);
              if (hook.after)
                hook.after(nb, l, all);
            });
}

/// Builds the accumulation nest of a heavy op: the `outer` loops, then the
/// `innerBounds` loops around `body` (which gets all ivs), with `hooks`
/// (positions among the outer loops). `init` sets up
/// the accumulator tile right before the outermost loop over a dimension
/// that `isReduction` marks: each tile is then initialized once, just before
/// its reduction and while it is in cache, instead of in a separate pass
/// over the whole result that goes through memory. `finish`, when given,
/// runs right after the tile's reduction loops.
void buildAccumulationNest(
    OpBuilder &b, Location loc, const OuterLoops &outer,
    ArrayRef<bool> isReduction, ArrayRef<OpFoldResult> innerBounds,
    AccumulatorInitFn init,
    function_ref<void(OpBuilder &, Location, ValueRange)> body,
    ArrayRef<NestHook> hooks = {}, AccumulatorInitFn finish = nullptr) {
  unsigned numOuter = outer.bounds.size();
  unsigned first =
      llvm::find_if(outer.loopDims,
                    [&](unsigned dim) { return isReduction[dim]; }) -
      outer.loopDims.begin();
  AccumulatorTile tile;
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> enclosingOnly;
  for (unsigned position = 0; position < numOuter; ++position)
    enclosingOnly.push_back(position < first ? getAffineDimExpr(position, ctx)
                                             : getAffineConstantExpr(0, ctx));
  for (auto [dim, value] : llvm::enumerate(outer.dimValues)) {
    tile.base.push_back(value.replaceDims(enclosingOnly));
    int64_t extent = 1;
    for (unsigned position = first; position < numOuter; ++position) {
      if (outer.loopDims[position] != dim || isReduction[dim])
        continue;
      // Loops after the first reduction loop exist only in schedules, whose
      // sizes are static.
      std::optional<int64_t> trips =
          getConstantIntValue(outer.bounds[position]);
      assert(trips && "scheduled loops have constant trip counts");
      extent += (*trips - 1) * outer.loopStrides[position];
    }
    tile.extent.push_back(extent);
  }
  SmallVector<OpFoldResult> bounds(outer.bounds);
  llvm::append_range(bounds, innerBounds);
  auto initHook = [&](OpBuilder &ob, Location ol, ValueRange outerIvs) {
    init(ob, ol, outerIvs, tile);
  };
  std::function<void(OpBuilder &, Location, ValueRange)> finishHook;
  if (finish)
    finishHook = [&](OpBuilder &ob, Location ol, ValueRange outerIvs) {
      finish(ob, ol, outerIvs, tile);
    };
  SmallVector<NestHook> allHooks(hooks);
  allHooks.push_back({first, initHook, finishHook});
  llvm::stable_sort(allHooks, [](const NestHook &x, const NestHook &y) {
    return x.position < y.position;
  });
  buildHookedNest(b, loc, bounds, allHooks, body);
}

/// Builds, inside an accumulation nest, a nest storing `value(ivs, index)`
/// over the elements of an accumulator tile: `extents` per index dimension,
/// element index `base[d] + iv` (ivs after `outerIvs`; no loop for an extent
/// of 1).
void buildTileStore(
    OpBuilder &b, Location loc, Value memref, ValueRange outerIvs,
    ArrayRef<AffineExpr> base, ArrayRef<OpFoldResult> extents,
    function_ref<Value(OpBuilder &, Location, ValueRange, ArrayRef<AffineExpr>)>
        value) {
  auto hasLoop = [](OpFoldResult extent) {
    return getConstantIntValue(extent) != std::optional<int64_t>(1);
  };
  SmallVector<OpFoldResult> bounds = llvm::filter_to_vector(extents, hasLoop);
  buildNest(b, loc, bounds, [&](OpBuilder &nb, Location l, ValueRange ivs) {
    SmallVector<Value> all(outerIvs);
    llvm::append_range(all, ivs);
    SmallVector<AffineExpr> index;
    unsigned next = outerIvs.size();
    for (auto [expr, extent] : llvm::zip(base, extents))
      index.push_back(hasLoop(extent) ? expr + nb.getAffineDimExpr(next++)
                                      : expr);
    storeAt(nb, l, value(nb, l, all, index), memref, all, index);
  });
}

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

/// The panel packing of the operand whose blocks have `blockBytes` and are
/// not indexed by `otherDim`, if each block is copied once that way and a
/// batch fits in kMaxPanelBytes.
std::optional<PanelPacking> findPanelPacking(const OuterLoops &outer,
                                             unsigned otherDim,
                                             int64_t blockBytes) {
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
  for (unsigned p = 0; p < position; ++p)
    if (outer.loopDims[p] == otherDim && trips(p) != 1)
      return std::nullopt;
  // A panel copied right before the one call that reads it has nothing to
  // gain over the packed copy, whose reads stream through whole rows: at 2
  // threads, per-call copies of B's 128-byte row pieces made a
  // 128x2048x4096 GEMM 16% slower.
  int64_t rereads = 1;
  for (unsigned p = position; p < batchLoop; ++p)
    rereads *= trips(p);
  if (rereads == 1)
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

/// Builds a nest over the box of a buffer at `offsets` with `sizes` (each a
/// constant or an index value defined outside the nest). `body` gets the map
/// operands (the ivs, then the offsets that are not constants, as symbols),
/// the number of ivs, and the element's index in the buffer over them.
void buildBoxNest(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> offsets,
                  ArrayRef<OpFoldResult> sizes,
                  function_ref<void(OpBuilder &, Location, ValueRange, unsigned,
                                    ArrayRef<AffineExpr>)>
                      body) {
  buildNest(b, loc, sizes, [&](OpBuilder &nb, Location l, ValueRange ivs) {
    SmallVector<Value> symbolValues;
    SmallVector<AffineExpr> index;
    for (auto [d, offset] : llvm::enumerate(offsets))
      index.push_back(nb.getAffineDimExpr(d) +
                      sizeExpr(nb, offset, symbolValues));
    SmallVector<Value> operands(ivs);
    llvm::append_range(operands, symbolValues);
    body(nb, l, operands, ivs.size(), index);
  });
}

/// Stores `value` into the box of `memref` at `offsets` with `sizes` (each a
/// constant or an index value defined outside the nest).
void buildBoxFill(OpBuilder &b, Location loc, Value value, Value memref,
                  ArrayRef<OpFoldResult> offsets,
                  ArrayRef<OpFoldResult> sizes) {
  buildBoxNest(b, loc, offsets, sizes,
               [&](OpBuilder &nb, Location l, ValueRange operands,
                   unsigned numDims, ArrayRef<AffineExpr> index) {
                 storeAt(nb, l, value, memref, operands, numDims, index);
               });
}

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
                                Value alphaValue) const {
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
    bool paddedC = op.getPackC() && (m % bm != 0 || n % bn != 0);
    bool perTileC = options.initializePerTile && !paddedC;
    // The block loops (i, j, k) as scheduled, then the band (bm, bn, bk).
    auto blockCount = [&](int64_t size) -> OpFoldResult {
      return rewriter.getIndexAttr(size);
    };
    OuterLoops outer = getOuterLoops(
        rewriter, op.getEffectiveSchedule(), op.getScheduleDims(),
        {blockCount(mBlocks), blockCount(nBlocks), blockCount(kBlocks)});
    // Packed operands: copied in the nest where each block is still copied
    // once (PanelPacking), else into a packed copy before it. Only under a
    // #dl.schedule, which names the loop that runs in parallel (a panel
    // inside it is private to each iteration): without one,
    // dl-parallelize-outer-loops may run any outer loop in parallel, and a
    // panel shared by its iterations would keep them sequential.
    std::optional<PanelPacking> panelA, panelB;
    constexpr int64_t kF32Bytes = 4;
    bool panels =
        options.packPanelsInNest && op.getScheduleAttr() && !op.getPadBlocks();
    if (op.getPackA() && panels)
      panelA = findPanelPacking(outer, /*otherDim=*/1, bm * bk * kF32Bytes);
    if (op.getPackB() && panels)
      panelB = findPanelPacking(outer, /*otherDim=*/0, bk * bn * kF32Bytes);
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
    auto copyBack = [&](OpBuilder &b, Location l, ValueRange outerIvs,
                        const AccumulatorTile &tile) {
      copyCTile(b, l, op, packedC, outerIvs, tile.base, tile.extent, Value(),
                /*intoPacked=*/false);
    };
    AccumulatorInitFn finish = nullptr;
    if (packedC && perTileC)
      finish = copyBack;
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
    bool readsTransposed = (!op.getPackA() && op.getTransposeA()) ||
                           (!op.getPackB() && op.getTransposeB());
    if (!productScale && !readsTransposed)
      tagGemmBand(rewriter, bandIv);
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
    if (op.getStreamA()) {
      lowerStreamingMatmul(rewriter, op);
      rewriter.eraseOp(op);
      return success();
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
    if (blocks) {
      buildBlockedAccumulation(rewriter, op, *blocks, betaValue, alphaValue);
      rewriter.eraseOp(op);
      return success();
    }
    // Without transposes or scaling, the nest is the GEMM band itself.
    Value bandIv;
    buildNest(rewriter, loc, {m, n, k},
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                bandIv = ivs[0];
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
    if (!alphaValue && !op.getTransposeA() && !op.getTransposeB() &&
        !op.hasBlockedB())
      tagGemmBand(rewriter, bandIv);
    rewriter.eraseOp(op);
    return success();
  }
};

/// A copy of the blocked activation `input` with `left` and `right` zero
/// columns beside each row, for a convolution without skip_padding_columns:
/// the accumulation nest then reads in bounds without affine.if and its
/// innermost band stays a GEMM (the form LIBXSMM kernels take); the padding
/// rows are never read (the filter-row bounds skip them). Only the padding
/// columns are zeroed: the interior is written once, by the copy (zeroing
/// all of it first wrote conv1's 635 KB copy twice).
Value buildColumnPaddedCopy(OpBuilder &b, Location loc, Value input,
                            int64_t left, int64_t right) {
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
  ArrayRef<OpFoldResult> rowSizes =
      ArrayRef<OpFoldResult>(inputSizes).take_front(kColumnDim);
  ArrayRef<OpFoldResult> elementSizes =
      ArrayRef<OpFoldResult>(inputSizes).drop_front(kColumnDim + 1);
  buildNest(
      b, loc, rowSizes, [&](OpBuilder &rb, Location rl, ValueRange rowIvs) {
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
  return padded;
}

struct Conv2DLowering : OpRewritePattern<Conv2DOp> {
  Conv2DLowering(MLIRContext *ctx, const DLToAffineOptions &options)
      : OpRewritePattern(ctx), options(options) {}
  DLToAffineOptions options;
  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getPixelVectors()) {
      lowerPixelVectorConv(rewriter, op);
      rewriter.eraseOp(op);
      return success();
    }
    Location loc = op.getLoc();
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
      inputCopy =
          buildColumnPaddedCopy(rewriter, loc, input, padding[1], padding[3]);
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
    enum { N, K, OH, OW, C, R, S, CB, KI, NumLoops };
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
      pos[C] = first + 3, pos[KI] = first + 4;
      bounds = outer.bounds;
      bounds.append({filterSizes[2], filterSizes[3], outSizes[3],
                     filterSizes[4], filterSizes[5]});
    }

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
      AffineExpr iw = d(OW) * strides[1] + d(S) * dilations[1] - padding[1];
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

      SmallVector<AffineExpr> inIdx, filterIdx, outIdx;
      if (!blocked) {
        inIdx = {d(N), d(C), ih, iw};
        filterIdx = {d(K), d(C), d(R), d(S)};
        outIdx = {d(N), d(K), d(OH), d(OW)};
      } else {
        inIdx = {d(N), d(CB), ih, iw, d(C)};
        filterIdx = {d(K), d(CB), d(R), d(S), d(C), d(KI)};
        outIdx = {d(N), d(K), d(OH), d(OW), d(KI)};
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
    } else {
      // The tile of (n, kb, oh) and all of (ow, k) per reduction.
      auto initTile = [&](OpBuilder &b, Location l, ValueRange outerIvs,
                          const AccumulatorTile &tile) {
        if (!initializePerTile)
          return;
        SmallVector<OpFoldResult> extents;
        SmallVector<AffineExpr> base(tile.base.begin(), tile.base.begin() + 3);
        for (unsigned d : {0, 1, 2})
          extents.push_back(b.getIndexAttr(tile.extent[d]));
        for (unsigned d : {3, 4}) {
          extents.push_back(outSizes[d]);
          base.push_back(b.getAffineConstantExpr(0));
        }
        buildTileStore(b, l, output, outerIvs, base, extents,
                       [&](OpBuilder &, Location, ValueRange,
                           ArrayRef<AffineExpr>) { return zero; });
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
      auto reduction = [&](OpBuilder &b, Location l, ValueRange outerIvs) {
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
                  buildNest(cb, cl, channelBounds,
                            [&](OpBuilder &nb, Location nl, ValueRange inner) {
                              SmallVector<Value> ivs(outerIvs);
                              ivs.append({row, tap, column});
                              llvm::append_range(ivs, inner);
                              body(nb, nl, ivs);
                            });
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
                            {}, initTile, reduction);
    }
    for (Value bandIv : bandIvs)
      tagGemmBand(rewriter, bandIv);
    if (parallelIv)
      tagParallelLoop(rewriter, parallelIv);
    if (inputCopy)
      memref::DeallocOp::create(rewriter, loc, inputCopy);
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Batch normalization
//===----------------------------------------------------------------------===//

/// Builds, inside a channel loop body, the normalization sweep
/// `output = gamma * ((input - mean) * invStd) + beta` over (n, h, w).
void buildNormalizeSweep(OpBuilder &b, Location loc,
                         const ChannelLayout &layout, ValueRange channelIvs,
                         Value input, Value output, Value gamma, Value beta,
                         Value mean, Value invStd) {
  buildNest(b, loc, layout.otherBounds,
            [&](OpBuilder &nb, Location l, ValueRange innerIvs) {
              SmallVector<Value> ivs(channelIvs);
              llvm::append_range(ivs, innerIvs);
              SmallVector<AffineExpr> idx = layout.elementIndex(nb);
              Value x = loadAt(nb, l, input, ivs, idx);
              Value centered = arith::SubFOp::create(nb, l, x, mean);
              Value normalized = arith::MulFOp::create(nb, l, centered, invStd);
              Value scaled = arith::MulFOp::create(nb, l, gamma, normalized);
              storeAt(nb, l, arith::AddFOp::create(nb, l, scaled, beta), output,
                      ivs, idx);
            });
}

/// 1 / sqrt(variance + epsilon), with `epsilon` and `one` f32 constants.
Value buildInvStd(OpBuilder &b, Location loc, Value variance, Value epsilon,
                  Value one) {
  Value shifted = arith::AddFOp::create(b, loc, variance, epsilon);
  Value root = math::SqrtOp::create(b, loc, shifted);
  return arith::DivFOp::create(b, loc, one, root);
}

struct BatchNormInferenceLowering : OpRewritePattern<BatchNormInferenceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormInferenceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ChannelLayout layout(rewriter, loc, op.getInput());
    Value epsilon =
        f32Constant(rewriter, loc, op.getEpsilon().convertToFloat());
    Value one = f32Constant(rewriter, loc, 1.0);
    if (layout.blocked)
      return lowerBlocked(op, rewriter, epsilon, one);
    buildNest(rewriter, loc, layout.channelBounds,
              [&](OpBuilder &b, Location l, ValueRange channelIvs) {
                AffineExpr ch = layout.channelIndex(b);
                auto param = [&](Value vector) {
                  return loadAt(b, l, vector, channelIvs, ch);
                };
                Value invStd =
                    buildInvStd(b, l, param(op.getVariance()), epsilon, one);
                buildNormalizeSweep(b, l, layout, channelIvs, op.getInput(),
                                    op.getOutput(), param(op.getGamma()),
                                    param(op.getBeta()), param(op.getMean()),
                                    invStd);
              });
    rewriter.eraseOp(op);
    return success();
  }

  /// The blocked layout holds a channel's elements one block apart (every
  /// 128 bytes for blocks of 32), so a sweep per channel would read whole
  /// cache lines for one float each (20x slower than memory order, measured
  /// on a 256-channel 56x56 activation). Instead: `scale = gamma * invStd`
  /// per channel into a scratch vector, then one sweep in memory order
  /// computing `(input - mean) * scale + beta`, contiguous along the block.
  LogicalResult lowerBlocked(BatchNormInferenceOp op, PatternRewriter &rewriter,
                             Value epsilon, Value one) const {
    Location loc = op.getLoc();
    MemRefType vectorType = op.getGamma().getType();
    SmallVector<Value> dynamicSize;
    if (vectorType.isDynamicDim(0))
      dynamicSize.push_back(
          memref::DimOp::create(rewriter, loc, op.getGamma(), 0));
    Value scale = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get(vectorType.getShape(), rewriter.getF32Type()),
        dynamicSize);
    buildNest(rewriter, loc, getSizes(rewriter, loc, op.getGamma()),
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                AffineExpr c = b.getAffineDimExpr(0);
                Value invStd = buildInvStd(
                    b, l, loadAt(b, l, op.getVariance(), ivs, c), epsilon, one);
                Value gamma = loadAt(b, l, op.getGamma(), ivs, c);
                storeAt(b, l, arith::MulFOp::create(b, l, gamma, invStd), scale,
                        ivs, c);
              });
    buildNest(rewriter, loc, getSizes(rewriter, loc, op.getOutput()),
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                SmallVector<AffineExpr> idx = identityIndex(b, ivs.size());
                AffineExpr c = elementChannel(b, op.getInput().getType());
                Value x = loadAt(b, l, op.getInput(), ivs, idx);
                Value centered = arith::SubFOp::create(
                    b, l, x, loadAt(b, l, op.getMean(), ivs, c));
                Value scaled = arith::MulFOp::create(
                    b, l, centered, loadAt(b, l, scale, ivs, c));
                storeAt(b, l,
                        arith::AddFOp::create(
                            b, l, scaled, loadAt(b, l, op.getBeta(), ivs, c)),
                        op.getOutput(), ivs, idx);
              });
    memref::DeallocOp::create(rewriter, loc, scale);
    rewriter.eraseOp(op);
    return success();
  }
};

struct BatchNormTrainingLowering : OpRewritePattern<BatchNormTrainingOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormTrainingOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = op.getInput();
    ChannelLayout layout(rewriter, loc, input);
    Value count = indexToF32(rewriter, loc,
                             multiplySizes(rewriter, loc, layout.otherBounds));
    Value epsilon =
        f32Constant(rewriter, loc, op.getEpsilon().convertToFloat());
    Value one = f32Constant(rewriter, loc, 1.0);
    Value zero = f32Constant(rewriter, loc, 0.0);

    buildNest(
        rewriter, loc, layout.channelBounds,
        [&](OpBuilder &b, Location l, ValueRange channelIvs) {
          // One sweep over (n, h, w) accumulating f(x) in an iter_arg.
          auto sumOver =
              [&](function_ref<Value(OpBuilder &, Location, Value)> f) {
                return buildNest(
                    b, l, layout.otherBounds, zero,
                    [&](OpBuilder &nb, Location nl, ValueRange innerIvs,
                        ValueRange acc) {
                      SmallVector<Value> ivs(channelIvs);
                      llvm::append_range(ivs, innerIvs);
                      Value x =
                          loadAt(nb, nl, input, ivs, layout.elementIndex(nb));
                      return SmallVector<Value>{
                          arith::AddFOp::create(nb, nl, acc[0], f(nb, nl, x))};
                    })[0];
              };
          // Two-pass statistics: mean, then the biased variance around it.
          Value sum = sumOver([](OpBuilder &, Location, Value x) { return x; });
          Value mean = arith::DivFOp::create(b, l, sum, count);
          Value squares = sumOver([&](OpBuilder &nb, Location nl, Value x) {
            Value centered = arith::SubFOp::create(nb, nl, x, mean);
            return arith::MulFOp::create(nb, nl, centered, centered)
                .getResult();
          });
          Value variance = arith::DivFOp::create(b, l, squares, count);
          AffineExpr ch = layout.channelIndex(b);
          storeAt(b, l, mean, op.getSavedMean(), channelIvs, ch);
          storeAt(b, l, variance, op.getSavedVariance(), channelIvs, ch);
          Value invStd = buildInvStd(b, l, variance, epsilon, one);
          buildNormalizeSweep(b, l, layout, channelIvs, input, op.getOutput(),
                              loadAt(b, l, op.getGamma(), channelIvs, ch),
                              loadAt(b, l, op.getBeta(), channelIvs, ch), mean,
                              invStd);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

/// Lowers an element-wise op to one nest over `output` whose body computes
/// each element from the loaded `inputs` (same indices as the output).
void lowerElementwise(
    PatternRewriter &rewriter, Operation *op, ValueRange inputs, Value output,
    function_ref<Value(OpBuilder &, Location, ValueRange)> compute) {
  Location loc = op->getLoc();
  buildNest(rewriter, loc, getSizes(rewriter, loc, output),
            [&](OpBuilder &b, Location l, ValueRange ivs) {
              SmallVector<AffineExpr> idx = identityIndex(b, ivs.size());
              SmallVector<Value> loaded = llvm::map_to_vector(
                  inputs, [&](Value v) { return loadAt(b, l, v, ivs, idx); });
              storeAt(b, l, compute(b, l, loaded), output, ivs, idx);
            });
  rewriter.eraseOp(op);
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
    Value zero = f32Constant(rewriter, op.getLoc(), 0.0);
    lowerElementwise(rewriter, op, op.getInput(), op.getOutput(),
                     [&](OpBuilder &b, Location l, ValueRange x) -> Value {
                       return arith::MaxNumFOp::create(b, l, x[0], zero);
                     });
    return success();
  }
};

struct Relu6Lowering : OpRewritePattern<Relu6Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Relu6Op op,
                                PatternRewriter &rewriter) const override {
    Value zero = f32Constant(rewriter, op.getLoc(), 0.0);
    Value six = f32Constant(rewriter, op.getLoc(), 6.0);
    lowerElementwise(rewriter, op, op.getInput(), op.getOutput(),
                     [&](OpBuilder &b, Location l, ValueRange x) -> Value {
                       Value low = arith::MaxNumFOp::create(b, l, x[0], zero);
                       return arith::MinNumFOp::create(b, l, low, six);
                     });
    return success();
  }
};

struct AddLowering : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    lowerElementwise(rewriter, op, {op.getLhs(), op.getRhs()}, op.getOutput(),
                     [](OpBuilder &b, Location l, ValueRange x) -> Value {
                       return arith::AddFOp::create(b, l, x[0], x[1]);
                     });
    return success();
  }
};

struct BiasAddLowering : OpRewritePattern<BiasAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BiasAddOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    buildNest(rewriter, loc, getSizes(rewriter, loc, op.getOutput()),
              [&](OpBuilder &b, Location l, ValueRange ivs) {
                SmallVector<AffineExpr> idx = identityIndex(b, ivs.size());
                AffineExpr channel = elementChannel(b, op.getInput().getType());
                Value x = loadAt(b, l, op.getInput(), ivs, idx);
                Value bias = loadAt(b, l, op.getBias(), ivs, channel);
                storeAt(b, l, arith::AddFOp::create(b, l, x, bias),
                        op.getOutput(), ivs, idx);
              });
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Layout changes
//===----------------------------------------------------------------------===//

/// Index into the plain tensor for a nest over the blocked tensor's dims:
/// activations [n][cb][h][w][c] -> [n][cb*C + c][h][w];
/// filters [kb][cb][r][s][c][k] -> [kb*K + k][cb*C + c][r][s];
/// matrices [nb][kb][k][n] -> [kb*K + k][nb*N + n].
SmallVector<AffineExpr> plainFromBlocked(OpBuilder &b, MemRefType blocked,
                                         MemRefType plain) {
  auto d = [&](unsigned i) { return b.getAffineDimExpr(i); };
  if (plain.getRank() == 2)
    return {d(1) * blocked.getDimSize(2) + d(2),
            d(0) * blocked.getDimSize(3) + d(3)};
  AffineExpr channel = elementChannel(b, blocked);
  if (blocked.getRank() == 5)
    return {d(0), channel, d(2), d(3)};
  return {d(0) * blocked.getDimSize(5) + d(5), channel, d(2), d(3)};
}

/// A box of a buffer: per dimension, its first index and its extent.
struct Box {
  SmallVector<OpFoldResult> offsets, sizes;
  bool empty() const {
    return llvm::any_of(sizes, [](OpFoldResult size) {
      return getConstantIntValue(size) == 0;
    });
  }
};

/// Copies between the plain tensor and the blocked one, in either direction
/// (`toBlocked`: pack), by nests over the blocked tensor's dims. Their
/// innermost dim (the channel within a block) is contiguous there and one
/// plane apart in the plain tensor; the other order (contiguous in the
/// plain tensor) measured slower both ways on a 256-channel 56x56
/// activation: unpack 0.81 vs 0.21 ms, pack 0.85 vs 0.31 ms. A channel
/// count the block does not divide splits the nest in two along it: the
/// whole blocks, and the channels of the last block (a filter's two channel
/// dims give up to four nests, each with constant bounds when the sizes are
/// static); a pack then zeroes the last block's padding channels.
void lowerLayoutCopy(PatternRewriter &rewriter, Operation *op, Value plain,
                     Value blocked, bool toBlocked) {
  Location loc = op->getLoc();
  auto blockedType = cast<MemRefType>(blocked.getType());
  auto plainType = cast<MemRefType>(plain.getType());
  SmallVector<AffineExpr> plainIndex =
      plainFromBlocked(rewriter, blockedType, plainType);
  SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, blocked);
  SmallVector<OpFoldResult> origin(sizes.size(), rewriter.getIndexAttr(0));
  SmallVector<Box> copies = {{origin, sizes}}, padding;
  // (blocks dim, block dim, plain dim) of the channels a block may pad.
  SmallVector<std::array<unsigned, 3>, 2> channelDims;
  if (plainType.getRank() == 4) {
    channelDims.push_back({1, 4, 1});
    if (blockedType.getRank() == 6)
      channelDims.push_back({0, 5, 0});
  }
  AffineExpr s0 = rewriter.getAffineSymbolExpr(0),
             s1 = rewriter.getAffineSymbolExpr(1);
  auto apply = [&](AffineExpr expr, ArrayRef<OpFoldResult> operands) {
    return affine::makeComposedFoldedAffineApply(
        rewriter, loc, AffineMap::get(0, operands.size(), expr), operands);
  };
  for (auto [blocksDim, blockDim, plainDim] : channelDims) {
    OpFoldResult channels = getSize(rewriter, loc, plain, plainDim);
    int64_t block = blockedType.getDimSize(blockDim);
    OpFoldResult whole = apply(s0.floorDiv(block), {channels});
    OpFoldResult rest = apply(s0 % block, {channels});
    // The last block when it is partial: 0 or 1 blocks.
    OpFoldResult partial =
        apply(s1 - s0.floorDiv(block), {channels, sizes[blocksDim]});
    if (getConstantIntValue(partial) == 0)
      continue;
    SmallVector<Box> split;
    for (const Box &box : copies) {
      Box wholeBlocks = box, lastBlock = box;
      wholeBlocks.sizes[blocksDim] = whole;
      lastBlock.offsets[blocksDim] = whole;
      lastBlock.sizes[blocksDim] = partial;
      lastBlock.sizes[blockDim] = rest;
      split.append({wholeBlocks, lastBlock});
    }
    copies = std::move(split);
    Box zeros = {origin, sizes};
    zeros.offsets[blocksDim] = whole;
    zeros.sizes[blocksDim] = partial;
    zeros.offsets[blockDim] = rest;
    zeros.sizes[blockDim] = apply(block - s0, {rest});
    padding.push_back(zeros);
  }
  if (toBlocked) {
    Value zero = f32Constant(rewriter, loc, 0.0);
    for (const Box &box : padding)
      if (!box.empty())
        buildBoxFill(rewriter, loc, zero, blocked, box.offsets, box.sizes);
  }
  for (const Box &box : copies) {
    if (box.empty())
      continue;
    buildBoxNest(
        rewriter, loc, box.offsets, box.sizes,
        [&](OpBuilder &b, Location l, ValueRange operands, unsigned numDims,
            ArrayRef<AffineExpr> blockedIndex) {
          SmallVector<AffineExpr> index =
              llvm::map_to_vector(plainIndex, [&](AffineExpr expr) {
                return expr.replaceDims(blockedIndex);
              });
          if (toBlocked)
            storeAt(b, l, loadAt(b, l, plain, operands, numDims, index),
                    blocked, operands, numDims, blockedIndex);
          else
            storeAt(b, l,
                    loadAt(b, l, blocked, operands, numDims, blockedIndex),
                    plain, operands, numDims, index);
        });
  }
  rewriter.eraseOp(op);
}

struct PackLowering : OpRewritePattern<PackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PackOp op,
                                PatternRewriter &rewriter) const override {
    lowerLayoutCopy(rewriter, op, op.getPlain(), op.getBlocked(),
                    /*toBlocked=*/true);
    return success();
  }
};

struct UnpackLowering : OpRewritePattern<UnpackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(UnpackOp op,
                                PatternRewriter &rewriter) const override {
    lowerLayoutCopy(rewriter, op, op.getPlain(), op.getBlocked(),
                    /*toBlocked=*/false);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Run-time size checks
//===----------------------------------------------------------------------===//

/// "file:line:col" of `op`, or its printed location when it has no file.
std::string describeLocation(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << op->getLoc();
  return text;
}

/// Before `op`, a cf.assert for each of its size relations that involves a
/// dynamic size (the verifier checked the static ones).
void emitRunTimeSizeChecks(Operation *op) {
  SizeRelations relations = getSizeRelations(op);
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> sizes;
  for (const SizeRelation &relation : relations.getRelations()) {
    // Static relations were verified; an in-place op relates a size to
    // itself.
    if ((relations.evaluateStatic(relation.lhs) &&
         relations.evaluateStatic(relation.rhs)) ||
        relation.lhs == relation.rhs)
      continue;
    if (sizes.empty())
      for (auto [memref, dim] : relations.getSizes())
        sizes.push_back(getValueOrCreateConstantIndexOp(
            b, loc, getSize(b, loc, memref, dim)));
    Value lhs = affine::expandAffineExpr(b, loc, relation.lhs, {}, sizes);
    Value rhs = affine::expandAffineExpr(b, loc, relation.rhs, {}, sizes);
    bool equal = relation.kind == SizeRelation::Kind::Equal;
    Value holds = arith::CmpIOp::create(
        b, loc, equal ? arith::CmpIPredicate::eq : arith::CmpIPredicate::sle,
        lhs, rhs);
    std::string message = describeLocation(op) + ": '" +
                          op->getName().getStringRef().str() +
                          "' op run-time size check failed: ";
    message += equal ? relation.lhsName + " does not match " + relation.rhsName
                     : relation.rhsName + " is less than " + relation.lhsName;
    cf::AssertOp::create(b, loc, holds, message);
  }
}

struct ConvertDLToAffinePass
    : dl::impl::ConvertDLToAffineBase<ConvertDLToAffinePass> {
  void runOnOperation() override {
    if (failed(dl::lowerDLToAffine(getOperation())))
      signalPassFailure();
  }
};

} // namespace

LogicalResult dl::lowerDLToAffine(Operation *root,
                                  const DLToAffineOptions &options) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  patterns.add<MatmulLowering, Conv2DLowering>(ctx, options);
  patterns.add<BatchNormInferenceLowering, BatchNormTrainingLowering,
               ReluLowering, Relu6Lowering, AddLowering, BiasAddLowering,
               PackLowering, UnpackLowering>(ctx);
  FrozenRewritePatternSet frozenPatterns(std::move(patterns));
  ConversionTarget target(*ctx);
  target.addIllegalDialect<DLDialect>();
  target.addLegalOp<GemmDispatchOp, GemmInvokeOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  SmallVector<Operation *> dlOps;
  root->walk([&](Operation *op) {
    if (isa_and_nonnull<DLDialect>(op->getDialect()))
      dlOps.push_back(op);
  });
  for (Operation *op : dlOps)
    emitRunTimeSizeChecks(op);
  // An op that runs on one thread is lowered alone, in program order, so
  // the nests between its neighbours are its own (the patterns build them
  // right before the op): each carries the op's mark.
  StringRef sequential = DLDialect::getSequentialAttrName();
  for (Operation *op : dlOps) {
    if (!op->hasAttr(sequential))
      continue;
    Block *block = op->getBlock();
    Operation *prev = op->getPrevNode(), *next = op->getNextNode();
    if (failed(applyPartialConversion(op, target, frozenPatterns)))
      return failure();
    auto begin = prev ? std::next(prev->getIterator()) : block->begin();
    auto end = next ? next->getIterator() : block->end();
    for (Operation &created : llvm::make_range(begin, end))
      if (isa<AffineForOp>(created))
        created.setAttr(sequential, UnitAttr::get(ctx));
  }
  return applyPartialConversion(root, target, frozenPatterns);
}

FailureOr<OwningOpRef<ModuleOp>>
dl::lowerScratchCopy(Operation *op, const DLToAffineOptions &options,
                     function_ref<void(Operation *)> prepare) {
  Location loc = op->getLoc();
  OpBuilder b(op->getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto fn = func::FuncOp::create(b, loc, "scratch",
                                 b.getFunctionType(op->getOperandTypes(), {}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(op->getOperands(), entry->getArguments());
  Operation *clone = b.clone(*op, mapping);
  if (prepare)
    prepare(clone);
  func::ReturnOp::create(b, loc);
  if (failed(lowerDLToAffine(*module, options)))
    return failure();
  return module;
}
