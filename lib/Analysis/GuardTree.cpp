//===- GuardTree.cpp - dispatch among versions by affine guards -----------===//
//
// The robust TREE of the parametric-versioning digest (§2.3): a node is
// built for the candidates whose context meets what the path knows (K); the
// first of them runs once K implies its whole context, else a constraint of
// some candidate's context that K does not decide splits K in two. Every
// point then reaches sel(p), and a decided constraint is never tested again.
// The chain tests each context in turn. See GuardTree.h.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/GuardTree.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::dl;
using presburger::IntegerPolyhedron;
using presburger::PresburgerSpace;

GuardConstraint dl::normalizeGuardConstraint(ArrayRef<int64_t> constraint) {
  int64_t gcd = 0;
  for (int64_t coefficient : constraint.drop_back())
    gcd = std::gcd(gcd, coefficient);
  GuardConstraint normal(constraint);
  if (gcd <= 1)
    return normal;
  for (int64_t &coefficient : MutableArrayRef<int64_t>(normal).drop_back())
    coefficient /= gcd;
  normal.back() = llvm::divideFloorSigned(normal.back(), gcd);
  return normal;
}

bool dl::contains(const GuardContext &context, ArrayRef<int64_t> point) {
  return llvm::all_of(context, [&](const GuardConstraint &constraint) {
    int64_t value = constraint.back();
    for (auto [coefficient, coordinate] :
         llvm::zip(ArrayRef(constraint).drop_back(), point))
      value += coefficient * coordinate;
    return value >= 0;
  });
}

std::optional<unsigned> GuardNode::select(ArrayRef<int64_t> point) const {
  if (isLeaf())
    return version;
  const GuardNode *next =
      contains(test, point) ? thenNode.get() : elseNode.get();
  return next ? next->select(point) : std::nullopt;
}

unsigned GuardNode::countTests() const {
  if (isLeaf())
    return 0;
  return 1 + (thenNode ? thenNode->countTests() : 0) +
         (elseNode ? elseNode->countTests() : 0);
}

IntegerSet dl::getGuardSet(const GuardContext &context, unsigned numParameters,
                           MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (const GuardConstraint &constraint : context) {
    AffineExpr expr = getAffineConstantExpr(constraint.back(), ctx);
    for (unsigned i = 0; i < numParameters; ++i)
      expr = expr + getAffineSymbolExpr(i, ctx) * constraint[i];
    exprs.push_back(expr);
  }
  // An integer set has one constraint at least: the universe is 0 >= 0.
  if (exprs.empty())
    exprs.push_back(getAffineConstantExpr(0, ctx));
  return IntegerSet::get(/*dimCount=*/0, numParameters, exprs,
                         SmallVector<bool>(exprs.size(), false));
}

namespace {

/// `not constraint` on integers: -(a.p + b) - 1 >= 0.
GuardConstraint negate(const GuardConstraint &constraint) {
  GuardConstraint negated;
  for (int64_t coefficient : constraint)
    negated.push_back(-coefficient);
  negated.back() -= 1;
  return negated;
}

std::unique_ptr<GuardNode> makeLeaf(std::optional<unsigned> version) {
  auto leaf = std::make_unique<GuardNode>();
  leaf->version = version;
  return leaf;
}

/// The most constraints a point's path evaluates.
unsigned worstPathCost(const GuardNode &node) {
  if (node.isLeaf())
    return 0;
  unsigned below = 0;
  for (const GuardNode *child : {node.thenNode.get(), node.elseNode.get()})
    if (child)
      below = std::max(below, worstPathCost(*child));
  return node.test.size() + below;
}

class GuardTreeBuilder {
public:
  GuardTreeBuilder(unsigned numParameters, ArrayRef<GuardContext> contexts,
                   unsigned maxNodes)
      : numParameters(numParameters), maxNodes(maxNodes) {
    for (const GuardContext &context : contexts) {
      GuardContext normal;
      for (const GuardConstraint &constraint : context)
        normal.push_back(normalizeGuardConstraint(constraint));
      this->contexts.push_back(std::move(normal));
    }
  }

  /// Whether no integer point satisfies all of `parts`.
  bool isEmpty(std::initializer_list<const GuardContext *> parts) const {
    IntegerPolyhedron polyhedron(PresburgerSpace::getSetSpace(numParameters));
    for (const GuardContext *part : parts)
      for (const GuardConstraint &constraint : *part)
        polyhedron.addInequality(constraint);
    return polyhedron.isIntegerEmpty();
  }

