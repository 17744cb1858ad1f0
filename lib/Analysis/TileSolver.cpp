//===- TileSolver.cpp - multi-level tile sizes by Ipopt -------------------===//
//
// The continuous min-max problem of MOpt (Sec. 5) solved with Ipopt's TNLP
// interface, its rounding to tiles the code generator applies, and a greedy
// fallback for when Ipopt fails. See TileSolver.h for the formulation.
//
// Dual numbers are written here because the model is the only function
// differentiated and MLIR/LLVM offer no automatic differentiation for C++.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/TileSolver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::dl;

namespace {

//===----------------------------------------------------------------------===//
// Forward-mode dual numbers
//===----------------------------------------------------------------------===//

/// A value and its gradient (empty for constants).
struct Dual {
  double value = 0.0;
  SmallVector<double, 24> grad;

  Dual() = default;
  explicit Dual(double v) : value(v) {}

  static Dual variable(double v, unsigned index, unsigned count) {
    Dual d(v);
    d.grad.assign(count, 0.0);
    d.grad[index] = 1.0;
    return d;
  }
  /// The gradient scaled by `scale`, plus `other`'s scaled by `otherScale`.
  static SmallVector<double, 24> combine(const Dual &a, double scale,
                                         const Dual &b, double otherScale) {
    SmallVector<double, 24> g;
    size_t n = std::max(a.grad.size(), b.grad.size());
    if (n == 0)
      return g;
    g.assign(n, 0.0);
    for (size_t i = 0; i < a.grad.size(); ++i)
      g[i] += scale * a.grad[i];
    for (size_t i = 0; i < b.grad.size(); ++i)
      g[i] += otherScale * b.grad[i];
    return g;
  }
};

Dual operator+(const Dual &a, const Dual &b) {
  Dual r(a.value + b.value);
  r.grad = Dual::combine(a, 1.0, b, 1.0);
  return r;
}
Dual operator-(const Dual &a, const Dual &b) {
  Dual r(a.value - b.value);
  r.grad = Dual::combine(a, 1.0, b, -1.0);
  return r;
}
Dual operator*(const Dual &a, const Dual &b) {
  Dual r(a.value * b.value);
  r.grad = Dual::combine(a, b.value, b, a.value);
  return r;
}
Dual operator/(const Dual &a, const Dual &b) {
  Dual r(a.value / b.value);
  r.grad = Dual::combine(a, 1.0 / b.value, b, -a.value / (b.value * b.value));
  return r;
}
Dual logOf(const Dual &a) {
  Dual r(std::log(a.value));
  r.grad = Dual::combine(a, 1.0 / a.value, Dual(), 0.0);
  return r;
}

//===----------------------------------------------------------------------===//
// The hierarchy: which tiles are free, which loops exist, their orders
//===----------------------------------------------------------------------===//

/// Level costs sorted descending: candidates compare bottleneck first.
SmallVector<double> rankKey(ArrayRef<double> costs) {
  SmallVector<double> key(costs);
  llvm::sort(key, std::greater<double>());
  return key;
}

bool rankedBefore(ArrayRef<double> a, ArrayRef<double> b) {
  for (auto [x, y] : llvm::zip(a, b)) {
    double tolerance = 1e-9 * std::max(std::fabs(x), std::fabs(y));
    if (x < y - tolerance)
      return true;
    if (x > y + tolerance)
      return false;
  }
  return false;
}

struct Hierarchy {
  const TileProblem &problem;
  unsigned numLevels;
  unsigned numIndices;
  /// The outermost level's tile is split over threads.
  bool split;
  double threads;
  /// looping[l][j]: level l has a tile loop along j.
  SmallVector<SmallVector<bool>> looping;
  /// orders[l]: the non-dominated orders of level l's tile loops.
  SmallVector<SmallVector<SmallVector<unsigned>>> orders;

  explicit Hierarchy(const TileProblem &problem)
      : problem(problem), numLevels(problem.levels.size()),
        numIndices(problem.nest.size()),
        split(problem.threads > 1 && problem.levels.size() >= 2),
        threads(problem.threads) {
    for (unsigned l = 0; l < numLevels; ++l) {
      SmallVector<bool> loops(numIndices, false);
      for (unsigned j = 0; j < numIndices; ++j) {
        int64_t fixed = problem.levels[l].fixedTiles[j];
        int64_t enclosing = l + 1 == numLevels
                                ? problem.nest.extents[j]
                                : problem.levels[l + 1].fixedTiles[j];
        loops[j] =
            problem.nest.extents[j] > 1 && !(fixed > 0 && fixed == enclosing);
      }
      SmallVector<unsigned> free, innermost;
      for (unsigned j : problem.levels[l].innermostLoops)
        if (loops[j])
          innermost.push_back(j);
      for (unsigned j = 0; j < numIndices; ++j)
        if (loops[j] && !llvm::is_contained(innermost, j))
          free.push_back(j);
      orders.push_back(getDominatingOrders(problem.nest, free, innermost));
      looping.push_back(std::move(loops));
    }
  }

