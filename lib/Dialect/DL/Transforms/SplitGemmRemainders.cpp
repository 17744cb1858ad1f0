//===- SplitGemmRemainders.cpp - full GEMM blocks and remainders ----------===//
//
// The pass `dl-split-gemm-remainders`: a static dl.matmul whose sizes have no
// good block (primes, powers of two plus one) becomes one dl.matmul per part
// of a split of M, N and K into whole blocks and a remainder, on subviews of
// its operands. Each part then gets full blocks from dl-pack-gemm-operands
// (whose blocks must divide the sizes, so that one static microkernel serves
// all of them) and its own ranking, packing and microkernels. Written on dl
// ops, before the blocking decision, so dl-opt shows the parts. With `pad`,
// the op stays whole instead, with blocks that do not divide its sizes
// (`pad_blocks`: its packed operands are zero-padded to whole blocks); the
// parts measured faster, so splitting is the default.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/Debug.h"

#include <map>
#include <tuple>

#define DEBUG_TYPE "dl-split-gemm-remainders"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_SPLITGEMMREMAINDERS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// A range [offset, offset + size) of one GEMM dimension.
struct Part {
  int64_t offset, size;
};

/// The parts of an extent: itself, or whole blocks of `limit` and the
/// remainder when no divisor up to `limit` reaches half of it. Along the
/// vector dimension (`vectorFloats` > 0), also when the split takes 10%
/// fewer vector registers per row of C than the divisor's blocks (646
/// columns: 17 blocks of 38, 3 registers each, against 10 of 64 and one of
/// 6, 41 registers).
SmallVector<Part, 2> splitExtent(int64_t extent, int64_t limit,
                                 int64_t vectorFloats = 0) {
  if (extent <= limit)
    return {{0, extent}};
  int64_t divisor = largestDivisorAtMost(extent, limit);
  int64_t main = wholeBlocksExtent(extent, limit);
  bool split = !hasGoodBlock(extent, limit);
  if (!split && vectorFloats > 0) {
    auto vectors = [&](int64_t size) {
      return (size + vectorFloats - 1) / vectorFloats;
    };
    int64_t whole = extent / divisor * vectors(divisor);
    int64_t parts = main / limit * vectors(limit) + vectors(extent - main);
    split = 10 * parts < 9 * whole;
  }
  if (!split)
    return {{0, extent}};
  return {{0, main}, {main, extent - main}};
}

/// The parts of the vector extent N on a target without masked partial
/// vectors (Target::masksPartialVectors), where blocks are whole vectors:
/// the whole vectors, split as splitExtent in vectors, then the rest of a
/// vector (N mod `vectorFloats`), which dl-pack-gemm-operands pads to one.
/// An extent within one block stays whole (padded there).
SmallVector<Part, 3> splitWholeVectors(int64_t extent, int64_t limit,
                                       int64_t vectorFloats) {
  if (extent <= limit)
    return {{0, extent}};
  int64_t rest = extent % vectorFloats, vectors = extent / vectorFloats;
  SmallVector<Part, 3> parts;
  for (Part part :
       splitExtent(vectors, std::max<int64_t>(1, limit / vectorFloats)))
    parts.push_back({part.offset * vectorFloats, part.size * vectorFloats});
  if (rest)
    parts.push_back({extent - rest, rest});
  return parts;
}

/// The parts of the reduction extent K: itself when it has a good block
/// (hasGoodReductionBlock), else as splitExtent.
SmallVector<Part, 2> splitReduction(int64_t extent, int64_t limit) {
  if (hasGoodReductionBlock(extent, limit))
    return {{0, extent}};
  return splitExtent(extent, limit);
}

