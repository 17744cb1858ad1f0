//===- ParallelizeOuterLoops.cpp - one parallel loop per nest ---*- C++ -*-===//
//
// The pass `dl-parallelize-outer-loops`: the dependence-free outer loops of
// each loop nest are coalesced into a single affine.parallel, so that
// OpenMP shares out all their iterations at once (a batch of 1 or 2 images
// alone would not feed the cores), but no more of them than keep the threads
// evenly busy; a loop that a schedule marked `dl.parallel` is taken alone
// instead, and a nest marked `dl.sequential` (an op whose work does not pay
// for a parallel region) stays sequential. Parallelism is proven by MLIR's
// affine dependence analysis, not assumed from the op that produced the nest.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_PARALLELIZEOUTERLOOPS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using affine::AffineForOp;

namespace {

/// The buffer a memref value views (through subviews and casts).
Value getViewedBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// The memrefs `op` reads if reading them is all it does to memory (a
/// vector.maskedload, say: not an affine access), none otherwise.
std::optional<SmallVector<Value>> getReadOnlyOperands(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return std::nullopt;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  SmallVector<Value> read;
  for (const MemoryEffects::EffectInstance &instance : instances) {
    if (!isa<MemoryEffects::Read>(instance.getEffect()) || !instance.getValue())
      return std::nullopt;
    read.push_back(instance.getValue());
  }
  return read;
}

/// affine::isLoopParallel, but a buffer the loop body allocates and frees
/// is private to its iteration, and a non-affine read (the masked loads of
/// a vector's rest) is allowed of a buffer the loop does not write. MLIR's
/// check already leaves out the accesses of buffers allocated in the loop,
/// but takes their memref.dealloc for an unknown side effect, so a loop that
/// copies GEMM panels into a scratch of its own per iteration would run
/// sequentially, and it gives up on any memory op that is not affine.
bool isParallelWithPrivateBuffers(AffineForOp loop) {
  if (loop.getNumIterOperands() != 0)
    return false;
  auto isPrivate = [&](Value memref) {
    Operation *def = memref.getDefiningOp();
    return def && loop->isProperAncestor(def);
  };
  SmallVector<Operation *> accesses;
  llvm::SmallPtrSet<Value, 4> readOnly, written;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (auto read = dyn_cast<affine::AffineReadOpInterface>(op)) {
      if (!isPrivate(read.getMemRef()))
        accesses.push_back(op);
    } else if (auto write = dyn_cast<affine::AffineWriteOpInterface>(op)) {
      if (!isPrivate(write.getMemRef())) {
        accesses.push_back(op);
        written.insert(getViewedBuffer(write.getMemRef()));
      }
    } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      if (!isPrivate(dealloc.getMemref()))
        return WalkResult::interrupt();
    } else if (!isa<AffineForOp, affine::AffineYieldOp, affine::AffineIfOp>(
                   op) &&
               !hasSingleEffect<MemoryEffects::Allocate>(op) &&
               !isMemoryEffectFree(op)) {
      std::optional<SmallVector<Value>> reads = getReadOnlyOperands(op);
      if (!reads)
        return WalkResult::interrupt();
      for (Value memref : *reads)
        if (!isPrivate(memref))
          readOnly.insert(getViewedBuffer(memref));
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || llvm::any_of(readOnly, [&](Value buffer) {
        return written.contains(buffer);
      }))
    return false;
  unsigned depth = affine::getNestingDepth(loop) + 1;
  for (Operation *source : accesses)
    for (Operation *target : accesses) {
      affine::DependenceResult result = affine::checkMemrefAccessDependence(
          affine::MemRefAccess(source), affine::MemRefAccess(target), depth);
      if (result.value != affine::DependenceResult::NoDependence)
        return false;
    }
  return true;
}