  bool isFree(unsigned l, unsigned j) const {
    return problem.levels[l].fixedTiles[j] == 0 && problem.nest.extents[j] > 1;
  }

  /// Level l's volume per unit bandwidth for `order`, with tiles[l] swept
  /// over its enclosing tile (the per-core chunk below a split level).
  template <typename Scalar>
  Scalar levelCost(unsigned l, ArrayRef<unsigned> order,
                   ArrayRef<SmallVector<Scalar>> tiles,
                   ArrayRef<Scalar> chunk) const {
    SmallVector<Scalar> extents;
    for (int64_t e : problem.nest.extents)
      extents.push_back(Scalar(static_cast<double>(e)));
    ArrayRef<Scalar> enclosing = l + 1 == numLevels ? ArrayRef<Scalar>(extents)
                                 : split && l + 2 == numLevels
                                     ? chunk
                                     : ArrayRef<Scalar>(tiles[l + 1]);
    Scalar volume =
        getLevelVolume<Scalar>(problem.nest, order, tiles[l], enclosing);
    const TileLevel &level = problem.levels[l];
    double divisor = level.bandwidth * (split && level.perCore ? threads : 1);
    return volume / Scalar(divisor);
  }

  /// The integer configuration's chunk vector (the outermost tiles, one of
  /// them divided by the threads).
  SmallVector<double> chunkOf(const TileConfig &config) const {
    SmallVector<double> chunk;
    for (int64_t t : config.tiles.back())
      chunk.push_back(static_cast<double>(t));
    if (config.parallelIndex)
      chunk[*config.parallelIndex] = static_cast<double>(config.parallelChunk);
    return chunk;
  }

  void evaluate(TileConfig &config) const {
    SmallVector<SmallVector<double>> tiles;
    for (ArrayRef<int64_t> level : config.tiles)
      tiles.push_back(SmallVector<double>(llvm::map_range(
          level, [](int64_t t) { return static_cast<double>(t); })));
    SmallVector<double> chunk = chunkOf(config);
    config.orders.assign(numLevels, {});
    config.levelCosts.assign(numLevels, 0.0);
    for (unsigned l = 0; l < numLevels; ++l) {
      double best = std::numeric_limits<double>::infinity();
      for (ArrayRef<unsigned> order : orders[l]) {
        double cost = levelCost<double>(l, order, tiles, chunk);
        if (cost < best) {
          best = cost;
          config.orders[l].assign(order.begin(), order.end());
        }
      }
      config.levelCosts[l] = best;
    }
    config.bottleneck =
        std::max_element(config.levelCosts.begin(), config.levelCosts.end()) -
        config.levelCosts.begin();
  }

  /// Whether level l's footprint fits its capacity (levels whose tiles are
  /// all fixed belong to the microkernel and are not constrained).
  bool fits(const TileConfig &config, unsigned l) const {
    const TileLevel &level = problem.levels[l];
    if (level.capacity <= 0 ||
        llvm::none_of(llvm::seq(0u, numIndices),
                      [&](unsigned j) { return isFree(l, j); }))
      return true;
    SmallVector<double> tile(llvm::map_range(
        config.tiles[l], [](int64_t t) { return static_cast<double>(t); }));
    return getFootprint<double>(problem.nest, tile) <= level.capacity;
  }
};

//===----------------------------------------------------------------------===//
// Ipopt
//===----------------------------------------------------------------------===//

/// minimize x[objective] over box bounds and rows lo <= g(x) <= hi, with a
/// dense Jacobian from dual numbers.
class DualNLP : public Ipopt::TNLP {
public:
  using Row = std::function<Dual(ArrayRef<Dual>)>;

  SmallVector<double> lower, upper, start;
  unsigned objective = 0;
  SmallVector<Row> rows;
  SmallVector<double> rowLower, rowUpper;
  SmallVector<double> solution;
  bool succeeded = false;

