//===- SolveTileSizes.cpp - multi-level tiles from MOpt's model -*- C++ -*-===//
//
// The pass `dl-solve-tile-sizes`: describes each schedulable heavy op's loop
// nest and the machine's cache levels as a TileProblem (the microkernel
// fixing the register and L1 tiles), solves it with TileSolver (Ipopt), and
// writes the best rounded tiles and loop orders as the op's #dl.schedule.
// proposeSolvedSchedules gives the same candidates to dl-rank-variants,
// which ranks them with its own variants (the solver proposes, the ranking
// decides).
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/CacheModel.h"
#include "dl/Analysis/TileSolver.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"
#include "dl/Dialect/DL/Transforms/VariantRanking.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_SOLVETILESIZES
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// A heavy op's tile problem, with how its model indices map to the
/// dimensions of its schedule (in blocks of `block` elements).
struct OpTileProblem {
  TileProblem problem;
  /// Per model index: the schedule dimension it is (empty: none, its
  /// loops are inside the microkernel), and its block.
  SmallVector<StringRef> scheduleDim;
  SmallVector<int64_t> block;
};

/// The microkernel's register block: 6 rows x 16 columns (12 accumulator
/// vectors of 8 floats on AVX2, MOpt's Little's-law sizing).
constexpr int64_t kRegisterRows = 6;
constexpr int64_t kRegisterColumns = 16;

/// Levels: registers and L1 as the microkernel fixes them, then every
/// further cache level with free tiles (fixed where `fixedAbove` says),
/// memory outermost. Bandwidths in words: the link filling level l is the
/// bandwidth of the level above it.
void addLevels(TileProblem &problem, const CacheModel &cache,
               SmallVector<int64_t> registerTile,
               SmallVector<unsigned> registerLoops,
               SmallVector<int64_t> batchElement,
               SmallVector<unsigned> batchLoops,
               SmallVector<int64_t> fixedAbove) {
  auto bandwidthAbove = [&](unsigned cacheLevel) {
    return (cacheLevel < cache.levels.size()
                ? cache.levels[cacheLevel].bandwidth
                : cache.memoryBandwidth) /
           4.0;
  };
  auto words = [](int64_t bytes) { return static_cast<double>(bytes) / 4; };
  problem.levels.push_back({"reg", 0.0, bandwidthAbove(0), true,
                            std::move(registerTile), std::move(registerLoops)});
  problem.levels.push_back(
      {cache.levels.empty() ? "L1" : cache.levels[0].name,
       cache.levels.empty() ? 0.0 : words(cache.levels[0].bytes),
       bandwidthAbove(1), true, std::move(batchElement),
       std::move(batchLoops)});
  for (unsigned l = 1; l < cache.levels.size(); ++l)
    problem.levels.push_back({cache.levels[l].name,
                              words(cache.levels[l].bytes),
                              bandwidthAbove(l + 1),
                              /*perCore=*/l + 1 < cache.levels.size(),
                              fixedAbove,
                              {}});
}

std::optional<OpTileProblem> buildProblem(Conv2DOp op,
                                          const CacheModel &cache) {
  if (!op.getScheduleDims())
    return std::nullopt;
  enum { N, K, C, R, S, H, W };
  auto filter = cast<MemRefType>(op.getFilter().getType());
  auto out = cast<MemRefType>(op.getOutput().getType());
  int64_t kBlock = filter.getDimSize(5), cBlock = filter.getDimSize(4);
  int64_t r = filter.getDimSize(2), s = filter.getDimSize(3);
  int64_t ow = out.getDimSize(3);
  ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations();
  OpTileProblem result;
  result.problem.nest =
      LoopNest::conv(out.getDimSize(0), out.getDimSize(1) * kBlock,
                     filter.getDimSize(1) * cBlock, r, s, out.getDimSize(2), ow,
                     strides[0], strides[1], dilations[0], dilations[1]);
  // The batch-reduce microkernel: per batch element (an input-channel
  // block and a tap) a GEMM out[ow][k] += in[ow][c] * w[c][k]; its batch
  // runs over (cb, r, s), innermost.
  addLevels(result.problem, cache,
            {1, std::min(kRegisterColumns, kBlock), 1, 1, 1, 1,
             std::min(kRegisterRows, ow)},
            {W, K, C}, {1, kBlock, cBlock, 1, 1, 1, ow}, {C, R, S},
            {0, 0, 0, r, s, 0, ow});
  result.scheduleDim = {"n", "kb", "cb", "", "", "oh", ""};
  result.block = {1, kBlock, cBlock, 1, 1, 1, 1};
  return result;
}

