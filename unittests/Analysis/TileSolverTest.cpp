//===- TileSolverTest.cpp - Ipopt tile sizes against known optima ---------===//
//
// The solver's acceptance checks from the analytical tiling digest: the
// matmul optimum sqrt(C + 1) - 1 before rounding, constraints after
// rounding, monotonicity in the capacity, min-max consistency, the parallel
// split, and the fallback when Ipopt is not allowed to converge.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/TileSolver.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dl;

namespace {

/// Listing 1 of MOpt: one level of capacity `capacity` words over a GEMM,
/// K innermost.
TileProblem singleLevelMatmul(double capacity) {
  TileProblem problem;
  problem.nest = LoopNest::gemm(8192, 8192, 8192);
  TileLevel level;
  level.name = "L1";
  level.capacity = capacity;
  level.fixedTiles = {0, 0, 0};
  level.innermostLoops = {2};
  problem.levels.push_back(level);
  return problem;
}

TEST(TileSolver, MatmulTileBeforeRounding) {
  for (auto [capacity, tile] :
       {std::pair<double, int>{8192, 89}, std::pair<double, int>{65536, 255}}) {
    TileSolverResult result = solveTileSizes(singleLevelMatmul(capacity));
    ASSERT_FALSE(result.usedFallback) << result.fallbackReason;
    ASSERT_EQ(result.relaxed.size(), 1u);
    EXPECT_EQ(static_cast<int>(std::floor(result.relaxed[0][0])), tile);
    EXPECT_EQ(static_cast<int>(std::floor(result.relaxed[0][1])), tile);
    EXPECT_NEAR(result.relaxed[0][2], 1.0, 1e-3);
    // Rounded: divisors of 8192 whose footprint fits.
    ASSERT_FALSE(result.candidates.empty());
    for (const TileConfig &config : result.candidates)
      EXPECT_TRUE(isFeasible(singleLevelMatmul(capacity), config));
  }
}

/// The shape the code generator gives a blocked convolution: registers
/// (6 x 16, fixed), one batch element of the microkernel (fixed), then L2
/// and L3 tiles over n, k, c, h (multiples of the blocks), memory.
TileProblem convProblem(LoopNest nest, double l2, double l3,
                        unsigned threads = 1, double bandwidthScale = 1.0) {
  enum { N, K, C, R, S, H, W };
  int64_t w = nest.extents[W], r = nest.extents[R], s = nest.extents[S];
  TileProblem problem;
  problem.nest = nest;
  problem.threads = threads;
  TileLevel reg{"reg",
                0,
                27.0 * bandwidthScale,
                true,
                {1, 16, 1, 1, 1, 1, std::min<int64_t>(6, w)},
                {W, K, C}};
  TileLevel l1{
      "L1",     8192, 26.0 * bandwidthScale, true, {1, 32, 16, 1, 1, 1, w},
      {C, R, S}};
  TileLevel l2level{
      "L2", l2, 12.0 * bandwidthScale, true, {0, 0, 0, r, s, 0, w}, {}};
  TileLevel l3level{
      "L3", l3, 4.6 * bandwidthScale, false, {0, 0, 0, r, s, 0, w}, {}};
  problem.levels = {reg, l1, l2level, l3level};
  return problem;
}

LoopNest res4Conv() { return LoopNest::conv(1, 256, 256, 3, 3, 14, 14); }
LoopNest res2Conv() { return LoopNest::conv(1, 64, 64, 3, 3, 56, 56); }

TEST(TileSolver, RoundedTilesKeepTheConstraints) {
  for (LoopNest nest : {res4Conv(), res2Conv()}) {
    TileProblem problem = convProblem(nest, 131072, 4194304);
    ASSERT_EQ(verifyTileProblem(problem), "");
    TileSolverResult result = solveTileSizes(problem);
    ASSERT_FALSE(result.usedFallback) << result.fallbackReason;
    ASSERT_FALSE(result.candidates.empty());
    for (const TileConfig &config : result.candidates) {
      EXPECT_TRUE(isFeasible(problem, config));
      for (unsigned l = 2; l < 4; ++l) {
        SmallVector<double> tile(llvm::map_range(
            config.tiles[l], [](int64_t t) { return static_cast<double>(t); }));
        EXPECT_LE(getFootprint<double>(nest, tile), problem.levels[l].capacity);
        for (unsigned j = 0; j < nest.size(); ++j) {
          int64_t outer = l == 3 ? nest.extents[j] : config.tiles[l + 1][j];
          EXPECT_EQ(outer % config.tiles[l][j], 0);
          EXPECT_EQ(config.tiles[l][j] % config.tiles[l - 1][j], 0);
        }
      }
      // The reported bottleneck is the largest level cost.
      for (double cost : config.levelCosts)
        EXPECT_LE(cost, config.getCost());
    }
    // Candidates come best first.
    for (size_t i = 1; i < result.candidates.size(); ++i)
      EXPECT_LE(result.candidates[i - 1].getCost(),
                result.candidates[i].getCost() * (1 + 1e-9));
  }
}

TEST(TileSolver, LargerCachesNeverCostMore) {
  for (LoopNest nest : {res4Conv(), res2Conv()}) {
    TileSolverResult small = solveTileSizes(convProblem(nest, 65536, 1 << 20));
    TileSolverResult large = solveTileSizes(convProblem(nest, 262144, 1 << 23));
    ASSERT_FALSE(small.candidates.empty());
    ASSERT_FALSE(large.candidates.empty());
    EXPECT_LE(large.candidates.front().getCost(),
              small.candidates.front().getCost() * (1 + 1e-9));
  }
}

TEST(TileSolver, ScalingAllBandwidthsKeepsTheChoice) {
  TileSolverResult base =
      solveTileSizes(convProblem(res4Conv(), 131072, 1 << 22));
  TileSolverResult scaled =
      solveTileSizes(convProblem(res4Conv(), 131072, 1 << 22, 1, 3.0));
  ASSERT_FALSE(base.candidates.empty());
  ASSERT_FALSE(scaled.candidates.empty());
  EXPECT_EQ(base.candidates.front().tiles, scaled.candidates.front().tiles);
  EXPECT_NEAR(base.candidates.front().getCost(),
              3.0 * scaled.candidates.front().getCost(),
              1e-6 * base.candidates.front().getCost());
}

TEST(TileSolver, ThreadsSplitANonReductionIndex) {
  TileProblem problem = convProblem(res2Conv(), 131072, 1 << 22, 2);
  TileSolverResult result = solveTileSizes(problem);
  ASSERT_FALSE(result.candidates.empty());
  for (const TileConfig &config : result.candidates) {
    ASSERT_TRUE(config.parallelIndex.has_value());
    unsigned a = *config.parallelIndex;
    EXPECT_FALSE(problem.nest.reduction[a]);
    EXPECT_EQ(config.parallelChunk * 2, config.tiles[3][a]);
    EXPECT_EQ(config.parallelChunk % config.tiles[2][a], 0);
    EXPECT_TRUE(isFeasible(problem, config));
  }
}

TEST(TileSolver, FallbackWhenIpoptCannotConverge) {
  TileProblem problem = convProblem(res4Conv(), 131072, 1 << 22);
  TileSolverOptions options;
  options.maxIterations = 0;
  TileSolverResult result = solveTileSizes(problem, options);
  EXPECT_TRUE(result.usedFallback);
  EXPECT_NE(result.fallbackReason.find("Ipopt"), std::string::npos);
  ASSERT_FALSE(result.candidates.empty());
  EXPECT_TRUE(isFeasible(problem, result.candidates.front()));
  // The heuristic is no better than the solver's pick.
  TileSolverResult solved = solveTileSizes(problem);
  ASSERT_FALSE(solved.candidates.empty());
  EXPECT_LE(solved.candidates.front().getCost(),
            result.candidates.front().getCost() * (1 + 1e-9));
}

TEST(TileSolver, MalformedProblemsAreReported) {
  TileProblem problem = convProblem(res4Conv(), 131072, 1 << 22);
  problem.levels[2].fixedTiles.pop_back();
  EXPECT_NE(verifyTileProblem(problem).find("one tile entry per index"),
            std::string::npos);
  problem = convProblem(res4Conv(), 131072, 1 << 22);
  problem.levels[1].fixedTiles[1] = 512;
  EXPECT_NE(verifyTileProblem(problem).find("outside 1..256"),
            std::string::npos);
}

} // namespace