  bool get_nlp_info(Ipopt::Index &n, Ipopt::Index &m, Ipopt::Index &nnzJac,
                    Ipopt::Index &nnzHess, IndexStyleEnum &style) override {
    n = lower.size();
    m = rows.size();
    nnzJac = n * m;
    nnzHess = 0;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Ipopt::Index n, Ipopt::Number *xl, Ipopt::Number *xu,
                       Ipopt::Index m, Ipopt::Number *gl,
                       Ipopt::Number *gu) override {
    for (Ipopt::Index i = 0; i < n; ++i)
      xl[i] = lower[i], xu[i] = upper[i];
    for (Ipopt::Index r = 0; r < m; ++r)
      gl[r] = rowLower[r], gu[r] = rowUpper[r];
    return true;
  }
  bool get_starting_point(Ipopt::Index n, bool, Ipopt::Number *x, bool,
                          Ipopt::Number *, Ipopt::Number *, Ipopt::Index, bool,
                          Ipopt::Number *) override {
    for (Ipopt::Index i = 0; i < n; ++i)
      x[i] = start[i];
    return true;
  }
  bool eval_f(Ipopt::Index, const Ipopt::Number *x, bool,
              Ipopt::Number &value) override {
    value = x[objective];
    return true;
  }
  bool eval_grad_f(Ipopt::Index n, const Ipopt::Number *, bool,
                   Ipopt::Number *grad) override {
    for (Ipopt::Index i = 0; i < n; ++i)
      grad[i] = i == static_cast<Ipopt::Index>(objective) ? 1.0 : 0.0;
    return true;
  }
  bool eval_g(Ipopt::Index n, const Ipopt::Number *x, bool, Ipopt::Index m,
              Ipopt::Number *g) override {
    SmallVector<Dual> vars = seed(n, x);
    for (Ipopt::Index r = 0; r < m; ++r)
      g[r] = rows[r](vars).value;
    return llvm::all_of(ArrayRef<double>(g, m),
                        [](double v) { return std::isfinite(v); });
  }
  bool eval_jac_g(Ipopt::Index n, const Ipopt::Number *x, bool, Ipopt::Index m,
                  Ipopt::Index, Ipopt::Index *iRow, Ipopt::Index *jCol,
                  Ipopt::Number *values) override {
    if (!values) {
      for (Ipopt::Index r = 0; r < m; ++r)
        for (Ipopt::Index i = 0; i < n; ++i)
          iRow[r * n + i] = r, jCol[r * n + i] = i;
      return true;
    }
    SmallVector<Dual> vars = seed(n, x);
    for (Ipopt::Index r = 0; r < m; ++r) {
      Dual g = rows[r](vars);
      for (Ipopt::Index i = 0; i < n; ++i)
        values[r * n + i] =
            i < static_cast<Ipopt::Index>(g.grad.size()) ? g.grad[i] : 0.0;
    }
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn status, Ipopt::Index n,
                         const Ipopt::Number *x, const Ipopt::Number *,
                         const Ipopt::Number *, Ipopt::Index,
                         const Ipopt::Number *, const Ipopt::Number *,
                         Ipopt::Number, const Ipopt::IpoptData *,
                         Ipopt::IpoptCalculatedQuantities *) override {
    succeeded =
        status == Ipopt::SUCCESS || status == Ipopt::STOP_AT_ACCEPTABLE_POINT;
    solution.assign(x, x + n);
  }

private:
  static SmallVector<Dual> seed(Ipopt::Index n, const Ipopt::Number *x) {
    SmallVector<Dual> vars;
    for (Ipopt::Index i = 0; i < n; ++i)
      vars.push_back(Dual::variable(x[i], i, n));
    return vars;
  }
};

bool runIpopt(DualNLP *nlp, unsigned maxIterations) {
  if (maxIterations == 0)
    return false;
  Ipopt::SmartPtr<Ipopt::TNLP> owner(nlp);
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetStringValue("hessian_approximation", "limited-memory");
  app->Options()->SetIntegerValue("max_iter", maxIterations);
  app->Options()->SetNumericValue("tol", 1e-7);
  if (app->Initialize() != Ipopt::Solve_Succeeded)
    return false;
  app->OptimizeTNLP(owner);
  return nlp->succeeded;
}

/// The continuous problem of one order combination in the logarithms of
/// the free tiles (and of the per-core chunks), plus the epigraph variable.
struct RelaxedProblem {
  const Hierarchy &h;
  SmallVector<unsigned> orderChoice;
  /// varOf[l][j] (-1: fixed), chunkVar[j] (-1: none), the epigraph last.
  SmallVector<SmallVector<int>> varOf;
  SmallVector<int> chunkVar;
  unsigned numVars = 0;
  SmallVector<double> lower, upper;

  RelaxedProblem(const Hierarchy &h, ArrayRef<unsigned> orderChoice)
      : h(h), orderChoice(orderChoice) {
    const TileProblem &p = h.problem;
    for (unsigned l = 0; l < h.numLevels; ++l) {
      SmallVector<int> vars(h.numIndices, -1);
      for (unsigned j = 0; j < h.numIndices; ++j) {
        if (!h.isFree(l, j))
          continue;
        vars[j] = numVars++;
        double low = 1.0, high = static_cast<double>(p.nest.extents[j]);
        for (unsigned k = l; k-- > 0;)
          if (p.levels[k].fixedTiles[j] > 0) {
            low = static_cast<double>(p.levels[k].fixedTiles[j]);
            break;
          }
        for (unsigned k = l + 1; k < h.numLevels; ++k)
          if (p.levels[k].fixedTiles[j] > 0) {
            high = static_cast<double>(p.levels[k].fixedTiles[j]);
            break;
          }
        lower.push_back(std::log(low));
        upper.push_back(std::log(std::max(low, high)));
      }
      varOf.push_back(vars);
    }
    chunkVar.assign(h.numIndices, -1);
    if (h.split) {
      unsigned top = h.numLevels - 1;
      for (unsigned j = 0; j < h.numIndices; ++j) {
        if (p.nest.reduction[j] || !h.looping[top][j])
          continue;
        chunkVar[j] = numVars++;
        lower.push_back(0.0);
        upper.push_back(std::log(static_cast<double>(p.nest.extents[j])));
      }
    }
    lower.push_back(-1e19);
    upper.push_back(1e19);
    ++numVars;
  }

