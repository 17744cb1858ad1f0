//===- VariantRanking.cpp - PolyDL ranking of loop variants -----*- C++ -*-===//
//
// Generates the schedules of a heavy op's outer loops and ranks them by the
// traffic of their reuse profiles or by PolyDL's eq. 1. A variant is analyzed
// on the loops it lowers to (a scratch copy of the op lowered by
// convert-dl-to-affine), so the analysis sees exactly the nest the pipeline
// will build, GEMM band included (PolyDL keeps the microkernel's loop form for
// the analysis, section 2).
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/VariantRanking.h"
#include "dl/Conversion/DLToAffine.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

#include <isl/version.h>

#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::dl;

namespace {

/// A loop of a variant before it becomes an attribute: dimension and tile
/// (0 for a loop over a whole dimension or a point loop).
using Loop = std::pair<unsigned, int64_t>;

/// Up to `count` divisors of `extent` in [2, extent / 2], spread evenly on a
/// log scale (the ones nearest extent^(i / (count + 1))).
SmallVector<int64_t> tileCandidates(int64_t extent, unsigned count) {
  SmallVector<int64_t> divisors;
  for (int64_t t = 2; t <= extent / 2; ++t)
    if (extent % t == 0)
      divisors.push_back(t);
  SmallVector<int64_t> picked;
  if (divisors.empty())
    return picked;
  for (unsigned i = 1; i <= count; ++i) {
    double target = std::pow(double(extent), double(i) / (count + 1));
    int64_t best = *llvm::min_element(divisors, [&](int64_t a, int64_t b) {
      return std::abs(std::log(a / target)) < std::abs(std::log(b / target));
    });
    if (!llvm::is_contained(picked, best))
      picked.push_back(best);
  }
  return picked;
}

/// The bytes of A and B blocks one microkernel call reads when it reduces over
/// all input-channel blocks and filter taps of a blocked convolution
/// (out[ow][k] += in[ow][c] * w[c][k] per block; none for other ops).
std::optional<int64_t> fullBatchBytes(Operation *op) {
  auto conv = dyn_cast<Conv2DOp>(op);
  if (!conv || !conv.isBlocked())
    return std::nullopt;
  ArrayRef<int64_t> out = conv.getOutput().getType().getShape();
  ArrayRef<int64_t> filter = conv.getFilter().getType().getShape();
  return batchElementBytes(out[3], filter[5], filter[4]) * filter[1] *
         filter[2] * filter[3];
}

/// The tiles of a GEMM's K blocks (the microkernel's batch): when C is
/// computed in packed blocks (`pack_c`, which dl-pack-gemm-operands sets when
/// `batch_blocks` splits K), at most `batch_blocks` (its bound on the A and
/// B blocks one call reads) and the divisor candidates below it; otherwise
/// the divisor candidates. A larger batch streams more than the L2 holds
/// through every register tile of the call, and with C packed the extra
/// calls of a smaller one cost little. Without packed C a block of C in
/// place costs each call more, and a GEMM whose A stays in place reads it
/// in longer runs per row with long batches (docs/heuristics.md, "Batch
/// tiles").
SmallVector<int64_t> batchTiles(Operation *op, int64_t extent,
                                const RankingOptions &options) {
  SmallVector<int64_t> candidates = tileCandidates(extent, options.tilesPerDim);
  auto matmul = dyn_cast<MatmulOp>(op);
  if (!matmul || !matmul.getPackC() || !matmul.getBatchBlocks())
    return candidates;
  int64_t bound = *matmul.getBatchBlocks();
  SmallVector<int64_t> tiles = {bound};
  for (int64_t tile : candidates)
    if (tile < bound)
      tiles.push_back(tile);
  return tiles;
}

/// All orders of `dims`.
SmallVector<SmallVector<unsigned>> permutations(SmallVector<unsigned> dims) {
  SmallVector<SmallVector<unsigned>> result;
  llvm::sort(dims);
  do
    result.push_back(dims);
  while (std::next_permutation(dims.begin(), dims.end()));
  return result;
}

/// The loop nest a variant lowers to, analyzed and costed.
RankedVariant evaluate(Operation *op, ScheduleAttr schedule,
                       const RankingOptions &options) {
  RankedVariant variant;
  variant.schedule = schedule;
  // The result is initialized before the nest, not per tile: with the
  // initialization inside, its dependences to every later read of a result
  // element would count the result's reuse across reduction tiles twice
  // (one working set per dependence), against the orders that tile K.
  // Packed GEMM operands are read from a packed copy of the whole operand
  // (the clone's panels, a decision for the chosen schedule, are dropped):
  // the nest's reads of the packed blocks are the same wherever the blocks
  // are copied, and the copy loops would only add statements to analyze.
  DLToAffineOptions lowering;
  lowering.initializePerTile = false;
  FailureOr<OwningOpRef<ModuleOp>> module =
      lowerScratchCopy(op, lowering, [&](Operation *clone) {
        setSchedule(clone, schedule);
        if (auto matmul = dyn_cast<MatmulOp>(clone)) {
          matmul.setPanelA(false);
          matmul.setPanelB(false);
        }
      });
  if (failed(module)) {
    variant.failure = "the lowering failed";
    return variant;
  }
  affine::AffineForOp root;
  (*module)->walk([&](affine::AffineForOp loop) {
    if (!loop->hasAttr(DLDialect::getGemmBandAttrName()))
      return;
    Operation *outer = loop;
    while (auto parent = outer->getParentOfType<affine::AffineForOp>())
      outer = parent;
    root = cast<affine::AffineForOp>(outer);
  });
  if (!root) {
    variant.failure = "the lowered nest has no GEMM band";
    return variant;
  }
  std::string whyNot;
  FailureOr<std::unique_ptr<WorkingSetAnalysis>> analysis =
      WorkingSetAnalysis::build(root, &whyNot);
  if (failed(analysis)) {
    variant.failure = whyNot;
    return variant;
  }
  WorkingSetOptions wsOptions;
  wsOptions.maxOperations = options.islMaxOperations;
  if (options.threads > 1) {
    wsOptions.parallelDepth = schedule.getParallelLoop();
    wsOptions.threads = options.threads;
  }
  if (options.cost == RankingCost::WorkingSets) {
    variant.workingSets = (*analysis)->compute(wsOptions);
    SmallVector<int64_t> bytes;
    for (const WorkingSet &ws : variant.workingSets) {
      bytes.push_back(ws.bytes);
      variant.approximate |= ws.approximate;
    }
    variant.assignment = assignToLevels(bytes, options.cache);
    return variant;
  }
  variant.reuse = (*analysis)->computeReuse(wsOptions);
  variant.approximate |= variant.reuse.approximate;
  SmallVector<Reuse> reuses;
  for (const ReuseClass &reuse : variant.reuse.reuses)
    reuses.push_back(
        {reuse.distanceBytes, reuse.accesses * reuse.elementBytes});
  // The profile is one thread's; the last level holds all threads' data.
  // Its share is probed on a cache other cores and tenants use, and the
  // probe varies by 2x between runs (1.0 to 3.0 MB of a 32 MB L3 here): the
  // variant is costed at half the share too, and ranked by the worse cost,
  // so that no schedule is picked for reuse only the upper half would hold
  // (docs/heuristics.md, "Variant ranking: evidence").
  CacheModel perThread = options.cache;
  int64_t firstTouch = llvm::sum_of(variant.reuse.firstTouchBytes);
  if (!perThread.levels.empty())
    perThread.levels.back().bytes /= options.threads;
  variant.assignment = assignTraffic(reuses, firstTouch, perThread);
  if (!perThread.levels.empty()) {
    perThread.levels.back().bytes /= 2;
    LevelAssignment halfShare = assignTraffic(reuses, firstTouch, perThread);
    if (halfShare.cost > variant.assignment.cost)
      variant.assignment = halfShare;
  }
  return variant;
}

const char *kindName(WorkingSet::Kind kind) {
  switch (kind) {
  case WorkingSet::Kind::Min:
    return "min";
  case WorkingSet::Kind::Max:
    return "max";
  case WorkingSet::Kind::Parallel:
    return "par";
  }
  llvm_unreachable("unknown working-set kind");
}

std::string toString(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

/// Costs within this fraction of the cheapest are ties: loop orders that
/// move the same data differ by a few cache lines in the traffic model (a
/// 128x3776x64 GEMM: 3128064 bytes in [i, j, k], 3128832 in [j, i, k]).
constexpr double kCostTie = 0.01;

/// Whether `schedule` runs a loop in parallel with at least two iterations
/// per thread (R-Stream's placement test with two per thread): each thread
/// then works on blocks, and packs panels, of its own. A parallel loop of
/// one iteration per thread shares the operands the loops inside it read
/// whole between the threads.
bool occupiesThreads(ScheduleAttr schedule, ArrayRef<ScheduleDim> dims,
                     unsigned threads) {
  std::optional<unsigned> parallel = schedule.getParallelLoop();
  if (!parallel)
    return false;
  FailureOr<SmallVector<ScheduledLoop>> loops =
      schedule.getLoops(dims, [] { return InFlightDiagnostic(); });
  return succeeded(loops) && *parallel < loops->size() &&
         (*loops)[*parallel].tripCount >= 2 * static_cast<int64_t>(threads);
}

/// At several threads, puts a GEMM's cheapest variant among those tied with
/// the cheapest (kCostTie) whose parallel loop occupies the threads first,
/// when the cheapest's does not: the traffic model, one thread's, does not
/// tell them apart, and with one block of rows per thread both threads read
/// all of B, packed before the loop. Not for convolutions: their images in
/// parallel, one per thread, share only the filter, read in place
/// (docs/heuristics.md, "Variant ranking: evidence").
void preferOccupiedTies(Operation *op, std::vector<RankedVariant> &variants,
                        unsigned threads) {
  std::optional<SmallVector<ScheduleDim>> dims = getScheduleDims(op);
  if (threads < 2 || !isa<MatmulOp>(op) || !dims || variants.empty() ||
      !variants.front().failure.empty() ||
      occupiesThreads(variants.front().schedule, *dims, threads))
    return;
  double tie = variants.front().assignment.cost * (1.0 + kCostTie);
  for (auto it = std::next(variants.begin()); it != variants.end(); ++it) {
    if (!it->failure.empty() || it->assignment.cost > tie)
      return;
    if (occupiesThreads(it->schedule, *dims, threads)) {
      std::rotate(variants.begin(), it, std::next(it));
      return;
    }
  }
}

} // namespace

std::optional<SmallVector<ScheduleDim>> dl::getScheduleDims(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<SmallVector<ScheduleDim>>>(
             op)
      .Case<Conv2DOp, MatmulOp>(
          [](auto heavy) { return heavy.getScheduleDims(); })
      .Default([](Operation *) { return std::nullopt; });
}

SmallVector<Operation *> dl::getUnscheduledOps(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    bool scheduled = llvm::TypeSwitch<Operation *, bool>(op)
                         .Case<Conv2DOp, MatmulOp>([](auto heavy) {
                           return static_cast<bool>(heavy.getScheduleAttr());
                         })
                         .Default([](Operation *) { return true; });
    if (!scheduled && getScheduleDims(op))
      ops.push_back(op);
  });
  return ops;
}

