//===- GenericVersions.cpp - ops with dynamic inner sizes -----------------===//
//
// The generic version of a dl.matmul or dl.conv2d that dl-parametric-
// versioning cannot turn into static versions (a dynamic inner size sets a
// leading dimension of the rows above it; a dynamic reduction). A GEMM's is
// blocked: its operands are copied into blocks with static leading
// dimensions whose last ones are partial, so its microkernels are
// dispatched with run-time sizes (pack_blocks with pad_blocks); where its
// sizes may all be small, a plain copy of it runs under a guard of its own.
// At several threads, its nests are versioned on occupancy (R-Stream's
// placement test): the outermost output dimension with enough iterations
// per thread runs in parallel, and a dynamic trip count is assumed large
// with a version for the context where it is not. Those versions' contexts
// overlap (each holds in the previous one); the guards selecting the most
// specialized are a tree (dl/Analysis/GuardTree.h).
//
//===----------------------------------------------------------------------===//

#include "GenericVersions.h"

#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "dl-parametric-versioning"

using namespace mlir;
using namespace mlir::dl;

namespace {

/// Erases the memref.dim ops of `parameters` (and their constant indices
/// left unused).
void eraseParameters(ArrayRef<Value> parameters) {
  for (Value parameter : parameters) {
    Operation *dim = parameter.getDefiningOp();
    Operation *index = dim->getOperand(1).getDefiningOp();
    dim->erase();
    if (index && index->use_empty())
      index->erase();
  }
}

/// Largest numerator and denominator of an occupancy (the guards' integer
/// arithmetic stays far from overflow).
constexpr int64_t kMaxOccupancyTerm = int64_t(1) << 20;

/// An occupancy version of a generic op: where `context` holds, the loop at
/// `parallelDepth` of its nests runs in parallel (none: sequential).
struct OccupancyVersion {
  GuardContext context;
  std::optional<int64_t> parallelDepth;
};

/// The occupancy versions of `op`'s generic nests, whose outer loops run
/// over the output's dimensions (C of a GEMM, the output of a convolution)
/// in order, least specialized first; the first `loopBlocks.size()` of them
/// may run in parallel, loop d over the blocks of loopBlocks[d] elements
/// (ceil(size / block) iterations). `parameterOf[d]` is the parameter that
/// output size d is, if it is dynamic.
SmallVector<OccupancyVersion>
decideOccupancyVersions(MemRefType output, ArrayRef<int64_t> loopBlocks,
                        ArrayRef<int> parameterOf, unsigned numParameters,
                        int64_t threads, Occupancy occupancy,
                        int64_t maxVersions) {
  SmallVector<OccupancyVersion> family;
  GuardContext known;
  for (auto [d, block] : llvm::enumerate(loopBlocks)) {
    // The placement test b * t >= a * threads: decided for a static trip
    // count t; assumed to pass for a dynamic one, with a version where it
    // fails: t = ceil(S / block) <= y = floor((a * threads - 1) / b), that
    // is y * block - S >= 0. An iteration over a block of a GEMM's C (or
    // of a convolution's output channels) is microkernels' work: two per
    // thread are enough, and keep a partial last block from idling a thread
    // for most of the run (65 rows at 2 threads: blocks of 64 and 1 rows).
    Occupancy needed = block > 1 ? Occupancy{2, 1} : occupancy;
    if (!output.isDynamicDim(d)) {
      int64_t trips = llvm::divideCeilSigned(output.getDimSize(d), block);
      if (trips * needed.b >= needed.a * threads) {
        family.push_back({known, static_cast<int64_t>(d)});
        return family;
      }
      continue;
    }
    family.push_back({known, static_cast<int64_t>(d)});
    if (static_cast<int64_t>(family.size()) >= maxVersions)
      return family;
    GuardConstraint fails(numParameters + 1, 0);
    fails[parameterOf[d]] = -1;
    fails.back() = (needed.a * threads - 1) / needed.b * block;
    known.push_back(normalizeGuardConstraint(fails));
  }
  family.push_back({known, std::nullopt});
  return family;
}

/// Largest block along K of a blocked generic GEMM, as dl-pack-gemm-operands'
/// default `block-k`.
constexpr int64_t kGenericBlockK = 128;

/// Whether the generic GEMM `op` has no blocks or layout decided already.
bool canBlockGenericGemm(MatmulOp op) {
  return !op.getPackBlocks() && !op.getStreamA() && !op.hasBlockedB();
}

/// Blocks the generic GEMM `op` (dynamic sizes the static versions do not
/// take): pack_blocks of the microkernel's rows and columns and
/// kGenericBlockK, its operands packed into blocks of which the last ones
/// are partial (pad_blocks; convert-dl-to-affine reads and computes none of
/// their padding, and dl-outline-microkernels dispatches the partial
/// blocks' kernels with run-time sizes), `maxBatchBytes` of A and B blocks
/// per batch-reduce call. Returns the blocks of C (bm, bn).
std::pair<int64_t, int64_t> blockGenericGemm(MatmulOp op, int64_t vectorBits,
                                             int64_t maxBatchBytes) {
  // A size static in any operand bounds its block.
  auto size = [](ArrayRef<std::pair<Value, int64_t>> dims) {
    for (auto [memref, dim] : dims) {
      int64_t extent = cast<MemRefType>(memref.getType()).getDimSize(dim);
      if (!ShapedType::isDynamic(extent))
        return extent;
    }
    return ShapedType::kDynamic;
  };
  auto bound = [](int64_t block, int64_t extent) {
    return ShapedType::isDynamic(extent) ? block : std::min(block, extent);
  };
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  int64_t m = size({{op.getC(), 0}, {op.getA(), ta ? 1 : 0}});
  int64_t n = size({{op.getC(), 1}, {op.getB(), tb ? 0 : 1}});
  int64_t k = size({{op.getA(), ta ? 0 : 1}, {op.getB(), tb ? 1 : 0}});
  int64_t bn = bound(microkernelColumns(vectorBits), n);
  int64_t bm = bound(gemmBlockRows(microkernelColumns(vectorBits)), m);
  int64_t bk = bound(kGenericBlockK, k);
  op.setPackBlocks(ArrayRef<int64_t>{bm, bn, bk});
  op.setPadBlocks(true);
  op.setPackA(true);
  op.setPackB(true);
  op.setPackC(true);
  if (maxBatchBytes > 0) {
    int64_t batch =
        std::max<int64_t>(1, maxBatchBytes / batchElementBytes(bm, bn, bk));
    // A static K's blocks take a divisor (dl.matmul's verifier).
    if (!ShapedType::isDynamic(k))
      batch = largestDivisorAtMost(llvm::divideCeilSigned(k, bk), batch);
    op.setBatchBlocks(batch);
  }
  return std::pair(bm, bn);
}

/// Puts the columns innermost in the plain nest of the generic `op`
/// (dl.columns_innermost) where they are contiguous in B and C, so the
/// innermost loop vectorizes (in a C loop nest on this machine, 20x faster
/// than dot products down a strided column of B). Returns whether it did.
bool putColumnsInnermost(MatmulOp op) {
  if (op.getPackBlocks() || op.getStreamA() || op.getTransposeB() ||
      op.hasBlockedB())
    return false;
  op->setAttr(DLDialect::getColumnsInnermostAttrName(),
              UnitAttr::get(op->getContext()));
  return true;
}

/// Largest GEMM, in every dimension, whose plain loop nest runs faster than
/// its blocked generic version, which packs its operands and dispatches a
/// kernel per block (docs/heuristics.md, "Parametric versioning:
/// evidence").
constexpr int64_t kPlainGemmSize = 12;

/// Largest GEMM, in every dimension, that runs as one microkernel on its
/// operands in place (run-time sizes and leading dimensions), as the static
/// build runs it in blocks of C: its operands fit the L2 (3 x 64 KiB), so
/// copying them into blocks costs more than it saves (one thread, against
/// the static build: 31^3 0.25x blocked, 1.0x in place; 65^3 0.68x and
/// 0.88x; 127^3 0.89x and 1.0x).
constexpr int64_t kInPlaceGemmSize = 128;

/// Where every size of the generic GEMM `op` may be small, guards a plain
/// copy of it, on one thread, with that context and moves `op` to the
/// guard's else branch: sizes up to kInPlaceGemmSize where its plain nest is
/// a GEMM band (one microkernel call, dispatched with run-time sizes and
/// leading dimensions), else up to kPlainGemmSize (loops, columns
/// innermost). Returns the sizes' bound where it did.
std::optional<int64_t> guardSmallGemm(MatmulOp op) {
  bool inPlace = op.hasPlainGemmBand();
  int64_t smallSize = inPlace ? kInPlaceGemmSize : kPlainGemmSize;
  SmallVector<std::pair<Value, int64_t>> sizes = {
      {op.getC(), 0}, {op.getC(), 1}, {op.getA(), op.getTransposeA() ? 0 : 1}};
  SmallVector<std::pair<Value, int64_t>> dynamicSizes;
  for (auto [memref, dim] : sizes) {
    auto type = cast<MemRefType>(memref.getType());
    if (type.isDynamicDim(dim))
      dynamicSizes.push_back({memref, dim});
    else if (type.getDimSize(dim) > smallSize)
      return std::nullopt;
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> parameters;
  for (auto [memref, dim] : dynamicSizes) {
    Value size = memref::DimOp::create(b, loc, memref, dim);
    parameters.push_back(size);
    if (!affine::isValidSymbol(size)) {
      eraseParameters(parameters);
      return std::nullopt;
    }
  }
  GuardContext small;
  for (unsigned i = 0; i < parameters.size(); ++i) {
    GuardConstraint atMost(parameters.size() + 1, 0); // size - P >= 0
    atMost[i] = -1;
    atMost.back() = smallSize;
    small.push_back(atMost);
  }
  IntegerSet set = getGuardSet(small, parameters.size(), op.getContext());
  auto guard = affine::AffineIfOp::create(b, loc, set, parameters,
                                          /*withElseRegion=*/true);
  guard->setAttr(DLDialect::getVersionGuardAttrName(), b.getUnitAttr());
  OpBuilder then = guard.getThenBodyBuilder();
  auto plain = cast<MatmulOp>(then.clone(*op));
  if (!inPlace)
    putColumnsInnermost(plain);
  plain->setAttr(DLDialect::getSequentialAttrName(), b.getUnitAttr());
  plain->setAttr(DLDialect::getVersionContextAttrName(),
                 IntegerSetAttr::get(set));
  op->moveBefore(guard.getElseBlock()->getTerminator());
  return smallSize;
}

/// Marks `version` with the decision of `decided`.
void markOccupancyVersion(Operation *version, const OccupancyVersion &decided) {
  Builder b(version->getContext());
  if (decided.parallelDepth)
    version->setAttr(DLDialect::getParallelDepthAttrName(),
                     b.getI64IntegerAttr(*decided.parallelDepth));
  else
    version->setAttr(DLDialect::getSequentialAttrName(), b.getUnitAttr());
}

/// Emits the guards of `node` before the insertion point of `b`, cloning
/// `op` for each version it selects.
void emitGuards(OpBuilder &b, Operation *op, const GuardNode &node,
                ArrayRef<OccupancyVersion> versions, ValueRange parameters) {
  MLIRContext *ctx = op->getContext();
  if (node.isLeaf()) {
    if (!node.version)
      return;
    const OccupancyVersion &decided = versions[*node.version];
    Operation *version = b.clone(*op);
    markOccupancyVersion(version, decided);
    version->setAttr(DLDialect::getVersionContextAttrName(),
                     IntegerSetAttr::get(
                         getGuardSet(decided.context, parameters.size(), ctx)));
    return;
  }
  bool hasElse =
      node.elseNode && !(node.elseNode->isLeaf() && !node.elseNode->version);
  auto guard = affine::AffineIfOp::create(
      b, op->getLoc(), getGuardSet(node.test, parameters.size(), ctx),
      parameters, hasElse);
  guard->setAttr(DLDialect::getVersionGuardAttrName(), b.getUnitAttr());
  OpBuilder then = guard.getThenBodyBuilder();
  emitGuards(then, op, *node.thenNode, versions, parameters);
  if (hasElse) {
    OpBuilder otherwise = guard.getElseBodyBuilder();
    emitGuards(otherwise, op, *node.elseNode, versions, parameters);
  }
}

/// Replaces the generic `op` by its occupancy versions under their
/// guards, or marks it where one version holds for every size. The outer
/// loops of its nests run over the blocks of `loopBlocks` of the first
/// output dimensions (a GEMM's nest over (i, k, j) has only the rows at
/// the same depth in its zero fill and in its GEMM nest).
void versionOnOccupancy(Operation *op, ArrayRef<int64_t> loopBlocks,
                        const GenericVersionOptions &options) {
  Value output = op->getOperand(2);
  auto type = cast<MemRefType>(output.getType());
  SmallVector<int> parameterOf(type.getRank(), -1);
  int numParameters = 0;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      parameterOf[d] = numParameters++;
  SmallVector<OccupancyVersion> family = decideOccupancyVersions(
      type, loopBlocks, parameterOf, numParameters, options.threads,
      options.occupancy, options.maxVersions);
  if (family.size() == 1) {
    markOccupancyVersion(op, family.front());
    return;
  }
  OpBuilder b(op);
  SmallVector<Value> parameters;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      parameters.push_back(memref::DimOp::create(b, op->getLoc(), output, d));
  if (!llvm::all_of(parameters,
                    [](Value v) { return affine::isValidSymbol(v); })) {
    eraseParameters(parameters);
    if (options.reportFallbacks)
      op->emitRemark("no occupancy versions: an output size is not a "
                     "valid affine symbol here");
    return;
  }
  // Most specialized first: each context holds in the ones before it.
  std::reverse(family.begin(), family.end());
  GuardContext root;
  for (unsigned i = 0; i < parameters.size(); ++i) {
    GuardConstraint nonNegative(parameters.size() + 1, 0);
    nonNegative[i] = 1;
    root.push_back(nonNegative);
  }
  SmallVector<GuardContext> contexts = llvm::map_to_vector(
      family, [](const OccupancyVersion &version) { return version.context; });
  std::unique_ptr<GuardNode> tree =
      buildGuardTree(parameters.size(), contexts, root,
                     {options.arrangement, /*maxTreeNodes=*/64});
  LLVM_DEBUG(llvm::dbgs() << "occupancy versions of " << *op << ": "
                          << family.size() << ", " << tree->countTests()
                          << " guard(s)\n");
  emitGuards(b, op, *tree, family, parameters);
  op->erase();
}

} // namespace

FailureOr<Occupancy> dl::parseOccupancy(StringRef text) {
  auto [numerator, denominator] = text.split('/');
  Occupancy occupancy;
  if (numerator.trim().getAsInteger(10, occupancy.a) ||
      (!denominator.empty() &&
       denominator.trim().getAsInteger(10, occupancy.b)) ||
      occupancy.a <= 0 || occupancy.b <= 0 || occupancy.a > kMaxOccupancyTerm ||
      occupancy.b > kMaxOccupancyTerm)
    return failure();
  return occupancy;
}

void dl::versionGeneric(Operation *op, StringRef reason,
                        const GenericVersionOptions &options) {
  auto matmul = dyn_cast<MatmulOp>(op);
  bool blocked = matmul && canBlockGenericGemm(matmul);
  // A convolution dl-block-conv-layouts will block (whatever its dynamic
  // sizes): its nest's outer loops run over images, blocks of output
  // channels and rows.
  auto conv = dyn_cast<Conv2DOp>(op);
  std::optional<ConvChannelBlocks> convBlocks;
  if (conv && hasBlockableLayout(conv)) {
    int64_t columns = microkernelColumns(options.vectorBits);
    convBlocks = chooseConvChannelBlocks(
        conv, columns, columns, !masksPartialVectors(options.vectorBits));
  }
  // Small GEMMs keep the plain nest: the blocked version's copies and
  // dispatches would cost more.
  std::optional<int64_t> smallGemm;
  if (blocked)
    smallGemm = guardSmallGemm(matmul);
  if (options.reportFallbacks) {
    InFlightDiagnostic remark = op->emitRemark();
    if (blocked) {
      remark << "generic version, blocked (packed operands, kernels of "
                "run-time sizes for the partial blocks";
      if (smallGemm)
        remark << "; where every size is at most " << *smallGemm
               << (matmul.hasPlainGemmBand()
                       ? ", one kernel on the operands in place"
                       : ", plain loops");
      remark << "): ";
    } else if (convBlocks) {
      remark << "generic version, blocked (channel blocks";
      if (ShapedType::isDynamic(getConvChannels(conv)) ||
          ShapedType::isDynamic(getConvOutChannels(conv)))
        remark << ", dynamic channels padded to whole blocks";
      if (conv.getOutput().getType().isDynamicDim(3))
        remark << ", output rows in blocks of " << kMaxKernelRows
               << " columns, kernels of run-time sizes for the partial "
                  "blocks";
      remark << "): ";
    } else
      remark << "generic version only (plain loops, no microkernel): ";
    remark << reason;
  }
  // The output dimensions the outer loops of the op's nests run over
  // in the same order, each in steps of its block.
  auto rank = cast<MemRefType>(op->getOperand(2).getType()).getRank();
  SmallVector<int64_t> loopBlocks(rank, 1);
  if (convBlocks) {
    // The blocked nest's outer loops: images, output-channel blocks, rows.
    loopBlocks = {1, convBlocks->output, 1};
  } else if (blocked) {
    auto [bm, bn] =
        blockGenericGemm(matmul, options.vectorBits, options.maxBatchBytes);
    loopBlocks = {bm, bn};
  } else if (matmul && putColumnsInnermost(matmul)) {
    loopBlocks = {1};
  }
  if (options.threads > 1)
    versionOnOccupancy(op, loopBlocks, options);
}