/// The outer loops of the perfect nest rooted at `root` that may run in
/// parallel together: parallel, constant bounds, no iter_args, never the
/// innermost loop of the nest, and never a loop of a GEMM band (the band is
/// one microkernel call); no more of them once they make `minIterations`
/// iterations together, or, with `threads` > 0, a multiple of `threads`
/// (every thread then runs as many) or at least kBalancedIterations per
/// thread (the last thread then idles for at most one of them). Coalescing
/// more would only make every inner iteration recover its indices from the
/// coalesced one and split the contiguous inner loops (docs/heuristics.md,
/// "Parallel loops").
SmallVector<AffineForOp> parallelPrefix(AffineForOp root, int64_t minIterations,
                                        int64_t threads) {
  constexpr int64_t kBalancedIterations = 8;
  SmallVector<AffineForOp> nest, prefix;
  int64_t iterations = 1;
  affine::getPerfectlyNestedLoops(nest, root);
  // Keep the innermost loop (it has no loop inside) for vectorization.
  if (nest.back().getBody()->getOps<AffineForOp>().empty())
    nest.pop_back();
  for (AffineForOp loop : nest) {
    if (loop->hasAttr(dl::DLDialect::getGemmBandAttrName()) ||
        !loop.hasConstantBounds() || loop.getNumIterOperands() != 0 ||
        !isParallelWithPrivateBuffers(loop))
      break;
    prefix.push_back(loop);
    iterations *= *affine::getConstantTripCount(loop);
    if (iterations >= minIterations ||
        (threads > 0 && (iterations % threads == 0 ||
                         iterations >= kBalancedIterations * threads)))
      break;
  }
  return prefix;
}

/// The roots of the function's loop nests: its outermost affine.for ops,
/// and those of the versions of a dynamic op (dl-parametric-versioning):
/// under the guards that select them and inside the loop over its whole
/// chunks, whose iterations run one version each, in turn.
SmallVector<AffineForOp> getNestRoots(func::FuncOp func) {
  SmallVector<AffineForOp> roots;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<affine::AffineIfOp>(op))
      return op->hasAttr(dl::DLDialect::getVersionGuardAttrName())
                 ? WalkResult::advance()
                 : WalkResult::skip();
    auto loop = dyn_cast<AffineForOp>(op);
    if (!loop || loop->hasAttr(dl::DLDialect::getVersionChunksAttrName()))
      return WalkResult::advance();
    roots.push_back(loop);
    return WalkResult::skip();
  });
  return roots;
}

struct ParallelizeOuterLoopsPass
    : dl::impl::ParallelizeOuterLoopsBase<ParallelizeOuterLoopsPass> {
  /// The dependence analysis does not model loop steps: a tile loop of step
  /// 64 looks dependent on itself. Outer loops are normalized to step 1 (the
  /// analysis is then exact), and the index arithmetic this inserts is folded
  /// into the users' maps so the nests are perfect again.
  void normalizeOuterLoops() {
    for (AffineForOp root : getNestRoots(getOperation())) {
      SmallVector<AffineForOp> nest;
      affine::getPerfectlyNestedLoops(nest, root);
      for (AffineForOp loop : nest)
        if (loop.hasConstantBounds())
          (void)affine::normalizeAffineFor(loop);
    }
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    affine::AffineForOp::getCanonicalizationPatterns(patterns, ctx);
    affine::AffineLoadOp::getCanonicalizationPatterns(patterns, ctx);
    affine::AffineStoreOp::getCanonicalizationPatterns(patterns, ctx);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }

  using ParallelizeOuterLoopsBase::ParallelizeOuterLoopsBase;

  void runOnOperation() override {
    if (minIterations < 1) {
      getOperation().emitError(
          "dl-parallelize-outer-loops: min-iterations must be >= 1");
      return signalPassFailure();
    }
    if (threads < 0) {
      getOperation().emitError(
          "dl-parallelize-outer-loops: threads must be >= 0");
      return signalPassFailure();
    }
    normalizeOuterLoops();
    for (AffineForOp root : getNestRoots(getOperation())) {
      // An op decided to run on one thread: all its nests stay sequential.
      if (root->hasAttr(dl::DLDialect::getSequentialAttrName()))
        continue;
      // A loop its schedule chose runs in parallel alone, if it is parallel.
      // It may be below a reduction tile loop or below a tile's result
      // initialization (the nest is then not perfect down to it).
      AffineForOp chosen;
      root->walk([&](AffineForOp loop) {
        if (loop->hasAttr(dl::DLDialect::getParallelLoopAttrName()))
          chosen = loop;
      });
      if (chosen) {
        if (isParallelWithPrivateBuffers(chosen))
          (void)affine::affineParallelize(chosen);
        continue;
      }
      SmallVector<AffineForOp> loops =
          parallelPrefix(root, minIterations, threads);
      if (loops.empty())
        continue;
      // coalesceLoops keeps the outermost loop as the coalesced one.
      if (loops.size() > 1 && failed(affine::coalesceLoops(loops)))
        continue;
      (void)affine::affineParallelize(loops.front());
    }
  }
};

} // namespace