  unsigned epigraph() const { return numVars - 1; }
  bool hasChunks() const {
    return llvm::any_of(chunkVar, [](int v) { return v >= 0; });
  }

  template <typename Scalar>
  SmallVector<SmallVector<Scalar>> tilesOf(ArrayRef<Scalar> x) const {
    SmallVector<SmallVector<Scalar>> tiles;
    for (unsigned l = 0; l < h.numLevels; ++l) {
      SmallVector<Scalar> level;
      for (unsigned j = 0; j < h.numIndices; ++j) {
        int64_t fixed = h.problem.levels[l].fixedTiles[j];
        if (varOf[l][j] >= 0)
          level.push_back(exp(x[varOf[l][j]]));
        else
          level.push_back(Scalar(fixed > 0 ? static_cast<double>(fixed) : 1.0));
      }
      tiles.push_back(level);
    }
    return tiles;
  }
  template <typename Scalar>
  SmallVector<Scalar> chunkOf(ArrayRef<Scalar> x,
                              ArrayRef<SmallVector<Scalar>> tiles) const {
    SmallVector<Scalar> chunk(tiles.back());
    for (unsigned j = 0; j < h.numIndices; ++j)
      if (chunkVar[j] >= 0)
        chunk[j] = exp(x[chunkVar[j]]);
    return chunk;
  }
  template <typename Scalar>
  Scalar logCost(unsigned l, ArrayRef<Scalar> x) const {
    SmallVector<SmallVector<Scalar>> tiles = tilesOf(x);
    SmallVector<Scalar> chunk =
        chunkOf(x, ArrayRef<SmallVector<Scalar>>(tiles));
    return log(
        h.levelCost<Scalar>(l, h.orders[l][orderChoice[l]], tiles, chunk));
  }

  static Dual exp(const Dual &a) {
    Dual r(std::exp(a.value));
    r.grad = Dual::combine(a, r.value, Dual(), 0.0);
    return r;
  }
  static double exp(double a) { return std::exp(a); }
  static double log(double a) { return std::log(a); }
  static Dual log(const Dual &a) { return logOf(a); }

  /// Whether level l's cost depends on a variable.
  bool varies(unsigned l) const {
    auto any = [&](unsigned level) {
      return llvm::any_of(varOf[level], [](int v) { return v >= 0; });
    };
    if (any(l) || (l + 1 < h.numLevels && any(l + 1)))
      return true;
    return h.split && l + 2 == h.numLevels && hasChunks();
  }