void dl::setSchedule(Operation *op, ScheduleAttr schedule) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<Conv2DOp>([&](Conv2DOp conv) { conv.setScheduleAttr(schedule); })
      .Case<MatmulOp>([&](MatmulOp matmul) {
        matmul.setScheduleAttr(schedule);
        matmul.setPackC(computesCInPackedBlocks(matmul));
      });
}

LogicalResult dl::writeJSONReport(Operation *anchor, StringRef pass,
                                  StringRef path, llvm::json::Value value) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return anchor->emitError() << pass << ": " << error;
  file->os() << llvm::formatv("{0:2}\n", value);
  file->keep();
  return success();
}

SmallVector<ScheduleAttr> dl::generateVariants(Operation *op,
                                               const RankingOptions &options) {
  std::optional<SmallVector<ScheduleDim>> dims = getScheduleDims(op);
  if (!dims)
    return {};
  // Dimensions of extent 1 go outermost (their place does not matter); the
  // innermost one (GEMM's K blocks: the microkernel's batch) goes last.
  SmallVector<Loop> prefix, suffix;
  SmallVector<unsigned> free;
  for (auto [index, dim] : llvm::enumerate(*dims)) {
    // Optional dimensions (a conv's input-channel blocks) stay innermost;
    // their tiles are added below.
    if (dim.optional)
      continue;
    if (dim.innermost)
      suffix.push_back({index, 0});
    else if (dim.extent == 1)
      prefix.push_back({index, 0});
    else
      free.push_back(index);
  }
  SmallVector<SmallVector<Loop>> sequences;
  // A GEMM with one block of C has no order to rank, but its batch may still
  // be bounded (batch_blocks): a call streams its A and B blocks through
  // every register tile, so a batch beyond the L2 re-reads them from further
  // out (23x701x2052 on one Zen 5 core: 0.40-0.43 ms in one call per tile
  // of C over all of K, 0.34-0.36 in calls of 9 K blocks; oneDNN 0.33-0.38).
  auto matmul = dyn_cast<MatmulOp>(op);
  if (free.empty() && suffix.size() == 1 && matmul &&
      matmul.getBatchBlocks() &&
      *matmul.getBatchBlocks() < (*dims)[suffix.front().first].extent) {
    SmallVector<Loop> loops(prefix);
    loops.push_back({suffix.front().first, *matmul.getBatchBlocks()});
    loops.push_back(suffix.front());
    sequences.push_back(loops);
  } else {
    for (ArrayRef<unsigned> order : permutations(free)) {
      SmallVector<Loop> loops(prefix);
      for (unsigned dim : order)
        loops.push_back({dim, 0});
      llvm::append_range(loops, suffix);
      sequences.push_back(loops);
    }
  }
  // One dimension tiled: its tile loop outermost, the others in every
  // order, its point loop innermost (just outside the innermost dimension,
  // or last if it is that one).
  SmallVector<unsigned> tileable(free);
  for (Loop loop : suffix)
    tileable.push_back(loop.first);
  for (unsigned tiled : tileable) {
    bool isInnermost = (*dims)[tiled].innermost;
    SmallVector<unsigned> others;
    for (unsigned dim : free)
      if (dim != tiled)
        others.push_back(dim);
    // With nothing between the tile and the point loop, tiling changes no
    // order.
    if (others.empty())
      continue;
    SmallVector<int64_t> tiles =
        isInnermost
            ? batchTiles(op, (*dims)[tiled].extent, options)
            : tileCandidates((*dims)[tiled].extent, options.tilesPerDim);
    for (int64_t tile : tiles) {
      for (ArrayRef<unsigned> order : permutations(others)) {
        SmallVector<Loop> loops(prefix);
        loops.push_back({tiled, tile});
        for (unsigned dim : order)
          loops.push_back({dim, 0});
        loops.push_back({tiled, 0});
        if (!isInnermost)
          llvm::append_range(loops, suffix);
        sequences.push_back(loops);
      }
    }
  }

  // Optional dimensions tiled: the tile loop just inside the outermost
  // free loop (so the inner free loops reuse one tile of the operand it
  // indexes, e.g. a conv's filter slice over the output rows), the point loop
  // innermost. Only when a kernel call over all of it would read more than
  // maxBatchBytes: each tile is one more call reloading its block of C, which
  // the costs do not see (docs/heuristics.md, "Batch tiles").
  std::optional<int64_t> batchBytes = fullBatchBytes(op);
  bool splitBatch = options.maxBatchBytes > 0 && batchBytes &&
                    *batchBytes > options.maxBatchBytes;
  for (auto [index, dim] : llvm::enumerate(*dims)) {
    if (!dim.optional || !splitBatch)
      continue;
    SmallVector<int64_t> tiles =
        tileCandidates(dim.extent, options.tilesPerDim);
    size_t untiled = sequences.size();
    for (size_t s = 0; s < untiled; ++s) {
      size_t outer = prefix.size();
      // Without a free loop inside the outermost one, nothing would reuse
      // the tile.
      if (sequences[s].size() < outer + 2 + suffix.size())
        continue;
      for (int64_t tile : tiles) {
        SmallVector<Loop> loops(sequences[s]);
        loops.insert(loops.begin() + outer + 1, {unsigned(index), tile});
        loops.push_back({unsigned(index), 0});
        sequences.push_back(loops);
      }
    }
  }

  MLIRContext *ctx = op->getContext();
  SmallVector<ScheduleAttr> variants;
  for (ArrayRef<Loop> loops : sequences) {
    SmallVector<StringAttr> names;
    SmallVector<int64_t> tiles;
    for (Loop loop : loops) {
      names.push_back(StringAttr::get(ctx, (*dims)[loop.first].name));
      tiles.push_back(loop.second);
    }
    auto schedule = ScheduleAttr::get(ctx, names, tiles, /*parallel=*/-1);
    if (options.threads > 1) {
      // Generated schedules are valid: getLoops does not fail here.
      SmallVector<ScheduledLoop> scheduled =
          *schedule.getLoops(*dims, [&] { return op->emitError(); });
      for (auto [position, loop] : llvm::enumerate(scheduled)) {
        if (!(*dims)[loop.dim].reduction &&
            loop.tripCount >= static_cast<int64_t>(options.threads)) {
          schedule = ScheduleAttr::get(ctx, names, tiles, position);
          break;
        }
      }
    }
    variants.push_back(schedule);
  }
  return variants;
}

