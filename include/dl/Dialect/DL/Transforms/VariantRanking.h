//===- VariantRanking.h - PolyDL ranking of loop variants -------*- C++ -*-===//
//
// The variants of a heavy op's outer loops (orders, divisor tiles, which loop
// is parallel) and their ranking: each variant is lowered in a scratch
// module and analyzed (WorkingSetAnalysis); its cost is the traffic of its
// reuse profile (assignTraffic) or PolyDL's working sets assigned to the
// cache levels (Algorithm 2) and costed by eq. 1. Used by the pass
// dl-rank-variants and by dl-compile --autotune-top-k.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_VARIANTRANKING_H
#define DL_DIALECT_DL_TRANSFORMS_VARIANTRANKING_H

#include "dl/Analysis/CacheModel.h"
#include "dl/Analysis/WorkingSet.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"

#include "llvm/Support/JSON.h"

namespace mlir {
namespace dl {

/// What a variant's cost is.
enum class RankingCost {
  /// PolyDL's eq. 1 over the working sets assigned by Algorithm 2.
  WorkingSets,
  /// The bytes each level supplies over the whole run (assignTraffic over
  /// the reuse profile).
  Traffic,
};

/// "traffic" or "working-sets"; none for other text.
std::optional<RankingCost> parseRankingCost(StringRef name);

struct RankingOptions {
  CacheModel cache = CacheModel::defaults();
  RankingCost cost = RankingCost::Traffic;
  /// Threads of the generated code: above 1, each variant runs one loop in
  /// parallel (WS_par of the working sets; the reuse profile is one
  /// thread's).
  unsigned threads = 1;
  /// Divisor tiles tried per dimension.
  unsigned tilesPerDim = 2;
  /// isl operations allowed per working-set count (WorkingSetOptions).
  unsigned long islMaxOperations = WorkingSetOptions().maxOperations;
  /// A convolution's input-channel blocks (the microkernel's batch) are
  /// tiled only when one call over all of them would read more A and B
  /// blocks than this (0: never).
  int64_t maxBatchBytes = kDefaultMaxBatchBytes;
};

/// One variant with its modeled cost.
struct RankedVariant {
  ScheduleAttr schedule;
  /// The working sets (with the WorkingSets cost) or the reuse profile
  /// (with the Traffic cost: one thread's, the last level shared by all
  /// threads), and their bytes per level and cost, which the ranking sorts
  /// by.
  SmallVector<WorkingSet> workingSets;
  ReuseProfile reuse;
  LevelAssignment assignment;
  /// Some count fell back to a bounding box.
  bool approximate = false;
  /// The analysis could not model this variant (it ranks last).
  std::string failure;
};

/// The ranking of one op: variants cheapest first.
struct OpRanking {
  std::vector<RankedVariant> variants;
  /// The cost they are sorted by.
  RankingCost cost = RankingCost::Traffic;
  double analysisSeconds = 0.0;
};

/// The dl.conv2d and dl.matmul ops under `root` whose outer loops a
/// schedule can order (blocked convolution, matmul with pack_blocks, static
/// sizes) and that have none yet, in walk order.
SmallVector<Operation *> getUnscheduledOps(Operation *root);

/// The schedule dimensions of a dl.conv2d or dl.matmul (none for other ops
/// or when no schedule applies).
std::optional<SmallVector<ScheduleDim>> getScheduleDims(Operation *op);

/// Sets the `schedule` of a dl.conv2d or dl.matmul (and decides a packed
/// matmul's `pack_c` again for it: computesCInPackedBlocks).
void setSchedule(Operation *op, ScheduleAttr schedule);

/// Writes `value` (indented JSON) to `path`; on failure emits an error on
/// `anchor` prefixed by `pass`.
LogicalResult writeJSONReport(Operation *anchor, StringRef pass, StringRef path,
                              llvm::json::Value value);

/// The variants of a schedulable op: every order of its dimensions longer
/// than 1 (a dimension that must stay innermost stays there), and every
/// one-dimension tiling by up to `tilesPerDim` divisors with the tile loop
/// outermost and the point loop innermost (a GEMM's K blocks, the
/// microkernel's batch, with `pack_c` and `batch_blocks` only by at most
/// `batch_blocks`), and each of these with an
/// optional dimension (a conv's input-channel blocks) tiled by up to
/// `tilesPerDim` divisors just inside the outermost loop when one kernel
/// call over all of it would read more than `maxBatchBytes`. With threads > 1,
/// the parallel loop is the outermost loop that is not a reduction and has
/// at least `threads` iterations (no variant without one;
/// dl-decide-parallelism decides again for the schedule the ranking picks).
SmallVector<ScheduleAttr> generateVariants(Operation *op,
                                           const RankingOptions &options);

/// Lowers and analyzes every variant of `op` (in parallel over the context's
/// threads) and sorts them by cost.
OpRanking rankVariants(Operation *op, const RankingOptions &options);

/// The ranking as JSON: per variant its schedule, working sets, bytes per
/// level, memory bytes and cost.
llvm::json::Object rankingToJSON(Operation *op, const OpRanking &ranking,
                                 const CacheModel &cache);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_TRANSFORMS_VARIANTRANKING_H
