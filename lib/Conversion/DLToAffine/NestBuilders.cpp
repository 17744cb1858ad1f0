//===- NestBuilders.cpp - affine nests of the dl lowerings ----------------===//
//
// The shared nest builders of convert-dl-to-affine (see NestBuilders.h).
//
//===----------------------------------------------------------------------===//

#include "NestBuilders.h"

#include "dl/Dialect/DL/Transforms/Blocking.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

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

} // namespace

namespace mlir {
namespace dl {

OpFoldResult getSize(OpBuilder &b, Location loc, Value memref, int64_t dim) {
  int64_t size = cast<MemRefType>(memref.getType()).getDimSize(dim);
  if (!ShapedType::isDynamic(size))
    return b.getIndexAttr(size);
  return memref::DimOp::create(b, loc, memref, dim).getResult();
}

SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value memref) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0, e = cast<MemRefType>(memref.getType()).getRank(); d < e;
       ++d)
    sizes.push_back(getSize(b, loc, memref, d));
  return sizes;
}

AffineExpr sizeExpr(OpBuilder &b, OpFoldResult size,
                    SmallVectorImpl<Value> &symbolValues) {
  if (std::optional<int64_t> constant = getConstantIntValue(size))
    return b.getAffineConstantExpr(*constant);
  symbolValues.push_back(cast<Value>(size));
  return b.getAffineSymbolExpr(symbolValues.size() - 1);
}

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

void buildNest(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> upperBounds,
               function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  buildNest(b, loc, upperBounds, ValueRange{},
            [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
              body(nb, nloc, ivs);
              return SmallVector<Value>{};
            });
}

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

Value loadAt(OpBuilder &b, Location loc, Value memref, ValueRange ivs,
             ArrayRef<AffineExpr> exprs) {
  return loadAt(b, loc, memref, ivs, ivs.size(), exprs);
}

void storeAt(OpBuilder &b, Location loc, Value value, Value memref,
             ValueRange ivs, ArrayRef<AffineExpr> exprs) {
  storeAt(b, loc, value, memref, ivs, ivs.size(), exprs);
}

SmallVector<AffineExpr> dims(OpBuilder &b, ArrayRef<unsigned> positions) {
  return llvm::map_to_vector(positions,
                             [&](unsigned p) { return b.getAffineDimExpr(p); });
}

SmallVector<AffineExpr> identityIndex(OpBuilder &b, unsigned n) {
  return dims(b, llvm::to_vector(llvm::seq<unsigned>(0, n)));
}

Value f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                        APFloat(static_cast<float>(value)));
}

Value f32Splat(OpBuilder &b, Location loc, double value, VectorType type) {
  return arith::ConstantOp::create(
      b, loc, type,
      DenseElementsAttr::get(type,
                             b.getF32FloatAttr(static_cast<float>(value))));
}

void buildVectorChunks(
    OpBuilder &b, Location loc, int64_t size,
    function_ref<void(OpBuilder &, Location, Value first, int64_t lanes)> body,
    int64_t vectorFloats) {
  int64_t whole = size / vectorFloats * vectorFloats;
  if (whole > 0)
    affine::buildAffineLoopNest(
        b, loc, {0}, {whole}, {vectorFloats},
        [&](OpBuilder &vb, Location vl, ValueRange first) {
          body(vb, vl, first[0], vectorFloats);
        });
  if (size > whole)
    body(b, loc, arith::ConstantIndexOp::create(b, loc, whole), size - whole);
}

AffineExpr elementChannel(OpBuilder &b, ShapedType tensor) {
  AffineExpr channel = b.getAffineDimExpr(1);
  if (tensor.getRank() < 5)
    return channel;
  return channel * tensor.getDimSize(4) + b.getAffineDimExpr(4);
}

void tagGemmBand(OpBuilder &b, Value iv) {
  affine::getForInductionVarOwner(iv)->setAttr(DLDialect::getGemmBandAttrName(),
                                               b.getUnitAttr());
}

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

void tagParallelLoop(OpBuilder &b, Value iv) {
  affine::getForInductionVarOwner(iv)->setAttr(
      DLDialect::getParallelLoopAttrName(), b.getUnitAttr());
}

void buildAccumulationNest(
    OpBuilder &b, Location loc, const OuterLoops &outer,
    ArrayRef<bool> isReduction, ArrayRef<OpFoldResult> innerBounds,
    AccumulatorInitFn init,
    function_ref<void(OpBuilder &, Location, ValueRange)> body,
    ArrayRef<NestHook> hooks, AccumulatorInitFn finish) {
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

void buildBoxFill(OpBuilder &b, Location loc, Value value, Value memref,
                  ArrayRef<OpFoldResult> offsets,
                  ArrayRef<OpFoldResult> sizes) {
  buildBoxNest(b, loc, offsets, sizes,
               [&](OpBuilder &nb, Location l, ValueRange operands,
                   unsigned numDims, ArrayRef<AffineExpr> index) {
                 storeAt(nb, l, value, memref, operands, numDims, index);
               });
}

} // namespace dl
} // namespace mlir