  /// Whether every integer point of `known` satisfies `constraint`.
  bool implies(const GuardContext &known, const GuardConstraint &constraint) {
    GuardContext negated = {negate(constraint)};
    return isEmpty({&known, &negated});
  }

  /// The constraints of context `i` that `known` does not imply.
  GuardContext residual(unsigned i, const GuardContext &known) {
    GuardContext left;
    for (const GuardConstraint &constraint : contexts[i])
      if (!implies(known, constraint))
        left.push_back(constraint);
    return left;
  }

  /// The tree over `candidates` (priority order) under `known`; null once
  /// it grows past maxNodes.
  std::unique_ptr<GuardNode> buildTree(ArrayRef<unsigned> candidates,
                                       const GuardContext &known) {
    SmallVector<unsigned> live;
    for (unsigned i : candidates)
      if (!isEmpty({&known, &contexts[i]}))
        live.push_back(i);
    if (live.empty())
      return makeLeaf(std::nullopt);
    GuardContext first = residual(live.front(), known);
    if (first.empty())
      return makeLeaf(live.front());
    if (++nodes > maxNodes)
      return nullptr;

    // Split on the undecided constraint that divides the live contexts most
    // evenly; on a tie, one of the first candidate's (it moves towards a
    // leaf). Both sides are non-empty: the constraint belongs to a live
    // context (so K and it meet) and K does not imply it.
    GuardContext splits = first;
    for (unsigned i : ArrayRef(live).drop_front())
      for (GuardConstraint &constraint : residual(i, known))
        if (!llvm::is_contained(splits, constraint))
          splits.push_back(std::move(constraint));
    const GuardConstraint *best = nullptr;
    size_t bestSide = 0;
    for (const GuardConstraint &constraint : splits) {
      GuardContext holds = {constraint}, fails = {negate(constraint)};
      size_t thenSide = llvm::count_if(live, [&](unsigned i) {
        return !isEmpty({&known, &holds, &contexts[i]});
      });
      size_t elseSide = llvm::count_if(live, [&](unsigned i) {
        return !isEmpty({&known, &fails, &contexts[i]});
      });
      size_t side = std::max(thenSide, elseSide);
      if (!best || side < bestSide) {
        best = &constraint;
        bestSide = side;
      }
    }

    auto node = std::make_unique<GuardNode>();
    node->test = {*best};
    GuardContext thenKnown = known, elseKnown = known;
    thenKnown.push_back(*best);
    elseKnown.push_back(negate(*best));
    node->thenNode = buildTree(live, thenKnown);
    node->elseNode = buildTree(live, elseKnown);
    if (!node->thenNode || !node->elseNode)
      return nullptr;
    return node;
  }

  /// `if (C_from) v_from else if ...`, each context without what `root`
  /// implies; a context that then tests nothing ends the chain.
  std::unique_ptr<GuardNode> buildChain(const GuardContext &root,
                                        unsigned from = 0) {
    for (unsigned i = from; i < contexts.size(); ++i) {
      if (isEmpty({&root, &contexts[i]}))
        continue;
      GuardContext test = residual(i, root);
      if (test.empty())
        return makeLeaf(i);
      auto node = std::make_unique<GuardNode>();
      node->test = std::move(test);
      node->thenNode = makeLeaf(i);
      node->elseNode = buildChain(root, i + 1);
      return node;
    }
    return makeLeaf(std::nullopt);
  }

private:
  unsigned numParameters;
  unsigned maxNodes;
  unsigned nodes = 0;
  SmallVector<GuardContext> contexts;
};

} // namespace

std::unique_ptr<GuardNode> dl::buildGuardTree(unsigned numParameters,
                                              ArrayRef<GuardContext> contexts,
                                              const GuardContext &rootContext,
                                              const GuardTreeOptions &options) {
  GuardTreeBuilder builder(numParameters, contexts, options.maxTreeNodes);
  GuardContext root;
  for (const GuardConstraint &constraint : rootContext)
    root.push_back(normalizeGuardConstraint(constraint));
  if (options.arrangement == GuardArrangement::Chain)
    return builder.buildChain(root);
  auto all = llvm::to_vector(llvm::seq<unsigned>(0, contexts.size()));
  std::unique_ptr<GuardNode> tree = builder.buildTree(all, root);
  if (!tree)
    return builder.buildChain(root);
  if (options.arrangement == GuardArrangement::Tree)
    return tree;
  std::unique_ptr<GuardNode> chain = builder.buildChain(root);
  return worstPathCost(*tree) <= worstPathCost(*chain) ? std::move(tree)
                                                       : std::move(chain);
}
