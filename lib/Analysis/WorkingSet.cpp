//===- WorkingSet.cpp - PolyDL working sets with isl ------------*- C++ -*-===//
//
// Builds the polyhedral model of an affine nest directly from the MLIR IR
// (index sets from affine::getIndexSet, access maps from MemRefAccess) as isl
// objects, maps every statement instance to its 2d+1 schedule time (less the
// positions equal in all statements) so that all statements share one time
// space ordered lexicographically, and runs
// Algorithm 1 of PolyDL there. A statement is the set of memory accesses of
// one loop body. Dependences are memory-based (every earlier access of the
// same element, not only the last), as in the paper's example where the
// reuse of A[i][k] spans all later j.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/WorkingSet.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/AffineStructures.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ctx.h>
#include <isl/ilp.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/stride_info.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace mlir {
namespace dl {

/// One memory access of the nest, as isl relations over the time space.
struct ModelAccess {
  bool write;
  unsigned array;
  std::string text;  // "A0[...]" as written in the model, for reports.
  isl_map *relation; // T[...] -> A<array>[...], restricted to the domain.
};

/// The polyhedral model: every relation lives in the time space T of the
/// 2d+1 schedule, so lexicographic order is execution order.
class PolyhedralModel {
public:
  PolyhedralModel() : ctx(isl_ctx_alloc()) {
    isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  }
  ~PolyhedralModel() {
    for (ModelAccess &access : accesses)
      isl_map_free(access.relation);
    for (isl_map *footprint : footprints)
      isl_map_free(footprint);
    isl_set_free(domain);
    isl_ctx_free(ctx);
  }

  isl_ctx *ctx;
  unsigned timeDims = 0;
  /// The time dimension of the loop at each depth.
  SmallVector<unsigned> loopTimeDims;
  isl_set *domain = nullptr; // All statement instances, as times.
  SmallVector<ModelAccess> accesses;
  /// Per array, T -> the elements any access touches at that time (the
  /// union of its accesses: the load and the store of an accumulator give
  /// one relation).
  SmallVector<isl_map *> footprints;
  /// Per access, the first access of the same array with an equal relation.
  SmallVector<unsigned> relationClasses;
  SmallVector<int64_t> elementBytes; // Per array.
  std::string text;                  // Domains, accesses and schedules.
};

} // namespace dl
} // namespace mlir

namespace {

/// isl notation of an affine expression over named dims and symbols.
std::string toIsl(AffineExpr expr, ArrayRef<std::string> dimNames) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant: {
    int64_t value = cast<AffineConstantExpr>(expr).getValue();
    return value < 0 ? "(" + std::to_string(value) + ")"
                     : std::to_string(value);
  }
  case AffineExprKind::DimId:
    return dimNames[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return "";
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::string lhs = toIsl(binary.getLHS(), dimNames);
  std::string rhs = toIsl(binary.getRHS(), dimNames);
  if (lhs.empty() || rhs.empty())
    return "";
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return "(" + lhs + " + " + rhs + ")";
  case AffineExprKind::Mul:
    return "(" + lhs + " * " + rhs + ")";
  case AffineExprKind::Mod:
    return "(" + lhs + " mod " + rhs + ")";
  case AffineExprKind::FloorDiv:
    return "floor((" + lhs + ")/" + rhs + ")";
  case AffineExprKind::CeilDiv:
    return "ceil((" + lhs + ")/" + rhs + ")";
  default:
    return "";
  }
}

std::string joined(ArrayRef<std::string> items) {
  std::string out;
  for (auto [i, item] : llvm::enumerate(items))
    out += (i ? ", " : "") + item;
  return out;
}

/// The constraints of `cst` over the named dim vars in isl notation (local
/// vars become existentially quantified variables). Empty on symbols.
std::string constraintsToIsl(const affine::FlatAffineValueConstraints &cst,
                             ArrayRef<std::string> dimNames) {
  if (cst.getNumSymbolVars() != 0)
    return "";
  unsigned numDims = cst.getNumDimVars(), numLocals = cst.getNumLocalVars();
  SmallVector<std::string> names(dimNames);
  for (unsigned l = 0; l < numLocals; ++l)
    names.push_back("e" + std::to_string(l));
  auto row = [&](ArrayRef<int64_t> coefficients, const char *relation) {
    std::string out;
    for (unsigned c = 0; c < numDims + numLocals; ++c)
      if (coefficients[c] != 0)
        out += std::to_string(coefficients[c]) + "*" + names[c] + " + ";
    return out + std::to_string(coefficients.back()) + " " + relation + " 0";
  };
  SmallVector<std::string> rows;
  for (unsigned r = 0; r < cst.getNumEqualities(); ++r)
    rows.push_back(row(cst.getEquality64(r), "="));
  for (unsigned r = 0; r < cst.getNumInequalities(); ++r)
    rows.push_back(row(cst.getInequality64(r), ">="));
  std::string body;
  for (auto [i, r] : llvm::enumerate(rows))
    body += (i ? " and " : "") + r;
  if (body.empty())
    body = "0 = 0";
  if (numLocals == 0)
    return body;
  SmallVector<std::string> locals(names.begin() + numDims, names.end());
  return "exists (" + joined(locals) + " : " + body + ")";
}

