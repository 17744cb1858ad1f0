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
// The same machinery gives the reuse profile: for every array and every loop
// carrying the next use of an element, how many accesses reuse there and at
// what distance, i.e. how often each working set is re-read, which the
// working sets alone do not say.
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

/// Accesses to one array whose next access to the same element is carried
/// by the same time dimension (the same loop), and how far that reuse is.
struct ReuseClass {
  unsigned array = 0;
  /// What carries the reuse: the loop at depth d ("d2"), or for a reuse
  /// between statements the schedule position t ("p1").
  std::string carrier;
  /// Instances whose next access to their element is carried there.
  int64_t accesses = 0;
  /// Bytes of one element of the array.
  int64_t elementBytes = 0;
  /// The reuse distance: the distinct elements (and bytes) of all arrays
  /// touched from an instance to its next access, both included, the larger
  /// of the first instance's and an interior one's (the middle of the outer
  /// loops' ranges: border iterations, such as a padded convolution's first
  /// output row, may touch less). A fully associative LRU cache of at least
  /// `distanceBytes` still holds the element when it is used again.
  int64_t distanceElements = 0;
  int64_t distanceBytes = 0;
  /// Some count was a bounding box.
  bool approximate = false;
};

/// Every access of the nest classified by where its element is used next:
/// the data a cache hierarchy must supply, and from how far back.
struct ReuseProfile {
  /// Per array, the bytes of its distinct elements (their first accesses
  /// come from memory).
  SmallVector<int64_t> firstTouchBytes;
  SmallVector<ReuseClass> reuses;
  bool approximate = false;
};

/// Options of the analysis.
struct WorkingSetOptions {
  /// Depth (0 = the root loop) of the loop that runs in parallel, if any.
  std::optional<unsigned> parallelDepth;
  /// Threads sharing the parallel loop. The reuse profile is one thread's:
  /// the parallel loop's iterations are split into `threads` contiguous
  /// chunks (a static schedule) and the profile covers the first.
  unsigned threads = 1;
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

  /// The reuse profile: for every array and every loop (or statement
  /// position) carrying a reuse, how many accesses have their next use of the
  /// element carried there and the reuse distance of the first of them.
  /// Unlike the working sets, it counts how often each reuse happens.
  ReuseProfile computeReuse(const WorkingSetOptions &options) const;

  /// The model in isl notation (domain, accesses, schedule), for reports.
  std::string describe() const;

private:
  explicit WorkingSetAnalysis(std::unique_ptr<PolyhedralModel> model);
  std::unique_ptr<PolyhedralModel> model;
};

} // namespace dl
} // namespace mlir

#endif // DL_ANALYSIS_WORKINGSET_H
