//===- DataMovementModel.h - MOpt's analytical data movement ----*- C++ -*-===//
//
// The analytical data-movement model of Li et al., "Analytical
// Characterization and Design Space Exploration for Optimization of CNNs"
// (ASPLOS'21, MOpt): for a tiled loop nest whose every index appears in some
// of the tensors, the words moved between a cache level and the next one
// follow from the tile sizes and the order of the tile loops alone
// (idealized fully associative LRU caches, unit lines, and tiles that use the
// capacity well: once a tensor's index is in the innermost tile loop, the
// tensor gets no reuse at the loops outside). The model covers the
// convolution (n, k, c, r, s, h, w with stride and dilation, which the paper
// leaves out) and GEMM (i, j, k).
//
// Evaluation is templated on the scalar type so that the tile solver gets
// exact gradients with dual numbers from the same code.
//
//===----------------------------------------------------------------------===//

#ifndef DL_ANALYSIS_DATAMOVEMENTMODEL_H
#define DL_ANALYSIS_DATAMOVEMENTMODEL_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
namespace dl {

/// One dimension of a tensor: a loop index, or the sliding window
/// `stride * index + dilation * window` (a convolution input's rows and
/// columns, indexed by output position and filter tap). A tile of T_x
/// outputs and T_y taps covers stride * (T_x - 1) + dilation * (T_y - 1) + 1
/// elements.
struct TensorDim {
  unsigned index;
  std::optional<unsigned> window;
  int64_t stride = 1;
  int64_t dilation = 1;
};

struct TensorAccess {
  std::string name;
  SmallVector<TensorDim> dims;
  /// Words moved per element of the footprint: 2 for an output that is read
  /// and written back, 1 for an input.
  double coefficient = 1.0;

  /// Whether `index` indexes some dimension of the tensor.
  bool uses(unsigned index) const;
  /// Whether `index` is a dimension on its own (not inside a window).
  bool usesAlone(unsigned index) const;
};

/// A perfectly nested loop nest over `extents`, with the tensors it moves.
struct LoopNest {
  SmallVector<std::string> indices;
  SmallVector<int64_t> extents;
  /// Reduction indices (no tensor written is indexed by them) cannot run in
  /// parallel.
  SmallVector<bool> reduction;
  SmallVector<TensorAccess> tensors;

  /// Out[n,k,h,w] += In[n,c,sh*h+dh*r,sw*w+dw*s] * Ker[k,c,r,s], indices
  /// (n, k, c, r, s, h, w) in this order; h, w are output sizes.
  static LoopNest conv(int64_t n, int64_t k, int64_t c, int64_t r, int64_t s,
                       int64_t h, int64_t w, int64_t strideH = 1,
                       int64_t strideW = 1, int64_t dilationH = 1,
                       int64_t dilationW = 1);
  /// C[i,j] += A[i,k] * B[k,j], indices (i, j, k).
  static LoopNest gemm(int64_t m, int64_t n, int64_t k);

