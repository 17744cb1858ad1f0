//===- WorkingSet.h - PolyDL working sets of affine loop nests --*- C++ -*-===//
//
// The working-set analysis of PolyDL (Algorithm 1): the polyhedral model of
// an affine loop nest (iteration domains, read/write access relations, a
// 2d+1 schedule) built with isl from the MLIR affine IR, the dependences
// between all pairs of accesses to the same array (RAR, RAW, WAR, WAW), and
// for each dependence the number of distinct array elements touched between
// its first source and its first / last target (WS_min / WS_max), or by all
// iterations of the parallel loop (WS_par). Counting is exact: boxes and
// boxes on a lattice (strided accesses) from their extents, other pieces by
// isl's enumeration within a bounded number of operations; past the bound the
// bounding box is counted and the working set is marked approximate.
//
//===----------------------------------------------------------------------===//

#ifndef DL_ANALYSIS_WORKINGSET_H
#define DL_ANALYSIS_WORKINGSET_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>

namespace mlir {
namespace dl {

/// One working set of Algorithm 1.
struct WorkingSet {
  enum class Kind { Min, Max, Parallel };
  Kind kind;
  /// The dependence it belongs to, e.g. "RAR A0[d0, d2] -> A0[d0, d2]".
  std::string dependence;
  /// Distinct elements over all arrays, and the bytes they occupy.
  int64_t elements = 0;
  int64_t bytes = 0;
  /// Some count was a bounding box (isl's operation bound was hit).
  bool approximate = false;
};

/// Options of the analysis.
struct WorkingSetOptions {
  /// Depth (0 = the root loop) of the loop that runs in parallel, if any.
  std::optional<unsigned> parallelDepth;
  /// isl operations allowed per count before the bounding box is used; 0
  /// counts every piece that is not a box (or a box on a lattice) by its
  /// bounding box.
  unsigned long maxOperations = 2000000;
};

class PolyhedralModel;

/// The working sets of the nest rooted at one affine.for.
class WorkingSetAnalysis {
public:
  /// Builds the polyhedral model of the nest under `root`. Fails (with the
  /// reason in `whyNot`) on nests the model does not cover: non-affine
  /// accesses, loops with iter_args, ops with unknown memory effects.
  static FailureOr<std::unique_ptr<WorkingSetAnalysis>>
  build(affine::AffineForOp root, std::string *whyNot = nullptr);
  ~WorkingSetAnalysis();

  /// Algorithm 1 over every dependence of the nest.
  SmallVector<WorkingSet> compute(const WorkingSetOptions &options) const;

  /// The model in isl notation (domain, accesses, schedule), for reports.
  std::string describe() const;

private:
  explicit WorkingSetAnalysis(std::unique_ptr<PolyhedralModel> model);
  std::unique_ptr<PolyhedralModel> model;
};

} // namespace dl
} // namespace mlir

#endif // DL_ANALYSIS_WORKINGSET_H