  /// One epigraph solve: minimize z over `active` levels with `caps` on the
  /// others. Returns the solution, or nothing if Ipopt failed.
  std::optional<SmallVector<double>>
  solve(ArrayRef<unsigned> active, ArrayRef<std::pair<unsigned, double>> caps,
        ArrayRef<double> start, unsigned maxIterations) const {
    auto *nlp = new DualNLP();
    nlp->lower.assign(lower.begin(), lower.end());
    nlp->upper.assign(upper.begin(), upper.end());
    nlp->start.assign(start.begin(), start.end());
    nlp->objective = epigraph();
    unsigned z = epigraph();
    for (unsigned l : active) {
      nlp->rows.push_back([this, l, z](ArrayRef<Dual> x) {
        return logCost<Dual>(l, x) - x[z];
      });
      nlp->rowLower.push_back(-1e19);
      nlp->rowUpper.push_back(0.0);
    }
    for (auto [l, cap] : caps) {
      unsigned level = l;
      nlp->rows.push_back(
          [this, level](ArrayRef<Dual> x) { return logCost<Dual>(level, x); });
      nlp->rowLower.push_back(-1e19);
      nlp->rowUpper.push_back(cap);
    }
    const TileProblem &p = h.problem;
    for (unsigned l = 0; l < h.numLevels; ++l) {
      if (p.levels[l].capacity <= 0 ||
          llvm::none_of(varOf[l], [](int v) { return v >= 0; }))
        continue;
      nlp->rows.push_back([this, l](ArrayRef<Dual> x) {
        SmallVector<SmallVector<Dual>> tiles = tilesOf<Dual>(x);
        return log(getFootprint<Dual>(h.problem.nest, tiles[l]));
      });
      nlp->rowLower.push_back(-1e19);
      nlp->rowUpper.push_back(std::log(p.levels[l].capacity));
    }
    // Nesting: inner tile <= chunk <= outer tile.
    auto logTile = [this](unsigned l, unsigned j, ArrayRef<Dual> x) {
      if (varOf[l][j] >= 0)
        return x[varOf[l][j]];
      int64_t fixed = h.problem.levels[l].fixedTiles[j];
      return Dual(std::log(fixed > 0 ? static_cast<double>(fixed) : 1.0));
    };
    auto addLeq = [&](std::function<Dual(ArrayRef<Dual>)> a,
                      std::function<Dual(ArrayRef<Dual>)> b) {
      nlp->rows.push_back([a, b](ArrayRef<Dual> x) { return a(x) - b(x); });
      nlp->rowLower.push_back(-1e19);
      nlp->rowUpper.push_back(0.0);
    };
    for (unsigned l = 0; l + 1 < h.numLevels; ++l) {
      for (unsigned j = 0; j < h.numIndices; ++j) {
        bool chunked = h.split && l + 2 == h.numLevels && chunkVar[j] >= 0;
        if (chunked) {
          int c = chunkVar[j];
          addLeq([=](ArrayRef<Dual> x) { return logTile(l, j, x); },
                 [c](ArrayRef<Dual> x) { return x[c]; });
          addLeq([c](ArrayRef<Dual> x) { return x[c]; },
                 [=](ArrayRef<Dual> x) { return logTile(l + 1, j, x); });
          continue;
        }
        if (varOf[l][j] >= 0 && varOf[l + 1][j] >= 0)
          addLeq([=](ArrayRef<Dual> x) { return logTile(l, j, x); },
                 [=](ArrayRef<Dual> x) { return logTile(l + 1, j, x); });
      }
    }
    if (h.split && hasChunks()) {
      unsigned top = h.numLevels - 1;
      nlp->rows.push_back([this, logTile, top](ArrayRef<Dual> x) {
        Dual sum(0.0);
        for (unsigned j = 0; j < h.numIndices; ++j)
          if (chunkVar[j] >= 0)
            sum = sum + (logTile(top, j, x) - x[chunkVar[j]]);
        return sum;
      });
      double logThreads = std::log(h.threads);
      nlp->rowLower.push_back(logThreads);
      nlp->rowUpper.push_back(logThreads);
    }
    Ipopt::SmartPtr<Ipopt::TNLP> keep(nlp);
    if (!runIpopt(nlp, maxIterations))
      return std::nullopt;
    return nlp->solution;
  }

  SmallVector<double> startPoint() const {
    SmallVector<double> x;
    for (unsigned v = 0; v + 1 < numVars; ++v)
      x.push_back(lower[v] + 0.25 * (upper[v] - lower[v]));
    if (h.split)
      for (unsigned j = 0; j < h.numIndices; ++j)
        if (chunkVar[j] >= 0) {
          int top = varOf[h.numLevels - 1][j];
          double outer = top >= 0 ? x[top] : upper[chunkVar[j]];
          x[chunkVar[j]] =
              std::max(lower[chunkVar[j]], outer - std::log(h.threads));
        }
    double z = -1e18;
    for (unsigned l = 0; l < h.numLevels; ++l)
      z = std::max(z, logCost<double>(l, x));
    x.push_back(z + 1.0);
    return x;
  }

  /// The lexicographic min-max: bottleneck first, then the next.
  std::optional<SmallVector<double>>
  solveLexicographic(unsigned maxIterations, unsigned &solves,
                     unsigned &failed) const {
    SmallVector<unsigned> active;
    for (unsigned l = 0; l < h.numLevels; ++l)
      if (varies(l))
        active.push_back(l);
    SmallVector<std::pair<unsigned, double>> caps;
    SmallVector<double> x = startPoint();
    std::optional<SmallVector<double>> best;
    while (!active.empty()) {
      ++solves;
      std::optional<SmallVector<double>> solution =
          solve(active, caps, x, maxIterations);
      if (!solution) {
        ++failed;
        break;
      }
      x = *solution;
      best = x;
      unsigned bottleneck = active.front();
      double worst = -std::numeric_limits<double>::infinity();
      for (unsigned l : active) {
        double cost = logCost<double>(l, x);
        if (cost > worst)
          worst = cost, bottleneck = l;
      }
      caps.push_back({bottleneck, worst + 1e-6});
      llvm::erase(active, bottleneck);
      // The next solve starts from here with a fresh epigraph bound.
      double z = -1e18;
      for (unsigned l : active)
        z = std::max(z, logCost<double>(l, x));
      x.back() = active.empty() ? 0.0 : z + 1e-3;
    }
    if (!best && llvm::none_of(llvm::seq(0u, h.numLevels),
                               [&](unsigned l) { return varies(l); }))
      best = x; // Nothing to solve: every tile is fixed.
    return best;
  }
};

//===----------------------------------------------------------------------===//
// Rounding and the fallback
//===----------------------------------------------------------------------===//

/// Keeps the best distinct configurations. Equal costs (common: a level
/// whose loops all reuse) go to the smaller footprints, outer level first,
/// which leave more of each cache to what the model does not see.
struct CandidatePool {
  const Hierarchy &h;
  unsigned limit;
  SmallVector<TileConfig> configs;