/// The number of values dimension `d` of `set` (borrowed) takes between
/// its minimum and maximum; none when it is unbounded.
std::optional<int64_t> dimExtent(isl_set *set, int d) {
  isl_val *lo = isl_set_dim_min_val(isl_set_copy(set), d);
  isl_val *hi = isl_set_dim_max_val(isl_set_copy(set), d);
  std::optional<int64_t> extent;
  if (isl_val_is_int(lo) && isl_val_is_int(hi))
    extent = isl_val_get_num_si(hi) - isl_val_get_num_si(lo) + 1;
  isl_val_free(lo);
  isl_val_free(hi);
  return extent;
}

/// The points of a box (or of `piece`'s bounding box).
int64_t boxCount(isl_set *piece) {
  int64_t count = 1;
  for (int d = 0, e = isl_set_dim(piece, isl_dim_set); d < e; ++d)
    count *= dimExtent(piece, d).value_or(1);
  return count;
}

/// The points of `piece` when they form a box on a lattice (the elements a
/// strided access touches): with each dimension's stride and constant offset
/// from isl, x_d = offset_d + stride_d * y_d maps the y of a box one-to-one
/// onto the piece's points. None if some offset is not constant or the y
/// are not a box. isl_set_count_val would enumerate them instead (most of a
/// strided convolution's analysis time).
std::optional<int64_t> latticeBoxCount(isl_set *piece) {
  isl_space *space = isl_set_get_space(piece);
  isl_multi_aff *toPoints =
      isl_multi_aff_identity_on_domain_space(isl_space_copy(space));
  bool strided = false, constantOffsets = true;
  for (int d = 0, e = isl_set_dim(piece, isl_dim_set); d < e; ++d) {
    isl_stride_info *info = isl_set_get_stride_info(piece, d);
    isl_val *stride = isl_stride_info_get_stride(info);
    isl_aff *offset = isl_stride_info_get_offset(info);
    isl_stride_info_free(info);
    if (isl_val_is_one(stride) != isl_bool_true) {
      constantOffsets &= isl_aff_is_cst(offset) == isl_bool_true;
      strided = true;
      isl_aff *coordinate = isl_aff_var_on_domain(
          isl_local_space_from_space(isl_space_copy(space)), isl_dim_set, d);
      coordinate = isl_aff_add_constant_val(
          isl_aff_scale_val(coordinate, isl_val_copy(stride)),
          isl_aff_get_constant_val(offset));
      toPoints = isl_multi_aff_set_at(toPoints, d, coordinate);
    }
    isl_val_free(stride);
    isl_aff_free(offset);
  }
  isl_space_free(space);
  if (!strided || !constantOffsets) {
    isl_multi_aff_free(toPoints);
    return std::nullopt;
  }
  isl_set *lattice = isl_set_coalesce(
      isl_set_preimage_multi_aff(isl_set_copy(piece), toPoints));
  std::optional<int64_t> count;
  if (isl_set_is_box(lattice) == isl_bool_true)
    count = boxCount(lattice);
  isl_set_free(lattice);
  return count;
}

/// The number of values dimension `d` of the non-empty `piece` takes when no
/// constraint relates it to another dimension or to a local variable and no
/// local variable is defined from it (the piece is then the product of d's
/// interval and the rest); none otherwise or when it is unbounded. The
/// interval is read from d's own constraints, a * x_d + k >= 0 (or = 0),
/// instead of solving two LPs (isl_set_dim_min_val/max_val), which was a
/// third of a variant's analysis time.
std::optional<int64_t> independentExtent(isl_basic_set *piece, int d) {
  int dims = isl_basic_set_dim(piece, isl_dim_set);
  int divs = isl_basic_set_dim(piece, isl_dim_div);
  for (int l = 0; l < divs; ++l) {
    isl_aff *div = isl_basic_set_get_div(piece, l);
    bool involves =
        isl_aff_involves_dims(div, isl_dim_in, d, 1) != isl_bool_false;
    isl_aff_free(div);
    if (involves)
      return std::nullopt;
  }
  std::optional<int64_t> lo, hi;
  bool independent = true;
  isl_constraint_list *constraints = isl_basic_set_get_constraint_list(piece);
  for (int c = 0, e = isl_constraint_list_n_constraint(constraints);
       c < e && independent; ++c) {
    isl_constraint *constraint =
        isl_constraint_list_get_constraint(constraints, c);
    if (isl_constraint_involves_dims(constraint, isl_dim_set, d, 1) ==
        isl_bool_true) {
      for (int other = 0; other < dims && independent; ++other)
        independent = other == d ||
                      isl_constraint_involves_dims(constraint, isl_dim_set,
                                                   other, 1) == isl_bool_false;
      independent &=
          divs == 0 || isl_constraint_involves_dims(constraint, isl_dim_div, 0,
                                                    divs) == isl_bool_false;
      isl_val *coefficient =
          isl_constraint_get_coefficient_val(constraint, isl_dim_set, d);
      isl_val *constant = isl_constraint_get_constant_val(constraint);
      int64_t a = isl_val_get_num_si(coefficient);
      int64_t k = isl_val_get_num_si(constant);
      isl_val_free(coefficient);
      isl_val_free(constant);
      // a * x + k >= 0: x >= ceil(-k / a) for a > 0, x <= floor(k / -a)
      // for a < 0; an equality bounds both sides.
      bool equality = isl_constraint_is_equality(constraint) == isl_bool_true;
      if (a > 0 || equality)
        lo = std::max(lo.value_or(INT64_MIN), llvm::divideCeilSigned(-k, a));
      if (a < 0 || equality)
        hi = std::min(hi.value_or(INT64_MAX), llvm::divideFloorSigned(-k, a));
    }
    isl_constraint_free(constraint);
  }
  isl_constraint_list_free(constraints);
  if (!independent || !lo || !hi)
    return std::nullopt;
  return std::max<int64_t>(0, *hi - *lo + 1);
}