std::optional<RankingCost> dl::parseRankingCost(StringRef name) {
  return llvm::StringSwitch<std::optional<RankingCost>>(name)
      .Case("traffic", RankingCost::Traffic)
      .Case("working-sets", RankingCost::WorkingSets)
      .Default(std::nullopt);
}

OpRanking dl::rankVariants(Operation *op, const RankingOptions &options) {
  auto start = std::chrono::steady_clock::now();
  SmallVector<ScheduleAttr> schedules = generateVariants(op, options);
  size_t generated = schedules.size();
  if (options.solver)
    for (ScheduleAttr proposed : proposeSolvedSchedules(
             op, options.cache, options.threads, *options.solver))
      if (!llvm::is_contained(schedules, proposed))
        schedules.push_back(proposed);
  OpRanking ranking;
  ranking.cost = options.cost;
  ranking.variants.resize(schedules.size());
  // Each variant has its own scratch module and isl context.
  parallelFor(op->getContext(), 0, schedules.size(), [&](size_t i) {
    ranking.variants[i] = evaluate(op, schedules[i], options);
    ranking.variants[i].fromSolver = i >= generated;
  });
  llvm::stable_sort(ranking.variants,
                    [](const RankedVariant &a, const RankedVariant &b) {
                      if (a.failure.empty() != b.failure.empty())
                        return a.failure.empty();
                      return a.assignment.cost < b.assignment.cost;
                    });
  preferOccupiedTies(op, ranking.variants, options.threads);
  ranking.analysisSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return ranking;
}

