//===- ParametricVersioning.cpp - dynamic sizes as static versions --------===//
//
// The pass `dl-parametric-versioning`: a dl.matmul or dl.conv2d whose only
// dynamic sizes are the outermost dimension of its operands (the rows M of
// a GEMM, the images N of a convolution: a batch size) becomes static
// versions of itself on subviews, selected at run time by affine.if guards
// on that size. Every later decision (layouts, blocks, remainders, the
// ranking and tile sizing, panels, parallelism, microkernels) needs static
// sizes; a dynamic op would otherwise run as plain loops, two orders of
// magnitude slower (docs/heuristics.md, "Parametric versioning:
// evidence"). The versions are static ops
// of power-of-two sizes, so each one is scheduled for exactly its own size by
// the same passes as any static op:
//
//   a loop over the whole chunks of T (S floordiv T versions of size T), then
//   for each power of two 2^j < T:  if (S mod 2^(j+1) >= 2^j)  a version of
//   size 2^j at S - S mod 2^(j+1)
//
// which covers [0, S) exactly once for every S >= 0, and tests no constraint
// twice on any path. The chunk T is the smallest power of two whose version
// does kChunkFlops of work, so each version is large enough to run near its
// static speed; its remainder versions are the op's at the sizes below.
//
// Each version of a GEMM would pack B for itself (a 509-row GEMM: 8 copies
// of B). Where its chunk version would pack B (B has several block columns;
// its N and K have good blocks), B is packed once into the blocked layout
// (dl.pack) and every version reads it in place: a second family of
// versions, taken from 2 rows on (7 rows: versions of 4, 2 and 1 rows ran
// 2.4x slower than static each packing B). One row is one version, which
// reads B as it is, as the static GEMM would.
//
// Dynamic sizes elsewhere (a dynamic inner dimension sets a leading
// dimension of the microkernels, which take static ones; a dynamic
// reduction) are left to the generic version (GenericVersions.cpp), with a
// remark under `report-fallbacks`.
//
//===----------------------------------------------------------------------===//

#include "GenericVersions.h"

#include "dl/Analysis/GuardTree.h"
#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/IR/OpWork.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "dl-parametric-versioning"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_PARAMETRICVERSIONING
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// The work of one chunk version: about a millisecond on one core, so that
/// what a version repeats per run (packing B or the filter, a parallel
/// region) stays a few percent of it.
constexpr double kChunkFlops = double(1 << 27);

/// A dynamic size the op is versioned on: dimension 0 of `operands`.
struct Parameter {
  SmallVector<unsigned> operands;
  StringRef name;
};

/// The parameter of a versionable op, or the reason it is not versionable.
FailureOr<Parameter> getParameter(Operation *op, std::string &reason) {
  // Every dynamic size must be the outermost dimension of its operand: an
  // inner one is a stride of the outer dimensions, which the microkernels
  // take as static leading dimensions.
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    for (int64_t dim = 1; dim < type.getRank(); ++dim)
      if (type.isDynamicDim(dim)) {
        reason = llvm::formatv("operand #{0} has a dynamic size in dimension "
                               "{1}, a leading dimension of its rows; only a "
                               "dynamic outermost size is versioned",
                               operand.getOperandNumber(), dim);
        return failure();
      }
    if (!type.getLayout().isIdentity()) {
      reason = llvm::formatv("operand #{0} has a non-identity layout",
                             operand.getOperandNumber());
      return failure();
    }
  }
  auto dynamicRows = [](Value v) {
    return cast<MemRefType>(v.getType()).isDynamicDim(0);
  };
  Parameter parameter;
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    if (matmul.getPackBlocks() || matmul.getEpilogue()) {
      reason = "the op is already blocked or fused";
      return failure();
    }
    // With transpose_a, A's rows are K; B's rows are K unless transposed.
    if ((matmul.getTransposeA() && dynamicRows(matmul.getA())) ||
        (!matmul.getTransposeB() && dynamicRows(matmul.getB()))) {
      reason = "K, the reduction, is dynamic";
      return failure();
    }
    if (matmul.getTransposeB() && dynamicRows(matmul.getB())) {
      reason = "N is dynamic";
      return failure();
    }
    if (matmul.getTransposeA()) {
      reason = "with transpose_a, M is the inner dimension of A";
      return failure();
    }
    parameter = Parameter{{0, 2}, "M"};
  } else {
    auto conv = cast<Conv2DOp>(op);
    if (conv.getSchedule() || !conv.getEpilogueOperands().empty() ||
        conv.getRowStatistics()) {
      reason = "the op is already scheduled or fused";
      return failure();
    }
    if (dynamicRows(conv.getFilter())) {
      reason = "the output channels are dynamic";
      return failure();
    }
    parameter = Parameter{{0, 2}, "N"};
  }
  // The versions slice every operand the parameter sizes.
  for (unsigned index : parameter.operands)
    if (!dynamicRows(op->getOperand(index))) {
      reason = llvm::formatv("{0} is static in operand #{1} and dynamic in "
                             "another",
                             parameter.name, index);
      return failure();
    }
  return parameter;
}

