//===- PackGemmOperands.cpp - GEMM blocks and operand packing -----------===//
//
// The pass `dl-pack-gemm-operands`: records on each static dl.matmul the
// block sizes its lowering computes C in and which operands, C included, are
// copied into contiguous blocks (see the pass description for the rule). The
// decision is an attribute, so dl-opt shows it and the lowering only follows
// it.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_PACKGEMMOPERANDS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

bool dl::computesCInPackedBlocks(MatmulOp op) {
  std::optional<ArrayRef<int64_t>> blocks = op.getPackBlocks();
  // Partial blocks of C (pad_blocks) are computed in the packed buffer.
  if (op.hasPartialCBlocks())
    return true;
  std::optional<SmallVector<ScheduleDim>> dims = op.getScheduleDims();
  if (!blocks || !dims || (*blocks)[1] == op.getC().getType().getDimSize(1))
    return false;
  // The microkernel's batch is the last loop (over K blocks): each block of
  // C gets one call per batch.
  int64_t batch = (*dims)[2].extent;
  if (ScheduleAttr schedule = op.getEffectiveSchedule()) {
    FailureOr<SmallVector<ScheduledLoop>> loops =
        schedule.getLoops(*dims, [] { return InFlightDiagnostic(); });
    if (failed(loops))
      return false;
    batch = loops->back().tripCount;
  }
  return (*dims)[2].extent > batch;
}

namespace {

/// Whether `value` is a whole function argument marked `dl.constant`, of
/// static shape, as the plain K x N B of a dl.matmul.
bool isConstantArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  auto fn = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())
                : func::FuncOp();
  auto type = dyn_cast<MemRefType>(value.getType());
  return fn && arg.getOwner() == &fn.front() && type && type.hasStaticShape() &&
         type.getRank() == 2 &&
         fn.getArgAttr(arg.getArgNumber(), DLDialect::getConstantAttrName());
}

/// Makes `op` read its B from a copy in blocks of bk x bn
/// (N/bn x K/bk x bk x bn), packed by a dl.pack right before it.
void packConstantB(MatmulOp op, int64_t bn, int64_t bk) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto plain = cast<MemRefType>(op.getB().getType());
  int64_t k = plain.getDimSize(0), n = plain.getDimSize(1);
  auto blockedType =
      MemRefType::get({n / bn, k / bk, bk, bn}, plain.getElementType());
  Value blocked = memref::AllocOp::create(b, loc, blockedType);
  PackOp::create(b, loc, TypeRange{}, op.getB(), blocked);
  op.getBMutable().assign(blocked);
  b.setInsertionPointAfter(op);
  memref::DeallocOp::create(b, loc, blocked);
}

