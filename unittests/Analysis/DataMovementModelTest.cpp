//===- DataMovementModelTest.cpp - MOpt's model against its numbers -------===//
//
// The acceptance numbers of the analytical tiling digest
// (shared/docs/papers/001-analytical-tiling.md, Sec. 7): eq. 5 against the
// generic rule, the compulsory limit, the R9 unit values per class, the
// pruning to 8 classes, and the single-level optima by exhaustive search.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/DataMovementModel.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <set>

using namespace mlir;
using namespace mlir::dl;

namespace {

enum { N, K, C, R, S, H, W };

/// MOpt's class representatives, outermost loop first.
const SmallVector<SmallVector<unsigned>> kClasses = {
    {K, C, R, S, N, H, W}, // C1
    {K, C, R, S, N, W, H}, // C2
    {N, K, H, W, C, R, S}, // C3
    {N, K, H, W, C, S, R}, // C4
    {N, C, H, R, S, W, K}, // C5
    {N, C, W, R, S, H, K}, // C6
    {N, C, H, W, R, S, K}, // C7
    {N, C, H, W, S, R, K}, // C8
};

SmallVector<double> toDoubles(ArrayRef<int64_t> values) {
  return SmallVector<double>(llvm::map_range(
      values, [](int64_t v) { return static_cast<double>(v); }));
}

double volume(const LoopNest &nest, ArrayRef<unsigned> order,
              ArrayRef<int64_t> tile) {
  SmallVector<double> t = toDoubles(tile), n = toDoubles(nest.extents);
  return getSweepVolume<double>(nest, order, t, n);
}

LoopNest layerR9() { return LoopNest::conv(1, 256, 256, 3, 3, 14, 14); }

TEST(DataMovementModel, Eq5MatchesGenericRule) {
  std::mt19937 rng(7);
  LoopNest nest = LoopNest::conv(4, 64, 32, 3, 3, 28, 28);
  SmallVector<double> n = toDoubles(nest.extents);
  for (int trial = 0; trial < 100; ++trial) {
    SmallVector<double> t;
    for (double extent : n)
      t.push_back(std::uniform_real_distribution<double>(1.0, extent)(rng));
    auto q = [&](unsigned j) { return n[j] / t[j]; };
    double fpKer = t[K] * t[C] * t[R] * t[S];
    double fpOut = t[N] * t[K] * t[H] * t[W];
    double eq5 =
        q(K) * q(C) * q(R) * q(S) *
        (fpKer + q(N) * q(H) *
                     (2 * q(W) * fpOut +
                      t[N] * t[C] * (t[H] + t[R] - 1) * (n[W] + t[S] - 1)));
    EXPECT_NEAR(getSweepVolume<double>(nest, kClasses[0], t, n), eq5,
                1e-9 * eq5);
  }
}

TEST(DataMovementModel, CompulsoryLimitAtFullTiles) {
  LoopNest nest = layerR9();
  EXPECT_EQ(getCompulsoryVolume(nest), 755712.0);
  for (ArrayRef<unsigned> order : kClasses)
    EXPECT_EQ(volume(nest, order, nest.extents), 755712.0);
}

TEST(DataMovementModel, UnitValuesOfR9PerClass) {
  LoopNest nest = layerR9();
  SmallVector<int64_t> tile = {1, 32, 16, 3, 3, 7, 14};
  SmallVector<double> t = toDoubles(tile);
  EXPECT_EQ(getFootprint<double>(nest.tensors[0], t), 2304.0);
  EXPECT_EQ(getFootprint<double>(nest.tensors[1], t), 4608.0);
  EXPECT_EQ(getFootprint<double>(nest.tensors[2], t), 3136.0);
  EXPECT_EQ(getFootprint<double>(nest, t), 10048.0);
  const double expected[] = {2785280, 2719744, 1869824, 1869824,
                             2859008, 2850816, 2859008, 2859008};
  for (auto [order, value] : llvm::zip(kClasses, expected))
    EXPECT_EQ(volume(nest, order, tile), value);
}

TEST(DataMovementModel, StrideAndDilationWidenTheInputWindow) {
  // 3x3 taps, stride 2, dilation 2: 4 output rows read 2*3 + 2*2 + 1 = 11.
  LoopNest nest = LoopNest::conv(1, 8, 4, 3, 3, 4, 4, 2, 2, 2, 2);
  SmallVector<double> t = {1, 8, 4, 3, 3, 4, 4};
  EXPECT_EQ(getFootprint<double>(nest.tensors[0], t), 4.0 * 11 * 11);
}

TEST(DataMovementModel, PruningLeavesTheEightClasses) {
  LoopNest nest = layerR9();
  nest.extents[N] = 2;
  SmallVector<unsigned> all = {N, K, C, R, S, H, W};
  SmallVector<SmallVector<unsigned>> survivors = getDominatingOrders(nest, all);
  ASSERT_EQ(survivors.size(), 8u);

  // Every order's volume is some survivor's at random points, and the
  // survivors' minimum is the minimum over all 5040 orders.
  std::mt19937 rng(11);
  SmallVector<unsigned> permutation(all);
  SmallVector<SmallVector<unsigned>> orders;
  do
    orders.push_back(permutation);
  while (std::next_permutation(permutation.begin(), permutation.end()));
  ASSERT_EQ(orders.size(), 5040u);
  SmallVector<double> n = toDoubles(nest.extents);
  // Values quantized (summation order differs between orders).
  std::set<SmallVector<long long>> expressions;
  for (int trial = 0; trial < 300; ++trial) {
    SmallVector<double> t;
    for (double extent : n)
      t.push_back(std::uniform_real_distribution<double>(1.0, extent)(rng));
    double best = std::numeric_limits<double>::infinity();
    for (ArrayRef<unsigned> order : orders)
      best = std::min(best, getSweepVolume<double>(nest, order, t, n));
    double bestSurvivor = std::numeric_limits<double>::infinity();
    for (ArrayRef<unsigned> order : survivors)
      bestSurvivor =
          std::min(bestSurvivor, getSweepVolume<double>(nest, order, t, n));
    EXPECT_NEAR(bestSurvivor, best, 1e-9 * best);
  }
  // 29 distinct cost expressions (values at a few fixed points) with Nn > 1.
  SmallVector<SmallVector<double>> points;
  for (int p = 0; p < 3; ++p) {
    SmallVector<double> t;
    for (double extent : n)
      t.push_back(std::uniform_real_distribution<double>(1.0, extent)(rng));
    points.push_back(t);
  }
  for (ArrayRef<unsigned> order : orders) {
    SmallVector<long long> values;
    for (ArrayRef<double> t : points)
      values.push_back(std::llround(
          std::log(getSweepVolume<double>(nest, order, t, n)) * 1e9));
    expressions.insert(values);
  }
  EXPECT_EQ(expressions.size(), 29u);
}

TEST(DataMovementModel, GemmHasThreeClasses) {
  LoopNest nest = LoopNest::gemm(64, 64, 64);
  EXPECT_EQ(getDominatingOrders(nest, {0, 1, 2}).size(), 3u);
  // Listing 1 (k innermost): Ni Nj Nk (1/Ti + 1/Tj + 2/Nk), eq. 3.
  SmallVector<double> t = {8, 16, 4}, n = {64, 64, 64};
  double eq3 = 64.0 * 64 * 64 * (1.0 / 8 + 1.0 / 16 + 2.0 / 64);
  EXPECT_EQ(getSweepVolume<double>(nest, {0, 1, 2}, t, n), eq3);
}

/// The smallest single-level volume over divisor tiles that fit `capacity`
/// words, over the 8 classes: (volume, tile).
std::pair<double, SmallVector<int64_t>> exhaustiveOptimum(const LoopNest &nest,
                                                          double capacity) {
  SmallVector<SmallVector<int64_t>> divisors;
  for (int64_t extent : nest.extents) {
    SmallVector<int64_t> d;
    for (int64_t v = 1; v <= extent; ++v)
      if (extent % v == 0)
        d.push_back(v);
    divisors.push_back(d);
  }
  double best = std::numeric_limits<double>::infinity();
  SmallVector<int64_t> bestTile;
  SmallVector<int64_t> tile(nest.size());
  std::function<void(unsigned)> visit = [&](unsigned index) {
    if (index == nest.size()) {
      SmallVector<double> t = toDoubles(tile);
      if (getFootprint<double>(nest, t) > capacity)
        return;
      for (ArrayRef<unsigned> order : kClasses) {
        double v = volume(nest, order, tile);
        if (v < best)
          best = v, bestTile = tile;
      }
      return;
    }
    for (int64_t d : divisors[index]) {
      tile[index] = d;
      visit(index + 1);
    }
  };
  visit(0);
  return {best, bestTile};
}

TEST(DataMovementModel, SingleLevelOptimaByExhaustiveSearch) {
  struct Case {
    LoopNest nest;
    double capacity;
    double volume;
  };
  Case cases[] = {
      {layerR9(), 8192, 1214464},
      {layerR9(), 65536, 755712},
      {LoopNest::conv(1, 64, 64, 3, 3, 56, 56), 8192, 1455104},
      {LoopNest::conv(1, 64, 64, 3, 3, 56, 56), 65536, 653568},
      {LoopNest::conv(1, 512, 1024, 1, 1, 17, 17), 8192, 7626752},
      {LoopNest::conv(1, 512, 1024, 1, 1, 17, 17), 65536, 2003968},
  };
  for (const Case &c : cases)
    EXPECT_EQ(exhaustiveOptimum(c.nest, c.capacity).first, c.volume);
}

TEST(DataMovementModel, TileOfCheck3IsInfeasibleInSmallCache) {
  LoopNest nest = layerR9();
  SmallVector<double> t = {1, 32, 16, 3, 3, 7, 14};
  EXPECT_GT(getFootprint<double>(nest, t), 8192.0);
  EXPECT_LE(getFootprint<double>(nest, t), 65536.0);
}

} // namespace
