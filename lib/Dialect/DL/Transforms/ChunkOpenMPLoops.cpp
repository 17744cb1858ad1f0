//===- ChunkOpenMPLoops.cpp - parallel loops without worksharing calls ----===//
//
// The pass `dl-chunk-openmp-loops`: an `omp.parallel` region that holds one
// `omp.wsloop` over one loop, with no clauses (what convert-scf-to-openmp
// makes of dl's coalesced parallel loops), becomes the region with a
// `scf.for` over the calling thread's chunk of the iterations, the chunks
// OpenMP's static schedule would give (contiguous, ceil(n / threads)
// iterations each, from libomp's __kmpc_bound_thread_num and
// __kmpc_bound_num_threads: omp_get_thread_num could bind to another OpenMP
// runtime in the process, such as PyTorch's libgomp, which knows nothing of
// libomp's threads). The
// worksharing loop's runtime calls (__kmpc_for_static_init, _fini and the
// barrier after the loop, which the region's own join repeats) then go: with
// Debian's libomp, built with KMP_DEBUG, __kmpc_for_static_init formats its
// trace strings on every call, and the three calls took 0.5-0.6 us of a
// 1.3 us two-thread region (docs/heuristics.md, "Parallel regions").
// No upstream pass makes worksharing loops into explicit chunks.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "dl-chunk-openmp-loops"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_CHUNKOPENMPLOOPS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;

namespace {

/// The worksharing loop of `parallel` if the region holds nothing else and
/// neither has clauses that explicit chunks would drop: one loop, exclusive
/// bounds, the default schedule, no reductions, private or ordered
/// variables; the loop body one block.
omp::LoopNestOp getChunkableLoop(omp::ParallelOp parallel) {
  if (parallel->getNumOperands() != (parallel.getNumThreads() ? 1 : 0) ||
      parallel.getProcBindKind() || !parallel.getRegion().hasOneBlock())
    return nullptr;
  Block &body = parallel.getRegion().front();
  if (body.getNumArguments() != 0 || !llvm::hasNItems(body, 2))
    return nullptr;
  auto wsloop = dyn_cast<omp::WsloopOp>(body.front());
  if (!wsloop || wsloop->getNumOperands() != 0 ||
      wsloop.getScheduleKindAttr() || wsloop.getOrderedAttr() ||
      wsloop.getOrderAttr() || wsloop.getRegion().front().getNumArguments())
    return nullptr;
  auto nest = dyn_cast<omp::LoopNestOp>(wsloop.getWrappedLoop());
  if (!nest || nest.getNumLoops() != 1 || nest.getLoopInclusive() ||
      nest.getTileSizes() || !nest.getRegion().hasOneBlock() ||
      !isa<omp::YieldOp>(nest.getRegion().front().getTerminator()) ||
      nest.getRegion().front().getTerminator()->getNumOperands() != 0)
    return nullptr;
  return nest;
}

/// The declaration of libomp's `kmp_int32 name(ident_t *)`, added to the
/// module once.
func::FuncOp getOrDeclare(ModuleOp module, StringRef name) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto decl = func::FuncOp::create(
      builder, module.getLoc(), name,
      builder.getFunctionType({LLVM::LLVMPointerType::get(module.getContext())},
                              {builder.getI32Type()}));
  decl.setPrivate();
  return decl;
}

/// Replaces the worksharing loop `nest` of its region with a scf.for over
/// the calling thread's chunk: with n = ceil((ub - lb) / step) iterations
/// and T threads, thread t runs iterations [t * c, min(n, (t + 1) * c)),
/// c = ceil(n / T).
void chunk(omp::LoopNestOp nest, func::FuncOp threadNum,
           func::FuncOp numThreads) {
  Operation *wsloop = nest->getParentOp();
  OpBuilder builder(wsloop);
  Location loc = nest.getLoc();
  Value lb = nest.getLoopLowerBounds()[0];
  Value ub = nest.getLoopUpperBounds()[0];
  Value step = nest.getLoopSteps()[0];
  Type type = lb.getType();
  auto toIndexType = [&](Value i32) -> Value {
    return arith::IndexCastOp::create(builder, loc, type, i32);
  };
  // The runtime reads neither call's source location: a null ident_t.
  Value noLocation = LLVM::ZeroOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()));
  Value thread = toIndexType(
      func::CallOp::create(builder, loc, threadNum, noLocation).getResult(0));
  Value threads = toIndexType(
      func::CallOp::create(builder, loc, numThreads, noLocation).getResult(0));
  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getZeroAttr(type));
  Value span = arith::SubIOp::create(builder, loc, ub, lb);
  Value count = arith::MaxSIOp::create(
      builder, loc, arith::CeilDivSIOp::create(builder, loc, span, step), zero);
  Value perThread = arith::CeilDivSIOp::create(builder, loc, count, threads);
  Value first = arith::MinSIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, thread, perThread),
      count);
  Value last = arith::MinSIOp::create(
      builder, loc, arith::AddIOp::create(builder, loc, first, perThread),
      count);
  auto toIndex = [&](Value iteration) -> Value {
    return arith::AddIOp::create(
        builder, loc, lb, arith::MulIOp::create(builder, loc, iteration, step));
  };
  // Named, so that the order of the ops does not depend on the compiler's
  // order of evaluating arguments.
  Value begin = toIndex(first);
  Value end = toIndex(last);
  auto loop = scf::ForOp::create(builder, loc, begin, end, step);
  Block &from = nest.getRegion().front();
  Block *to = loop.getBody();
  from.getTerminator()->erase();
  to->getOperations().splice(to->begin(), from.getOperations());
  from.getArgument(0).replaceAllUsesWith(loop.getInductionVar());
  wsloop->erase();
}

struct ChunkOpenMPLoopsPass
    : dl::impl::ChunkOpenMPLoopsBase<ChunkOpenMPLoopsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<omp::LoopNestOp> nests;
    module.walk([&](omp::ParallelOp parallel) {
      if (omp::LoopNestOp nest = getChunkableLoop(parallel))
        nests.push_back(nest);
      else
        LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] left as a worksharing "
                                   "loop: "
                                << parallel.getLoc() << "\n");
    });
    if (nests.empty())
      return;
    func::FuncOp threadNum = getOrDeclare(module, "__kmpc_bound_thread_num");
    func::FuncOp numThreads = getOrDeclare(module, "__kmpc_bound_num_threads");
    for (omp::LoopNestOp nest : nests)
      chunk(nest, threadNum, numThreads);
  }
};

} // namespace