llvm::json::Object dl::rankingToJSON(Operation *op, const OpRanking &ranking,
                                     const CacheModel &cache) {
  llvm::json::Array variants;
  for (auto [rank, variant] : llvm::enumerate(ranking.variants)) {
    llvm::json::Object entry{
        {"rank", static_cast<int64_t>(rank)},
        {"schedule", toString(variant.schedule)},
        {"source", variant.fromSolver ? "solver" : "ranking"}};
    if (!variant.failure.empty()) {
      entry["failure"] = variant.failure;
      variants.push_back(std::move(entry));
      continue;
    }
    llvm::json::Array sets;
    for (const WorkingSet &ws : variant.workingSets)
      sets.push_back(llvm::json::Object{{"kind", kindName(ws.kind)},
                                        {"dependence", ws.dependence},
                                        {"bytes", ws.bytes},
                                        {"approximate", ws.approximate}});
    llvm::json::Array reuses;
    for (const ReuseClass &reuse : variant.reuse.reuses)
      reuses.push_back(
          llvm::json::Object{{"array", static_cast<int64_t>(reuse.array)},
                             {"carrier", reuse.carrier},
                             {"bytes", reuse.accesses * reuse.elementBytes},
                             {"distance_bytes", reuse.distanceBytes},
                             {"approximate", reuse.approximate}});
    entry["cost"] = variant.assignment.cost;
    entry["bytes_per_level"] =
        llvm::json::Array(variant.assignment.bytesPerLevel);
    entry["memory_bytes"] = variant.assignment.memoryBytes;
    entry["approximate"] = variant.approximate;
    if (ranking.cost == RankingCost::Traffic) {
      entry["first_touch_bytes"] =
          llvm::json::Array(variant.reuse.firstTouchBytes);
      entry["reuses"] = std::move(reuses);
    } else {
      entry["working_sets"] = std::move(sets);
    }
    variants.push_back(std::move(entry));
  }
  // The machine's levels and memory, then the op and its variants.
  llvm::json::Object result = cache.toJSON();
  result["op"] = op->getName().getStringRef();
  result["location"] = toString(op->getLoc());
  result["cost_model"] =
      ranking.cost == RankingCost::Traffic ? "traffic" : "working-sets";
  result["analysis_seconds"] = ranking.analysisSeconds;
  // Which isl counted (the analysis time depends on its integer arithmetic).
  result["isl"] = StringRef(isl_version()).trim().str();
  result["variants"] = std::move(variants);
  return result;
}
