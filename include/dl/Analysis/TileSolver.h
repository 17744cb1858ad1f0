//===- TileSolver.h - multi-level tile sizes by Ipopt -----------*- C++ -*-===//
//
// Chooses tile sizes and tile-loop orders for every cache level of a loop
// nest by minimizing MOpt's bandwidth-scaled bottleneck
//   max_l DV^l / BW^l   s.t. footprint(T^l) <= capacity_l, T^l <= T^{l+1}
// (DataMovementModel) over the continuous tile sizes with Ipopt, then
// rounds to integer tiles that the code generator can apply (multiples of
// the inner level's tile, divisors of the extents) and ranks the rounded
// candidates by the same model. With threads > 1 the outermost level's tile
// is split over the threads along one non-reduction index (the product of
// the per-core chunks' ratios equals the thread count).
//
//===----------------------------------------------------------------------===//

#ifndef DL_ANALYSIS_TILESOLVER_H
#define DL_ANALYSIS_TILESOLVER_H

#include "dl/Analysis/DataMovementModel.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir {
namespace dl {

/// One level of the hierarchy whose tiles the solver sizes, innermost
/// (registers) first. Level l's tile loops sweep its tiles over the tiles of
/// level l + 1 (the extents for the last level); DV^l is the volume moved
/// into level l.
struct TileLevel {
  std::string name;
  /// Capacity in words; 0 leaves the level's tiles unconstrained.
  double capacity = 0.0;
  /// Words per unit time of the link that fills this level.
  double bandwidth = 1.0;
  /// The level is private to a core: with threads > 1 its volume is per
  /// core (the total over the threads' chunks divided by the threads).
  bool perCore = true;
  /// Per index: a positive entry fixes the tile (the microkernel's), 0
  /// leaves it to the solver (a multiple of the inner level's tile).
  SmallVector<int64_t> fixedTiles;
  /// Indices whose tile loops at this level must be innermost, in this
  /// order (the batch of a batch-reduce microkernel).
  SmallVector<unsigned> innermostLoops;
};

struct TileProblem {
  LoopNest nest;
  SmallVector<TileLevel> levels;
  unsigned threads = 1;
};

/// Integer tiles, the tile-loop order of each level and the modeled costs.
struct TileConfig {
  /// tiles[l][j]: level l's tile along index j.
  SmallVector<SmallVector<int64_t>> tiles;
  /// orders[l]: level l's tile loops, outermost first.
  SmallVector<SmallVector<unsigned>> orders;
  /// With threads > 1: the index whose outermost-level tile the threads
  /// split, and the per-core chunk along it.
  std::optional<unsigned> parallelIndex;
  int64_t parallelChunk = 0;
  /// DV^l / BW^l per level, and the level with the largest.
  SmallVector<double> levelCosts;
  unsigned bottleneck = 0;
  double getCost() const { return levelCosts[bottleneck]; }
  llvm::json::Object toJSON(const TileProblem &problem) const;
};

struct TileSolverOptions {
  /// Ipopt's iteration limit per solve; 0 makes every solve fail (to test
  /// the fallback).
  unsigned maxIterations = 200;
  /// Rounded candidates returned, best first.
  unsigned candidates = 4;
};

struct TileSolverResult {
  SmallVector<TileConfig> candidates;
  /// The continuous optimum of the best order combination: relaxed[l][j].
  SmallVector<SmallVector<double>> relaxed;
  /// Ipopt failed or no rounding was feasible: the candidates come from the
  /// greedy fallback (see solveTileSizes); `fallbackReason` says why.
  bool usedFallback = false;
  std::string fallbackReason;
  unsigned solves = 0;
  unsigned failedSolves = 0;
  double seconds = 0.0;
};

/// Checks the problem's shape (one tile entry per index at every level,
/// fixed tiles within the extents, positive bandwidths). Returns an error
/// message, or "" when it is well formed.
std::string verifyTileProblem(const TileProblem &problem);

/// Solves `problem` (verifyTileProblem must accept it).
///
/// The min-max is an epigraph variable z: minimize z subject to
/// log(DV^l/BW^l) <= z for every level, in the logarithms of the tiles
/// (footprints and volumes are then convex for compact tiles and the
/// variables are well scaled). A single epigraph solve leaves every level
/// but the bottleneck free to be anywhere below it, so, as MOpt's Algorithm
/// 1 visits the levels bottleneck-first, the solve is repeated with the
/// bottleneck's cost capped at its optimum and the remaining levels in the
/// max, until every level is fixed: one smooth problem per step instead of
/// one per candidate bottleneck. Gradients are exact (forward-mode dual
/// numbers through the model); the Hessian is Ipopt's limited-memory
/// approximation. One problem per combination of non-dominated loop
/// orders of the levels (getDominatingOrders).
///
/// Rounding: from the best combinations' relaxed tiles, each free tile goes
/// to the nearest multiple of the inner level's tile that divides the
/// extent, below and above; every combination whose footprints fit is
/// scored with each level's best order, and candidates are ranked by their
/// level costs sorted descending (the bottleneck first, then the next).
///
/// Fallback (every Ipopt solve failed, or no rounding fits): start from the
/// smallest tiles and repeatedly grow the one tile (to its next divisor
/// multiple) that lowers the ranked costs most while the footprints fit.
TileSolverResult solveTileSizes(const TileProblem &problem,
                                const TileSolverOptions &options = {});

/// Fills `config.orders` (each level's cheapest non-dominated order),
/// `levelCosts` and `bottleneck` from its tiles and parallel split.
void evaluateTileConfig(const TileProblem &problem, TileConfig &config);

/// Whether every level's footprint fits its capacity and tiles nest
/// (multiples of the inner tile, dividing the extent or the split chunk).
bool isFeasible(const TileProblem &problem, const TileConfig &config);

} // namespace dl
} // namespace mlir

#endif // DL_ANALYSIS_TILESOLVER_H
