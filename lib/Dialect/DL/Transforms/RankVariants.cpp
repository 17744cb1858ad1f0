//===- RankVariants.cpp - PolyDL variant ranking pass -----------*- C++ -*-===//
//
// The pass `dl-rank-variants`: ranks the loop variants of every schedulable
// heavy op (VariantRanking.h) and records the cheapest as its #dl.schedule,
// so the decision is visible in the IR before the lowering applies it. Ops
// alike are ranked once per run, and with a cache directory once per build of
// dl and machine: the ranking takes most of a network's compile time.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"
#include "dl/Dialect/DL/Transforms/VariantRanking.h"
#include "dl/Support/DiskCache.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_RANKVARIANTS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// What the ranking decided for one op: the schedule (null when no variant
/// could be analyzed, with why) and how many variants it ranked and
/// approximated, for the remarks.
struct Decision {
  ScheduleAttr schedule;
  std::string failure;
  size_t variants = 0;
  size_t approximated = 0;
};

/// The op as the ranking sees it (VariantRanking's evaluate lowers it alone,
/// its operands arguments of a scratch function): that function, printed
/// generically without locations. Ops with the same text rank alike.
std::string getRankingKey(Operation *op) {
  OpBuilder b(op->getContext());
  Location loc = UnknownLoc::get(op->getContext());
  OwningOpRef<func::FuncOp> fn = func::FuncOp::create(
      b, loc, "op", b.getFunctionType(op->getOperandTypes(), {}));
  Block *entry = fn->addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(op->getOperands(), entry->getArguments());
  b.clone(*op, mapping);
  std::string text;
  llvm::raw_string_ostream os(text);
  fn->print(os, OpPrintingFlags().printGenericOpForm());
  return text;
}

/// A decision on disk: the counts, then the schedule.
std::string serialize(const Decision &decision) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << decision.variants << " " << decision.approximated << "\n"
     << decision.schedule;
  return text;
}

std::optional<Decision> deserialize(StringRef text, MLIRContext *context) {
  auto [counts, schedule] = text.split('\n');
  auto [variants, approximated] = counts.split(' ');
  Decision decision;
  if (variants.getAsInteger(10, decision.variants) ||
      approximated.getAsInteger(10, decision.approximated))
    return std::nullopt;
  // A damaged entry is a miss, not an error of the compilation.
  ScopedDiagnosticHandler silence(context,
                                  [](Diagnostic &) { return success(); });
  decision.schedule =
      dyn_cast_if_present<ScheduleAttr>(parseAttribute(schedule, context));
  if (!decision.schedule)
    return std::nullopt;
  return decision;
}

struct RankVariantsPass : dl::impl::RankVariantsBase<RankVariantsPass> {
  using RankVariantsBase::RankVariantsBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    Target target = getTarget(getOperation());
    std::optional<RankingCost> rankingCost = parseRankingCost(cost);
    if (!rankingCost) {
      getOperation().emitError("dl-rank-variants: unknown cost '")
          << cost << "' (expected 'traffic' or 'working-sets')";
      return signalPassFailure();
    }
    RankingOptions options;
    options.cache = target.cache;
    options.cost = *rankingCost;
    options.threads = std::max(1u, threads.getValue());
    options.tilesPerDim = tilesPerDim;
    options.islMaxOperations = islMaxOperations;
    options.maxBatchBytes = target.maxBatchBytes;
    if (solverCandidates > 0) {
      options.solver.emplace();
      options.solver->candidates = solverCandidates;
    }

    // The report needs every op's variants: no op is skipped.
    bool reuse = report.empty();
    DiskCache disk(reuse ? cacheDirectory.getValue() : "", "schedules");
    std::string optionsKey;
    if (disk.isEnabled())
      optionsKey = llvm::formatv(
          "cost: {0}\nthreads: {1}\ntiles: {2}\nisl: {3}\nbatch bytes: "
          "{4}\nvector bits: {5}\nsolver: {6}\n{7}\n{8}",
          cost.getValue(), options.threads, options.tilesPerDim,
          options.islMaxOperations, options.maxBatchBytes, target.vectorBits,
          solverCandidates.getValue(), options.cache.toMachineFile(),
          DiskCache::getBuildAndHostKey(
              reinterpret_cast<const void *>(&rankVariants)));