  SmallVector<double> footprints(const TileConfig &config) const {
    SmallVector<double> result;
    for (unsigned l = h.numLevels; l-- > 0;) {
      SmallVector<double> tile(llvm::map_range(
          config.tiles[l], [](int64_t t) { return static_cast<double>(t); }));
      result.push_back(getFootprint<double>(h.problem.nest, tile));
    }
    return result;
  }
  bool before(const TileConfig &a, const TileConfig &b) const {
    SmallVector<double> keyA = rankKey(a.levelCosts),
                        keyB = rankKey(b.levelCosts);
    if (rankedBefore(keyA, keyB))
      return true;
    if (rankedBefore(keyB, keyA))
      return false;
    SmallVector<double> fa = footprints(a), fb = footprints(b);
    if (fa != fb)
      return fa < fb;
    return a.tiles < b.tiles;
  }

  void offer(const TileConfig &config) {
    for (const TileConfig &c : configs)
      if (c.tiles == config.tiles && c.parallelIndex == config.parallelIndex)
        return;
    configs.push_back(config);
    llvm::stable_sort(configs, [&](const TileConfig &a, const TileConfig &b) {
      return before(a, b);
    });
    if (configs.size() > limit)
      configs.pop_back();
  }
};

/// Multiples of `base` that divide `extent`, ascending.
SmallVector<int64_t> tileChoices(int64_t base, int64_t extent) {
  SmallVector<int64_t> choices;
  if (base < 1)
    return choices;
  for (int64_t t = base; t <= extent; t += base)
    if (extent % t == 0)
      choices.push_back(t);
  return choices;
}

struct Rounder {
  const Hierarchy &h;
  /// The free tiles, inner level first.
  SmallVector<std::pair<unsigned, unsigned>> freeTiles;

  explicit Rounder(const Hierarchy &h) : h(h) {
    for (unsigned l = 0; l < h.numLevels; ++l)
      for (unsigned j = 0; j < h.numIndices; ++j)
        if (h.isFree(l, j))
          freeTiles.push_back({l, j});
  }

  /// The configuration with every tile fixed or at its smallest choice.
  TileConfig initial() const {
    TileConfig config;
    for (unsigned l = 0; l < h.numLevels; ++l) {
      SmallVector<int64_t> level;
      for (unsigned j = 0; j < h.numIndices; ++j) {
        int64_t fixed = h.problem.levels[l].fixedTiles[j];
        level.push_back(fixed > 0 ? fixed
                        : l == 0  ? 1
                                  : config.tiles[l - 1][j]);
      }
      config.tiles.push_back(level);
    }
    return config;
  }

  /// The parallel indices to try: non-reduction loops of the top level.
  SmallVector<std::optional<unsigned>> parallelChoices() const {
    SmallVector<std::optional<unsigned>> choices;
    if (!h.split)
      return {std::nullopt};
    for (unsigned j = 0; j < h.numIndices; ++j)
      if (!h.problem.nest.reduction[j] && h.looping[h.numLevels - 1][j])
        choices.push_back(j);
    return choices;
  }

  /// The smallest legal tile of (l, j) given the inner levels' tiles.
  int64_t base(const TileConfig &config, unsigned l, unsigned j) const {
    int64_t inner = l == 0 ? 1 : config.tiles[l - 1][j];
    if (h.split && l + 1 == h.numLevels && config.parallelIndex == j)
      inner *= static_cast<int64_t>(h.threads);
    return inner;
  }

  /// Sets the chunk of the parallel index (or fails if the top tile cannot
  /// be split).
  bool finishSplit(TileConfig &config) const {
    if (!config.parallelIndex)
      return true;
    unsigned a = *config.parallelIndex;
    int64_t top = config.tiles.back()[a];
    int64_t threads = static_cast<int64_t>(h.threads);
    int64_t inner = config.tiles[h.numLevels - 2][a];
    if (top % threads != 0 || (top / threads) % inner != 0)
      return false;
    config.parallelChunk = top / threads;
    return true;
  }