/// Distinct points of `set` (no parameters). Per disjoint piece, the
/// dimensions no constraint ties to others count by their extents (a set of
/// times is mostly such dimensions: the 32 x 32 of a microkernel band would
/// otherwise be enumerated point by point), and what remains is counted as a
/// box, a box on a lattice, or by isl's enumeration within `maxOperations`
/// (0: no enumeration), else by its bounding box (and `approximate` is set).
int64_t countPoints(isl_set *set, unsigned long maxOperations,
                    bool &approximate) {
  isl_ctx *ctx = isl_set_get_ctx(set);
  int64_t total = 0;
  isl_set *disjoint = isl_set_make_disjoint(isl_set_copy(set));
  isl_basic_set_list *pieces = isl_set_get_basic_set_list(disjoint);
  for (int i = 0, e = isl_basic_set_list_n_basic_set(pieces); i < e; ++i) {
    isl_basic_set *basic = isl_basic_set_list_get_basic_set(pieces, i);
    if (isl_basic_set_is_empty(basic) != isl_bool_false) {
      isl_basic_set_free(basic);
      continue;
    }
    int64_t factor = 1;
    for (int d = isl_basic_set_dim(basic, isl_dim_set) - 1; d >= 0; --d) {
      std::optional<int64_t> extent = independentExtent(basic, d);
      if (!extent)
        continue;
      factor *= *extent;
      // Nothing else refers to d: dropping its constraints first leaves
      // nothing for the projection to eliminate.
      basic = isl_basic_set_project_out(
          isl_basic_set_drop_constraints_involving_dims(basic, isl_dim_set, d,
                                                        1),
          isl_dim_set, d, 1);
    }
    isl_set *piece = isl_set_from_basic_set(basic);
    if (isl_set_is_box(piece) == isl_bool_true) {
      total += factor * boxCount(piece);
      isl_set_free(piece);
      continue;
    }
    if (std::optional<int64_t> count = latticeBoxCount(piece)) {
      total += factor * *count;
      isl_set_free(piece);
      continue;
    }
    isl_val *count = nullptr;
    if (maxOperations > 0) {
      isl_ctx_reset_operations(ctx);
      isl_ctx_set_max_operations(ctx, maxOperations);
      count = isl_set_count_val(piece);
      isl_ctx_set_max_operations(ctx, 0);
    }
    if (count && isl_val_is_int(count)) {
      total += factor * isl_val_get_num_si(count);
    } else {
      isl_ctx_reset_error(ctx);
      approximate = true;
      total += factor * boxCount(piece);
    }
    isl_val_free(count);
    isl_set_free(piece);
  }
  isl_basic_set_list_free(pieces);
  isl_set_free(disjoint);
  return total;
}

/// The loop nest's accesses grouped into statements (one per loop body).
struct StatementInfo {
  SmallVector<AffineForOp> loops; // Outermost (the root) first.
  SmallVector<Operation *> accesses;
};

/// Position of `op` among the ops of its block.
int64_t positionInBlock(Operation *op) {
  int64_t position = 0;
  for (Operation &other : *op->getBlock()) {
    if (&other == op)
      return position;
    ++position;
  }
  return position;
}

} // namespace