/// Subviews of a GEMM's operands, one per operand and range: the parts
/// that share a slice read the same value.
class Slices {
public:
  explicit Slices(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  /// `source[rows][cols]`, or `source[cols][rows]` when `transposed`; the
  /// source itself when that is all of it.
  Value get(Value source, Part rows, Part cols, bool transposed) {
    if (transposed)
      std::swap(rows, cols);
    auto type = cast<MemRefType>(source.getType());
    if (rows.offset == 0 && cols.offset == 0 &&
        rows.size == type.getDimSize(0) && cols.size == type.getDimSize(1))
      return source;
    Value &slice = cache[{source.getAsOpaquePointer(), rows.offset, rows.size,
                          cols.offset, cols.size}];
    if (!slice) {
      SmallVector<OpFoldResult> offsets = {b.getIndexAttr(rows.offset),
                                           b.getIndexAttr(cols.offset)};
      SmallVector<OpFoldResult> sizes = {b.getIndexAttr(rows.size),
                                         b.getIndexAttr(cols.size)};
      SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
      slice =
          memref::SubViewOp::create(b, loc, source, offsets, sizes, strides);
    }
    return slice;
  }

private:
  OpBuilder &b;
  Location loc;
  std::map<std::tuple<const void *, int64_t, int64_t, int64_t, int64_t>, Value>
      cache;
};

struct SplitGemmRemaindersPass
    : dl::impl::SplitGemmRemaindersBase<SplitGemmRemaindersPass> {
  using SplitGemmRemaindersBase::SplitGemmRemaindersBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (blockM < 0 || blockN < 0 || blockK < 1) {
      getOperation().emitError("dl-split-gemm-remainders: block-k must be "
                               ">= 1, and block-m and block-n >= 0");
      return signalPassFailure();
    }
    Target target = getTarget(getOperation());
    int64_t columns = blockN ? blockN : microkernelColumns(target.vectorBits);
    wholeVectors = !target.masksPartialVectors();
    int64_t rows = blockM ? blockM : gemmBlockRows(columns);
    SmallVector<MatmulOp> ops;
    getOperation().walk([&](MatmulOp op) {
      // Decided already (the blocks are given), or GEMV-like: streamed
      // whole (dl-pack-gemm-operands sets stream_a).
      if (op.getPackBlocks() || op.getStreamA() ||
          !op.getA().getType().hasStaticShape() ||
          !op.getB().getType().hasStaticShape() ||
          !op.getC().getType().hasStaticShape())
        return;
      bool transposeA = op.getTransposeA();
      if (streamsA(op.getC().getType().getDimSize(1),
                   op.getA().getType().getDimSize(transposeA ? 0 : 1),
                   transposeA))
        return;
      ops.push_back(op);
    });
    for (MatmulOp op : ops)
      split(op, rows, columns);
  }

  void split(MatmulOp op, int64_t rows, int64_t columns) {
    bool transposeA = op.getTransposeA(), transposeB = op.getTransposeB();
    int64_t m = op.getC().getType().getDimSize(0);
    int64_t n = op.getC().getType().getDimSize(1);
    int64_t k = op.getA().getType().getDimSize(transposeA ? 0 : 1);
    // A blocked B fixes N's and K's blocks; its parts cannot be sliced.
    bool blockedB = op.hasBlockedB();
    // A narrow GEMM reduces over all of K in one block, in blocks of fewer
    // rows.
    bool wholeRows = !blockedB && readsWholeRowsOfA(n, k, transposeA);
    SmallVector<Part, 2> mParts = splitExtent(
        m, wholeRows ? std::min(rows, wholeRowBlockLimit(k)) : rows);
    int64_t vectorFloats = blockVectorFloats(columns);
    SmallVector<Part, 3> nParts;
    if (blockedB)
      nParts = {{0, n}};
    else if (takesWholeVectors(!wholeVectors, m, n, k))
      nParts = splitWholeVectors(n, columns, vectorFloats);
    else
      nParts = splitExtent(n, columns, vectorFloats);
    SmallVector<Part, 2> kParts = blockedB || wholeRows
                                      ? SmallVector<Part, 2>{{0, k}}
                                      : splitReduction(k, blockK);
    if (mParts.size() == 1 && nParts.size() == 1 && kParts.size() == 1)
      return;
    if (pad && !blockedB && !wholeRows) {
      // One block per limit, rounded up, along each split dimension; the
      // divisor dl-pack-gemm-operands would take along the others.
      auto block = [](ArrayRef<Part> parts, int64_t size, int64_t limit) {
        if (parts.size() == 1)
          return largestDivisorAtMost(size, limit);
        return llvm::divideCeilSigned(size,
                                      llvm::divideCeilSigned(size, limit));
      };
      op.setPackBlocks(ArrayRef<int64_t>{block(mParts, m, rows),
                                         block(nParts, n, columns),
                                         block(kParts, k, blockK)});
      op.setPadBlocks(true);
      op.setPackA(true);
      op.setPackB(true);
      op.setPackC(computesCInPackedBlocks(op));
      LLVM_DEBUG(llvm::dbgs() << "padding " << op << "\n");
      return;
    }
    LLVM_DEBUG(llvm::dbgs()
               << "splitting " << op << ": M " << mParts.size() << " parts, N "
               << nParts.size() << ", K " << kParts.size() << "\n");
    OpBuilder b(op);
    Location loc = op.getLoc();
    Attribute accumulate = b.getF32FloatAttr(1.0f);
    Slices slices(b, loc);
    for (Part mPart : mParts)
      for (Part nPart : nParts) {
        Value c = slices.get(op.getC(), mPart, nPart, false);
        for (auto [index, kPart] : llvm::enumerate(kParts)) {
          Value a = slices.get(op.getA(), mPart, kPart, transposeA);
          Value bPart = blockedB
                            ? op.getB()
                            : slices.get(op.getB(), kPart, nPart, transposeB);
          Operation *part = b.clone(*op);
          part->setOperands({a, bPart, c});
          // The K parts after the first add to what the first computed.
          if (index > 0)
            part->setAttr(op.getBetaAttrName(), accumulate);
        }
      }
    op.erase();
  }

  /// Whether N's blocks are whole vectors (the target does not mask
  /// partial vectors).
  bool wholeVectors = false;
};

} // namespace
