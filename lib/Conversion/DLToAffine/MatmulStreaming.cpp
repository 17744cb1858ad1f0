//===- MatmulStreaming.cpp - GEMV-like GEMMs streaming A ------------------===//
//
// The lowering of a dl.matmul marked `stream_a` (a GEMV-like GEMM, N up to
// 8): A, the large operand, is read once, row by row, in vectors along K;
// op(B) is copied transposed (N x K) so each of its rows is contiguous too,
// and every element of C is a dot product accumulated in vector registers.
// Written here because LIBXSMM 1.17's kernels vectorize along N, which for
// a row-major C of one to a few columns leaves one lane of each register
// busy (a 4096x4096 GEMV ran at 8 GB/s of A through them, a quarter of one
// core's memory bandwidth), and MLIR has no GEMV lowering for memrefs that
// keeps the accumulators in registers across K.
//
//===----------------------------------------------------------------------===//

#include "MatmulStreaming.h"

#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

/// Floats per vector of the dot products.
constexpr int64_t kLanes = kLoweringVectorFloats;

/// The share of the vector registers a group of rows may take: its
/// accumulators (rows x N) and a vector of each row, leaving a vector of B
/// and a few spare (28 of the 32 AVX-512 registers, 7 of the 8 16-float
/// vectors AVX2's 16 registers hold, where AVX-512's groups spilled:
/// 1500x4x512 took 0.32 ms with them on one Zen 3 core, 0.13 with AVX2's).
/// Every vector of B loaded serves all rows of the group, so larger groups
/// read B less often from the L2.
constexpr int64_t kGroupRegistersOfEight = 7;
constexpr int64_t kMaxGroupRows = 8;

/// The dot products of `rows` rows of A from row `row` (an expression of the
/// enclosing loop's iv `rowIv`) with the n rows of `bt`, written into C.
void buildRowGroup(OpBuilder &b, Location loc, MatmulOp op, Value bt,
                   Value rowIv, int64_t rows, int64_t k, Value alpha,
                   Value beta) {
  MLIRContext *ctx = b.getContext();
  int64_t n = op.getC().getType().getDimSize(1);
  int64_t vectorK = k / kLanes * kLanes;
  auto vectorType = VectorType::get({kLanes}, b.getF32Type());
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  auto rowMap = [&](int64_t r) {
    return AffineMap::get(2, 0, {d0 + r, d1}, ctx);
  };
  auto btMap = [&](int64_t j) {
    return AffineMap::get(1, 0, {getAffineConstantExpr(j, ctx), d0}, ctx);
  };

  // Vector accumulators over the whole vectors of K.
  Value zero = arith::ConstantOp::create(
      b, loc, vectorType, DenseElementsAttr::get(vectorType, 0.0f));
  SmallVector<Value> inits(rows * n, zero);
  auto vectorLoop = AffineForOp::create(
      b, loc, 0, vectorK, kLanes, inits,
      [&](OpBuilder &lb, Location l, Value kIv, ValueRange accs) {
        SmallVector<Value> aRows;
        for (int64_t r = 0; r < rows; ++r)
          aRows.push_back(affine::AffineVectorLoadOp::create(
              lb, l, vectorType, op.getA(), rowMap(r), ValueRange{rowIv, kIv}));
        SmallVector<Value> next(accs);
        for (int64_t j = 0; j < n; ++j) {
          Value bVector = affine::AffineVectorLoadOp::create(
              lb, l, vectorType, bt, btMap(j), ValueRange{kIv});
          for (int64_t r = 0; r < rows; ++r)
            next[r * n + j] = vector::FMAOp::create(lb, l, aRows[r], bVector,
                                                    accs[r * n + j]);
        }
        affine::AffineYieldOp::create(lb, l, next);
      });

  // The last K % 16 products: one more step of vectors whose lanes past K
  // are masked off (loaded as zeros).
  SmallVector<Value> sums(vectorLoop.getResults());
  if (vectorK < k) {
    Value mask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({kLanes}, b.getI1Type()),
        b.getDenseI64ArrayAttr({k - vectorK}));
    Value kIndex = arith::ConstantIndexOp::create(b, loc, vectorK);
    auto maskedLoad = [&](Value memref, ValueRange indices) -> Value {
      return vector::MaskedLoadOp::create(b, loc, vectorType, memref, indices,
                                          mask, zero);
    };
    SmallVector<Value> aRows;
    for (int64_t r = 0; r < rows; ++r) {
      Value row = affine::AffineApplyOp::create(
          b, loc, AffineMap::get(1, 0, d0 + r, ctx), ValueRange{rowIv});
      aRows.push_back(maskedLoad(op.getA(), {row, kIndex}));
    }
    for (int64_t j = 0; j < n; ++j) {
      Value bVector =
          maskedLoad(bt, {arith::ConstantIndexOp::create(b, loc, j), kIndex});
      for (int64_t r = 0; r < rows; ++r)
        sums[r * n + j] =
            vector::FMAOp::create(b, loc, aRows[r], bVector, sums[r * n + j]);
    }
  }

  // C = alpha * (dot product) + beta * C.
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j) {
      AffineMap cMap =
          AffineMap::get(1, 0, {d0 + r, getAffineConstantExpr(j, ctx)}, ctx);
      Value sum = vector::ReductionOp::create(
          b, loc, vector::CombiningKind::ADD, sums[r * n + j],
          arith::FastMathFlags::reassoc);
      if (alpha)
        sum = arith::MulFOp::create(b, loc, alpha, sum);
      if (beta) {
        Value c = affine::AffineLoadOp::create(b, loc, op.getC(), cMap,
                                               ValueRange{rowIv});
        sum = arith::AddFOp::create(b, loc, sum,
                                    arith::MulFOp::create(b, loc, beta, c));
      }
      affine::AffineStoreOp::create(b, loc, sum, op.getC(), cMap,
                                    ValueRange{rowIv});
    }
}

} // namespace

