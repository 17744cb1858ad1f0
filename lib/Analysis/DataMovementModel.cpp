//===- DataMovementModel.cpp - MOpt's analytical data movement ------------===//
//
// The loop nests the model describes (convolution, GEMM), the effect of a
// tile loop on each tensor, and the pruning of loop orders to those no other
// order dominates (MOpt Sec. 4, as its artifact automates it: compare the
// Reuse/Expand/Spill effects instead of the 5040 cost expressions).
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/DataMovementModel.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::dl;

bool TensorAccess::uses(unsigned index) const {
  return llvm::any_of(dims, [&](const TensorDim &dim) {
    return dim.index == index || dim.window == index;
  });
}

bool TensorAccess::usesAlone(unsigned index) const {
  return llvm::any_of(dims, [&](const TensorDim &dim) {
    return dim.index == index && !dim.window;
  });
}

LoopNest LoopNest::conv(int64_t n, int64_t k, int64_t c, int64_t r, int64_t s,
                        int64_t h, int64_t w, int64_t strideH, int64_t strideW,
                        int64_t dilationH, int64_t dilationW) {
  enum { N, K, C, R, S, H, W };
  LoopNest nest;
  nest.indices = {"n", "k", "c", "r", "s", "h", "w"};
  nest.extents = {n, k, c, r, s, h, w};
  nest.reduction = {false, false, true, true, true, false, false};
  nest.tensors.push_back(
      {"In",
       {{N}, {C}, {H, R, strideH, dilationH}, {W, S, strideW, dilationW}},
       1.0});
  nest.tensors.push_back({"Ker", {{K}, {C}, {R}, {S}}, 1.0});
  nest.tensors.push_back({"Out", {{N}, {K}, {H}, {W}}, 2.0});
  return nest;
}

LoopNest LoopNest::gemm(int64_t m, int64_t n, int64_t k) {
  enum { I, J, K };
  LoopNest nest;
  nest.indices = {"i", "j", "k"};
  nest.extents = {m, n, k};
  nest.reduction = {false, false, true};
  nest.tensors.push_back({"A", {{I}, {K}}, 1.0});
  nest.tensors.push_back({"B", {{K}, {J}}, 1.0});
  nest.tensors.push_back({"C", {{I}, {J}}, 2.0});
  return nest;
}

std::optional<unsigned> LoopNest::lookup(StringRef name) const {
  for (auto [position, index] : llvm::enumerate(indices))
    if (index == name)
      return position;
  return std::nullopt;
}

SmallVector<TileLoopEffect> dl::getTileLoopEffects(const TensorAccess &tensor,
                                                   ArrayRef<unsigned> order) {
  SmallVector<TileLoopEffect> effects(order.size(), TileLoopEffect::Reuse);
  bool seen = false;
  for (unsigned position = order.size(); position-- > 0;) {
    unsigned index = order[position];
    if (seen) {
      effects[position] = TileLoopEffect::Spill;
    } else if (tensor.uses(index)) {
      seen = true;
      effects[position] = tensor.usesAlone(index) ? TileLoopEffect::Spill
                                                  : TileLoopEffect::Expand;
    }
  }
  return effects;
}

SmallVector<SmallVector<unsigned>>
dl::getDominatingOrders(const LoopNest &nest, ArrayRef<unsigned> looping,
                        ArrayRef<unsigned> innermost) {
  // Each order's effects, per (tensor, index): the cost expression depends
  // on nothing else.
  struct Candidate {
    SmallVector<unsigned> order;
    SmallVector<int> effects; // [tensor * size + index]
  };
  SmallVector<unsigned> permutation(looping);
  llvm::sort(permutation);
  SmallVector<Candidate> candidates;
  do {
    Candidate candidate;
    candidate.order.assign(permutation.begin(), permutation.end());
    llvm::append_range(candidate.order, innermost);
    candidate.effects.assign(nest.tensors.size() * nest.size(), 0);
    for (auto [t, tensor] : llvm::enumerate(nest.tensors)) {
      SmallVector<TileLoopEffect> effects =
          getTileLoopEffects(tensor, candidate.order);
      for (auto [position, index] : llvm::enumerate(candidate.order))
        candidate.effects[t * nest.size() + index] =
            static_cast<int>(effects[position]);
    }
    candidates.push_back(std::move(candidate));
  } while (std::next_permutation(permutation.begin(), permutation.end()));

  auto noWorse = [](const Candidate &a, const Candidate &b) {
    for (auto [x, y] : llvm::zip(a.effects, b.effects))
      if (x > y)
        return false;
    return true;
  };
  SmallVector<SmallVector<unsigned>> survivors;
  for (auto [i, candidate] : llvm::enumerate(candidates)) {
    bool dominated = false;
    for (auto [j, other] : llvm::enumerate(candidates)) {
      if (i == j || !noWorse(other, candidate))
        continue;
      // Strictly better, or the same pattern met earlier (one per class).
      if (other.effects != candidate.effects || j < i) {
        dominated = true;
        break;
      }
    }
    if (!dominated)
      survivors.push_back(candidate.order);
  }
  return survivors;
}

double dl::getCompulsoryVolume(const LoopNest &nest) {
  SmallVector<double> extents(llvm::map_range(
      nest.extents, [](int64_t e) { return static_cast<double>(e); }));
  double sum = 0.0;
  for (const TensorAccess &tensor : nest.tensors)
    sum += tensor.coefficient * getFootprint(tensor, ArrayRef<double>(extents));
  return sum;
}