/// The chunk size of `op` along `parameter`: the smallest power of two
/// whose version does kChunkFlops, at most `maxChunk`.
int64_t chooseChunk(Operation *op, const Parameter &parameter,
                    int64_t maxChunk) {
  std::optional<double> flopsPerRow =
      getFlops(op, [&](Value v) -> std::optional<SmallVector<int64_t>> {
        auto type = cast<MemRefType>(v.getType());
        SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
        if (!shape.empty() && ShapedType::isDynamic(shape[0]))
          shape[0] = 1;
        return shape;
      });
  int64_t chunk = 1;
  while (chunk < maxChunk && flopsPerRow &&
         *flopsPerRow * double(chunk) < kChunkFlops)
    chunk *= 2;
  return chunk;
}

/// Rows from which a GEMM's versions share one packed copy of B (a power of
/// two): a block of rows (64 at AVX-512) on, where the static GEMM of those
/// rows packs B too. Below, the versions (of 32, 16 and 8 rows, then one of
/// exactly the last S mod 8 rows) read B in place, as the static GEMM does
/// (docs/heuristics.md, "Parametric versioning: evidence").
constexpr int64_t kSharedPackRows = 64;

/// The blocks (bn, bk) of the one packed copy of B a GEMM's versions share,
/// or none where its versions read B in place: B is transposed or has one
/// block column (read in place), the GEMM is narrow (its rows of A are read
/// whole against a B kept in the L2) or N or K has no good block (its
/// versions would be split into remainders, each with its own blocks). The
/// blocks are those dl-pack-gemm-operands gives a static GEMM.
std::optional<std::pair<int64_t, int64_t>>
chooseSharedPackOfB(MatmulOp op, int64_t vectorBits) {
  ShapedType b = op.getB().getType();
  if (op.getTransposeB() || op.hasBlockedB() || !b.hasStaticShape())
    return std::nullopt;
  int64_t k = b.getDimSize(0), n = b.getDimSize(1);
  int64_t columns = microkernelColumns(vectorBits);
  if (n <= columns || readsWholeRowsOfA(n, k, op.getTransposeA()) ||
      streamsA(ShapedType::kDynamic, n, k, op.getTransposeA(), vectorBits / 32,
               masksPartialVectors(vectorBits),
               /*l1Bytes=*/0) ||
      !hasGoodBlock(n, columns) || !hasGoodReductionBlock(k, kGemmBlockK))
    return std::nullopt;
  return std::pair(largestDivisorAtMost(n, columns),
                   largestDivisorAtMost(k, kGemmBlockK));
}