FailureOr<std::unique_ptr<WorkingSetAnalysis>>
WorkingSetAnalysis::build(AffineForOp root, std::string *whyNot) {
  auto fail = [&](const Twine &reason) {
    if (whyNot)
      *whyNot = reason.str();
    return failure();
  };
  // Collect statements and check that the nest is within the model.
  SmallVector<StatementInfo> statements;
  DenseMap<Block *, unsigned> statementOf;
  std::string reason;
  root->walk([&](Operation *op) {
    if (!reason.empty())
      return;
    if (auto loop = dyn_cast<AffineForOp>(op)) {
      if (loop.getNumIterOperands() != 0)
        reason = "a loop carries iter_args";
      return;
    }
    if (isa<affine::AffineReadOpInterface, affine::AffineWriteOpInterface>(
            op)) {
      Block *body = op->getBlock();
      auto [it, inserted] = statementOf.try_emplace(body, statements.size());
      if (inserted) {
        StatementInfo info;
        for (Operation *parent = op->getParentOp(); parent;
             parent = parent->getParentOp()) {
          auto loop = dyn_cast<AffineForOp>(parent);
          if (!loop) {
            reason = "an access is under a non-loop region op";
            return;
          }
          info.loops.insert(info.loops.begin(), loop);
          if (loop == root)
            break;
        }
        statements.push_back(std::move(info));
      }
      statements[it->second].accesses.push_back(op);
      return;
    }
    if (isa<memref::LoadOp, memref::StoreOp>(op) ||
        (!isMemoryEffectFree(op) && !isa<affine::AffineYieldOp>(op) &&
         !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()))
      reason = ("'" + op->getName().getStringRef() +
                "' has memory effects the model does not cover")
                   .str();
  });
  if (!reason.empty())
    return fail(reason);
  if (statements.empty())
    return fail("the nest has no memory accesses");

  auto model = std::make_unique<PolyhedralModel>();
  unsigned maxDepth = 0;
  for (StatementInfo &info : statements)
    maxDepth = std::max<unsigned>(maxDepth, info.loops.size());

  // Schedules: loop positions interleaved with the ivs, padded with 0.
  SmallVector<SmallVector<std::string>> schedules;
  for (StatementInfo &info : statements) {
    SmallVector<std::string> times;
    for (auto [d, loop] : llvm::enumerate(info.loops)) {
      times.push_back(std::to_string(positionInBlock(loop)));
      times.push_back("i" + std::to_string(d));
    }
    times.resize(2 * maxDepth + 1, "0");
    schedules.push_back(std::move(times));
  }
  // A position that is the same in every schedule never decides the order:
  // it is left out. In a perfect nest that is every position but the
  // outermost, which halves the time space isl works in.
  SmallVector<unsigned> kept;
  for (unsigned t = 0; t < 2 * maxDepth + 1; ++t) {
    bool isLoop = t % 2 == 1;
    if (isLoop) {
      model->loopTimeDims.push_back(kept.size());
      kept.push_back(t);
      continue;
    }
    if (llvm::any_of(schedules, [&](ArrayRef<std::string> schedule) {
          return schedule[t] != schedules.front()[t];
        }))
      kept.push_back(t);
  }
  model->timeDims = kept.size();

  DenseMap<Value, unsigned> arrayOf;
  llvm::raw_string_ostream text(model->text);
  isl_union_set *domains =
      isl_union_set_empty(isl_space_params_alloc(model->ctx, 0));
  for (auto [s, info] : llvm::enumerate(statements)) {
    std::string name = "S" + std::to_string(s);
    SmallVector<std::string> ivNames;
    for (unsigned d = 0; d < info.loops.size(); ++d)
      ivNames.push_back("i" + std::to_string(d));
    std::string tuple = name + "[" + joined(ivNames) + "]";

    // Domain from the loop bounds.
    affine::FlatAffineValueConstraints cst;
    SmallVector<Operation *> loopOps = llvm::map_to_vector(
        info.loops, [](AffineForOp loop) { return loop.getOperation(); });
    if (failed(affine::getIndexSet(loopOps, &cst)))
      return fail("a loop bound is not affine");
    SmallVector<std::string> cstNames;
    for (unsigned d = 0; d < cst.getNumDimVars(); ++d) {
      Value iv = cst.getValue(d);
      auto *pos = llvm::find_if(info.loops, [&](AffineForOp loop) {
        return loop.getInductionVar() == iv;
      });
      cstNames.push_back(ivNames[pos - info.loops.begin()]);
    }
    std::string constraints = constraintsToIsl(cst, cstNames);
    if (constraints.empty())
      return fail("loop bounds depend on symbols (dynamic sizes)");
    std::string domainText = "{ " + tuple + " : " + constraints + " }";

    SmallVector<std::string> times;
    for (unsigned t : kept)
      times.push_back(schedules[s][t]);
    std::string scheduleText = "{ " + tuple + " -> T[" + joined(times) + "] }";
    text << domainText << "\n" << scheduleText << "\n";

    isl_set *domain = isl_set_read_from_str(model->ctx, domainText.c_str());
    isl_map *schedule = isl_map_read_from_str(model->ctx, scheduleText.c_str());
    if (!domain || !schedule) {
      isl_set_free(domain);
      isl_map_free(schedule);
      isl_union_set_free(domains);
      return fail("isl rejected the domain " + domainText + " or schedule " +
                  scheduleText);
    }
    isl_map *instanceTime =
        isl_map_intersect_domain(schedule, isl_set_copy(domain));
    domains = isl_union_set_add_set(
        domains, isl_set_apply(domain, isl_map_copy(instanceTime)));

    for (Operation *op : info.accesses) {
      affine::MemRefAccess access(op);
      affine::AffineValueMap valueMap;
      access.getAccessMap(&valueMap);
      SmallVector<std::string> operandNames;
      for (Value operand : valueMap.getOperands()) {
        auto *pos = llvm::find_if(info.loops, [&](AffineForOp loop) {
          return loop.getInductionVar() == operand;
        });
        if (pos == info.loops.end()) {
          isl_map_free(instanceTime);
          isl_union_set_free(domains);
          return fail("an access index is not a function of the nest's ivs");
        }
        operandNames.push_back(ivNames[pos - info.loops.begin()]);
      }
      auto [it, inserted] = arrayOf.try_emplace(access.memref, arrayOf.size());
      if (inserted) {
        auto type = cast<MemRefType>(access.memref.getType());
        model->elementBytes.push_back(
            std::max<int64_t>(1, type.getElementTypeBitWidth() / 8));
      }
      SmallVector<std::string> indices;
      for (AffineExpr expr : valueMap.getAffineMap().getResults())
        indices.push_back(toIsl(expr, operandNames));
      std::string element =
          "A" + std::to_string(it->second) + "[" + joined(indices) + "]";
      std::string accessText = "{ " + tuple + " -> " + element + " }";
      isl_map *relation = isl_map_read_from_str(model->ctx, accessText.c_str());
      if (!relation || llvm::any_of(indices, [](const std::string &index) {
            return index.empty();
          })) {
        isl_map_free(relation);
        isl_map_free(instanceTime);
        isl_union_set_free(domains);
        return fail("isl rejected the access " + accessText);
      }
      bool write = isa<affine::AffineWriteOpInterface>(op);
      text << (write ? "write " : "read ") << accessText << "\n";
      // T -> element: time^-1 . access.
      relation = isl_map_apply_range(
          isl_map_reverse(isl_map_copy(instanceTime)), relation);
      model->accesses.push_back({write, it->second, element, relation});
    }
    isl_map_free(instanceTime);
  }
  // Every statement's instances live in the one time space T.
  model->domain = isl_set_coalesce(isl_set_from_union_set(domains));
  model->footprints.resize(model->elementBytes.size(), nullptr);
  for (const ModelAccess &access : model->accesses) {
    isl_map *&footprint = model->footprints[access.array];
    isl_map *relation = isl_map_copy(access.relation);
    footprint = footprint ? isl_map_union(footprint, relation) : relation;
  }
  for (isl_map *&footprint : model->footprints)
    footprint = isl_map_coalesce(footprint);
  for (auto [index, access] : llvm::enumerate(model->accesses)) {
    unsigned cls = index;
    for (unsigned other = 0; other < index; ++other)
      if (model->accesses[other].array == access.array &&
          isl_map_is_equal(model->accesses[other].relation, access.relation) ==
              isl_bool_true) {
        cls = model->relationClasses[other];
        break;
      }
    model->relationClasses.push_back(cls);
  }
  return std::unique_ptr<WorkingSetAnalysis>(
      new WorkingSetAnalysis(std::move(model)));
}