std::optional<OpTileProblem> buildProblem(MatmulOp op,
                                          const CacheModel &cache) {
  std::optional<SmallVector<ScheduleDim>> dims = op.getScheduleDims();
  if (!dims)
    return std::nullopt;
  ArrayRef<int64_t> blocks = *op.getPackBlocks();
  OpTileProblem result;
  result.problem.nest = LoopNest::gemm((*dims)[0].extent * blocks[0],
                                       (*dims)[1].extent * blocks[1],
                                       (*dims)[2].extent * blocks[2]);
  // The batch-reduce microkernel: per batch element (a K block) a
  // bm x bn x bk GEMM; its batch runs over K blocks, innermost.
  addLevels(result.problem, cache,
            {std::min(kRegisterRows, blocks[0]),
             std::min(kRegisterColumns, blocks[1]), 1},
            {0, 1, 2}, {blocks[0], blocks[1], blocks[2]}, {2}, {0, 0, 0});
  result.scheduleDim = {"i", "j", "k"};
  result.block.assign(blocks.begin(), blocks.end());
  return result;
}

/// The schedule of a configuration: level by level from the outermost, each
/// level's loops in its order (those with more than one iteration), the
/// parallel loop between the outermost level's loops and the next level's.
///
/// A dimension that must come last (the microkernel's batch: a conv's cb, a
/// GEMM's k) and whose loops all sit further out ends with a one-iteration
/// point loop: its last real loop becomes a tile loop of 1 block and each
/// batch is one block.
ScheduleAttr toSchedule(MLIRContext *ctx, const OpTileProblem &op,
                        const TileConfig &config, ArrayRef<ScheduleDim> dims) {
  const TileProblem &problem = op.problem;
  unsigned numLevels = problem.levels.size();
  struct Loop {
    unsigned index;
    int64_t stride; // In blocks.
  };
  SmallVector<Loop> loops;
  int parallel = -1;
  auto emitLevel = [&](unsigned l, ArrayRef<int64_t> enclosing) {
    for (unsigned j : config.orders[l]) {
      if (op.scheduleDim[j].empty() || enclosing[j] == config.tiles[l][j])
        continue;
      loops.push_back({j, config.tiles[l][j] / op.block[j]});
    }
  };
  SmallVector<int64_t> chunk(config.tiles.back());
  if (config.parallelIndex)
    chunk[*config.parallelIndex] = config.parallelChunk;
  for (unsigned l = numLevels; l-- > 1;) {
    bool top = l + 1 == numLevels;
    if (top) {
      emitLevel(l, problem.nest.extents);
      if (config.parallelIndex) {
        parallel = loops.size();
        loops.push_back(
            {*config.parallelIndex,
             config.parallelChunk / op.block[*config.parallelIndex]});
      }
      continue;
    }
    emitLevel(l, l + 2 == numLevels ? ArrayRef<int64_t>(chunk)
                                    : ArrayRef<int64_t>(config.tiles[l + 1]));
  }
  // Each dimension's last loop is its point loop (tile 0); a dimension
  // without loops (one block) gets one, outermost, or last if it must be.
  auto isInnermost = [&](unsigned j) {
    return llvm::any_of(dims, [&](const ScheduleDim &d) {
      return d.innermost && d.name == op.scheduleDim[j];
    });
  };
  SmallVector<StringAttr> names;
  SmallVector<int64_t> tiles;
  SmallVector<StringAttr> trailing;
  for (unsigned j = 0; j < problem.nest.size(); ++j) {
    if (op.scheduleDim[j].empty() ||
        llvm::any_of(loops, [&](const Loop &loop) { return loop.index == j; }))
      continue;
    if (isInnermost(j)) {
      trailing.push_back(StringAttr::get(ctx, op.scheduleDim[j]));
      continue;
    }
    names.push_back(StringAttr::get(ctx, op.scheduleDim[j]));
    tiles.push_back(0);
    if (parallel >= 0)
      ++parallel;
  }
  for (auto [position, loop] : llvm::enumerate(loops)) {
    bool last = llvm::none_of(
        ArrayRef<Loop>(loops).drop_front(position + 1),
        [&](const Loop &later) { return later.index == loop.index; });
    StringAttr name = StringAttr::get(ctx, op.scheduleDim[loop.index]);
    names.push_back(name);
    if (last && isInnermost(loop.index) && position + 1 < loops.size()) {
      tiles.push_back(loop.stride);
      trailing.push_back(name);
      continue;
    }
    tiles.push_back(last ? 0 : loop.stride);
  }
  for (StringAttr name : trailing) {
    names.push_back(name);
    tiles.push_back(0);
  }
  return ScheduleAttr::get(ctx, names, tiles, parallel);
}