  bool isLegal(const TileConfig &config) const {
    for (unsigned l = 0; l < h.numLevels; ++l)
      for (unsigned j = 0; j < h.numIndices; ++j) {
        // The microkernel's own tiles need not divide (it has edge code).
        bool chosen =
            h.isFree(l, j) || (l + 1 < h.numLevels && h.isFree(l + 1, j));
        int64_t t = config.tiles[l][j];
        int64_t outer = l + 1 == h.numLevels ? h.problem.nest.extents[j]
                                             : config.tiles[l + 1][j];
        if (chosen && (t < 1 || outer % t != 0))
          return false;
      }
    TileConfig copy = config;
    return finishSplit(copy) &&
           llvm::all_of(llvm::seq(0u, h.numLevels),
                        [&](unsigned l) { return h.fits(config, l); });
  }

  /// Floor and ceiling choices around each relaxed tile; every fitting
  /// combination is scored.
  void round(ArrayRef<SmallVector<double>> relaxed, CandidatePool &pool) const {
    for (std::optional<unsigned> parallel : parallelChoices()) {
      TileConfig config = initial();
      config.parallelIndex = parallel;
      visit(relaxed, config, 0, pool);
    }
  }

  void visit(ArrayRef<SmallVector<double>> relaxed, TileConfig &config,
             unsigned position, CandidatePool &pool) const {
    if (position == freeTiles.size()) {
      TileConfig leaf = config;
      if (!finishSplit(leaf) || !isLegal(leaf))
        return;
      h.evaluate(leaf);
      pool.offer(leaf);
      return;
    }
    auto [l, j] = freeTiles[position];
    SmallVector<int64_t> choices =
        tileChoices(base(config, l, j), h.problem.nest.extents[j]);
    // Fixed outer tiles bound the choice.
    for (unsigned k = l + 1; k < h.numLevels; ++k)
      if (int64_t fixed = h.problem.levels[k].fixedTiles[j]) {
        llvm::erase_if(choices, [&](int64_t t) { return fixed % t != 0; });
        break;
      }
    double target = relaxed[l][j];
    SmallVector<int64_t> picks;
    const int64_t *above = llvm::lower_bound(choices, target);
    if (above != choices.end())
      picks.push_back(*above);
    if (above != choices.begin())
      picks.push_back(*(above - 1));
    bool levelDone =
        position + 1 == freeTiles.size() || freeTiles[position + 1].first != l;
    for (int64_t pick : picks) {
      config.tiles[l][j] = pick;
      // Levels above start from this tile until their own are chosen.
      for (unsigned k = l + 1; k < h.numLevels; ++k)
        if (h.isFree(k, j))
          config.tiles[k][j] = pick;
      if (levelDone && !h.fits(config, l))
        continue;
      visit(relaxed, config, position + 1, pool);
    }
  }