WorkingSetAnalysis::WorkingSetAnalysis(std::unique_ptr<PolyhedralModel> model)
    : model(std::move(model)) {}
WorkingSetAnalysis::~WorkingSetAnalysis() = default;

std::string WorkingSetAnalysis::describe() const { return model->text; }

namespace {

/// Counting in the model's time space, shared by the working sets and the
/// reuse profile: what a set of instances touches, and the instances between
/// two others.
class TimeCounter {
public:
  /// `domain` (borrowed) is the set of instances `between` returns from.
  TimeCounter(const PolyhedralModel &model, isl_set *domain,
              unsigned long maxOperations)
      : model(model), domain(domain), maxOperations(maxOperations),
        timeSpace(isl_set_get_space(domain)) {}
  ~TimeCounter() { isl_space_free(timeSpace); }

  /// Adds the distinct elements (and their bytes) that the instances
  /// `times` (taken) touch.
  void measure(isl_set *times, int64_t &elements, int64_t &bytes,
               bool &approximate) const {
    for (auto [array, footprint] : llvm::enumerate(model.footprints)) {
      isl_set *touched = isl_set_coalesce(
          isl_set_apply(isl_set_copy(times), isl_map_copy(footprint)));
      int64_t count = countPoints(touched, maxOperations, approximate);
      elements += count;
      bytes += count * model.elementBytes[array];
      isl_set_free(touched);
    }
    isl_set_free(times);
  }
  void measure(isl_set *times, WorkingSet &ws) const {
    measure(times, ws.elements, ws.bytes, ws.approximate);
  }