SmallVector<AffineExpr> dl::opBIndex(MatmulOp op, AffineExpr j, AffineExpr k) {
  if (op.hasBlockedB()) {
    ArrayRef<int64_t> shape = op.getB().getType().getShape();
    int64_t bk = shape[2], bn = shape[3];
    return {j.floorDiv(bn), k.floorDiv(bk), k % bk, j % bn};
  }
  if (op.getTransposeB())
    return {j, k};
  return {k, j};
}

void dl::lowerStreamingMatmul(PatternRewriter &rewriter, MatmulOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  int64_t m = op.getC().getType().getDimSize(0);
  int64_t n = op.getC().getType().getDimSize(1);
  int64_t k = op.getA().getType().getDimSize(1);
  float alphaValue = op.getAlpha().convertToFloat();
  float betaValue = op.getBeta().convertToFloat();
  auto f32Constant = [&](float value) -> Value {
    return arith::ConstantFloatOp::create(rewriter, loc, rewriter.getF32Type(),
                                          APFloat(value));
  };
  Value alpha = alphaValue != 1.0f ? f32Constant(alphaValue) : Value();
  Value beta = betaValue != 0.0f ? f32Constant(betaValue) : Value();

  // bt[j][kk] = op(B)[kk][j], rows of K contiguous. Every vector step reads
  // all n rows and a few rows of A: rows a multiple of 1 KiB apart would
  // share a few L1 sets, so bt's are a vector further apart
  // (docs/heuristics.md, "Streamed GEMMs").
  int64_t btRowFloats = conflictingRows(k) ? k + kLanes : k;
  auto btType = MemRefType::get({n, btRowFloats}, rewriter.getF32Type());
  Value bt = memref::AllocOp::create(rewriter, loc, btType,
                                     rewriter.getI64IntegerAttr(64));
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  AffineMap bMap = AffineMap::get(2, 0, opBIndex(op, d0, d1), ctx);
  // A plain, contiguous B: 16 of its rows are 16 n contiguous floats, loaded
  // as one vector and split into bt's n vectors of 16 by shuffles, where a
  // copy element by element costs as much as the dot products of a few
  // rows of A (2x6x2395 on one Zen 5 core: 4.0 us with an element-by-element
  // copy, 1.2 with this one; oneDNN 3.0).
  int64_t copiedK = 0;
  auto bType = cast<MemRefType>(op.getB().getType());
  if (!op.getTransposeB() && !op.hasBlockedB() &&
      bType.getLayout().isIdentity() && k >= kLanes) {
    copiedK = k / kLanes * kLanes;
    Value flat = memref::CollapseShapeOp::create(
        rewriter, loc, op.getB(), SmallVector<ReassociationIndices>{{0, 1}});
    auto rowsType = VectorType::get({kLanes * n}, rewriter.getF32Type());
    AffineForOp::create(
        rewriter, loc, 0, copiedK, kLanes, ValueRange{},
        [&](OpBuilder &kb, Location l, Value kIv, ValueRange) {
          Value rows = affine::AffineVectorLoadOp::create(
              kb, l, rowsType, flat, AffineMap::get(1, 0, d0 * n, ctx),
              ValueRange{kIv});
          for (int64_t j = 0; j < n; ++j) {
            SmallVector<int64_t> lanes;
            for (int64_t lane = 0; lane < kLanes; ++lane)
              lanes.push_back(j + lane * n);
            Value column = vector::ShuffleOp::create(kb, l, rows, rows, lanes);
            affine::AffineVectorStoreOp::create(
                kb, l, column, bt,
                AffineMap::get(1, 0, {getAffineConstantExpr(j, ctx), d0}, ctx),
                ValueRange{kIv});
          }
          affine::AffineYieldOp::create(kb, l);
        });
  }
  AffineForOp::create(
      rewriter, loc, 0, n, 1, ValueRange{},
      [&](OpBuilder &jb, Location l, Value jIv, ValueRange) {
        AffineForOp::create(
            jb, l, copiedK, k, 1, ValueRange{},
            [&](OpBuilder &kb, Location kl, Value kIv, ValueRange) {
              Value value = affine::AffineLoadOp::create(
                  kb, kl, op.getB(), bMap, ValueRange{jIv, kIv});
              affine::AffineStoreOp::create(kb, kl, value, bt,
                                            ValueRange{jIv, kIv});
              affine::AffineYieldOp::create(kb, kl);
            });
        affine::AffineYieldOp::create(jb, l);
      });

  // Groups of rows share each vector of bt; the rows past the last whole
  // group one at a time.
  int64_t groupRegisters =
      kGroupRegistersOfEight * getTarget(op).loweringVectorRegisters() / 8;
  int64_t rows =
      std::clamp<int64_t>(groupRegisters / (n + 1), 1, kMaxGroupRows);
  // Groups that divide M: the rows are then one loop, one parallel region,
  // whose threads take contiguous rows as the copy that often writes A does
  // (an im2col copy divided by images), where the one-row loop after the
  // groups is a second region, some of whose rows the other core wrote:
  // 16x3x5684 after a copy of 4 images, 7-row groups and 2 rows after
  // them, ran 18 us at 2 threads against 15 on one; in groups of 4,
  // 0.95-0.98 of one thread's time. Smaller groups read bt more often: a bt
  // within half the L1 takes a divisor of at least half the rows (and two);
  // one beyond it, a divisor whose groups read bt no more often than the
  // groups and the single rows after them. 4096x8x1677 (a 54 KB bt) in
  // groups of 3 and one row ran 63-75 GFLOPS on one Zen 5 core, in groups
  // of 2 51-55 (oneDNN 68-79); 3548x3x88 (1 KB) at 2 threads 140-181 in
  // groups of 4, 107-120 in groups of 7 and 6 rows (docs/heuristics.md,
  // "Streamed GEMMs").
  if (m % rows != 0) {
    bool btInL1 = n * k * int64_t(sizeof(float)) <= getTarget(op).l1Bytes() / 2;
    int64_t reads = m / rows + m % rows;
    for (int64_t divisor = rows - 1; divisor >= 2; --divisor) {
      if (btInL1 && 2 * divisor < rows)
        break;
      if (m % divisor == 0 && (btInL1 || m / divisor <= reads)) {
        rows = divisor;
        break;
      }
    }
  }
  int64_t grouped = m / rows * rows;
  auto buildRows = [&](int64_t lower, int64_t upper, int64_t groupRows) {
    if (lower >= upper)
      return;
    AffineForOp::create(
        rewriter, loc, lower, upper, groupRows, ValueRange{},
        [&](OpBuilder &rb, Location l, Value rowIv, ValueRange) {
          buildRowGroup(rb, l, op, bt, rowIv, groupRows, k, alpha, beta);
          affine::AffineYieldOp::create(rb, l);
        });
  };
  buildRows(0, grouped, rows);
  buildRows(grouped, m, 1);
  memref::DeallocOp::create(rewriter, loc, bt);
}