  /// Greedy growth from the smallest tiles (the fallback).
  void grow(CandidatePool &pool) const {
    for (std::optional<unsigned> parallel : parallelChoices()) {
      TileConfig config = initial();
      config.parallelIndex = parallel;
      if (parallel) {
        // The smallest split: the top tile of the parallel index covers
        // `threads` inner tiles.
        unsigned a = *parallel;
        unsigned top = h.numLevels - 1;
        if (!h.isFree(top, a))
          continue;
        SmallVector<int64_t> choices =
            tileChoices(base(config, top, a), h.problem.nest.extents[a]);
        if (choices.empty())
          continue;
        config.tiles[top][a] = choices.front();
      }
      if (!isLegal(config))
        continue;
      finishSplit(config);
      h.evaluate(config);
      while (true) {
        std::optional<TileConfig> bestMove;
        for (auto [l, j] : freeTiles) {
          int64_t current = config.tiles[l][j];
          SmallVector<int64_t> choices =
              tileChoices(base(config, l, j), h.problem.nest.extents[j]);
          const int64_t *next = llvm::upper_bound(choices, current);
          if (next == choices.end())
            continue;
          TileConfig move = config;
          move.tiles[l][j] = *next;
          // Outer free tiles grow along when they would no longer nest.
          for (unsigned k = l + 1; k < h.numLevels; ++k)
            if (h.isFree(k, j) && move.tiles[k][j] % *next != 0)
              move.tiles[k][j] = *next;
          if (!isLegal(move))
            continue;
          finishSplit(move);
          h.evaluate(move);
          if (rankedBefore(
                  rankKey(move.levelCosts),
                  rankKey(bestMove ? bestMove->levelCosts : config.levelCosts)))
            bestMove = move;
        }
        if (!bestMove)
          break;
        config = *bestMove;
      }
      pool.offer(config);
    }
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

std::string dl::verifyTileProblem(const TileProblem &problem) {
  unsigned n = problem.nest.size();
  if (problem.nest.reduction.size() != n || problem.nest.indices.size() != n)
    return "the loop nest needs one name and reduction flag per index";
  if (problem.levels.empty())
    return "the tile problem needs at least one level";
  if (problem.threads < 1)
    return "threads must be >= 1";
  for (auto [l, level] : llvm::enumerate(problem.levels)) {
    if (level.fixedTiles.size() != n)
      return "level '" + level.name + "' needs one tile entry per index";
    if (level.bandwidth <= 0)
      return "level '" + level.name + "' needs a positive bandwidth";
    for (unsigned j = 0; j < n; ++j) {
      int64_t t = level.fixedTiles[j];
      if (t < 0 || t > problem.nest.extents[j])
        return "level '" + level.name + "': tile " + std::to_string(t) +
               " of index '" + problem.nest.indices[j] + "' is outside 1.." +
               std::to_string(problem.nest.extents[j]);
    }
  }
  return "";
}

void dl::evaluateTileConfig(const TileProblem &problem, TileConfig &config) {
  Hierarchy(problem).evaluate(config);
}

bool dl::isFeasible(const TileProblem &problem, const TileConfig &config) {
  Hierarchy h(problem);
  return Rounder(h).isLegal(config);
}

llvm::json::Object TileConfig::toJSON(const TileProblem &problem) const {
  llvm::json::Array levels;
  for (auto [l, level] : llvm::enumerate(problem.levels)) {
    llvm::json::Object tileObject;
    for (auto [j, name] : llvm::enumerate(problem.nest.indices))
      tileObject[name] = tiles[l][j];
    llvm::json::Array order;
    for (unsigned j : orders[l])
      order.push_back(problem.nest.indices[j]);
    levels.push_back(llvm::json::Object{{"level", level.name},
                                        {"tiles", std::move(tileObject)},
                                        {"order", std::move(order)},
                                        {"cost", levelCosts[l]}});
  }
  llvm::json::Object object{{"levels", std::move(levels)},
                            {"bottleneck", problem.levels[bottleneck].name},
                            {"cost", getCost()}};
  if (parallelIndex) {
    object["parallel_index"] = problem.nest.indices[*parallelIndex];
    object["parallel_chunk"] = parallelChunk;
  }
  return object;
}

TileSolverResult dl::solveTileSizes(const TileProblem &problem,
                                    const TileSolverOptions &options) {
  auto startTime = std::chrono::steady_clock::now();
  Hierarchy h(problem);
  Rounder rounder(h);
  TileSolverResult result;

  // Every combination of the levels' non-dominated orders.
  SmallVector<SmallVector<unsigned>> combinations = {{}};
  for (unsigned l = 0; l < h.numLevels; ++l) {
    SmallVector<SmallVector<unsigned>> next;
    for (ArrayRef<unsigned> prefix : combinations)
      for (unsigned o = 0; o < h.orders[l].size(); ++o) {
        SmallVector<unsigned> combination(prefix);
        combination.push_back(o);
        next.push_back(combination);
      }
    combinations = std::move(next);
  }

  struct Relaxed {
    SmallVector<double> key;
    SmallVector<SmallVector<double>> tiles;
  };
  SmallVector<std::optional<Relaxed>> relaxed(combinations.size());
  for (size_t c = 0; c < combinations.size(); ++c) {
    RelaxedProblem relaxedProblem(h, combinations[c]);
    unsigned solves = 0, failed = 0;
    std::optional<SmallVector<double>> x = relaxedProblem.solveLexicographic(
        options.maxIterations, solves, failed);
    result.solves += solves;
    result.failedSolves += failed;
    if (!x)
      continue;
    Relaxed r;
    SmallVector<double> costs;
    for (unsigned l = 0; l < h.numLevels; ++l)
      costs.push_back(std::exp(relaxedProblem.logCost<double>(l, *x)));
    r.key = rankKey(costs);
    r.tiles = relaxedProblem.tilesOf<double>(*x);
    relaxed[c] = r;
  }

  SmallVector<Relaxed> solved;
  for (std::optional<Relaxed> &r : relaxed)
    if (r)
      solved.push_back(*r);
  llvm::stable_sort(solved, [](const Relaxed &a, const Relaxed &b) {
    return rankedBefore(a.key, b.key);
  });

  CandidatePool pool{h, options.candidates, {}};
  // Round the best few combinations (their relaxed optima differ little
  // beyond that).
  for (const Relaxed &r : ArrayRef<Relaxed>(solved).take_front(4))
    rounder.round(r.tiles, pool);
  if (!solved.empty())
    result.relaxed = solved.front().tiles;

  if (solved.empty()) {
    result.usedFallback = true;
    result.fallbackReason =
        options.maxIterations == 0
            ? "Ipopt disabled (max-iterations=0)"
            : "Ipopt found no optimum for any loop-order combination (" +
                  std::to_string(result.failedSolves) + " failed solves)";
  } else if (pool.configs.empty()) {
    result.usedFallback = true;
    result.fallbackReason =
        "no rounding of the relaxed tiles fits the capacities";
  }
  if (result.usedFallback)
    rounder.grow(pool);
  result.candidates = std::move(pool.configs);
  result.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - startTime)
                       .count();
  return result;
}
