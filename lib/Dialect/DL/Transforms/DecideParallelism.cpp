//===- DecideParallelism.cpp - which loop runs in parallel, if any --------===//
//
// The pass `dl-decide-parallelism`: before the lowering, each dl op's work is
// weighed against what running it in parallel costs (ParallelismModel.h), so
// small problems run on one thread instead of paying a fork and join per
// region that their work does not cover, and a heavy op runs the loop of its
// schedule that keeps the threads busiest. The decision is recorded on the
// op (the schedule's parallel loop, or `dl.sequential`), where the lowering
// and dl-parallelize-outer-loops apply it.
//
//===----------------------------------------------------------------------===//

#include "dl/Conversion/DLToAffine.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/InputCopies.h"
#include "dl/Dialect/DL/Transforms/ParallelismModel.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"
#include "dl/Dialect/DL/Transforms/VariantRanking.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "dl-decide-parallelism"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_DECIDEPARALLELISM
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// The schedule of a dl.conv2d or dl.matmul, null for other ops.
ScheduleAttr getSchedule(Operation *op) {
  return llvm::TypeSwitch<Operation *, ScheduleAttr>(op)
      .Case<Conv2DOp, MatmulOp>(
          [](auto heavy) { return heavy.getScheduleAttr(); })
      .Default([](Operation *) { return nullptr; });
}

/// Decides a GEMM's panels again for its schedule (dl-decide-panels' rule),
/// with private panels for `threads` (choosePanels).
void setPanels(MatmulOp op, int64_t threads = 1) {
  PanelChoice panels = choosePanels(op, threads);
  op.setPanelA(panels.a);
  op.setPanelB(panels.b);
}

/// The nests `op` lowers to (convert-dl-to-affine on a scratch copy), with
/// loop `parallel` of its schedule, if it has one, marked `dl.parallel`:
/// the body of the scratch function. `order`, when given, replaces the
/// schedule's loops (a GEMM's panels then decided again for it).
class ScratchLowering {
public:
  static FailureOr<ScratchLowering> build(Operation *op,
                                          std::optional<unsigned> parallel,
                                          ScheduleAttr order = nullptr,
                                          ArrayRef<int64_t> blocks = {}) {
    ScheduleAttr schedule = order ? order : getSchedule(op);
    FailureOr<OwningOpRef<ModuleOp>> module =
        lowerScratchCopy(op, {}, [&](Operation *clone) {
          if (auto matmul = dyn_cast<MatmulOp>(clone);
              matmul && !blocks.empty())
            matmul.setPackBlocks(blocks);
          if (!schedule)
            return;
          setSchedule(clone,
                      ScheduleAttr::get(
                          op->getContext(), schedule.getDims(),
                          schedule.getTiles(),
                          parallel ? static_cast<int64_t>(*parallel) : -1));
          if (auto matmul = dyn_cast<MatmulOp>(clone); matmul && order)
            setPanels(matmul);
        });
    if (failed(module))
      return failure();
    return ScratchLowering(std::move(*module));
  }

  /// The top-level loop nests: each runs as a parallel region of its own.
  int64_t countNests() {
    return llvm::range_size(getBody().getOps<affine::AffineForOp>());
  }

  /// The bytes each thread of the `dl.parallel` loop reads from scratch
  /// buffers that another thread wrote: those written outside the loop (by
  /// another of the op's nests, such as a packed operand's copy, or by the
  /// one thread that runs the nest outside the loop, such as a panel copied
  /// between the loop's regions) and read in it, unless another nest wrote
  /// them divided among the threads as the loop divides its reads. A nest
  /// is taken to be divided along the dimension its outermost loop with
  /// more than one iteration indexes (dl-parallelize-outer-loops coalesces
  /// from there). A thread reads such a buffer whole unless the loop divides
  /// the reads too (an index depends on its induction variable: then a
  /// thread's share of the iterations), and (threads - 1) / threads of what
  /// it reads comes from the others (docs/heuristics.md, "Parallelism
  /// model").
  double handoffBytes(unsigned threads) {
    affine::AffineForOp parallel;
    getBody().walk([&](affine::AffineForOp loop) {
      if (loop->hasAttr(DLDialect::getParallelLoopAttrName()))
        parallel = loop;
    });
    if (!parallel)
      return 0.0;
    Value iv = parallel.getInductionVar();
    double iterationShare = 1.0;
    if (std::optional<uint64_t> trips = affine::getConstantTripCount(parallel))
      iterationShare = static_cast<double>(llvm::divideCeil(*trips, threads)) /
                       static_cast<double>(std::max<uint64_t>(*trips, 1));
    Operation *mainNest = getBody().findAncestorOpInBlock(*parallel);
    double bytes = 0.0;
    getBody().walk([&](affine::AffineWriteOpInterface store) {
      Value buffer = store.getMemRef();
      auto alloc = buffer.getDefiningOp<memref::AllocOp>();
      if (!alloc || parallel->isAncestor(store) || parallel->isAncestor(alloc))
        return;
      std::optional<unsigned> writtenDim;
      Operation *writer = getBody().findAncestorOpInBlock(*store);
      if (writer != mainNest)
        if (std::optional<Value> split = dividedInductionVar(writer))
          writtenDim =
              indexedDim(store.getAffineMap(), store.getMapOperands(), *split);
      bool read = false, aligned = true, divided = true;
      parallel.walk([&](affine::AffineReadOpInterface load) {
        if (load.getMemRef() != buffer)
          return;
        read = true;
        aligned &= writtenDim &&
                   dependsOn(load.getAffineMap().getResult(*writtenDim),
                             load.getAffineMap(), load.getMapOperands(), iv);
        divided &= indexedDim(load.getAffineMap(), load.getMapOperands(), iv)
                       .has_value();
      });
      if (read && !aligned)
        bytes +=
            executions(store) *
            static_cast<double>(alloc.getType().getElementTypeBitWidth() / 8) *
            (divided ? iterationShare : 1.0) * (threads - 1) / threads;
    });
    return bytes;
  }

private:
  explicit ScratchLowering(OwningOpRef<ModuleOp> module)
      : module(std::move(module)) {}

