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
// parts measured faster, so splitting is the default. On targets without
// masked partial vectors, a GEMM of a few rows whose N does not fill whole
// vectors reads B's rows in whole vectors in place (overlapping rows) rather
// than from a zero-padded copy (readRowsInWholeVectors); with masked partial
// vectors, so does a GEMM of one row whose masked kernel would be slow.
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
/// vector dimension (`vectorFloats` > 0), also when the split takes at
/// least 4% fewer vector registers per row of C than the divisor's blocks,
/// whose masked lanes the kernels still compute (docs/heuristics.md,
/// "Shapes outside the lists"): 754 columns in 13 blocks of 58 take 52
/// registers, in 11 of 64 and one of 50 48.
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
    split = 25 * parts <= 24 * whole;
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
    if (!slice)
      slice = sliceGemmOperand(b, loc, source, b.getIndexAttr(rows.offset),
                               rows.size, b.getIndexAttr(cols.offset),
                               cols.size, /*transposed=*/false);
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
    vectorRegisters = target.vectorRegisters();
    targetVectorFloats = target.vectorFloats();
    l1Bytes = target.l1Bytes();
    l2Bytes = target.l2Bytes();
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
      if (streams(op.getC().getType().getDimSize(0),
                  op.getC().getType().getDimSize(1),
                  op.getA().getType().getDimSize(transposeA ? 0 : 1),
                  transposeA))
        return;
      ops.push_back(op);
    });
    for (MatmulOp op : ops)
      for (MatmulOp part : split(op, rows, columns))
        readRowsInWholeVectors(part, columns);
  }

  /// Splits `op` into its parts, or pads it (`pad`); returns the ops that
  /// compute it afterwards.
  SmallVector<MatmulOp> split(MatmulOp op, int64_t rows, int64_t columns) {
    bool transposeA = op.getTransposeA(), transposeB = op.getTransposeB();
    int64_t m = op.getC().getType().getDimSize(0);
    int64_t n = op.getC().getType().getDimSize(1);
    int64_t k = op.getA().getType().getDimSize(transposeA ? 0 : 1);
    // A blocked B fixes N's and K's blocks; its parts cannot be sliced.
    bool blockedB = op.hasBlockedB();
    // A narrow GEMM reduces over all of K in one block, in blocks of fewer
    // rows.
    bool wholeRows = !blockedB && readsWholeRowsOfA(n, k, transposeA);
    int64_t wholeRowLimit = std::min(rows, wholeRowBlockLimit(k));
    SmallVector<Part, 2> mParts =
        splitExtent(m, wholeRows ? wholeRowLimit : rows);
    int64_t vectorFloats = blockVectorFloats(columns);
    // B's rows read whole (N kept whole) keep K whole too:
    // dl-pack-gemm-operands streams them in blocks of a few rows. Where K
    // has no such block, its whole blocks of streamedRowsUnit rows are streamed
    // and the rest (fewer rows, within the L2) is a part of its own, split
    // along N as any GEMM (blocks of a prime N's divisors would be one
    // column wide, each a pass down the rows).
    bool wholeRowsOfB = !blockedB && !transposeB && !wholeRows &&
                        mParts.size() == 1 &&
                        readsWholeRowsOfB(m, n, k, rows, columns, l2Bytes);
    SmallVector<Part, 3> columnParts;
    if (takesWholeVectors(!wholeVectors, m, n, k))
      columnParts = splitWholeVectors(n, columns, vectorFloats);
    else
      columnParts = splitExtent(n, columns, vectorFloats);
    SmallVector<Part, 3> nParts =
        blockedB || wholeRowsOfB ? SmallVector<Part, 3>{{0, n}} : columnParts;
    SmallVector<Part, 2> kParts = blockedB || wholeRows || wholeRowsOfB
                                      ? SmallVector<Part, 2>{{0, k}}
                                      : splitReduction(k, blockK);
    // The parts of C each K part computes, as (N part, K part index): by
    // default every N part over every K part.
    SmallVector<std::pair<Part, unsigned>, 6> cParts;
    int64_t streamedUnit = streamedRowsUnit(m, k, n, l2Bytes);
    if (wholeRowsOfB && !pad && streamedRowsBlock(k, m, n, l2Bytes) == 0 &&
        k > streamedUnit) {
      int64_t streamed = k - k % streamedUnit;
      kParts = {{0, streamed}, {streamed, k - streamed}};
      cParts.push_back({{0, n}, 0});
      for (Part nPart : columnParts)
        cParts.push_back({nPart, 1});
    } else {
      for (Part nPart : nParts)
        for (unsigned index = 0; index < kParts.size(); ++index)
          cParts.push_back({nPart, index});
    }
    if (mParts.size() == 1 && nParts.size() == 1 && kParts.size() == 1)
      return {op};
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
      return {};
    }
    LLVM_DEBUG(llvm::dbgs()
               << "splitting " << op << ": M " << mParts.size() << " parts, N "
               << nParts.size() << ", K " << kParts.size() << "\n");
    OpBuilder b(op);
    Location loc = op.getLoc();
    Attribute accumulate = b.getF32FloatAttr(1.0f);
    Slices slices(b, loc);
    constexpr int64_t kMinNarrowRows = 8;
    SmallVector<MatmulOp> parts;
    for (Part mPart : mParts)
      for (auto [nPart, index] : cParts) {
        // A narrow remainder of N reads whole rows of A where all of N does
        // not, in blocks of the largest divisor of its rows up to the
        // whole-row limit: where that is under kMinNarrowRows (a prime M
        // would take blocks of one row, each a call that fills one row of a
        // register tile up to 30 rows tall), its rows split as a narrow
        // GEMM's. Not where it is streamed (any M).
        SmallVector<Part, 2> rowParts = {mPart};
        if (!wholeRows && !blockedB &&
            readsWholeRowsOfA(nPart.size, k, transposeA) &&
            largestDivisorAtMost(mPart.size, wholeRowLimit) < kMinNarrowRows &&
            !streams(mPart.size, nPart.size, kParts[index].size, transposeA)) {
          rowParts = splitExtent(mPart.size, wholeRowLimit);
          for (Part &rowPart : rowParts)
            rowPart.offset += mPart.offset;
        }
        Part kPart = kParts[index];
        for (Part rowPart : rowParts) {
          Value c = slices.get(op.getC(), rowPart, nPart, false);
          Value a = slices.get(op.getA(), rowPart, kPart, transposeA);
          Value bPart = blockedB
                            ? op.getB()
                            : slices.get(op.getB(), kPart, nPart, transposeB);
          Operation *part = b.clone(*op);
          part->setOperands({a, bPart, c});
          // The K parts after the first add to what the first computed.
          if (index > 0)
            part->setAttr(op.getBetaAttrName(), accumulate);
          parts.push_back(cast<MatmulOp>(part));
        }
      }
    op.erase();
    return parts;
  }

  /// On a target without masked partial vectors, a GEMM whose N, within one
  /// block, does not fill whole vectors would copy B into zero-padded rows
  /// of whole vectors (dl-pack-gemm-operands). Where B is larger than C
  /// (K >= M) and so costs more to copy than C to pass over twice, and the
  /// microkernel reads B in at most kMaxRowBatchPasses register tiles, B is
  /// read in place instead, its rows in whole vectors; so is it, with
  /// masked partial vectors, for one row of C whose masked kernels are slow
  /// (readsOneRowInWholeVectors). Each row is read on
  /// into the next one, through a `memref.reinterpret_cast` to overlapping
  /// rows. The columns past N, computed from the next row's values, land
  /// in a padded scratch C and are dropped. The last rows of K, whose
  /// whole vectors would read past B's last element, are a GEMM of their
  /// own into C, to which a dl.add adds the scratch:
  ///   scratch = alpha * A[:, :K-t] * rows(B)      (M x N', beta 0)
  ///   C = beta * C + alpha * A[:, K-t:] * B[K-t:]  (the last t rows)
  ///   C = C + scratch[:, :N]
  /// dl-outline-microkernels runs the rows as a batch of one-row kernels
  /// (LIBXSMM takes no leading dimension below the row length).
  void readRowsInWholeVectors(MatmulOp op, int64_t columns) {
    auto bType = dyn_cast<MemRefType>(op.getB().getType());
    if (op.hasBlockedB() || op.getTransposeB() || !bType)
      return;
    bool transposeA = op.getTransposeA();
    int64_t m = op.getC().getType().getDimSize(0);
    int64_t n = op.getC().getType().getDimSize(1);
    int64_t k = op.getA().getType().getDimSize(transposeA ? 0 : 1);
    int64_t vectorFloats = blockVectorFloats(columns);
    int64_t padded = wholeVectorsOf(n, vectorFloats);
    // One Zen 3 core, in place against packed: 3x11x4095 (1 tile) 9.3
    // against 28.8 us, 10x31x2176 (4) 29 against 43, 20x11x4095 (3) 46-63
    // against 66-74, 40x11x4095 (6) 130-134 against 109-118, 64x11x4095
    // (10) 205-238 against 173-183: the in-place rows, unaligned, cost more
    // on each of the kernel's passes over B than the copy saves.
    constexpr int64_t kMaxRowBatchPasses = 4;
    int64_t passes = llvm::divideCeilSigned(
        m, registerTileRows(padded, vectorFloats, vectorRegisters));
    bool inWholeVectors =
        wholeVectors ? takesWholeVectors(false, m, n, k) && n <= columns &&
                           padded != n && k >= m && passes <= kMaxRowBatchPasses
                     : readsOneRowInWholeVectors(m, n, k, vectorFloats, true);
    if (!inWholeVectors)
      return;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(bType.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset) || ShapedType::isDynamic(strides[0]) ||
        strides[1] != 1 || strides[0] < n)
      return;
    int64_t rowStride = strides[0];
    int64_t lastRows = llvm::divideCeilSigned(padded - n, rowStride);
    if (k <= lastRows)
      return;
    LLVM_DEBUG(llvm::dbgs() << "reading B's rows in " << padded
                            << " columns: " << op << "\n");
    OpBuilder b(op);
    Location loc = op.getLoc();
    Slices slices(b, loc);
    Value rows = memref::ReinterpretCastOp::create(
        b, loc,
        MemRefType::get(
            {k - lastRows, padded}, bType.getElementType(),
            StridedLayoutAttr::get(b.getContext(), offset, {rowStride, 1})),
        op.getB(), offset, ArrayRef<int64_t>{k - lastRows, padded},
        ArrayRef<int64_t>{rowStride, 1});
    auto scratchType = MemRefType::get({m, padded}, bType.getElementType());
    Value scratch =
        memref::AllocOp::create(b, loc, scratchType, b.getI64IntegerAttr(64));
    Part allM = {0, m}, allN = {0, n};
    Part mainK = {0, k - lastRows}, lastK = {k - lastRows, lastRows};
    Value mainA = slices.get(op.getA(), allM, mainK, transposeA);
    Value lastA = slices.get(op.getA(), allM, lastK, transposeA);
    Value lastB = slices.get(op.getB(), lastK, allN, false);
    Operation *main = b.clone(*op);
    main->setOperands({mainA, rows, scratch});
    main->removeAttr(op.getBetaAttrName());
    Operation *last = b.clone(*op);
    last->setOperands({lastA, lastB, op.getC()});
    Value computed = memref::SubViewOp::create(
        b, loc, scratch, ArrayRef<int64_t>{0, 0}, ArrayRef<int64_t>{m, n},
        ArrayRef<int64_t>{1, 1});
    AddOp::create(b, loc, TypeRange{}, op.getC(), computed, op.getC());
    memref::DeallocOp::create(b, loc, scratch);
    op.erase();
  }

  /// Whether dl-pack-gemm-operands streams an m x n x k GEMM (streamsA).
  bool streams(int64_t m, int64_t n, int64_t k, bool transposeA) const {
    return streamsA(m, n, k, transposeA, targetVectorFloats, !wholeVectors,
                    l1Bytes);
  }

  /// Whether N's blocks are whole vectors (the target does not mask
  /// partial vectors).
  bool wholeVectors = false;
  /// The target's vector registers (for the microkernels' register tiles).
  int64_t vectorRegisters = 0;
  /// The target's floats per vector register.
  int64_t targetVectorFloats = 0;
  /// The target's L1 capacity (0: unknown).
  int64_t l1Bytes = 0;
  /// The target's L2 capacity (0: unknown).
  int64_t l2Bytes = 0;
};

} // namespace