    llvm::json::Array rankings;
    llvm::StringMap<std::pair<Decision, size_t>> decided;
    SmallVector<Operation *> ops = getUnscheduledOps(getOperation());
    for (auto [index, op] : llvm::enumerate(ops)) {
      std::string key = reuse ? getRankingKey(op) : "";
      std::string how;
      Decision decision;
      auto earlier = decided.find(key);
      if (reuse && earlier != decided.end()) {
        decision = earlier->second.first;
        how = llvm::formatv("as [{0}/{1}]", earlier->second.second + 1,
                            ops.size());
      } else if (std::optional<Decision> cached =
                     deserializeEntry(disk, optionsKey + "\n" + key)) {
        decision = *cached;
        how = "from the cache";
      } else {
        auto start = std::chrono::steady_clock::now();
        decision = rank(op, options, rankings, target.cache);
        how =
            llvm::formatv("ranked {0} variant{1} in {2:f2} s",
                          decision.variants, decision.variants == 1 ? "" : "s",
                          std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
        if (decision.schedule)
          disk.store(optionsKey + "\n" + key, serialize(decision));
      }
      if (reuse)
        decided.try_emplace(key, decision, index);
      if (progress)
        llvm::errs() << "dl-rank-variants: [" << index + 1 << "/" << ops.size()
                     << "] " << op->getName() << " at " << op->getLoc() << ": "
                     << how << "\n";
      apply(op, decision, options);
    }
    if (!report.empty() &&
        failed(writeJSONReport(
            getOperation(), "dl-rank-variants", report,
            llvm::json::Object{
                {"threads", static_cast<int64_t>(options.threads)},
                {"ops", std::move(rankings)}})))
      return signalPassFailure();
  }

  /// The decision of `disk`'s entry of `key`, if it has a readable one.
  std::optional<Decision> deserializeEntry(const DiskCache &disk,
                                           StringRef key) {
    std::unique_ptr<llvm::MemoryBuffer> entry = disk.lookup(key);
    if (!entry)
      return std::nullopt;
    return deserialize(entry->getBuffer(), &getContext());
  }

  /// Ranks the variants of `op` (with the report, appends its ranking to
  /// `rankings`).
  Decision rank(Operation *op, const RankingOptions &options,
                llvm::json::Array &rankings, const CacheModel &cache) {
    OpRanking ranking = rankVariants(op, options);
    if (!report.empty())
      rankings.push_back(rankingToJSON(op, ranking, cache));
    Decision decision;
    decision.variants = ranking.variants.size();
    if (ranking.variants.empty())
      return decision;
    const RankedVariant &best = ranking.variants.front();
    if (!best.failure.empty()) {
      decision.failure = best.failure;
      return decision;
    }
    decision.schedule = best.schedule;
    decision.approximated =
        llvm::count_if(ranking.variants, [](const RankedVariant &variant) {
          return variant.approximate;
        });
    return decision;
  }

  /// Records `decision` on `op`, with its remarks.
  void apply(Operation *op, const Decision &decision,
             const RankingOptions &options) {
    if (!decision.failure.empty()) {
      op->emitRemark("dl-rank-variants: no variant could be analyzed (")
          << decision.failure << "); the default loop order stays";
      return;
    }
    if (!decision.schedule)
      return;
    if (decision.approximated > 0)
      op->emitRemark("dl-rank-variants: exact counts exceeded "
                     "isl-max-operations=")
          << options.islMaxOperations << "; the "
          << (options.cost == RankingCost::Traffic ? "reuse profiles"
                                                   : "working sets")
          << " of " << decision.approximated << " of " << decision.variants
          << " variants are bounding-box counts";
    setSchedule(op, decision.schedule);
  }
};

} // namespace