  /// The time coordinates of a single point (borrowed).
  SmallVector<int64_t> coordinates(isl_set *point) const {
    SmallVector<int64_t> values;
    isl_point *sample = isl_set_sample_point(isl_set_copy(point));
    for (unsigned t = 0; t < model.timeDims; ++t) {
      isl_val *value = isl_point_get_coordinate_val(sample, isl_dim_set, t);
      values.push_back(isl_val_get_num_si(value));
      isl_val_free(value);
    }
    isl_point_free(sample);
    return values;
  }

  /// {t in domain : lo <= t <= hi} for single points lo and hi (taken,
  /// lo <= hi). Built from the points' coordinates as disjoint pieces, not
  /// with isl_set_lex_le_set: that relates the whole domain to itself, one
  /// disjunct per time dimension, and was most of the analysis time.
  isl_set *between(isl_set *loPoint, isl_set *hiPoint) const {
    unsigned timeDims = model.timeDims;
    SmallVector<int64_t> lo = coordinates(loPoint), hi = coordinates(hiPoint);
    isl_set_free(loPoint);
    isl_set_free(hiPoint);
    isl_set *universe = isl_set_universe(isl_space_copy(timeSpace));
    // Times equal to `point` on dims [0, d).
    auto prefix = [&](ArrayRef<int64_t> point, unsigned d) {
      isl_set *piece = isl_set_copy(universe);
      for (unsigned t = 0; t < d; ++t)
        piece = isl_set_fix_si(piece, isl_dim_set, t, point[t]);
      return piece;
    };
    unsigned split = 0;
    while (split < timeDims && lo[split] == hi[split])
      ++split;
    isl_set *interval = prefix(lo, timeDims);
    if (split < timeDims) {
      interval = isl_set_union(interval, prefix(hi, timeDims));
      // lo < t < hi on the first dim where they differ.
      if (hi[split] - lo[split] >= 2)
        interval = isl_set_union(
            interval, isl_set_upper_bound_si(
                          isl_set_lower_bound_si(prefix(lo, split), isl_dim_set,
                                                 split, lo[split] + 1),
                          isl_dim_set, split, hi[split] - 1));
      // Equal to lo up to d, then after it; equal to hi up to d, then before.
      for (unsigned d = split + 1; d < timeDims; ++d) {
        interval = isl_set_union(
            interval,
            isl_set_lower_bound_si(prefix(lo, d), isl_dim_set, d, lo[d] + 1));
        interval = isl_set_union(
            interval,
            isl_set_upper_bound_si(prefix(hi, d), isl_dim_set, d, hi[d] - 1));
      }
    }
    isl_set_free(universe);
    return isl_set_intersect(interval, isl_set_copy(domain));
  }

  isl_space *space() const { return timeSpace; }

private:
  const PolyhedralModel &model;
  isl_set *domain;
  unsigned long maxOperations;
  isl_space *timeSpace;
};

} // namespace

