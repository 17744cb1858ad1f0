//===- RankVariants.cpp - PolyDL variant ranking pass -----------*- C++ -*-===//
//
// The pass `dl-rank-variants`: ranks the loop variants of every schedulable
// heavy op (VariantRanking.h) and records the cheapest as its #dl.schedule,
// so the decision is visible in the IR before the lowering applies it.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"
#include "dl/Dialect/DL/Transforms/VariantRanking.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_RANKVARIANTS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

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

    llvm::json::Array rankings;
    for (Operation *op : getUnscheduledOps(getOperation())) {
      OpRanking ranking = rankVariants(op, options);
      if (!report.empty())
        rankings.push_back(rankingToJSON(op, ranking, options.cache));
      if (ranking.variants.empty())
        continue;
      const RankedVariant &best = ranking.variants.front();
      if (!best.failure.empty()) {
        op->emitRemark("dl-rank-variants: no variant could be analyzed (")
            << best.failure << "); the default loop order stays";
        continue;
      }
      size_t approximated =
          llvm::count_if(ranking.variants, [](const RankedVariant &variant) {
            return variant.approximate;
          });
      if (approximated > 0)
        op->emitRemark("dl-rank-variants: exact counts exceeded "
                       "isl-max-operations=")
            << options.islMaxOperations << "; the "
            << (options.cost == RankingCost::Traffic ? "reuse profiles"
                                                     : "working sets")
            << " of " << approximated << " of " << ranking.variants.size()
            << " variants are bounding-box counts";
      setSchedule(op, best.schedule);
    }
    if (!report.empty() &&
        failed(writeJSONReport(
            getOperation(), "dl-rank-variants", report,
            llvm::json::Object{
                {"threads", static_cast<int64_t>(options.threads)},
                {"ops", std::move(rankings)}})))
      return signalPassFailure();
  }
};

} // namespace
