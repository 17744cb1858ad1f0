//===- PrefetchNextBlocks.cpp - the next blocks a microkernel reads -------===//
//
// The pass `dl-prefetch-next-blocks`: a microkernel call whose block of A
// (or of B) stays the same along the loop right around it and moves along
// the loop around that one (the input rows of a convolution's output row,
// re-read for each block of output channels; a GEMM's block of rows of A,
// re-read for each block of columns) reads that block from memory in the
// first iteration of the inner loop and from the caches in the others: the
// first call waits on memory, the others compute, and the two never
// overlap. The hardware prefetchers follow the streams of one call, which
// asks for its block faster than memory supplies it. The pass spreads the
// reads of the next outer iteration's block over the inner loop's calls:
// before each call, software prefetches (`memref.prefetch` into the L2) of
// its share of the next block's rows, every cache line of them once.
// It applies where the operand does not fit the L2 (its blocks come from
// farther) and the next block takes at most a quarter of the L2.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "dl-prefetch-next-blocks"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_PREFETCHNEXTBLOCKS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// The bytes of a cache line.
constexpr int64_t kLineBytes = 64;
/// memref.prefetch's locality hint for the L2 (x86's prefetcht1).
constexpr uint32_t kL2Locality = 2;

/// The block one call reads of an operand: `batch` blocks `batchStride`
/// elements apart, each of `rows` rows `leading` elements apart, of
/// `rowElements` contiguous elements.
struct CallBlock {
  Value memref;
  OperandRange indices;
  int64_t rows, rowElements, leading, batch, batchStride;
};

/// Whether `value` is computed from `iv`.
bool dependsOn(Value value, Value iv) {
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == iv)
      return true;
    if (!seen.insert(x).second)
      continue;
    if (Operation *def = x.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// Whether `value` can be computed for another value of `iv`: it does not
/// depend on `iv`, is `iv`, or comes from side-effect free ops without
/// regions whose operands can.
bool isRecomputable(Value value, Value iv) {
  if (value == iv || !dependsOn(value, iv))
    return true;
  Operation *def = value.getDefiningOp();
  return def && isPure(def) && def->getNumRegions() == 0 &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return isRecomputable(operand, iv);
         });
}

/// `value` (isRecomputable) as it is where `iv` is what `mapping` maps it
/// to, built at `b`'s insertion point.
Value inIteration(OpBuilder &b, Value value, Value iv, IRMapping &mapping) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  if (!dependsOn(value, iv))
    return value;
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    inIteration(b, operand, iv, mapping);
  Operation *clone = b.clone(*def, mapping);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

/// The loop of a single induction variable around `op` (through scf.if,
/// the branch of a call with a kernel), with its iterations known:
/// lower bound, step and trip count; null where there is none.
struct KnownLoop {
  Operation *op = nullptr;
  Value iv;
  int64_t lower = 0, step = 1, trips = 0;
};

KnownLoop enclosingLoop(Operation *op) {
  Operation *parent = op->getParentOp();
  while (isa_and_nonnull<scf::IfOp>(parent))
    parent = parent->getParentOp();
  KnownLoop loop;
  if (auto forOp = dyn_cast_or_null<affine::AffineForOp>(parent)) {
    std::optional<uint64_t> trips = affine::getConstantTripCount(forOp);
    if (!forOp.hasConstantLowerBound() || !trips)
      return loop;
    loop = {forOp, forOp.getInductionVar(), forOp.getConstantLowerBound(),
            forOp.getStepAsInt(), static_cast<int64_t>(*trips)};
  } else if (auto parallel =
                 dyn_cast_or_null<affine::AffineParallelOp>(parent)) {
    std::optional<SmallVector<int64_t>> ranges = parallel.getConstantRanges();
    if (parallel.getNumDims() != 1 || !ranges ||
        !parallel.getLowerBoundsMap().isSingleConstant())
      return loop;
    int64_t step = parallel.getSteps()[0];
    loop = {parallel, parallel.getIVs()[0],
            parallel.getLowerBoundsMap().getSingleConstantResult(), step,
            static_cast<int64_t>(llvm::divideCeil((*ranges)[0], step))};
  }
  return loop;
}

/// A static memref's elements as one dimension: the linear element at its
/// indices (from its layout's offset), the elements its shape spans and the
/// offset.
struct Linearization {
  AffineMap linear;
  int64_t extent, offset;
};

/// `type`'s Linearization, or nullopt for a dynamic shape, stride or offset.
std::optional<Linearization> linearization(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  AffineExpr linear = getAffineConstantExpr(0, type.getContext());
  int64_t extent = 1;
  for (auto [d, stride] : llvm::enumerate(strides)) {
    linear = linear + getAffineDimExpr(d, type.getContext()) * stride;
    extent += (type.getDimSize(d) - 1) * stride;
  }
  return Linearization{AffineMap::get(type.getRank(), 0, linear), extent,
                       offset};
}