  Block &getBody() {
    return (*module->getBody()->getOps<func::FuncOp>().begin())
        .getBody()
        .front();
  }

  /// Whether `expr` of `map` applied to `operands` depends on `value`.
  static bool dependsOn(AffineExpr expr, AffineMap map, ValueRange operands,
                        Value value) {
    for (auto [position, operand] : llvm::enumerate(operands)) {
      if (operand != value)
        continue;
      if (position < map.getNumDims()
              ? expr.isFunctionOfDim(position)
              : expr.isFunctionOfSymbol(position - map.getNumDims()))
        return true;
    }
    return false;
  }

  /// The first dimension of an access's memref whose index depends on
  /// `value`.
  static std::optional<unsigned> indexedDim(AffineMap map, ValueRange operands,
                                            Value value) {
    for (auto [dim, expr] : llvm::enumerate(map.getResults()))
      if (dependsOn(expr, map, operands, value))
        return dim;
    return std::nullopt;
  }

  /// The induction variable of the loop the threads divide a top-level
  /// nest along: its outermost loop with more than one iteration.
  static std::optional<Value> dividedInductionVar(Operation *nest) {
    SmallVector<affine::AffineForOp> band;
    affine::getPerfectlyNestedLoops(band, cast<affine::AffineForOp>(nest));
    for (affine::AffineForOp loop : band) {
      std::optional<uint64_t> trips = affine::getConstantTripCount(loop);
      if (!trips || *trips > 1)
        return loop.getInductionVar();
    }
    return std::nullopt;
  }

  /// How often `op` runs: the iterations of the loops around it (a loop
  /// whose trip count varies counts once).
  static double executions(Operation *op) {
    double count = 1.0;
    for (auto loop = op->getParentOfType<affine::AffineForOp>(); loop;
         loop = loop->getParentOfType<affine::AffineForOp>())
      if (std::optional<uint64_t> trips = affine::getConstantTripCount(loop))
        count *= static_cast<double>(*trips);
    return count;
  }

  OwningOpRef<ModuleOp> module;
};

/// "loop 2 (oh, 112 iterations)".
std::string describeLoop(ArrayRef<ScheduleDim> dims,
                         ArrayRef<ScheduledLoop> loops, unsigned position) {
  const ScheduledLoop &loop = loops[position];
  return llvm::formatv("loop {0} ({1}, {2} iteration{3})", position,
                       dims[loop.dim].name, loop.tripCount,
                       loop.tripCount == 1 ? "" : "s")
      .str();
}

/// The loop R-Stream's occupation test with one iteration per thread would
/// take: the outermost over a non-reduction dimension with at least
/// `threads` iterations.
std::optional<unsigned> outermostOccupyingLoop(ArrayRef<ScheduleDim> dims,
                                               ArrayRef<ScheduledLoop> loops,
                                               unsigned threads) {
  for (auto [position, loop] : llvm::enumerate(loops))
    if (!dims[loop.dim].reduction &&
        loop.tripCount >= static_cast<int64_t>(threads))
      return position;
  return std::nullopt;
}

/// Against another loop in parallel (not against one thread, where the
/// `margin` stands for the model's error, which both loops pay), the one with
/// fewer regions or better balance wins from this fraction of the other's
/// modeled time: each region also waits at its join for the slower thread,
/// which the model does not count (256x192x979 in 11 K blocks, its rows in
/// parallel inside them: 318 us modeled against 300 with the rows
/// outermost, 0.42-0.45 ms measured against 0.375 at 2 threads). A near tie
/// keeps the ranking's order, whose reuse of B across the rows the model
/// does not see either (1472x1216x1707: 16818 against 16797 us modeled, 18.4
/// against 19.8 ms measured).
constexpr double kParallelMargin = 0.97;

