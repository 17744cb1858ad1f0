//===- GuardTree.h - dispatch among versions by affine guards ---*- C++ -*-===//
//
// Versions of an op each hold in a context: a conjunction of affine
// constraints on the op's parameters (its dynamic sizes). At run time the
// first version in priority order whose context holds must run. This builds
// the guards that select it: a decision tree whose every node tests
// constraints on the parameters, such that
//   - every point of the root context reaches exactly the version
//     sel(p) = the first version whose context contains p (or none, when no
//     context does),
//   - no constraint is tested twice on a path, and none is tested where the
//     constraints above it (and the root context) already decide it.
// It is the robust TREE of ../shared/docs/papers/002-parametric-versioning.md
// §2.3: R-Stream's TREE-GEN is sound but not complete (a point can reach a
// branch without a version: the digest's counterexample is a unit test).
// Emptiness and implication are decided on integer points by MLIR's
// Presburger library; no library builds such a dispatch.
//
//===----------------------------------------------------------------------===//

#ifndef DL_ANALYSIS_GUARDTREE_H
#define DL_ANALYSIS_GUARDTREE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace mlir {
class IntegerSet;
class MLIRContext;
namespace dl {

/// `sum_i coefficients[i] * p_i + constant >= 0` over the parameters p,
/// stored as the coefficients followed by the constant.
using GuardConstraint = SmallVector<int64_t, 4>;

/// Normalized form: coefficients divided by their gcd, the constant rounded
/// down (the same integer points), so equal constraints compare equal.
GuardConstraint normalizeGuardConstraint(ArrayRef<int64_t> constraint);

/// A conjunction of constraints.
using GuardContext = SmallVector<GuardConstraint, 2>;

/// How the guards are arranged: a tree (each node one constraint, at most
/// log-many tests to reach a version when the contexts split evenly), a
/// chain (`if (C_1) v1 else if (C_2) v2 ...`, each test a whole context,
/// re-testing constraints that contexts share), or the tree unless it is
/// larger than the chain or than `maxTreeNodes`.
enum class GuardArrangement { Tree, Chain, Auto };

/// A node: a leaf runs `version` (none: no context holds there), an inner
/// node tests the conjunction `test` and continues in `thenNode` or
/// `elseNode`.
struct GuardNode {
  std::optional<unsigned> version;
  GuardContext test;
  std::unique_ptr<GuardNode> thenNode, elseNode;

  bool isLeaf() const { return test.empty(); }
  /// The leaf that `point` reaches.
  std::optional<unsigned> select(ArrayRef<int64_t> point) const;
  /// The number of inner nodes.
  unsigned countTests() const;
};

struct GuardTreeOptions {
  GuardArrangement arrangement = GuardArrangement::Auto;
  unsigned maxTreeNodes = 64;
};

/// The guards selecting among `contexts` (priority order) over
/// `numParameters` parameters, for points of `rootContext` (known facts,
/// never tested: e.g. sizes >= 0).
std::unique_ptr<GuardNode> buildGuardTree(unsigned numParameters,
                                          ArrayRef<GuardContext> contexts,
                                          const GuardContext &rootContext,
                                          const GuardTreeOptions &options = {});

/// Whether `point` satisfies every constraint of `context`.
bool contains(const GuardContext &context, ArrayRef<int64_t> point);

/// `context` as a symbol-only integer set (one symbol per parameter; the
/// empty context, which always holds, as `0 >= 0`).
IntegerSet getGuardSet(const GuardContext &context, unsigned numParameters,
                       MLIRContext *ctx);

} // namespace dl
} // namespace mlir

#endif // DL_ANALYSIS_GUARDTREE_H