  std::optional<unsigned> lookup(StringRef name) const;
  unsigned size() const { return extents.size(); }
};

/// What a tile loop does to a tensor (walking the tile loops innermost-out):
/// the tensor stays (Reuse: the loop's index is not in the tensor and no
/// inner loop's is), its window grows to the loop's whole range (Expand:
/// the first index of the tensor met is inside a window), or it is fetched
/// again per iteration (Spill).
enum class TileLoopEffect { Reuse = 0, Expand = 1, Spill = 2 };

/// The effect of each loop of `order` (outermost first) on `tensor`.
SmallVector<TileLoopEffect> getTileLoopEffects(const TensorAccess &tensor,
                                               ArrayRef<unsigned> order);

/// The orders of `looping` (each followed by the fixed `innermost` suffix)
/// that no other order dominates: order a dominates b when every tile loop
/// does no worse to every tensor under a (Reuse < Expand < Spill); one
/// order per distinct effect pattern. For the convolution's 7 indices this
/// leaves MOpt's 8 classes.
SmallVector<SmallVector<unsigned>>
getDominatingOrders(const LoopNest &nest, ArrayRef<unsigned> looping,
                    ArrayRef<unsigned> innermost = {});

//===----------------------------------------------------------------------===//
// Evaluation (any scalar type with +, -, *, / and a double constructor)
//===----------------------------------------------------------------------===//

/// Elements of `tensor` in a tile of sizes `tile` (one entry per index).
template <typename Scalar>
Scalar getFootprint(const TensorAccess &tensor, ArrayRef<Scalar> tile) {
  Scalar product(1.0);
  for (const TensorDim &dim : tensor.dims) {
    if (!dim.window) {
      product = product * tile[dim.index];
      continue;
    }
    product = product * (Scalar(static_cast<double>(dim.stride)) *
                             (tile[dim.index] - Scalar(1.0)) +
                         Scalar(static_cast<double>(dim.dilation)) *
                             (tile[*dim.window] - Scalar(1.0)) +
                         Scalar(1.0));
  }
  return product;
}

/// Words of all tensors in a tile.
template <typename Scalar>
Scalar getFootprint(const LoopNest &nest, ArrayRef<Scalar> tile) {
  Scalar sum(0.0);
  for (const TensorAccess &tensor : nest.tensors)
    sum = sum + getFootprint(tensor, tile);
  return sum;
}

/// Words `tensor` moves into a cache while tile loops in `order` (outermost
/// first) sweep tiles of `tile` over `range` (MOpt Sec. 3.2: walking the
/// loops innermost-out, Reuse keeps the volume, Expand replaces the tile
/// of the window index by its range, Spill multiplies by the trip count).
/// Indices without a loop in `order` must have tile == range.
template <typename Scalar>
Scalar getTensorVolume(const TensorAccess &tensor, ArrayRef<unsigned> order,
                       ArrayRef<Scalar> tile, ArrayRef<Scalar> range) {
  SmallVector<Scalar> extent(tile.begin(), tile.end());
  Scalar trips(1.0);
  bool seen = false;
  for (unsigned index : llvm::reverse(order)) {
    if (seen) {
      trips = trips * (range[index] / tile[index]);
    } else if (tensor.uses(index)) {
      seen = true;
      if (tensor.usesAlone(index))
        trips = trips * (range[index] / tile[index]);
      else
        extent[index] = range[index];
    }
  }
  return Scalar(tensor.coefficient) *
         getFootprint(tensor, ArrayRef<Scalar>(extent)) * trips;
}

/// Words all tensors move for one sweep of tiles over `range`.
template <typename Scalar>
Scalar getSweepVolume(const LoopNest &nest, ArrayRef<unsigned> order,
                      ArrayRef<Scalar> tile, ArrayRef<Scalar> range) {
  Scalar sum(0.0);
  for (const TensorAccess &tensor : nest.tensors)
    sum = sum + getTensorVolume(tensor, order, tile, range);
  return sum;
}

/// DV^l of the multi-level model: the words moved into a level whose tiles
/// are `tile` while tile loops in `order` sweep each enclosing tile
/// `enclosing`, over all enclosing tiles of the problem:
///   prod_j N_j / enclosing_j * getSweepVolume(order, tile, enclosing).
template <typename Scalar>
Scalar getLevelVolume(const LoopNest &nest, ArrayRef<unsigned> order,
                      ArrayRef<Scalar> tile, ArrayRef<Scalar> enclosing) {
  Scalar repeats(1.0);
  for (unsigned index = 0; index < nest.size(); ++index)
    repeats = repeats * (Scalar(static_cast<double>(nest.extents[index])) /
                         enclosing[index]);
  return repeats * getSweepVolume(nest, order, tile, enclosing);
}

/// The words of every tensor moved once (In + Ker + 2 * Out for a
/// convolution): the volume of any order with tiles equal to the extents.
double getCompulsoryVolume(const LoopNest &nest);

} // namespace dl
} // namespace mlir

#endif // DL_ANALYSIS_DATAMOVEMENTMODEL_H