struct PrefetchNextBlocksPass
    : dl::impl::PrefetchNextBlocksBase<PrefetchNextBlocksPass> {
  using PrefetchNextBlocksBase::PrefetchNextBlocksBase;

  void runOnOperation() override {
    SmallVector<GemmInvokeOp> calls;
    getOperation().walk([&](GemmInvokeOp call) { calls.push_back(call); });
    for (GemmInvokeOp call : calls) {
      auto dispatch = call.getKernel().getDefiningOp<GemmDispatchOp>();
      // Run-time sizes or block offsets: the blocks are not known here.
      if (!dispatch || !dispatch.getSizes().empty() ||
          !dispatch.getLeadingDims().empty() || dispatch.getBatchOffsets())
        continue;
      int64_t batch = 1;
      if (Value count = call.getBatch()) {
        std::optional<int64_t> constant = getConstantIntValue(count);
        if (!constant)
          continue;
        batch = *constant;
      }
      int64_t m = dispatch.getM(), n = dispatch.getN(), k = dispatch.getK();
      if (std::optional<int64_t> lda = dispatch.getLda())
        prefetchNextBlock(
            call, {call.getA(), call.getAIndices(), m, k, *lda, batch,
                   static_cast<int64_t>(dispatch.getStrideA().value_or(0))});
      if (std::optional<int64_t> ldb = dispatch.getLdb())
        prefetchNextBlock(
            call, {call.getB(), call.getBIndices(), k, n, *ldb, batch,
                   static_cast<int64_t>(dispatch.getStrideB().value_or(0))});
    }
  }

  /// Prefetches, before `call`, its share of the block it reads in the next
  /// iteration of the loop around its loop, where the block is the same
  /// along its loop and moves along the outer one.
  void prefetchNextBlock(GemmInvokeOp call, const CallBlock &block) {
    KnownLoop inner = enclosingLoop(call);
    if (!inner.op || inner.trips < 2)
      return;
    KnownLoop outer = enclosingLoop(inner.op);
    if (!outer.op || outer.trips < 2)
      return;
    auto type = cast<MemRefType>(block.memref.getType());
    auto linear = linearization(type);
    if (!linear)
      return;
    bool movesInner = false, movesOuter = false;
    for (Value index : block.indices) {
      movesInner |= dependsOn(index, inner.iv);
      movesOuter |= dependsOn(index, outer.iv);
    }
    if (movesInner || !movesOuter ||
        !llvm::all_of(block.indices, [&](Value index) {
          return isRecomputable(index, outer.iv);
        }))
      return;
    Target target = getTarget(call);
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    int64_t lineElements = std::max<int64_t>(1, kLineBytes / elementBytes);
    // Each row touches its lines at these offsets, its last element
    // included: every line a row of unaligned start shares.
    int64_t probes = llvm::divideCeil(block.rowElements, lineElements) + 1;
    int64_t rows = block.batch * block.rows;
    int64_t blockBytes = rows * (probes - 1) * kLineBytes;
    int64_t operandBytes = type.getNumElements() * elementBytes;
    int64_t l2 = target.l2Bytes();
    if (l2 <= 0 || operandBytes <= l2 || blockBytes * 4 > l2) {
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kept: operand "
                              << operandBytes << " B, next block " << blockBytes
                              << " B, L2 " << l2 << " B: " << call << "\n");
      return;
    }

    OpBuilder b(call);
    Location loc = call.getLoc();
    MLIRContext *ctx = b.getContext();
    // The outer loop's next iteration; its last one prefetches its own block
    // (a prefetch needs no bounds, but the view's indices stay in them).
    int64_t last = outer.lower + (outer.trips - 1) * outer.step;
    AffineExpr d0 = getAffineDimExpr(0, ctx);
    Value next = affine::AffineMinOp::create(
        b, loc,
        AffineMap::get(
            1, 0, {d0 + outer.step, getAffineConstantExpr(last, ctx)}, ctx),
        ValueRange{outer.iv});
    IRMapping mapping;
    mapping.map(outer.iv, next);
    SmallVector<Value> nextIndices;
    for (Value index : block.indices)
      nextIndices.push_back(inIteration(b, index, outer.iv, mapping));
    Value start =
        affine::AffineApplyOp::create(b, loc, linear->linear, nextIndices);
    Value flat = memref::ReinterpretCastOp::create(
        b, loc,
        MemRefType::get({linear->extent}, type.getElementType(),
                        StridedLayoutAttr::get(ctx, linear->offset, {1})),
        block.memref, linear->offset, linear->extent, 1);

    // The inner iteration's share of the rows: [t * chunk, (t + 1) * chunk).
    int64_t chunk = llvm::divideCeil(rows, inner.trips);
    AffineExpr t = (d0 - inner.lower).floorDiv(inner.step);
    auto rowLoop = affine::AffineForOp::create(
        b, loc, ValueRange{inner.iv}, AffineMap::get(1, 0, t * chunk),
        ValueRange{inner.iv},
        AffineMap::get(
            1, 0, {(t + 1) * chunk, getAffineConstantExpr(rows, ctx)}, ctx),
        1);
    b.setInsertionPointToStart(rowLoop.getBody());
    auto probeLoop = affine::AffineForOp::create(b, loc, 0, probes);
    b.setInsertionPointToStart(probeLoop.getBody());
    AffineExpr probe = getAffineDimExpr(0, ctx);
    Value column = affine::AffineMinOp::create(
        b, loc,
        AffineMap::get(1, 0,
                       {probe * lineElements,
                        getAffineConstantExpr(block.rowElements - 1, ctx)},
                       ctx),
        ValueRange{probeLoop.getInductionVar()});
    AffineExpr row = getAffineDimExpr(0, ctx), col = getAffineDimExpr(1, ctx),
               base = getAffineDimExpr(2, ctx);
    Value element = affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(3, 0,
                       base + row.floorDiv(block.rows) * block.batchStride +
                           (row % block.rows) * block.leading + col),
        ValueRange{rowLoop.getInductionVar(), column, start});
    memref::PrefetchOp::create(b, loc, flat, ValueRange{element},
                               /*isWrite=*/false, kL2Locality,
                               /*isDataCache=*/true);
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << blockBytes
                            << " B of the next block over " << inner.trips
                            << " calls: " << call << "\n");
  }
};

} // namespace