struct DecideParallelismPass
    : dl::impl::DecideParallelismBase<DecideParallelismPass> {
  using DecideParallelismBase::DecideParallelismBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (coreGflops < 0.0 || coreBandwidth <= 0.0 || handoffBandwidth <= 0.0 ||
        (forkJoinMicros < 0.0 && forkJoinMicros != -1.0) ||
        sharedLineMicros < 0.0 ||
        (nearLineMicros < 0.0 && nearLineMicros != -1.0) ||
        pieceLineMicros < 0.0 || margin <= 0.0) {
      getOperation().emitError(
          "dl-decide-parallelism: core-bandwidth, handoff-bandwidth and "
          "margin must be > 0, core-gflops, shared-line-us and piece-line-us "
          ">= 0, fork-join-us and near-line-us >= 0 or -1 (the target's)");
      return signalPassFailure();
    }
    if (threads <= 1)
      return;
    ParallelCosts costs;
    costs.threads = threads;
    Target target = getTarget(getOperation());
    costs.coreGflops = coreGflops > 0.0 ? coreGflops : target.coreGflops();
    costs.coreBandwidth = coreBandwidth;
    costs.memoryBandwidth = coreBandwidth * target.memoryBandwidthShare();
    costs.cacheBytes = target.l2Bytes();
    // The target's measured costs where it has them, else those measured on
    // the Zen 5 (docs/heuristics.md, "Parallelism model"). A region costs
    // the threads more than an empty one: kRegionsPerEmptyRegion of them.
    constexpr double kDefaultForkJoinMicros = 1.5, kRegionsPerEmptyRegion = 1.3;
    costs.forkJoinMicros =
        forkJoinMicros >= 0.0 ? forkJoinMicros
        : target.cache.forkJoinNs
            ? kRegionsPerEmptyRegion * *target.cache.forkJoinNs / 1e3
            : kDefaultForkJoinMicros;
    costs.handoffBandwidth = handoffBandwidth;
    costs.sharedLineMicros = sharedLineMicros;
    // The target's measured cost where it has one, else the cost measured
    // on the Zen 5 in the hours the effect showed (docs/heuristics.md).
    constexpr double kDefaultNearLineMicros = 0.003;
    costs.nearLineMicros = nearLineMicros >= 0.0
                               ? nearLineMicros
                               : target.cache.nearWriteLineNs.value_or(
                                     kDefaultNearLineMicros * 1e3) /
                                     1e3;
    costs.pieceLineMicros = pieceLineMicros;
    costs.margin = margin;
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa_and_nonnull<DLDialect>(op->getDialect()) &&
          !isa<GemmDispatchOp, GemmInvokeOp>(op) &&
          !op->hasAttr(DLDialect::getSequentialAttrName()))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(decide(op, costs)))
        return signalPassFailure();
    for (Operation *op : ops)
      if (auto part = dyn_cast<MatmulOp>(op))
        alignRowsWithPart(part);
  }

  /// The rows of C a GEMM writes: the source of its C's subview and the
  /// subview's row offset and count, or C itself from row 0.
  static std::tuple<Value, int64_t, int64_t> writtenRows(MatmulOp op) {
    Value c = op.getC();
    int64_t rows = op.getC().getType().getDimSize(0);
    if (auto subview = c.getDefiningOp<memref::SubViewOp>()) {
      ArrayRef<int64_t> offsets = subview.getStaticOffsets();
      if (!offsets.empty() && !ShapedType::isDynamic(offsets[0]))
        return {subview.getSource(), offsets[0], rows};
      return {Value(), 0, 0};
    }
    return {c, 0, rows};
  }

  /// The dimensions and loops of a GEMM's schedule.
  struct GemmLoops {
    SmallVector<ScheduleDim> dims;
    SmallVector<ScheduledLoop> loops;
  };
  static std::optional<GemmLoops> getGemmLoops(MatmulOp op) {
    ScheduleAttr schedule = op.getScheduleAttr();
    std::optional<SmallVector<ScheduleDim>> dims = op.getScheduleDims();
    if (!schedule || !dims)
      return std::nullopt;
    FailureOr<SmallVector<ScheduledLoop>> loops =
        schedule.getLoops(*dims, [] { return InFlightDiagnostic(); });
    if (failed(loops))
      return std::nullopt;
    return GemmLoops{std::move(*dims), std::move(*loops)};
  }

  /// The position in `schedule` of its one loop over M (`i`), if M is not
  /// tiled (a tiled M's loops stay where the ranking put them).
  static std::optional<unsigned> untiledRowLoop(ScheduleAttr schedule) {
    std::optional<unsigned> row;
    for (auto [position, name] : llvm::enumerate(schedule.getDims())) {
      if (name.getValue() != "i")
        continue;
      if (row)
        return std::nullopt;
      row = position;
    }
    return row;
  }

  /// The schedule `schedule` with its loop over M (`i`) moved outermost and
  /// in parallel, if M is not tiled (one loop over it).
  static ScheduleAttr hoistRowLoop(ScheduleAttr schedule) {
    ArrayRef<StringAttr> names = schedule.getDims();
    std::optional<unsigned> row = untiledRowLoop(schedule);
    if (!row)
      return nullptr;
    SmallVector<StringAttr> hoistedNames(names);
    SmallVector<int64_t> hoistedTiles(schedule.getTiles());
    hoistedNames.erase(hoistedNames.begin() + *row);
    hoistedNames.insert(hoistedNames.begin(), names[*row]);
    hoistedTiles.erase(hoistedTiles.begin() + *row);
    hoistedTiles.insert(hoistedTiles.begin(), 0);
    return ScheduleAttr::get(schedule.getContext(), hoistedNames, hoistedTiles,
                             /*parallel=*/0);
  }

  /// The position of the loop over M (`i`) of `loops` with only
  /// single-iteration loops outside it, if any.
  static std::optional<unsigned>
  outermostRowLoop(ArrayRef<ScheduleDim> dims, ArrayRef<ScheduledLoop> loops) {
    for (auto [position, loop] : llvm::enumerate(loops)) {
      if (dims[loop.dim].name == "i")
        return position;
      if (loop.tripCount != 1)
        return std::nullopt;
    }
    return std::nullopt;
  }

  /// A GEMM part (dl-split-gemm-remainders' columns of the same rows of C)
  /// made sequential next to a part whose outermost parallel loop divides
  /// those rows runs its rows' loop in parallel too, dividing them the same
  /// way (its blocks of rows may be smaller): each thread then writes the
  /// rows whose cache lines it holds already, where one thread writing them all
  /// moves the other's lines of every row it wrote across the cores (770x227x4
  /// split into 192 and 35 columns: 22 us on one thread, 51 on two with the 35
  /// columns sequential; docs/heuristics.md, "Parallelism model").
  void alignRowsWithPart(MatmulOp part) {
    if (!part->hasAttr(DLDialect::getSequentialAttrName()))
      return;
    std::optional<GemmLoops> mineLoops = getGemmLoops(part);
    auto [source, offset, rows] = writtenRows(part);
    if (!mineLoops || !source)
      return;
    // The GEMMs writing C's subviews of the same source (or the source).
    SmallVector<MatmulOp> writers;
    for (Operation *user : source.getUsers()) {
      if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
        for (Operation *reader : subview->getUsers())
          if (auto other = dyn_cast<MatmulOp>(reader))
            if (other.getC() == subview.getResult())
              writers.push_back(other);
      } else if (auto other = dyn_cast<MatmulOp>(user)) {
        if (other.getC() == source)
          writers.push_back(other);
      }
    }
    for (MatmulOp other : writers) {
      if (other == part || other->hasAttr(DLDialect::getSequentialAttrName()) ||
          writtenRows(other) != std::make_tuple(source, offset, rows))
        continue;
      std::optional<GemmLoops> otherLoops = getGemmLoops(other);
      std::optional<unsigned> parallel =
          otherLoops ? other.getScheduleAttr().getParallelLoop() : std::nullopt;
      if (!parallel ||
          outermostRowLoop(otherLoops->dims, otherLoops->loops) != parallel)
        continue;
      std::optional<unsigned> mine =
          outermostRowLoop(mineLoops->dims, mineLoops->loops);
      if (!mine)
        continue;
      // The two loops must give each thread the same rows (at 2 threads,
      // 384 rows in 6 blocks of 64 and in 12 of 32 do; in 3 of 128 not).
      std::optional<int64_t> theirRows = extentPerThread(
          rows, otherLoops->loops[*parallel].tripCount, threads);
      if (!theirRows ||
          theirRows !=
              extentPerThread(rows, mineLoops->loops[*mine].tripCount, threads))
        continue;
      ScheduleAttr schedule = part.getScheduleAttr();
      setSchedule(part,
                  ScheduleAttr::get(part->getContext(), schedule.getDims(),
                                    schedule.getTiles(), *mine));
      part->removeAttr(DLDialect::getSequentialAttrName());
      if (reportFallbacks)
        part->emitRemark(llvm::formatv(
            "dl-decide-parallelism: {0} runs in parallel as the part of C's "
            "rows next to it does, so that each thread writes the rows it "
            "wrote there",
            describeLoop(mineLoops->dims, mineLoops->loops, *mine)));
      return;
    }
  }

  /// The K blocks of a GEMM whose K dl-split-k can divide among `threads`
  /// (MatmulOp's split_k): static sizes, pack_blocks without padding, a
  /// plain B, no epilogue, at least one block per thread.
  static std::optional<int64_t> splittableKBlocks(MatmulOp op,
                                                  int64_t threads) {
    std::optional<ArrayRef<int64_t>> blocks = op.getPackBlocks();
    if (!blocks || op.hasDynamicSizes() || op.hasBlockedB() ||
        op.getPadBlocks() || !op.getPostOps().empty())
      return std::nullopt;
    int64_t k = op.getA().getType().getDimSize(op.getTransposeA() ? 0 : 1);
    int64_t kBlocks = k / (*blocks)[2];
    if (kBlocks < threads)
      return std::nullopt;
    return kBlocks;
  }

  /// Divides the K blocks of `op` among the threads (split_k) where that is
  /// modeled at most `margin` times the time of `choice`, its best loop
  /// over M or N in parallel, or of `oneThread` when none is taken: the
  /// copies of C and their sum must pay for themselves (128x2048x4096,
  /// modeled 5800 us split and 5810 with its 32 column blocks in parallel,
  /// keeps the loop); returns whether it did.
  bool splitsK(MatmulOp op, ScheduleAttr schedule, double oneThread,
               const ParallelChoice &choice, ArrayRef<ScheduleDim> dims,
               ArrayRef<ScheduledLoop> loops, const ParallelCosts &costs) {
    std::optional<int64_t> kBlocks = splittableKBlocks(op, costs.threads);
    if (!kBlocks)
      return false;
    ShapedType c = op.getC().getType();
    double split = modelSplitKMicros(oneThread, *kBlocks,
                                     c.getDimSize(0) * c.getDimSize(1), costs);
    double against =
        costs.margin * (choice.loop ? choice.bestMicros : oneThread);
    LLVM_DEBUG(llvm::dbgs() << "  split_k: " << split << " us against "
                            << against << " us\n");
    if (split > against)
      return false;
    setSchedule(op, ScheduleAttr::get(op->getContext(), schedule.getDims(),
                                      schedule.getTiles(), /*parallel=*/-1));
    op.setSplitK(costs.threads);
    if (reportFallbacks)
      op->emitRemark(llvm::formatv(
          "dl-decide-parallelism: K's {0} blocks divided among {1} threads "
          "(split_k), each into its own copy of C: modeled {2:f2} us against "
          "{3:f2} us on one thread{4}",
          *kBlocks, costs.threads, split, oneThread,
          choice.loop ? llvm::formatv(" and {0:f2} us with {1} in parallel",
                                      choice.bestMicros,
                                      describeLoop(dims, loops, *choice.loop))
                            .str()
                      : std::string()));
    return true;
  }

  /// The traffic between the threads with loop `position` of `loops` in
  /// parallel, `lowering` the op's nests lowered that way.
  static LoopTraffic
  measureTraffic(Operation *op, FailureOr<ScratchLowering> &lowering,
                 ArrayRef<ScheduleDim> dims, ArrayRef<ScheduledLoop> loops,
                 unsigned position, double oneThread, int64_t otherRegions,
                 const ParallelCosts &costs) {
    LoopTraffic moved;
    if (succeeded(lowering))
      moved.handoffBytes = lowering->handoffBytes(costs.threads);
    if (auto conv = dyn_cast<Conv2DOp>(op))
      moved.handoffBytes += copiedInputHandoffBytes(
          conv, dims[loops[position].dim].name, costs.threads);
    if (auto matmul = dyn_cast<MatmulOp>(op);
        matmul && dims[loops[position].dim].name == "j") {
      int64_t columns = matmul.getC().getType().getDimSize(1);
      moved.pieceLines = countRowPieceLines(
          matmul, costs.threads,
          extentPerThread(columns, loops[position].tripCount, costs.threads)
              .value_or(llvm::divideCeil(columns, costs.threads)));
    } else {
      moved.nearLines = countNearWriteLines(op, costs.threads);
    }
    if (auto matmul = dyn_cast<MatmulOp>(op)) {
      moved.sharedLines =
          countSharedLinesOfC(matmul, dims, loops, position, costs.threads);
      moved.undividedMicros =
          undividedRowPieceMicros(matmul, dims, loops, position, costs);
    }
    LLVM_DEBUG(llvm::dbgs()
               << "  " << describeLoop(dims, loops, position) << ": "
               << moved.handoffBytes << " bytes handed over, "
               << moved.sharedLines << " lines shared, " << moved.nearLines
               << " lines written near another thread's, " << moved.pieceLines
               << " lines of row pieces, " << moved.undividedMicros
               << " us undivided, "
               << modelLoopMicros(oneThread, loops, position, otherRegions,
                                  moved, costs)
               << " us\n");
    return moved;
  }

  /// A GEMM whose schedule (the ranking's, by one thread's traffic) runs
  /// its loop over M (`i`) inside another, where no loop pays for parallel
  /// regions or the best forks once per iteration of the loops outside it,
  /// runs with the loop over M moved outermost and in parallel where that
  /// is modeled at most `margin` times the time of the choice: each thread
  /// writes whole rows of C in one region, where a loop over N in parallel
  /// divides every row of C between the threads (their shared lines) and
  /// an inner loop forks once per block of columns. Returns whether it did.
  /// At 2 threads, 368x1066x6 in [j:2, i, j, k] with loop i in parallel
  /// took 0.080 ms, in [i, j:2, j, k] 0.050 (oneDNN 0.041); 365x659x1, run
  /// on one thread in [j, i, k], 0.033 ms, in [i, j, k] 0.027 (oneDNN
  /// 0.021; docs/heuristics.md, "Parallelism model").
  bool hoistsRowLoop(MatmulOp op, ScheduleAttr schedule, double oneThread,
                     const ParallelChoice &choice, ArrayRef<ScheduleDim> dims,
                     ArrayRef<ScheduledLoop> loops,
                     const ParallelCosts &costs) {
    std::optional<unsigned> row = untiledRowLoop(schedule);
    if (!row || *row == 0 ||
        loops[*row].tripCount < static_cast<int64_t>(costs.threads))
      return false;
    if (choice.loop) {
      int64_t forks = 1;
      for (const ScheduledLoop &loop : loops.take_front(*choice.loop))
        forks *= loop.tripCount;
      if (forks == 1)
        return false;
    }
    ScheduleAttr hoisted = hoistRowLoop(schedule);
    FailureOr<SmallVector<ScheduledLoop>> hoistedLoops =
        hoisted.getLoops(dims, [] { return InFlightDiagnostic(); });
    FailureOr<ScratchLowering> lowering =
        ScratchLowering::build(op, /*parallel=*/0, hoisted);
    if (failed(hoistedLoops) || failed(lowering))
      return false;
    int64_t otherRegions = lowering->countNests() - 1;
    double micros =
        modelLoopMicros(oneThread, *hoistedLoops, 0, otherRegions,
                        measureTraffic(op, lowering, dims, *hoistedLoops, 0,
                                       oneThread, otherRegions, costs),
                        costs);
    double against = choice.loop ? choice.bestMicros : oneThread;
    LLVM_DEBUG(llvm::dbgs() << "  rows outermost: " << micros << " us against "
                            << against << " us\n");
    // Against the ranking's parallel loop: kParallelMargin.
    if (micros > (choice.loop ? kParallelMargin : costs.margin) * against)
      return false;
    setSchedule(op, hoisted);
    tilesForPrivatePanels(op, oneThread, costs);
    setPanels(op, costs.threads);
    if (reportFallbacks)
      op->emitRemark(llvm::formatv(
          "dl-decide-parallelism: {0} moved outermost and run in parallel: "
          "modeled {1:f2} us on {2} threads against {3:f2} us in the "
          "ranking's order{4} and {5:f2} us on one thread",
          describeLoop(dims, loops, *row), micros, costs.threads, against,
          choice.loop ? " (" + describeLoop(dims, loops, *choice.loop) + ")"
                      : std::string(" (on one thread)"),
          oneThread));
    return true;
  }

  /// A GEMM whose rows are fewer blocks than threads (often one block of
  /// all of M: dl-pack-gemm-operands chooses blocks for one thread) computes
  /// C in smaller blocks of rows, the largest divisor of M up to M / threads
  /// and of at least kMinDividedRows, with its loop over them outermost and
  /// in parallel, where that is modeled at most kParallelMargin times the
  /// time of its best loop in parallel (columns too few or too uneven for
  /// the threads, as a remainder part of a split GEMM often has), or
  /// `margin` times one thread's time for a GEMM of at least
  /// kMinDividedRowFlops FLOPs per element of C, and faster than K divided
  /// among the threads (split_k) where that can be. Each thread then reads all
  /// of B: where B is larger than the L2 it reads it from beyond, which the
  /// model counts as time no thread saves. Returns whether it did. At 2
  /// threads 64x190x219 (parts of 128 and 62 columns, the 62 on one thread)
  /// took 40 us, in blocks of 32 rows 25-29 (oneDNN 27; one thread 47);
  /// 64x1920x3 (6 FLOPs per element) ran 15 us so against 9.2 on one
  /// thread, in the hours the Zen 5 VM's two cores writing at once were no
  /// faster than one (docs/heuristics.md, "Parallelism model").
  bool dividesRowBlocks(MatmulOp op, ScheduleAttr schedule, double oneThread,
                        const ParallelChoice &choice,
                        ArrayRef<ScheduleDim> choiceDims,
                        ArrayRef<ScheduledLoop> choiceLoops,
                        const ParallelCosts &costs) {
    constexpr int64_t kMinDividedRows = 8, kMinDividedRowFlops = 32;
    std::optional<ArrayRef<int64_t>> blocks = op.getPackBlocks();
    if (!blocks || op.hasDynamicSizes() || op.getPadBlocks() ||
        op.getStreamA() || op.getSplitK())
      return false;
    int64_t k = op.getA().getType().getDimSize(op.getTransposeA() ? 0 : 1);
    if (!choice.loop && 2 * k < kMinDividedRowFlops)
      return false;
    int64_t m = op.getC().getType().getDimSize(0);
    int64_t threads = costs.threads;
    if (m / (*blocks)[0] >= threads)
      return false;
    int64_t rowBlock = largestDivisorAtMost(m, m / threads);
    ScheduleAttr hoisted = hoistRowLoop(schedule);
    if (rowBlock < kMinDividedRows || !hoisted)
      return false;
    SmallVector<int64_t> divided{rowBlock, (*blocks)[1], (*blocks)[2]};
    MatmulOp probe = op.clone();
    probe.setPackBlocks(divided);
    std::optional<SmallVector<ScheduleDim>> dims = probe.getScheduleDims();
    probe->erase();
    if (!dims)
      return false;
    FailureOr<SmallVector<ScheduledLoop>> loops =
        hoisted.getLoops(*dims, [] { return InFlightDiagnostic(); });
    FailureOr<ScratchLowering> lowering =
        ScratchLowering::build(op, /*parallel=*/0, hoisted, divided);
    if (failed(loops) || failed(lowering))
      return false;
    int64_t otherRegions = lowering->countNests() - 1;
    LoopTraffic traffic = measureTraffic(op, lowering, *dims, *loops, 0,
                                         oneThread, otherRegions, costs);
    auto b = cast<MemRefType>(op.getB().getType());
    double bBytes = static_cast<double>(b.getNumElements()) *
                    (b.getElementTypeBitWidth() / 8);
    traffic.undividedMicros =
        std::max(traffic.undividedMicros, modelMoveMicros(bBytes, costs));
    double micros =
        modelLoopMicros(oneThread, *loops, 0, otherRegions, traffic, costs);
    double against = choice.loop ? choice.bestMicros : oneThread;
    LLVM_DEBUG(llvm::dbgs() << "  rows in blocks of " << rowBlock << ": "
                            << micros << " us against " << against << " us\n");
    if (micros > (choice.loop ? kParallelMargin : costs.margin) * against)
      return false;
    // Dividing K among the threads instead (splitsK) may be faster still.
    if (std::optional<int64_t> kBlocks = splittableKBlocks(op, threads)) {
      ShapedType c = op.getC().getType();
      if (modelSplitKMicros(oneThread, *kBlocks,
                            c.getDimSize(0) * c.getDimSize(1), costs) < micros)
        return false;
    }
    op.setPackBlocks(divided);
    setSchedule(op, hoisted);
    setPanels(op, threads);
    if (reportFallbacks)
      op->emitRemark(llvm::formatv(
          "dl-decide-parallelism: C's {0} rows computed in blocks of {1}, "
          "their loop run in parallel: modeled {2:f2} us on {3} threads "
          "against {4:f2} us {5}",
          m, rowBlock, micros, threads, against,
          choice.loop
              ? "with " + describeLoop(choiceDims, choiceLoops, *choice.loop) +
                    " in parallel"
              : std::string("on one thread")));
    return true;
  }

  /// A GEMM whose rows (`i`) run in parallel has every thread read all of
  /// its packed B, most of it from the copy the other cores made. Where the
  /// loop over rows is a point loop of `threads` x c iterations, it becomes
  /// a tile loop of one iteration per thread around the schedule's other
  /// loops, and its point loop moves right outside the batch's K loop:
  /// [i, j, k] becomes [i:c, j, i, k], each thread copying B's blocks once
  /// into private panels that its c blocks of rows re-read (choosePanels).
  /// Taken where the copy handed between the cores is at least
  /// kPrivatePanelShare of the modeled time. Returns whether it did. The
  /// same tiling for a shared A (columns in parallel) was measured mixed
  /// and is not made: at 2 threads 305x260x803 ran 11% faster, 70x184x549
  /// 13% slower.
  bool tilesForPrivatePanels(MatmulOp op, double oneThread,
                             const ParallelCosts &costs) {
    // At 2 threads, the tiling took 257x196x979 (its copy handed over
    // modeled at 12% of its time) from 0.37 to 0.30 ms and 307x556x521
    // (10%) from 0.67 to 0.63, and slowed 330x1908x15 (7%) from 0.081 to
    // 0.106 ms and 512x1307x13 (4%) from 0.079 to 0.093, their loops over
    // C's rows reordered.
    constexpr double kPrivatePanelShare = 0.08;
    ScheduleAttr schedule = op.getScheduleAttr();
    std::optional<GemmLoops> gemm = getGemmLoops(op);
    std::optional<unsigned> parallel =
        schedule ? schedule.getParallelLoop() : std::nullopt;
    if (!gemm || !parallel || schedule.getTiles()[*parallel] != 0)
      return false;
    const ScheduledLoop &loop = gemm->loops[*parallel];
    StringRef dim = gemm->dims[loop.dim].name;
    int64_t threads = costs.threads;
    // B's panel as the current schedule gives it (a hoisted schedule's
    // panel attributes are not decided yet).
    if (dim != "i" || !op.getPackB() || choosePanels(op, threads).b ||
        loop.tripCount <= threads || loop.tripCount % threads != 0)
      return false;
    // The copy handed between the cores must weigh in the modeled time for
    // the tiling, which copies the operand once per thread and reorders the
    // loops, to pay (docs/heuristics.md, "Private panels").
    FailureOr<ScratchLowering> lowering = ScratchLowering::build(op, *parallel);
    if (failed(lowering))
      return false;
    int64_t otherRegions = lowering->countNests() - 1;
    LoopTraffic traffic =
        measureTraffic(op, lowering, gemm->dims, gemm->loops, *parallel,
                       oneThread, otherRegions, costs);
    double handoffMicros =
        traffic.handoffBytes / (costs.handoffBandwidth * 1e3);
    double modeled = modelLoopMicros(oneThread, gemm->loops, *parallel,
                                     otherRegions, traffic, costs);
    if (handoffMicros < kPrivatePanelShare * modeled)
      return false;
    SmallVector<StringAttr> names(schedule.getDims());
    SmallVector<int64_t> tiles(schedule.getTiles());
    StringAttr name = names[*parallel];
    names.erase(names.begin() + *parallel);
    tiles.erase(tiles.begin() + *parallel);
    names.insert(names.end() - 1, name);
    tiles.insert(tiles.end() - 1, 0);
    names.insert(names.begin() + *parallel, name);
    tiles.insert(tiles.begin() + *parallel, loop.tripCount / threads);
    auto tiled = ScheduleAttr::get(op->getContext(), names, tiles, *parallel);
    if (failed(tiled.getLoops(gemm->dims, [] { return InFlightDiagnostic(); })))
      return false;
    MatmulOp probe = op.clone();
    setSchedule(probe, tiled);
    PanelChoice panels = choosePanels(probe, threads);
    probe->erase();
    if (!panels.b)
      return false;
    setSchedule(op, tiled);
    if (reportFallbacks)
      op->emitRemark(llvm::formatv(
          "dl-decide-parallelism: {0} tiled to one iteration per thread, "
          "each thread copying the blocks of B it reads into private "
          "panels: the copy made for all threads would be handed between "
          "the cores, modeled {1:f2} us of {2:f2} us",
          describeLoop(gemm->dims, gemm->loops, *parallel), handoffMicros,
          modeled));
    return true;
  }

  /// Whether `op` packs A only because its blocks are re-read
  /// (dl-pack-gemm-operands' min-reuse), so that reading A in place is as
  /// correct and, but for that reuse, as fast: A not transposed, no alpha
  /// for the copy to apply, its rows not a multiple of 1 KiB apart (which
  /// crowd the L1), A within the L2 (beyond it, its rows are memory
  /// streams the copy keeps few), no padded blocks (which read A's copy).
  static bool packsAForReuseOnly(MatmulOp op, const ParallelCosts &costs) {
    auto a = cast<MemRefType>(op.getA().getType());
    return op.getPackA() && !op.getPadBlocks() && !op.getTransposeA() &&
           op.getAlpha().isExactlyValue(1.0) && a.hasStaticShape() &&
           !conflictingRows(rowStride(a)) && costs.cacheBytes > 0 &&
           a.getNumElements() * int64_t(sizeof(float)) <= costs.cacheBytes;
  }

  /// A GEMM that packs A for reuse only (packsAForReuseOnly) reads A in
  /// place where its columns then run in parallel and that is modeled
  /// faster than `choice` (the best parallel loop of `op` as it is): with
  /// columns in parallel every thread reads all of A, from the copy one
  /// thread made (handed between the cores) or from lines every core keeps.
  /// Returns the choice without pack_a where it dropped it. At 2 threads,
  /// 37x94x344 (A 50 KB, two column blocks) ran 120 GFLOPS with A packed,
  /// 310-325 in place (one thread 199 and 219; oneDNN 181 at 2 threads).
  std::optional<ParallelChoice> readsAInPlace(MatmulOp op, double oneThread,
                                              const ParallelChoice &choice,
                                              ArrayRef<ScheduleDim> dims,
                                              ArrayRef<ScheduledLoop> loops,
                                              const ParallelCosts &costs) {
    if (!packsAForReuseOnly(op, costs))
      return std::nullopt;
    MatmulOp probe = op.clone();
    probe.setPackA(false);
    probe.setPanelA(false);
    OpBuilder(op).insert(probe);
    FailureOr<ScratchLowering> lowering = ScratchLowering::build(probe, {});
    std::optional<ParallelChoice> inPlace;
    double packed = choice.loop ? choice.bestMicros : oneThread;
    if (succeeded(lowering)) {
      int64_t otherRegions = lowering->countNests() - 1;
      auto traffic = [&](unsigned position) {
        FailureOr<ScratchLowering> lowered =
            ScratchLowering::build(probe, position);
        return measureTraffic(probe, lowered, dims, loops, position, oneThread,
                              otherRegions, costs);
      };
      ParallelChoice candidate = chooseParallelLoop(
          oneThread, dims, loops, otherRegions, costs, traffic);
      if (candidate.loop && dims[loops[*candidate.loop].dim].name == "j" &&
          candidate.bestMicros < packed)
        inPlace = candidate;
    }
    probe->erase();
    if (!inPlace)
      return std::nullopt;
    op.setPackA(false);
    op.setPanelA(false);
    if (reportFallbacks)
      op->emitRemark(llvm::formatv(
          "dl-decide-parallelism: A read in place, not packed: modeled "
          "{0:f2} us on {1} threads with {2} in parallel, against {3:f2} us "
          "with the copy of A one thread makes handed to the others",
          inPlace->bestMicros, costs.threads,
          describeLoop(dims, loops, *inPlace->loop), packed));
    return inPlace;
  }

  LogicalResult decide(Operation *op, const ParallelCosts &costs) {
    std::optional<double> oneThread = modelOneThreadMicros(op, costs);
    if (!oneThread) {
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << op->getName()
                              << ": dynamic sizes, left as it is\n");
      return success();
    }
    ScheduleAttr schedule = getSchedule(op);
    FailureOr<ScratchLowering> lowering = ScratchLowering::build(
        op, schedule ? schedule.getParallelLoop() : std::nullopt);
    if (failed(lowering))
      return op->emitError("dl-decide-parallelism: the op could not be "
                           "lowered to count its loop nests");
    // Each nest of the op, and its input copy, is a parallel region.
    int64_t regions = lowering->countNests() + countInputCopyRegions(op);
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << op->getName() << " at "
                            << op->getLoc() << ": t1 = " << *oneThread
                            << " us, " << regions << " region(s)\n");
    if (schedule)
      return decideScheduled(op, schedule, *oneThread, regions - 1, costs);
    double parallel =
        modelParallelMicros(*oneThread, costs.threads,
                            /*forks=*/regions, LoopTraffic(), costs);
    LLVM_DEBUG(llvm::dbgs() << "  parallel nests: " << parallel << " us\n");
    if (parallel <= costs.margin * *oneThread)
      return success();
    op->setAttr(DLDialect::getSequentialAttrName(),
                UnitAttr::get(op->getContext()));
    copyInputsOnOneThread(op);
    if (reportFallbacks)
      op->emitRemark(llvm::formatv(
          "dl-decide-parallelism: runs on one thread: modeled {0:f2} us on "
          "one thread, {1:f2} us on {2} threads ({3} parallel region{4})",
          *oneThread, parallel, costs.threads, regions,
          regions == 1 ? "" : "s"));
    return success();
  }

  LogicalResult decideScheduled(Operation *op, ScheduleAttr schedule,
                                double oneThread, int64_t otherRegions,
                                const ParallelCosts &costs) {
    std::optional<SmallVector<ScheduleDim>> dims = getScheduleDims(op);
    if (!dims)
      return success();
    FailureOr<SmallVector<ScheduledLoop>> loops =
        schedule.getLoops(*dims, [&] { return op->emitError(); });
    if (failed(loops))
      return failure();
    // The bytes handed between threads depend on the loop: lowered with
    // each candidate in parallel (the op lowered once already).
    auto traffic = [&](unsigned position) {
      FailureOr<ScratchLowering> lowering =
          ScratchLowering::build(op, position);
      return measureTraffic(op, lowering, *dims, *loops, position, oneThread,
                            otherRegions, costs);
    };
    ParallelChoice choice = chooseParallelLoop(oneThread, *dims, *loops,
                                               otherRegions, costs, traffic);
    if (auto matmul = dyn_cast<MatmulOp>(op)) {
      if (hoistsRowLoop(matmul, schedule, oneThread, choice, *dims, *loops,
                        costs))
        return success();
      if (dividesRowBlocks(matmul, schedule, oneThread, choice, *dims, *loops,
                           costs))
        return success();
      if (splitsK(matmul, schedule, oneThread, choice, *dims, *loops, costs))
        return success();
      if (std::optional<ParallelChoice> inPlace =
              readsAInPlace(matmul, oneThread, choice, *dims, *loops, costs))
        choice = *inPlace;
    }
    int64_t parallel = choice.loop ? static_cast<int64_t>(*choice.loop) : -1;
    if (parallel != schedule.getParallel())
      setSchedule(op, ScheduleAttr::get(op->getContext(), schedule.getDims(),
                                        schedule.getTiles(), parallel));
    if (auto conv = dyn_cast<Conv2DOp>(op); conv && choice.loop)
      alignInputCopy(conv, (*dims)[(*loops)[*choice.loop].dim].name);
    // Operands every thread reads whole: copied by each thread for itself
    // where its parallel loop allows (private panels).
    if (auto matmul = dyn_cast<MatmulOp>(op); matmul && choice.loop) {
      tilesForPrivatePanels(matmul, oneThread, costs);
      setPanels(matmul, costs.threads);
    }
    if (!choice.loop) {
      op->setAttr(DLDialect::getSequentialAttrName(),
                  UnitAttr::get(op->getContext()));
      copyInputsOnOneThread(op);
    }
    if (!reportFallbacks)
      return success();
    if (!choice.loop) {
      std::string best =
          choice.bestLoop
              ? llvm::formatv("{0:f2} us on {1} threads at best ({2})",
                              choice.bestMicros, costs.threads,
                              describeLoop(*dims, *loops, *choice.bestLoop))
                    .str()
              : std::string("no loop over a non-reduction dimension has "
                            "more than one iteration");
      op->emitRemark(llvm::formatv("dl-decide-parallelism: runs on one "
                                   "thread: modeled {0:f2} us on one thread, "
                                   "{1}",
                                   oneThread, best));
      return success();
    }
    std::optional<unsigned> occupying =
        outermostOccupyingLoop(*dims, *loops, costs.threads);
    if (choice.loop == occupying)
      return success();
    std::string instead =
        occupying
            ? llvm::formatv(
                  "{0}: {1:f2} us", describeLoop(*dims, *loops, *occupying),
                  modelLoopMicros(oneThread, *loops, *occupying, otherRegions,
                                  traffic(*occupying), costs))
                  .str()
            : std::string("no loop has as many iterations as threads");
    op->emitRemark(llvm::formatv(
        "dl-decide-parallelism: {0} runs in parallel: modeled {1:f2} us on {2} "
        "threads against {3:f2} us on one thread (instead of {4})",
        describeLoop(*dims, *loops, *choice.loop), choice.bestMicros,
        costs.threads, oneThread, instead));
    return success();
  }
};

} // namespace