/// Rows of a GEMM's padded version: a remainder of kPaddedFromRows to
/// kPaddedRows - 1 rows runs as one version of kPaddedRows rows on
/// zero-padded copies of its rows of A and C, which reads B once where the
/// versions of each set bit would read it up to three times, each in a
/// parallel region of its own (3 rows at 2 threads: 0.66x the static GEMM
/// with versions of 2 and 1 rows, 1.2x padded). Two rows stay one version:
/// padded, they did 4x the work (0.69x static on one thread).
constexpr int64_t kPaddedRows = 8;
constexpr int64_t kPaddedFromRows = 3;

/// Emits, at the insertion point of `b`, the version of kPaddedRows rows of
/// the GEMM `op` (B replaced by `packedB`) over the last `S mod kPaddedRows`
/// rows of A and C, S = `size`: those rows are copied into zero-padded
/// buffers (C's only if the GEMM accumulates), the version runs on them, and
/// the computed rows are copied back.
void emitPaddedVersion(OpBuilder &b, MatmulOp op, Value size, Value packedB) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  AffineExpr s0 = getAffineSymbolExpr(0, ctx);
  AffineMap rows = AffineMap::get(0, 1, s0 % kPaddedRows);
  Value offset = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(0, 1, s0 - s0 % kPaddedRows), size);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));

  // A copy of `rows` rows of `source` at `offset` into the first rows of
  // `target`, or back (`toSource`).
  auto copyRows = [&](Value source, Value target, bool toSource) {
    int64_t columns = cast<MemRefType>(target.getType()).getDimSize(1);
    auto outer = affine::AffineForOp::create(b, loc, ValueRange{},
                                             b.getConstantAffineMap(0),
                                             ValueRange{size}, rows);
    OpBuilder body = OpBuilder::atBlockBegin(outer.getBody());
    auto inner = affine::AffineForOp::create(body, loc, 0, columns);
    OpBuilder innerBody = OpBuilder::atBlockBegin(inner.getBody());
    Value i = outer.getInductionVar(), j = inner.getInductionVar();
    AffineMap shifted =
        AffineMap::get(3, 0,
                       {getAffineDimExpr(0, ctx) + getAffineDimExpr(1, ctx),
                        getAffineDimExpr(2, ctx)},
                       ctx);
    SmallVector<Value> at = {offset, i, j};
    if (toSource) {
      Value v = affine::AffineLoadOp::create(innerBody, loc, target,
                                             ValueRange{i, j});
      affine::AffineStoreOp::create(innerBody, loc, v, source, shifted, at);
    } else {
      Value v =
          affine::AffineLoadOp::create(innerBody, loc, source, shifted, at);
      affine::AffineStoreOp::create(innerBody, loc, v, target,
                                    ValueRange{i, j});
    }
  };
  auto paddedCopy = [&](Value source) {
    auto type = cast<MemRefType>(source.getType());
    auto padded = MemRefType::get({kPaddedRows, type.getDimSize(1)},
                                  type.getElementType());
    Value buffer = memref::AllocOp::create(b, loc, padded);
    auto outer = affine::AffineForOp::create(b, loc, 0, kPaddedRows);
    OpBuilder body = OpBuilder::atBlockBegin(outer.getBody());
    auto inner = affine::AffineForOp::create(body, loc, 0, type.getDimSize(1));
    OpBuilder innerBody = OpBuilder::atBlockBegin(inner.getBody());
    affine::AffineStoreOp::create(
        innerBody, loc, zero, buffer,
        ValueRange{outer.getInductionVar(), inner.getInductionVar()});
    return buffer;
  };
  Value a = paddedCopy(op.getA());
  copyRows(op.getA(), a, /*toSource=*/false);
  Value c = paddedCopy(op.getC());
  if (!op.getBeta().isZero())
    copyRows(op.getC(), c, /*toSource=*/false);
  auto version = cast<MatmulOp>(b.clone(*op));
  version->setOperands({a, packedB, c});
  version->setAttr(
      DLDialect::getVersionAttrName(),
      b.getDictionaryAttr(
          {b.getNamedAttr("parameter", b.getStringAttr("M")),
           b.getNamedAttr("size", b.getI64IntegerAttr(kPaddedRows)),
           b.getNamedAttr("padded", b.getUnitAttr())}));
  copyRows(op.getC(), c, /*toSource=*/true);
  memref::DeallocOp::create(b, loc, a);
  memref::DeallocOp::create(b, loc, c);
}

