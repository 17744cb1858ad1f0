//===- GuardTreeTest.cpp - the guards selecting among versions ------------===//
//
// Exhaustive checks of the dispatch that buildGuardTree builds: every point
// of a grid reaches sel(p), the first version whose context holds; no path
// tests a constraint twice or one that the tests above it decide; the
// digest's counterexample to R-Stream's TREE-GEN; the chain and the cap.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/GuardTree.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerRelation.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dl;

namespace {

/// p_dim <= bound.
GuardConstraint atMost(unsigned numParameters, unsigned dim, int64_t bound) {
  GuardConstraint constraint(numParameters + 1, 0);
  constraint[dim] = -1;
  constraint.back() = bound;
  return constraint;
}

/// p_dim >= bound.
GuardConstraint atLeast(unsigned numParameters, unsigned dim, int64_t bound) {
  GuardConstraint constraint(numParameters + 1, 0);
  constraint[dim] = 1;
  constraint.back() = -bound;
  return constraint;
}

GuardContext nonNegative(unsigned numParameters) {
  GuardContext root;
  for (unsigned dim = 0; dim < numParameters; ++dim)
    root.push_back(atLeast(numParameters, dim, 0));
  return root;
}

std::optional<unsigned> firstContaining(ArrayRef<GuardContext> contexts,
                                        ArrayRef<int64_t> point) {
  for (auto [i, context] : llvm::enumerate(contexts))
    if (contains(context, point))
      return i;
  return std::nullopt;
}

/// Every point of [0, extent]^3 (for fewer parameters, the first ones)
/// reaches sel(p).
void expectSelectsFirst(const GuardNode &tree, ArrayRef<GuardContext> contexts,
                        unsigned numParameters, int64_t extent) {
  SmallVector<int64_t, 3> point(numParameters, 0);
  std::function<void(unsigned)> visit = [&](unsigned dim) {
    if (dim == numParameters) {
      ASSERT_EQ(tree.select(point), firstContaining(contexts, point))
          << "at (" << point[0] << (numParameters > 1 ? ", ..." : "") << ")";
      return;
    }
    for (point[dim] = 0; point[dim] <= extent; ++point[dim])
      visit(dim + 1);
  };
  visit(0);
}

/// On every path: no constraint twice, none implied (or contradicted) by
/// the root context and the tests above it.
void expectNoRedundantTest(const GuardNode &node, unsigned numParameters,
                           SmallVector<GuardConstraint> known) {
  if (node.isLeaf())
    return;
  for (const GuardConstraint &constraint : node.test) {
    presburger::IntegerPolyhedron holds(
        presburger::PresburgerSpace::getSetSpace(numParameters));
    presburger::IntegerPolyhedron fails = holds;
    GuardConstraint negated;
    for (int64_t c : constraint)
      negated.push_back(-c);
    negated.back() -= 1;
    for (const GuardConstraint &fact : known) {
      holds.addInequality(fact);
      fails.addInequality(fact);
    }
    holds.addInequality(constraint);
    fails.addInequality(negated);
    EXPECT_FALSE(holds.isIntegerEmpty()) << "a test that always fails";
    EXPECT_FALSE(fails.isIntegerEmpty()) << "a test that always holds";
  }
  if (node.test.size() == 1) {
    SmallVector<GuardConstraint> thenKnown = known, elseKnown = known;
    thenKnown.push_back(node.test.front());
    GuardConstraint negated;
    for (int64_t c : node.test.front())
      negated.push_back(-c);
    negated.back() -= 1;
    elseKnown.push_back(negated);
    if (node.thenNode)
      expectNoRedundantTest(*node.thenNode, numParameters, thenKnown);
    if (node.elseNode)
      expectNoRedundantTest(*node.elseNode, numParameters, elseKnown);
  }
}

/// The digest's counterexample (a specialization chain): C0 = {M >= 1,
/// N >= 1}, C1 = C0 and M <= 15, C2 = C1 and N <= 15, most specialized
/// first. TREE-GEN may split the root on N <= 15, and then (M = 20, N = 5)
/// fails M <= 15 in a branch that holds only C2: no version runs.
TEST(GuardTreeTest, CounterexampleReachesTheOriginal) {
  GuardContext c0 = {atLeast(2, 0, 1), atLeast(2, 1, 1)};
  GuardContext c1 = c0, c2;
  c1.push_back(atMost(2, 0, 15));
  c2 = c1;
  c2.push_back(atMost(2, 1, 15));
  SmallVector<GuardContext> contexts = {c2, c1, c0};
  for (GuardArrangement arrangement :
       {GuardArrangement::Tree, GuardArrangement::Chain,
        GuardArrangement::Auto}) {
    std::unique_ptr<GuardNode> tree =
        buildGuardTree(2, contexts, nonNegative(2), {arrangement, 64});
    EXPECT_EQ(tree->select({20, 5}), 2u);
    EXPECT_EQ(tree->select({5, 20}), 1u);
    EXPECT_EQ(tree->select({5, 5}), 0u);
    EXPECT_EQ(tree->select({0, 5}), std::nullopt);
    expectSelectsFirst(*tree, contexts, 2, 64);
    expectNoRedundantTest(*tree, 2, nonNegative(2));
  }
  // The tree tests M <= 15 once; the chain tests it for C2 and again for C1.
  std::unique_ptr<GuardNode> tree =
      buildGuardTree(2, contexts, nonNegative(2), {GuardArrangement::Tree, 64});
  EXPECT_EQ(tree->countTests(), 4u); // M >= 1, N >= 1, M <= 15, N <= 15
  std::unique_ptr<GuardNode> autoChoice =
      buildGuardTree(2, contexts, nonNegative(2), {GuardArrangement::Auto, 64});
  EXPECT_TRUE(autoChoice->test.size() == 1) << "auto picks the tree here";
}

/// Occupancy versions of a GEMM with dynamic M, N, K (the digest's §5.2):
/// parallel over M unless M < 16, then over N unless N < 16, then
/// sequential. K is never tested; the root context (sizes >= 0) neither.
TEST(GuardTreeTest, OccupancyFamilyOverThreeParameters) {
  GuardContext original = {};
  GuardContext smallM = {atMost(3, 0, 15)};
  GuardContext smallMN = {atMost(3, 0, 15), atMost(3, 1, 15)};
  SmallVector<GuardContext> contexts = {smallMN, smallM, original};
  for (GuardArrangement arrangement :
       {GuardArrangement::Tree, GuardArrangement::Chain}) {
    std::unique_ptr<GuardNode> tree =
        buildGuardTree(3, contexts, nonNegative(3), {arrangement, 64});
    expectSelectsFirst(*tree, contexts, 3, 40);
    expectNoRedundantTest(*tree, 3, nonNegative(3));
    for (int64_t m : {0, 1, 15, 16, 17})
      for (int64_t n : {0, 1, 15, 16, 17})
        EXPECT_EQ(tree->select({m, n, 7}),
                  firstContaining(contexts, {m, n, 7}));
  }
  std::unique_ptr<GuardNode> tree =
      buildGuardTree(3, contexts, nonNegative(3), {GuardArrangement::Tree, 64});
  EXPECT_EQ(tree->countTests(), 2u);

  // The regions R_i = C_i minus the contexts before it partition the root.
  using presburger::PresburgerSet;
  auto space = presburger::PresburgerSpace::getSetSpace(3);
  auto toSet = [&](const GuardContext &context) {
    presburger::IntegerPolyhedron polyhedron(space);
    for (const GuardConstraint &constraint : nonNegative(3))
      polyhedron.addInequality(constraint);
    for (const GuardConstraint &constraint : context)
      polyhedron.addInequality(constraint);
    return PresburgerSet(polyhedron);
  };
  PresburgerSet covered = PresburgerSet::getEmpty(space);
  for (const GuardContext &context : contexts) {
    PresburgerSet region = toSet(context).subtract(covered);
    EXPECT_TRUE(region.intersect(covered).isIntegerEmpty());
    covered = covered.unionSet(region);
  }
  EXPECT_TRUE(covered.isEqual(toSet({})));
}

/// Overlapping contexts in an order where a later one is not inside an
/// earlier one, on two parameters; and the chain when the tree is capped.
TEST(GuardTreeTest, OverlappingContextsAndCap) {
  SmallVector<GuardContext> contexts = {
      {atLeast(2, 0, 10), atMost(2, 0, 30), atLeast(2, 1, 5)},
      {atMost(2, 1, 20)},
      {atLeast(2, 0, 25)},
      {{1, -1, 0}}, // M >= N
      {}};
  for (unsigned cap : {64u, 1u}) {
    std::unique_ptr<GuardNode> tree = buildGuardTree(
        2, contexts, nonNegative(2), {GuardArrangement::Tree, cap});
    expectSelectsFirst(*tree, contexts, 2, 64);
    expectNoRedundantTest(*tree, 2, nonNegative(2));
    // Capped at one node, the tree falls back to the chain: one test per
    // context but the last.
    if (cap == 1)
      EXPECT_EQ(tree->countTests(), 4u);
  }
}

TEST(GuardTreeTest, NormalizedConstraintsAndSets) {
  // 4M - 6 >= 0 holds on the same integers as M - 2 >= 0.
  EXPECT_EQ(normalizeGuardConstraint({4, -6}), (GuardConstraint{1, -2}));
  EXPECT_EQ(normalizeGuardConstraint({-2, 0, 31}),
            (GuardConstraint{-1, 0, 15}));
  MLIRContext ctx;
  IntegerSet set = getGuardSet({atMost(2, 1, 15)}, 2, &ctx);
  EXPECT_EQ(set.getNumSymbols(), 2u);
  EXPECT_EQ(set.getNumDims(), 0u);
  std::string text;
  llvm::raw_string_ostream os(text);
  set.print(os);
  EXPECT_EQ(text, "()[s0, s1] : (-s1 + 15 >= 0)");
}

} // namespace