SmallVector<WorkingSet>
WorkingSetAnalysis::compute(const WorkingSetOptions &options) const {
  TimeCounter counter(*model, model->domain, options.maxOperations);
  isl_space *timeSpace = counter.space();

  SmallVector<WorkingSet> result;
  // Dependences already measured, with the results they produced. The
  // accesses of one statement share its time points, so e.g. the load and
  // the store of an accumulator give four equal relations (RAR, WAR, RAW,
  // WAW): D_all is their union, holding the relation once, so it is measured
  // once and named by all its kinds.
  struct Measured {
    isl_map *dependence;
    SmallVector<size_t> results;
  };
  SmallVector<Measured> measured;
  // Accesses with equal relations (the load and the store of an accumulator)
  // have equal dependences with any other access: each pair of such classes
  // is computed once. Per pair of classes: the index in `measured`, or none
  // for no dependence.
  ArrayRef<unsigned> relationClass = model->relationClasses;
  DenseMap<std::pair<unsigned, unsigned>, std::optional<size_t>> classPairs;
  static const char *kinds[2][2] = {{"RAR", "WAR"}, {"RAW", "WAW"}};
  for (auto [s, source] : llvm::enumerate(model->accesses)) {
    for (auto [t, target] : llvm::enumerate(model->accesses)) {
      if (source.array != target.array)
        continue;
      std::string kind = kinds[source.write][target.write];
      // A dependence already measured gets this pair's kind in its name.
      auto nameAlso = [&](const Measured &same) {
        for (size_t index : same.results)
          result[index].dependence.insert(result[index].dependence.find(' '),
                                          "," + kind);
      };
      auto [known, isNew] = classPairs.try_emplace(
          std::make_pair(relationClass[s], relationClass[t]));
      if (!isNew) {
        if (known->second)
          nameAlso(measured[*known->second]);
        continue;
      }
      // Pairs of times touching the same element, source strictly first.
      isl_map *dependence = isl_map_intersect(
          isl_map_apply_range(isl_map_copy(source.relation),
                              isl_map_reverse(isl_map_copy(target.relation))),
          isl_map_lex_lt(isl_space_copy(timeSpace)));
      if (isl_map_is_empty(dependence) != isl_bool_false) {
        isl_map_free(dependence);
        continue;
      }
      auto *same = llvm::find_if(measured, [&](const Measured &m) {
        return isl_map_is_equal(m.dependence, dependence) == isl_bool_true;
      });
      if (same != measured.end()) {
        classPairs[{relationClass[s], relationClass[t]}] =
            same - measured.begin();
        nameAlso(*same);
        isl_map_free(dependence);
        continue;
      }
      classPairs[{relationClass[s], relationClass[t]}] = measured.size();
      size_t firstResult = result.size();
      std::string name = kind + " " + source.text + " -> " + target.text;
      isl_set *sourceTime =
          isl_set_lexmin(isl_map_domain(isl_map_copy(dependence)));

      bool spansParallel = false;
      if (options.parallelDepth &&
          *options.parallelDepth < model->loopTimeDims.size()) {
        unsigned t = model->loopTimeDims[*options.parallelDepth];
        // The pairs whose parallel-loop iterations differ.
        isl_map *across =
            isl_map_subtract(isl_map_copy(dependence),
                             isl_map_equate(isl_map_copy(dependence),
                                            isl_dim_in, t, isl_dim_out, t));
        spansParallel = isl_map_is_empty(across) == isl_bool_false;
        isl_map_free(across);
      }

      if (spansParallel) {
        // All iterations of the parallel loop with the outer loops fixed to
        // the first source's values.
        unsigned t = model->loopTimeDims[*options.parallelDepth];
        SmallVector<int64_t> fixed = counter.coordinates(sourceTime);
        isl_set *times = isl_set_copy(model->domain);
        for (unsigned d = 0; d < t; ++d)
          times = isl_set_fix_si(times, isl_dim_set, d, fixed[d]);
        WorkingSet ws{WorkingSet::Kind::Parallel, name};
        counter.measure(times, ws);
        result.push_back(ws);
      } else {
        isl_set *targets =
            isl_set_apply(isl_set_copy(sourceTime), isl_map_copy(dependence));
        isl_set *first = isl_set_lexmin(isl_set_copy(targets));
        isl_set *last = isl_set_lexmax(targets);
        WorkingSet wsMin{WorkingSet::Kind::Min, name};
        counter.measure(counter.between(isl_set_copy(sourceTime), first),
                        wsMin);
        WorkingSet wsMax{WorkingSet::Kind::Max, name};
        counter.measure(counter.between(isl_set_copy(sourceTime), last), wsMax);
        result.push_back(wsMin);
        result.push_back(wsMax);
      }
      isl_set_free(sourceTime);
      Measured entry{dependence, {}};
      for (size_t index = firstResult; index < result.size(); ++index)
        entry.results.push_back(index);
      measured.push_back(std::move(entry));
    }
  }
  for (Measured &entry : measured)
    isl_map_free(entry.dependence);
  return result;
}

namespace {

/// The instances of `domain` (taken) that the first of `threads` threads
/// runs when the loop at time dimension `t` is split into contiguous chunks.
isl_set *firstThreadChunk(isl_set *domain, unsigned t, unsigned threads) {
  unsigned dims = isl_set_dim(domain, isl_dim_set);
  isl_set *values =
      isl_set_project_out(isl_set_project_out(isl_set_copy(domain), isl_dim_set,
                                              t + 1, dims - t - 1),
                          isl_dim_set, 0, t);
  SmallVector<int64_t> iterations;
  isl_set_foreach_point(
      values,
      [](isl_point *point, void *user) {
        isl_val *value = isl_point_get_coordinate_val(point, isl_dim_set, 0);
        static_cast<SmallVector<int64_t> *>(user)->push_back(
            isl_val_get_num_si(value));
        isl_val_free(value);
        isl_point_free(point);
        return isl_stat_ok;
      },
      &iterations);
  isl_set_free(values);
  if (iterations.empty())
    return domain;
  llvm::sort(iterations);
  size_t chunk = (iterations.size() + threads - 1) / threads;
  return isl_set_upper_bound_si(domain, isl_dim_set, t, iterations[chunk - 1]);
}

/// A point of `set` (borrowed) inside it rather than on its border: the
/// first `dims` dimensions fixed one after the other to the middle of their
/// remaining range (a dimension whose middle `set` skips stays free), the
/// rest lexicographically first.
isl_set *interiorPoint(isl_set *set, unsigned dims) {
  isl_set *interior = isl_set_copy(set);
  for (unsigned d = 0; d < dims; ++d) {
    isl_val *lo = isl_set_dim_min_val(isl_set_copy(interior), d);
    isl_val *hi = isl_set_dim_max_val(isl_set_copy(interior), d);
    if (isl_val_is_int(lo) && isl_val_is_int(hi)) {
      int64_t low = isl_val_get_num_si(lo), high = isl_val_get_num_si(hi);
      isl_set *fixed = isl_set_fix_si(isl_set_copy(interior), isl_dim_set, d,
                                      low + (high - low) / 2);
      if (isl_set_is_empty(fixed) == isl_bool_false)
        std::swap(interior, fixed);
      isl_set_free(fixed);
    }
    isl_val_free(lo);
    isl_val_free(hi);
  }
  return isl_set_lexmin(interior);
}

} // namespace