/// How the versions of a GEMM run the last `S mod kPaddedRows` rows, below
/// the versions of powers of two from kPaddedRows up.
enum class Remainder {
  /// Versions of their powers of two (each reading B).
  SetBits,
  /// From kPaddedFromRows rows, one padded version; below, an exact one.
  Padded,
  /// One version of exactly that many rows (as many versions as values).
  Exact,
};

/// Emits the versions of `op` over the run-time size `size` (a valid affine
/// symbol) of `parameter`, in chunks of `chunk` (a power of two), before
/// `op`, with `packedB` for B if given (a GEMM's versions sharing a packed
/// B), its last rows as `remainder` says (a GEMM's; other ops' by set bits).
void emitVersions(OpBuilder &b, Operation *op, const Parameter &parameter,
                  Value size, int64_t chunk, Value packedB = {},
                  Remainder remainder = Remainder::SetBits) {
  Location loc = op->getLoc();
  MLIRContext *ctx = op->getContext();
  AffineExpr s0 = getAffineSymbolExpr(0, ctx);

  // The version of `rows` (static) rows at `offset`.
  auto emitVersion = [&](OpBuilder &builder, Value offset, int64_t rows) {
    SmallVector<Value> operands = llvm::to_vector(op->getOperands());
    if (packedB)
      operands[1] = packedB;
    for (unsigned index : parameter.operands) {
      Value source = op->getOperand(index);
      auto type = cast<MemRefType>(source.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        builder.getIndexAttr(0));
      offsets[0] = offset;
      SmallVector<OpFoldResult> sizes;
      sizes.push_back(builder.getIndexAttr(rows));
      for (int64_t dim = 1; dim < type.getRank(); ++dim)
        sizes.push_back(builder.getIndexAttr(type.getDimSize(dim)));
      SmallVector<OpFoldResult> strides(type.getRank(),
                                        builder.getIndexAttr(1));
      operands[index] = memref::SubViewOp::create(builder, loc, source, offsets,
                                                  sizes, strides);
    }
    Operation *version = builder.clone(*op);
    version->setOperands(operands);
    version->setAttr(
        DLDialect::getVersionAttrName(),
        builder.getDictionaryAttr(
            {builder.getNamedAttr("parameter",
                                  builder.getStringAttr(parameter.name)),
             builder.getNamedAttr("size", builder.getI64IntegerAttr(rows))}));
  };

  // The whole chunks.
  AffineMap chunks = AffineMap::get(0, 1, s0.floorDiv(chunk));
  auto loop = affine::AffineForOp::create(b, loc, ValueRange{},
                                          b.getConstantAffineMap(0),
                                          ValueRange{size}, chunks);
  loop->setAttr(
      DLDialect::getVersionChunksAttrName(),
      b.getDictionaryAttr(
          {b.getNamedAttr("parameter", b.getStringAttr(parameter.name)),
           b.getNamedAttr("size", b.getI64IntegerAttr(chunk))}));
  {
    OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
    Value offset = loop.getInductionVar();
    if (chunk > 1)
      offset = affine::AffineApplyOp::create(
          body, loc, AffineMap::get(1, 0, getAffineDimExpr(0, ctx) * chunk),
          offset);
    emitVersion(body, offset, chunk);
  }

  // The remainder, one power of two at a time, largest first; below
  // kPaddedRows, padded or exact versions where `remainder` says so.
  if (!isa<MatmulOp>(op) || chunk <= kPaddedRows)
    remainder = Remainder::SetBits;
  for (int64_t rows = chunk / 2;
       rows >= (remainder == Remainder::SetBits ? 1 : kPaddedRows); rows /= 2) {
    IntegerSet taken =
        IntegerSet::get(0, 1, {(s0 % (2 * rows)) - rows}, {false});
    auto guard = affine::AffineIfOp::create(b, loc, taken, ValueRange{size},
                                            /*withElseRegion=*/false);
    guard->setAttr(DLDialect::getVersionGuardAttrName(), b.getUnitAttr());
    OpBuilder then = guard.getThenBodyBuilder();
    AffineMap at = AffineMap::get(0, 1, s0 - (s0 % (2 * rows)));
    Value offset = affine::AffineApplyOp::create(then, loc, at, size);
    emitVersion(then, offset, rows);
  }
  if (remainder == Remainder::SetBits)
    return;
  // r = S mod kPaddedRows: padded, from kPaddedFromRows rows on, the padded
  // version; below, or exact, the one version of r rows.
  int64_t exactRows = kPaddedRows - 1;
  OpBuilder otherwise = b;
  if (remainder == Remainder::Padded) {
    IntegerSet several =
        IntegerSet::get(0, 1, {(s0 % kPaddedRows) - kPaddedFromRows}, {false});
    auto guard = affine::AffineIfOp::create(b, loc, several, ValueRange{size},
                                            /*withElseRegion=*/true);
    guard->setAttr(DLDialect::getVersionGuardAttrName(), b.getUnitAttr());
    OpBuilder then = guard.getThenBodyBuilder();
    emitPaddedVersion(then, cast<MatmulOp>(op), size, packedB);
    otherwise = guard.getElseBodyBuilder();
    exactRows = kPaddedFromRows - 1;
  }
  for (int64_t rows = exactRows; rows >= 1; --rows) {
    auto exact = affine::AffineIfOp::create(
        otherwise, loc,
        IntegerSet::get(0, 1, {(s0 % kPaddedRows) - rows}, {false}),
        ValueRange{size}, /*withElseRegion=*/rows > 1);
    exact->setAttr(DLDialect::getVersionGuardAttrName(), b.getUnitAttr());
    OpBuilder body = exact.getThenBodyBuilder();
    emitVersion(body,
                affine::AffineApplyOp::create(
                    body, loc, AffineMap::get(0, 1, s0 - rows), size),
                rows);
    if (rows > 1)
      otherwise = exact.getElseBodyBuilder();
  }
}