/// The tile problem of a dl.conv2d or dl.matmul for `threads` threads.
std::optional<OpTileProblem>
buildOpProblem(Operation *op, const CacheModel &cache, unsigned threads) {
  std::optional<OpTileProblem> problem =
      llvm::TypeSwitch<Operation *, std::optional<OpTileProblem>>(op)
          .Case<Conv2DOp, MatmulOp>(
              [&](auto heavy) { return buildProblem(heavy, cache); })
          .Default([](Operation *) { return std::nullopt; });
  if (problem)
    problem->problem.threads = std::max(1u, threads);
  return problem;
}

struct SolveTileSizesPass : dl::impl::SolveTileSizesBase<SolveTileSizesPass> {
  using SolveTileSizesBase::SolveTileSizesBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    std::optional<CacheModel> cache = getTarget(getOperation()).cache;
    TileSolverOptions options;
    options.maxIterations = maxIterations;
    options.candidates = std::max(1u, candidates.getValue());

    llvm::json::Array reports;
    for (Operation *op : getUnscheduledOps(getOperation())) {
      std::optional<OpTileProblem> problem =
          buildOpProblem(op, *cache, threads);
      if (!problem)
        continue;
      std::optional<SmallVector<ScheduleDim>> dims = getScheduleDims(op);
      std::string invalid = verifyTileProblem(problem->problem);
      if (!invalid.empty()) {
        op->emitRemark("dl-solve-tile-sizes: ")
            << invalid << "; the op keeps the default loop order";
        continue;
      }
      TileSolverResult result = solveTileSizes(problem->problem, options);
      if (result.usedFallback)
        op->emitRemark("dl-solve-tile-sizes: ")
            << result.fallbackReason
            << "; tiles from the greedy heuristic instead";
      if (!report.empty()) {
        llvm::json::Array candidateReports;
        for (const TileConfig &config : result.candidates) {
          llvm::json::Object entry = config.toJSON(problem->problem);
          std::string text;
          llvm::raw_string_ostream(text)
              << toSchedule(&getContext(), *problem, config, *dims);
          entry["schedule"] = text;
          candidateReports.push_back(std::move(entry));
        }
        llvm::json::Array relaxed;
        for (ArrayRef<double> level : result.relaxed)
          relaxed.push_back(llvm::json::Array(level));
        reports.push_back(llvm::json::Object{
            {"op", op->getName().getStringRef()},
            {"extents", llvm::json::Array(problem->problem.nest.extents)},
            {"solve_seconds", result.seconds},
            {"ipopt_solves", result.solves},
            {"ipopt_failures", result.failedSolves},
            {"fallback", result.usedFallback},
            {"relaxed", std::move(relaxed)},
            {"candidates", std::move(candidateReports)}});
      }
      if (result.candidates.empty()) {
        op->emitRemark("dl-solve-tile-sizes: no tiling fits the caches; the "
                       "op keeps the default loop order");
        continue;
      }
      const TileConfig &best = result.candidates.front();
      ScheduleAttr schedule = toSchedule(&getContext(), *problem, best, *dims);
      if (failed(schedule.getLoops(*dims, [&] { return op->emitRemark(); }))) {
        op->emitRemark("dl-solve-tile-sizes: the solved tiles give no valid "
                       "schedule; the op keeps the default loop order");
        continue;
      }
      setSchedule(op, schedule);
      op->setAttr(
          "dl.tile_bottleneck",
          StringAttr::get(&getContext(),
                          problem->problem.levels[best.bottleneck].name));
    }
    if (!report.empty() &&
        failed(writeJSONReport(
            getOperation(), "dl-solve-tile-sizes", report,
            llvm::json::Object{{"threads", static_cast<int64_t>(threads)},
                               {"machine", cache->toJSON()},
                               {"ops", std::move(reports)}})))
      return signalPassFailure();
  }
};

} // namespace

SmallVector<ScheduleAttr>
dl::proposeSolvedSchedules(Operation *op, const CacheModel &cache,
                           unsigned threads, const TileSolverOptions &solver) {
  std::optional<OpTileProblem> problem = buildOpProblem(op, cache, threads);
  std::optional<SmallVector<ScheduleDim>> dims = getScheduleDims(op);
  if (!problem || !dims || !verifyTileProblem(problem->problem).empty())
    return {};
  TileSolverResult result = solveTileSizes(problem->problem, solver);
  SmallVector<ScheduleAttr> schedules;
  for (const TileConfig &config : result.candidates) {
    ScheduleAttr schedule =
        toSchedule(op->getContext(), *problem, config, *dims);
    // An invalid rounding is dropped silently: the ranking has its own.
    if (succeeded(
            schedule.getLoops(*dims, [] { return InFlightDiagnostic(); })))
      schedules.push_back(schedule);
  }
  return schedules;
}