ReuseProfile
WorkingSetAnalysis::computeReuse(const WorkingSetOptions &options) const {
  unsigned timeDims = model->timeDims;
  isl_set *domain = isl_set_copy(model->domain);
  if (options.parallelDepth && options.threads > 1 &&
      *options.parallelDepth < model->loopTimeDims.size())
    domain = firstThreadChunk(
        domain, model->loopTimeDims[*options.parallelDepth], options.threads);
  TimeCounter counter(*model, domain, options.maxOperations);
  auto carrierName = [&](unsigned t) {
    const auto *depth = llvm::find(model->loopTimeDims, t);
    if (depth != model->loopTimeDims.end())
      return "d" + std::to_string(depth - model->loopTimeDims.begin());
    return "p" + std::to_string(t);
  };

  ReuseProfile profile;
  for (auto [array, footprint] : llvm::enumerate(model->footprints)) {
    int64_t elementBytes = model->elementBytes[array];
    isl_map *touches =
        isl_map_intersect_domain(isl_map_copy(footprint), isl_set_copy(domain));
    isl_set *elements = isl_map_range(isl_map_copy(touches));
    profile.firstTouchBytes.push_back(
        countPoints(elements, options.maxOperations, profile.approximate) *
        elementBytes);
    isl_set_free(elements);
    // Pairs of instances touching the same element.
    isl_map *sameElement = isl_map_apply_range(
        isl_map_copy(touches), isl_map_reverse(isl_map_copy(touches)));
    isl_map_free(touches);
    // A reuse carried by a deeper dimension is nearer in time than one
    // carried by an outer dimension: going inside out, an instance's next
    // access is carried by the first dimension that carries any.
    isl_set *covered = isl_set_empty(isl_space_copy(counter.space()));
    for (int t = timeDims - 1; t >= 0; --t) {
      isl_map *carried = isl_map_copy(sameElement);
      for (int d = 0; d < t; ++d)
        carried = isl_map_equate(carried, isl_dim_in, d, isl_dim_out, d);
      carried = isl_map_order_lt(carried, isl_dim_in, t, isl_dim_out, t);
      isl_set *sources =
          isl_set_coalesce(isl_map_domain(isl_map_copy(carried)));
      isl_set *nextHere =
          isl_set_subtract(isl_set_copy(sources), isl_set_copy(covered));
      covered = isl_set_coalesce(isl_set_union(covered, sources));
      if (isl_set_is_empty(nextHere) != isl_bool_false) {
        isl_set_free(nextHere);
        isl_map_free(carried);
        continue;
      }
      ReuseClass reuse;
      reuse.array = array;
      reuse.carrier = carrierName(t);
      reuse.elementBytes = elementBytes;
      reuse.accesses =
          countPoints(nextHere, options.maxOperations, reuse.approximate);
      // The distance is the larger of the first source's and an interior
      // source's: a padded convolution's first output row skips the taps
      // on padding, so its reuses span less than the steady state's (2/3
      // of the filter with a 3x3 filter), and a reuse that is a hit there
      // may not be one in the rows that follow. Sources that form a box
      // have no such borders; their first one is measured alone (each
      // measure is a count, most of the analysis time).
      SmallVector<isl_set *, 2> measured = {
          isl_set_lexmin(isl_set_copy(nextHere))};
      if (isl_set_is_box(nextHere) != isl_bool_true)
        measured.push_back(interiorPoint(nextHere, t));
      for (isl_set *source : measured) {
        isl_set *next = isl_set_lexmin(
            isl_set_apply(isl_set_copy(source), isl_map_copy(carried)));
        int64_t elements = 0, bytes = 0;
        counter.measure(counter.between(source, next), elements, bytes,
                        reuse.approximate);
        reuse.distanceElements = std::max(reuse.distanceElements, elements);
        reuse.distanceBytes = std::max(reuse.distanceBytes, bytes);
      }
      isl_set_free(nextHere);
      isl_map_free(carried);
      profile.approximate |= reuse.approximate;
      profile.reuses.push_back(std::move(reuse));
    }
    isl_set_free(covered);
    isl_map_free(sameElement);
  }
  isl_set_free(domain);
  return profile;
}
