//===- NestBuilders.h - affine nests of the dl lowerings ------ -*- C++ -*-===//
//
// The builders the op families of convert-dl-to-affine share: perfect nests
// over static or dynamic bounds, affine loads and stores at index expressions,
// the outer loops of a heavy op as its #dl.schedule orders them and its
// accumulation nest (whose `finish` hook runs right after a tile's last
// reduction step, while the tile is in cache), and the tags later passes read
// (the GEMM band, the parallel loop).
//
//===----------------------------------------------------------------------===//

#ifndef DL_LIB_CONVERSION_DLTOAFFINE_NESTBUILDERS_H
#define DL_LIB_CONVERSION_DLTOAFFINE_NESTBUILDERS_H

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir {
namespace dl {

/// Size of dimension `dim` of `memref`: a constant when static, else a
/// memref.dim created at the builder's position (a valid affine symbol when
/// created outside the nests).
OpFoldResult getSize(OpBuilder &b, Location loc, Value memref, int64_t dim);

/// Sizes of all dimensions of `memref`.
SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value memref);

/// `size` in an affine map: a constant, or a new symbol for its value
/// (appended to `symbolValues`, the map's symbol operands).
AffineExpr sizeExpr(OpBuilder &b, OpFoldResult size,
                    SmallVectorImpl<Value> &symbolValues);

using NestBodyFn = function_ref<SmallVector<Value>(
    OpBuilder &, Location, ValueRange ivs, ValueRange iterArgs)>;

/// Builds a perfect nest of `affine.for %iv = 0 to ub` loops, one per entry of
/// `upperBounds`, threading `inits` through every level as iter_args. The
/// body receives all induction variables (outermost first) and the current
/// iter_args, and returns the values to yield. Returns the nest's results.
SmallVector<Value> buildNest(OpBuilder &b, Location loc,
                             ArrayRef<OpFoldResult> upperBounds,
                             ValueRange inits, NestBodyFn body,
                             SmallVectorImpl<Value> &ivs);

SmallVector<Value> buildNest(OpBuilder &b, Location loc,
                             ArrayRef<OpFoldResult> upperBounds,
                             ValueRange inits, NestBodyFn body);

/// Builds a nest without iter_args whose body only has side effects.
void buildNest(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> upperBounds,
               function_ref<void(OpBuilder &, Location, ValueRange)> body);

/// An affine.load or affine.store at `index`, whose dims are the first
/// `numDims` of `operands` and whose symbols the others.
Value loadAt(OpBuilder &b, Location loc, Value memref, ValueRange operands,
             unsigned numDims, ArrayRef<AffineExpr> index);

void storeAt(OpBuilder &b, Location loc, Value value, Value memref,
             ValueRange operands, unsigned numDims, ArrayRef<AffineExpr> index);

/// Loads `memref[exprs(ivs)]` with an affine.load whose map has one dim per
/// induction variable.
Value loadAt(OpBuilder &b, Location loc, Value memref, ValueRange ivs,
             ArrayRef<AffineExpr> exprs);

void storeAt(OpBuilder &b, Location loc, Value value, Value memref,
             ValueRange ivs, ArrayRef<AffineExpr> exprs);

/// d0, d1, ... for the given induction-variable positions.
SmallVector<AffineExpr> dims(OpBuilder &b, ArrayRef<unsigned> positions);

/// d0, ..., d(n-1): the index of a nest over all dims of a buffer.
SmallVector<AffineExpr> identityIndex(OpBuilder &b, unsigned n);

Value f32Constant(OpBuilder &b, Location loc, double value);

/// `value` in every lane of an f32 vector of `type`.
Value f32Splat(OpBuilder &b, Location loc, double value, VectorType type);

/// Calls `body` on the `size` elements of a dimension in vectors of
/// `vectorFloats` (by default kLoweringVectorFloats, 16): a loop over the
/// whole vectors (`first` its iv), then one narrower vector for the last
/// lanes.
void buildVectorChunks(
    OpBuilder &b, Location loc, int64_t size,
    function_ref<void(OpBuilder &, Location, Value first, int64_t lanes)> body,
    int64_t vectorFloats = kLoweringVectorFloats);

/// The (input) channel of the element at the ivs of a nest over all dims of
/// `tensor` in order: d1, or d1 * c + d4 when dims 1 and 4 hold the channel
/// block and the channel within it (blocked activations and filters).
AffineExpr elementChannel(OpBuilder &b, ShapedType tensor);

/// Marks the loop of `iv` as the outermost loop of a GEMM band (once the nest
/// is built: loops under construction have no parent yet).
void tagGemmBand(OpBuilder &b, Value iv);

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
                         ArrayRef<OpFoldResult> sizes);

/// Marks the loop of `iv` as the one its schedule runs in parallel.
void tagParallelLoop(OpBuilder &b, Value iv);

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
    ArrayRef<NestHook> hooks = {}, AccumulatorInitFn finish = nullptr);

/// Builds, inside an accumulation nest, a nest storing `value(ivs, index)`
/// over the elements of an accumulator tile: `extents` per index dimension,
/// element index `base[d] + iv` (ivs after `outerIvs`; no loop for an extent
/// of 1).
void buildTileStore(
    OpBuilder &b, Location loc, Value memref, ValueRange outerIvs,
    ArrayRef<AffineExpr> base, ArrayRef<OpFoldResult> extents,
    function_ref<Value(OpBuilder &, Location, ValueRange, ArrayRef<AffineExpr>)>
        value);

/// Builds a nest over the box of a buffer at `offsets` with `sizes` (each a
/// constant or an index value defined outside the nest). `body` gets the map
/// operands (the ivs, then the offsets that are not constants, as symbols),
/// the number of ivs, and the element's index in the buffer over them.
void buildBoxNest(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> offsets,
                  ArrayRef<OpFoldResult> sizes,
                  function_ref<void(OpBuilder &, Location, ValueRange, unsigned,
                                    ArrayRef<AffineExpr>)>
                      body);

/// Stores `value` into the box of `memref` at `offsets` with `sizes` (each a
/// constant or an index value defined outside the nest).
void buildBoxFill(OpBuilder &b, Location loc, Value value, Value memref,
                  ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes);

} // namespace dl
} // namespace mlir

#endif // DL_LIB_CONVERSION_DLTOAFFINE_NESTBUILDERS_H