struct PackGemmOperandsPass
    : dl::impl::PackGemmOperandsBase<PackGemmOperandsPass> {
  using PackGemmOperandsBase::PackGemmOperandsBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (blockM < 0 || blockN < 0 || blockK < 1 || prefetchStreams < 0) {
      getOperation().emitError(
          "dl-pack-gemm-operands: block-k must be >= 1, and block-m, block-n "
          "and prefetch-streams >= 0");
      return signalPassFailure();
    }
    Target target = getTarget(getOperation());
    int64_t vectorBits = target.vectorBits,
            maxBatchBytes = target.maxBatchBytes;
    int64_t columns = blockN ? blockN : microkernelColumns(vectorBits);
    int64_t rows = blockM ? blockM : gemmBlockRows(columns);
    // Without masked partial vectors, blocks of N are whole vectors: the
    // largest multiple of a vector dividing N, or, for N within one block
    // that does not fill its last vector, N padded to whole vectors
    // (pad_blocks: B and C are copied into zero-padded blocks; A is read as
    // it would be); not for GEMMs too small to pay for the copies.
    auto columnBlock = [&](int64_t m, int64_t n, int64_t k) {
      int64_t vectorFloats =
          takesWholeVectors(target.masksPartialVectors(), m, n, k)
              ? blockVectorFloats(columns)
              : 1;
      if (n % vectorFloats != 0)
        return n <= columns ? wholeVectorsOf(n, vectorFloats)
                            : largestDivisorAtMost(n, columns);
      return vectorFloats *
             largestDivisorAtMost(n / vectorFloats,
                                  std::max<int64_t>(1, columns / vectorFloats));
    };
    // Records the blocks, padding N where its block exceeds it.
    auto setBlocks = [&](MatmulOp op, int64_t bm, int64_t bn, int64_t bk) {
      op.setPackBlocks(ArrayRef<int64_t>{bm, bn, bk});
      if (bn > op.getC().getType().getDimSize(1))
        op.setPadBlocks(true);
    };
    // Bounds the K blocks of one microkernel call by max-batch-bytes. A B
    // read in place from memory (farB) in blocks of all of N is bounded as
    // its calls read it, a kernel's tile of columns (kernelTileOf) a batch
    // element: 11x1223x4096, bounded as 1223 columns to one K block of 32
    // a call, ran at 26-43 GFLOPS on one core and 52-135 on two, its
    // 128-column calls with 8 K blocks at 70-75 and 68-180 (oneDNN 50-58
    // and 124-137). From the caches, whole rows of B, one K block a call,
    // ran faster: 3x2047x141 (B 1.2 MB) 54-58 GFLOPS, against 39-40 in
    // batches of 3 (docs/heuristics.md, "Streamed GEMMs").
    auto boundBatch = [&](MatmulOp op, int64_t k, bool farB) {
      ArrayRef<int64_t> blocks = *op.getPackBlocks();
      int64_t kBlocks = llvm::divideCeilSigned(k, blocks[2]);
      int64_t blockBytes =
          farB ? batchElementBytes(kernelTileOf(blocks[0]),
                                   kernelTileOf(blocks[1]), blocks[2])
               : batchElementBytes(blocks[0], blocks[1], blocks[2]);
      if (maxBatchBytes > 0 && kBlocks * blockBytes > maxBatchBytes)
        op.setBatchBlocks(largestDivisorAtMost(
            kBlocks, std::max<int64_t>(1, maxBatchBytes / blockBytes)));
    };
    int64_t l1Bytes = target.l1Bytes();
    getOperation().walk([&](MatmulOp op) {
      // Padded blocks (dl-split-gemm-remainders) pack every operand.
      if (op.getPadBlocks() && !op.getBatchBlocks()) {
        int64_t k = op.getA().getType().getDimSize(op.getTransposeA() ? 0 : 1);
        if (!ShapedType::isDynamic(k))
          boundBatch(op, k, /*farB=*/false);
        return;
      }
      if (op.getPackBlocks() || op.getStreamA())
        return; // Decided already (by the user or an earlier run).
      auto a = cast<MemRefType>(op.getA().getType());
      auto b = cast<MemRefType>(op.getB().getType());
      if (!a.hasStaticShape() || !b.hasStaticShape() ||
          !op.getC().getType().hasStaticShape())
        return;
      int64_t m = a.getDimSize(op.getTransposeA() ? 1 : 0);
      int64_t k = a.getDimSize(op.getTransposeA() ? 0 : 1);
      int64_t n = op.getC().getType().getDimSize(1);
      if (streamsA(m, n, k, op.getTransposeA(), vectorBits / 32,
                   target.masksPartialVectors(), l1Bytes)) {
        op.setStreamA(true);
        return;
      }
      // A blocked B fixes bn and bk: its blocks are read in place.
      bool blockedB = op.hasBlockedB();
      if (!blockedB && readsWholeRowsOfA(n, k, op.getTransposeA())) {
        setBlocks(op,
                  largestDivisorAtMost(
                      m, std::min(rows, wholeRowBlockLimit(rowStride(a)))),
                  columnBlock(m, n, k), k);
        // The copy applies alpha.
        op.setPackA(!op.getAlpha().isExactlyValue(1.0));
        op.setPackB(op.getTransposeB() || op.getPadBlocks());
        op.setPackC(computesCInPackedBlocks(op));
        return;
      }
      int64_t bm = largestDivisorAtMost(m, rows);
      int64_t bn = blockedB ? b.getDimSize(3) : columnBlock(m, n, k);
      int64_t bk = blockedB ? b.getDimSize(2) : largestDivisorAtMost(k, blockK);
      // A block is contiguous in place when it spans whole rows of its
      // operand: A's (bm x bk) when bk == K, B's (bk x bn) when bn == N (and
      // the operand is not part of a wider one). Whether its rows conflict
      // in the L1 depends on the operand's row stride, a part's included;
      // it matters for a block read more than once: by several calls (rows
      // a multiple of 1 KiB apart), or, for B, by the register tiles of its
      // calls. A B block whose rows conflict (conflictsInL1) misses the L1
      // on each of its reads in place where the register tiles are short
      // (under kL2FedTileRows rows: a B vector every 3-4 FMAs with AVX2,
      // against 7 with AVX-512, which the L2 keeps up with); packed, B is
      // written and read once more: packed from kMinConflictingReads reads;
      // so is one whose narrow rows straddle lines (straddlesLines), read a
      // line and a half or twice over, whatever the tiles.
      // One AVX2 core, M x 2048 x 1152 in 32-column blocks (rows 8 KiB
      // apart, all of a block's lines in two L1 sets), in place against
      // packed: M = 16 (6 reads) 4.8-5.6 ms against 2.5-3.0, M = 31 (11)
      // 6.4-7.6 against 4.7-4.9, M = 64 (22) 10.6 against 5.1; rows 8160
      // bytes apart (no conflict), M = 31: 4.2 against 5.1-5.8. On a Zen 5
      // (AVX-512), 64x2048x2048 ran 5.4 ms in place against 6.3 packed,
      // 8x4096x4096 6.8 against 11.5.
      constexpr int64_t kL2FedTileRows = 6, kMinConflictingReads = 4;
      auto rereadsConflictingB = [&](int64_t rowBlocks, int64_t bm, int64_t bn,
                                     int64_t bk) {
        int64_t tileRows = registerTileRows(bn, blockVectorFloats(columns),
                                            target.vectorRegisters());
        int64_t reads = rowBlocks * llvm::divideCeilSigned(bm, tileRows);
        return reads >= kMinConflictingReads &&
               ((tileRows < kL2FedTileRows && l1Bytes > 0 &&
                 conflictsInL1(rowStride(b), bk, bn, l1Bytes)) ||
                (bn < n && straddlesLines(rowStride(b), bn)));
      };
      // B read once from beyond the L2 (one block of rows of C, B in place
      // and not re-read enough to pack): blocks of whole rows
      // (streamedRowsBlock) as wide as C's block keeps in half the L1, up to
      // half of N (a half per thread), so that the calls read B's memory in
      // order, in runs of at least kMinStreamedRun floats of each row, as
      // the prefetchers stream it, where blocks of 32 columns walk down K in
      // 128-byte pieces of rows kilobytes apart. One Zen 3 core, 8x1024x2048:
      // 2.8-3.7 ms in 8 x 32 x 128 blocks, 0.6-1.1 in 8 x 512 x 8 (0.45 at
      // two threads); 1x1023x2049 0.49 and 0.34 (oneDNN 0.22). Wider blocks
      // of C leave the L1 between K blocks: 72x1217x216 in 72 x 608 x 8
      // blocks 0.75-0.85 ms, 0.56-0.70 in 72 x 32 x 216.
      constexpr int64_t kMinStreamedRun = 128;
      int64_t l2Bytes = target.l2Bytes();
      // An N without a good block (kept whole for this by
      // dl-split-gemm-remainders) takes blocks of whole rows of B, all its
      // columns when no divisor is wide enough (1x65x2048 on one Zen 5
      // core: 33 us in blocks of 13 columns, 5.5 in one of 65).
      bool wholeN = !blockedB && !op.getTransposeB() &&
                    readsWholeRowsOfB(m, n, k, rows, columns, l2Bytes);
      // From kComputeBoundRows rows of C on, each element of B feeds enough
      // FMAs that the kernels' register tiles matter more than the order B
      // is read in: the usual blocks, but where B's rows fall into few L1
      // sets (conflictingRows), which blocks of a few columns walking down K
      // evict. One Zen 5 core, streamed against the usual blocks (ms):
      // 24x900x1200 0.33 and 0.28 (oneDNN 0.25), 24x1500x1000 0.50 and 0.41,
      // 16x900x1200 0.25 and 0.21, 8x900x1200 0.15 and 0.13; 16x2048x1024
      // (rows 8 KiB apart) 0.49 and 0.59.
      constexpr int64_t kComputeBoundRows = 8;
      bool ordersBRows =
          wholeN || m < kComputeBoundRows || conflictingRows(rowStride(b));
      bool streamsRowsOfB = false;
      if (!blockedB && !op.getTransposeB() && bm == m && ordersBRows &&
          readsBOnceFromBeyondL2(m, n, k, rows, l2Bytes) &&
          (wholeN || !rereadsConflictingB(1, bm, bn, bk))) {
        int64_t vectorFloats = n % blockVectorFloats(columns) == 0
                                   ? blockVectorFloats(columns)
                                   : 1;
        int64_t inL1 = l1Bytes / 2 / (m * int64_t(sizeof(float)));
        int64_t limit = std::min(inL1, std::max(columns, n / 2));
        int64_t wide =
            vectorFloats *
            largestDivisorAtMost(n / vectorFloats,
                                 std::max<int64_t>(1, limit / vectorFloats));
        int64_t rowsPerBlock = streamedRowsBlock(k, m, n, l2Bytes);
        if (wholeN && wide < kMinStreamedRun)
          wide = n;
        if ((wide >= kMinStreamedRun || wholeN) && wide >= bn &&
            rowsPerBlock > 0) {
          bn = wide;
          bk = rowsPerBlock;
          streamsRowsOfB = true;
        }
      }
      bool packA = op.getTransposeA() || !op.getAlpha().isExactlyValue(1.0) ||
                   (bk != k && (n / bn >= minReuse ||
                                (n / bn > 1 && conflictingRows(rowStride(a)))));
      // Each row of an A block read in place is a memory stream of its own:
      // for an A larger than the L2, whose rows come from beyond it, blocks
      // of at most prefetch-streams rows, or A packed where M has no good
      // block that small (a prime M would take blocks of one row). An A in
      // the L2 is read in place in blocks of any rows: 122x31x2301 (A 1.1
      // MB) in 61 x 31 x 59 blocks on a Sapphire Rapids core (2 MB of L2)
      // ran 0.11 ms in place, 0.19 packed (oneDNN 0.15).
      bool aBeyondL2 = l2Bytes == 0 || m * k * int64_t(sizeof(float)) > l2Bytes;
      if (!packA && bk != k && prefetchStreams > 0 && bm > prefetchStreams &&
          aBeyondL2) {
        if (hasGoodBlock(m, prefetchStreams))
          bm = largestDivisorAtMost(m, prefetchStreams);
        else
          packA = true;
      }
      // Blocks of C two vectors wide do two FMAs a vector per element of A,
      // too few to hide a stream's misses: such an A block from beyond the
      // L2 takes kNarrowStreams rows where M has a divisor from
      // kNarrowMinRows up (fewer would leave the register tiles' 16
      // accumulators short). One Zen 5 core, 23409x32x180 (A 17 MB) in
      // blocks of 27, 17 and 9 rows: 74-78, 87 and 145 GFLOPS (oneDNN 143);
      // 3172x32x1077 in blocks of 4 rows fell from 1.01 to 0.38-0.56 of
      // oneDNN, and one vector wide, 1024x16x500000 in blocks of 8 rows from
      // 106-140 to 95-105 GFLOPS. Measured with AVX-512's vectors only.
      constexpr int64_t kNarrowStreams = 12, kNarrowMinRows = 8;
      int64_t vectorFloats = blockVectorFloats(columns);
      if (!packA && bk != k && aBeyondL2 && bm > kNarrowStreams &&
          vectorFloats >= 16 && bn > vectorFloats && bn <= 2 * vectorFloats &&
          largestDivisorAtMost(m, kNarrowStreams) >= kNarrowMinRows)
        bm = largestDivisorAtMost(m, kNarrowStreams);
      // B constant (a model's weights): packed into blocks by a dl.pack,
      // which dl-keep-constant-packs runs once, not on every call; its blocks
      // are then read in place. Not when its blocks are contiguous already.
      if (!blockedB && !op.getTransposeB() && bn < n &&
          isConstantArgument(op.getB())) {
        packConstantB(op, bn, bk);
        blockedB = true;
      }
      auto packsB = [&](int64_t bn) {
        return !blockedB &&
               (op.getTransposeB() || bn > n ||
                (bn != n && (m / bm >= minReuse ||
                             (m / bm > 1 && conflictingRows(rowStride(b))) ||
                             rereadsConflictingB(m / bm, bm, bn, bk))));
      };
      // A B block read in place whose rows crowd into a few L1 sets
      // (l1SetOverload above kCrowdedSets: rows a multiple of 1 KiB apart,
      // or a few bytes off one, as N = 2047 gives) is read from the L2 by
      // every register tile of its rows of C. Blocks of two vectors of
      // columns hold twice the rows a tile (15 with AVX-512, against 7 at
      // four vectors), so they read B fewer times: taken where they do (and
      // B stays in place; short tiles, AVX2's, pack such a B instead, see
      // above). One Zen 5 core, M x 2047 x 1152 (the fullest set
      // 10 times its ways), four vectors against two (GFLOPS): M = 20 122 /
      // 145 (oneDNN 139), 31 91 / 133 (148), 40 125 / 168 (164), 48 105 /
      // 129-139 (165); 31 x 3579 x 1024 (twice its ways) 111-125 / 85-103.
      constexpr double kCrowdedSets = 2.0;
      if (!blockedB && !streamsRowsOfB && l1Bytes > 0 && !packsB(bn)) {
        int64_t registers = target.vectorRegisters();
        int64_t narrow = 2 * vectorFloats;
        auto tileReads = [&](int64_t width) {
          return llvm::divideCeilSigned(
              bm, registerTileRows(width, vectorFloats, registers));
        };
        if (bn > narrow && bn % narrow == 0 &&
            registerTileRows(bn, vectorFloats, registers) >= kL2FedTileRows &&
            tileReads(narrow) < tileReads(bn) && !packsB(narrow) &&
            l1SetOverload(rowStride(b), bk, bn, l1Bytes) > kCrowdedSets)
          bn = narrow;
      }
      bool packB = packsB(bn);
      setBlocks(op, bm, bn, bk);
      boundBatch(op, k, /*farB=*/!packB && !blockedB && isFarB(k, n, l2Bytes));
      // Streamed rows of a far B: one block of rows a call, so the calls
      // walk along streamedRowsBlock's few rows, not down a batch of blocks.
      if (streamsRowsOfB && bk < k && streamsFarRowsOfB(m, k, n, l2Bytes))
        op.setBatchBlocks(1);
      op.setPackA(packA);
      op.setPackB(packB);
      op.setPackC(computesCInPackedBlocks(op));
    });
  }
};

} // namespace