struct ParametricVersioningPass
    : dl::impl::ParametricVersioningBase<ParametricVersioningPass> {
  using ParametricVersioningBase::ParametricVersioningBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (maxVersions < 1) {
      getOperation().emitError("dl-parametric-versioning: max-versions must "
                               "be >= 1");
      return signalPassFailure();
    }
    Target target = getTarget(getOperation());
    int64_t vectorBits = target.vectorBits;
    FailureOr<Occupancy> parsedOccupancy = parseOccupancy(occupancy);
    if (failed(parsedOccupancy)) {
      getOperation().emitError("dl-parametric-versioning: occupancy must be "
                               "a or a/b with integers from 1 to 2^20, got '")
          << occupancy << "'";
      return signalPassFailure();
    }
    std::optional<GuardArrangement> arrangement =
        llvm::StringSwitch<std::optional<GuardArrangement>>(guards)
            .Case("tree", GuardArrangement::Tree)
            .Case("chain", GuardArrangement::Chain)
            .Case("auto", GuardArrangement::Auto)
            .Default(std::nullopt);
    if (!arrangement) {
      getOperation().emitError("dl-parametric-versioning: guards must be "
                               "tree, chain or auto, got '")
          << guards << "'";
      return signalPassFailure();
    }
    GenericVersionOptions genericOptions;
    genericOptions.threads = threads;
    genericOptions.occupancy = *parsedOccupancy;
    genericOptions.arrangement = *arrangement;
    genericOptions.maxVersions = maxVersions;
    genericOptions.vectorBits = vectorBits;
    genericOptions.maxBatchBytes = target.maxBatchBytes;
    genericOptions.reportFallbacks = reportFallbacks;
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (!isa<MatmulOp, Conv2DOp>(op))
        return;
      if (llvm::all_of(op->getOperandTypes(), [](Type type) {
            auto memref = dyn_cast<MemRefType>(type);
            return !memref || memref.hasStaticShape();
          }))
        return;
      ops.push_back(op);
    });
    for (Operation *op : ops) {
      std::string reason;
      FailureOr<Parameter> parameter = getParameter(op, reason);
      OpBuilder b(op);
      Value size;
      if (succeeded(parameter)) {
        Value source = op->getOperand(parameter->operands.back());
        size = memref::DimOp::create(b, op->getLoc(), source, 0);
        if (!affine::isValidSymbol(size)) {
          reason = "its size is not a valid affine symbol here";
          size.getDefiningOp()->erase();
          parameter = failure();
        }
      }
      if (failed(parameter)) {
        versionGeneric(op, reason, genericOptions);
        continue;
      }
      // Versions of 1, 2, 4, ..., chunk rows (chunks beyond 2^30 rows would
      // only add versions no batch reaches).
      int64_t maxChunk = int64_t(1) << std::min<int64_t>(maxVersions - 1, 30);
      int64_t chunk = chooseChunk(op, *parameter, maxChunk);
      LLVM_DEBUG(llvm::dbgs()
                 << "versioning " << *op << " on " << parameter->name
                 << " in chunks of " << chunk << "\n");
      auto matmul = dyn_cast<MatmulOp>(op);
      std::optional<std::pair<int64_t, int64_t>> sharedPack;
      if (matmul)
        sharedPack = chooseSharedPackOfB(matmul, vectorBits);
      if (!sharedPack) {
        emitVersions(b, op, *parameter, size, chunk);
        op->erase();
        continue;
      }
      auto [bn, bk] = *sharedPack;
      ShapedType plainB = matmul.getB().getType();
      auto packedB = MemRefType::get(
          {plainB.getDimSize(1) / bn, plainB.getDimSize(0) / bk, bk, bn},
          plainB.getElementType());
      Location loc = op->getLoc();
      AffineExpr s0 = b.getAffineSymbolExpr(0);
      auto guard = affine::AffineIfOp::create(
          b, loc, IntegerSet::get(0, 1, {s0 - kSharedPackRows}, {false}),
          ValueRange{size}, /*withElseRegion=*/true);
      guard->setAttr(DLDialect::getVersionGuardAttrName(), b.getUnitAttr());
      guard->setAttr(DLDialect::getVersionSharedPackAttrName(),
                     b.getDenseI64ArrayAttr({bn, bk}));
      OpBuilder then = guard.getThenBodyBuilder();
      Value packed = memref::AllocOp::create(then, loc, packedB);
      PackOp::create(then, loc, TypeRange{}, matmul.getB(), packed);
      // On one thread there are no parallel regions to save, and the bit
      // versions do less work (docs/heuristics.md, "Parametric versioning:
      // evidence").
      emitVersions(then, op, *parameter, size, chunk, packed,
                   threads > 1 ? Remainder::Padded : Remainder::SetBits);
      memref::DeallocOp::create(then, loc, packed);
      OpBuilder otherwise = guard.getElseBodyBuilder();
      emitVersions(otherwise, op, *parameter, size,
                   std::min(chunk, kSharedPackRows / 2), /*packedB=*/{},
                   Remainder::Exact);
      op->erase();
    }
  }
};

} // namespace
