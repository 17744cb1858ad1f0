//===- Blocking.h - block sizes for microkernel-shaped tiles ----*- C++ -*-===//
//
// The block-size rule the GEMM blocking and tiling passes share: blocks
// divide the extent, so every block is full and one statically sized
// microkernel serves all of them; and the bound on the blocks one
// batch-reduce microkernel call reads (default, bytes, option check); and
// when a GEMM's C is computed in packed blocks.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_BLOCKING_H
#define DL_DIALECT_DL_TRANSFORMS_BLOCKING_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>

namespace mlir {
namespace dl {

class Conv2DOp;
class MatmulOp;

/// Floats per vector of the loops dl writes with vector ops itself (the
/// GEMV streaming, the pixel_vectors convolutions): one AVX-512 register
/// (two AVX2 ones, which LLVM splits it into).
constexpr int64_t kLoweringVectorFloats = 16;

/// The largest divisor of `extent` that is at most `limit` (1 for primes
/// above `limit`).
inline int64_t largestDivisorAtMost(int64_t extent, int64_t limit) {
  for (int64_t size = std::min(extent, limit); size > 1; --size)
    if (extent % size == 0)
      return size;
  return 1;
}

/// Whether `extent` has a good block up to `limit`: it fits one block, or a
/// divisor of it reaches half of `limit`. Otherwise blocks that divide it
/// are small (a prime: 1), and the passes split it into whole blocks of
/// `limit` and a remainder, or pad its last block.
inline bool hasGoodBlock(int64_t extent, int64_t limit) {
  return extent <= limit || 2 * largestDivisorAtMost(extent, limit) >= limit;
}

/// Whether the reduction extent K has a good block up to `limit`: a divisor
/// of it reaches a quarter of `limit`. A block of K only sets the step of a
/// batch-reduce call, which keeps its block of C in registers over all of
/// them, whereas a K part is one more pass over C and one more parallel
/// region: 511x328x141 in blocks of 47 ran at 257-263 GFLOPS on two
/// threads, 234 with K split into 128 and 13 (oneDNN 360).
inline bool hasGoodReductionBlock(int64_t extent, int64_t limit) {
  return 4 * largestDivisorAtMost(extent, limit) >= limit;
}

/// Where an extent without a good block splits: after its whole blocks of
/// `limit` (the remainder, below `limit`, follows).
inline int64_t wholeBlocksExtent(int64_t extent, int64_t limit) {
  return extent / limit * limit;
}

/// The block of a reduction dimension (a convolution's input channels) in a
/// blocked layout whose last block may be padded with zeros: the largest
/// divisor of `channels` up to `limit` when it is at least half of `limit`
/// (or all channels fit one block); otherwise the fewest blocks of at most
/// `limit`, of equal size, which pad by less than one channel per block
/// (67 channels, limit 64: 2 blocks of 34, not 67 blocks of 1).
inline int64_t paddedChannelBlock(int64_t channels, int64_t limit) {
  if (hasGoodBlock(channels, limit))
    return largestDivisorAtMost(channels, limit);
  int64_t blocks = (channels + limit - 1) / limit;
  return (channels + blocks - 1) / blocks;
}

/// The vector dimension `size` (columns of a GEMM block, output channels of
/// a convolution block) as a target without masked partial vectors computes
/// it best: padded to whole `vectorFloats`-float vectors, unless it is a
/// power of two below one vector (one piece of LIBXSMM's remainder code,
/// see Target::masksPartialVectors, as fast as a whole vector).
inline int64_t wholeVectorsOf(int64_t size, int64_t vectorFloats) {
  if (size < vectorFloats && (size & (size - 1)) == 0)
    return size;
  return (size + vectorFloats - 1) / vectorFloats * vectorFloats;
}

/// The fewest FLOPs (2 M N K) of a GEMM whose columns are padded or split
/// into whole vectors on a target without masked partial vectors: the
/// padded copies of B and C and their buffers cost a fixed few tenths of a
/// microsecond (one AVX2 core: 1x5x17 0.1 us with 5 columns, 0.5 padded to
/// 8; 2x15x15 0.1 and 0.3), which a GEMM of a microsecond's work pays back
/// (512x5x37, 1.9e5 FLOPs: 13.3 us with 5 columns, 9.2 padded).
constexpr int64_t kMinWholeVectorFlops = int64_t(1) << 16;

/// Whether an m x n x k GEMM's columns take whole vectors (split and padded
/// by dl-split-gemm-remainders and dl-pack-gemm-operands): on a target
/// without masked partial vectors, from kMinWholeVectorFlops on.
inline bool takesWholeVectors(bool masksPartialVectors, int64_t m, int64_t n,
                              int64_t k) {
  return !masksPartialVectors && 2 * m * n * k >= kMinWholeVectorFlops;
}

/// Whether a GEMM of one row of C on a target with masked partial vectors
/// reads B's rows in whole vectors in place (an overlapping view, see
/// dl-split-gemm-remainders) rather than through LIBXSMM 1.17's kernels of
/// one row and one partial vector (N below a vector, not a power of two),
/// which take about 16 cycles per row of B where a whole vector's take 4.
/// One Zen 5 core, kernels against whole vectors (oneDNN), us: 1x11x983 4.3
/// and 1.4 (1.7), 1x15x983 5.4 and 1.4, 1x13x2000 6.8 and 2.6, 1x9x500 1.10
/// and 0.76, 1x11x150 0.63 and 0.36, 1x11x100 0.38 and 0.27; below
/// kMinOneRowDepth rows of B the scratch C and its addition cost what they
/// save (1x11x64 0.24 and 0.23, 1x13x64 0.20 and 0.23, 1x15x30 0.14 and
/// 0.19). Two rows and wider N run fast kernels (2x11x983 0.87 us, 1x25x983
/// 1.2 us, 1.7 in whole vectors).
inline bool readsOneRowInWholeVectors(int64_t m, int64_t n, int64_t k,
                                      int64_t vectorFloats,
                                      bool masksPartialVectors) {
  constexpr int64_t kMinOneRowDepth = 96;
  return masksPartialVectors && m == 1 && n < vectorFloats &&
         wholeVectorsOf(n, vectorFloats) != n && k >= kMinOneRowDepth;
}

/// The block of a microkernel's vector dimension (a convolution's output
/// channels) in a blocked layout whose last block may be padded: all
/// channels when they fit `limit`; otherwise, among the divisors of
/// `channels` and the multiples of `vectorFloats` up to `limit` whose blocks
/// take at most 10% more vector registers per row than the fewest any block
/// takes (the registers are what the kernels compute), the one with the
/// fewest blocks (fewer calls, each reading its input rows once), then the
/// fewest registers, then a divisor.
/// A block with a partial vector counts kMaskedVectorExtra more per row
/// (rows of at least 4 columns).
/// With 16-float vectors and limit 64: 67 channels in 5 blocks of 16 (5
/// vectors; blocks of 34 or 48 take 6, and ran 0.44 ms against 0.37 for a
/// 28x28 3x3 convolution), 131 in 3 of 48 (9), 300 in 5 of 64, padded (20,
/// 19 for blocks of 16, 21.25 for 5 of 60), 128 in 2 of 64.
/// A call's register tile is `rows` (the output columns of a row) times
/// the block's vectors, and one of fewer than kLatencyAccumulators
/// accumulators waits on its FMAs' latency: a block then counts as that
/// many registers per row divided by `rows` (112 channels with 3-column
/// rows: 2 blocks of 56, 1.19 ms for a 7x7 convolution from 5 channels,
/// against 1.57 with 7 blocks of 16 and 1.08 for oneDNN).
/// Each batch element of a call (an input-channel block and a filter tap)
/// also costs a fixed few instructions, about kElementVectors vector FMAs
/// per row, against `depth` (the input-channel block) FMAs per vector: a
/// block counts that many registers more divided by `depth`, which matters
/// only for a few input channels (71 output channels from 1, 17-column
/// rows: 2 blocks of 48, 0.020 ms for a 5x5 convolution, against 0.047
/// with 5 blocks of 16 and 0.028 for oneDNN).
/// With `wholeVectors` (a target without masked partial vectors,
/// Target::masksPartialVectors), only multiples of `vectorFloats` are
/// candidates, and channels that fit one block are padded to whole vectors
/// (17 channels in one block of 24 with 8-float vectors; wholeVectorsOf).
inline int64_t paddedVectorBlock(int64_t channels, int64_t limit,
                                 int64_t vectorFloats, int64_t rows,
                                 int64_t depth, bool wholeVectors = false) {
  // Two FMA pipes of four cycles' latency.
  constexpr int64_t kLatencyAccumulators = 8;
  constexpr double kElementVectors = 2.0;
  if (channels <= limit)
    return wholeVectors ? std::min(wholeVectorsOf(channels, vectorFloats),
                                   std::max(limit, vectorFloats))
                        : channels;
  // A partial vector's masked loads and stores cost more than a full
  // vector's where the kernels run at their FMA rate; rows of under
  // kLatencyAccumulators / 2 columns wait on FMA latency instead, which
  // hides them (docs/heuristics.md, "Convolution blocks").
  constexpr double kMaskedVectorExtra = 0.25;
  auto vectors = [&](int64_t block) {
    int64_t blocks = (channels + block - 1) / block;
    double perBlock = double((block + vectorFloats - 1) / vectorFloats);
    if (block % vectorFloats != 0 && rows >= kLatencyAccumulators / 2)
      perBlock += kMaskedVectorExtra;
    return double(blocks) *
           (std::max(perBlock, double(kLatencyAccumulators) /
                                   double(std::max<int64_t>(rows, 1))) +
            kElementVectors / double(std::max<int64_t>(depth, 1)));
  };
  auto candidate = [&](int64_t block) {
    return block % vectorFloats == 0 ||
           (!wholeVectors && channels % block == 0);
  };
  double fewest = wholeVectors ? vectors(vectorFloats)
                               : vectors(largestDivisorAtMost(channels, limit));
  for (int64_t block = vectorFloats; block <= limit; block += vectorFloats)
    fewest = std::min(fewest, vectors(block));
  // Fewest blocks, then fewest vectors, then no padding.
  auto key = [&](int64_t block) {
    return std::make_tuple((channels + block - 1) / block, vectors(block),
                           channels % block != 0);
  };
  int64_t best = 0;
  for (int64_t block = 1; block <= limit; ++block)
    if (candidate(block) && vectors(block) * 10 <= fewest * 11 &&
        (!best || key(block) < key(best)))
      best = block;
  return best;
}

/// The dimension of a blocked convolution's input (N x C/c x H x W x c, or
/// a copy made for it in that shape) that a parallel loop over schedule
/// dimension `scheduleDim` divides among the threads: the images for `n`,
/// the rows for `oh`. None for the other dimensions, over which every thread
/// reads all of the input.
inline std::optional<unsigned> getDividedInputDim(llvm::StringRef scheduleDim) {
  if (scheduleDim == "n")
    return 0;
  if (scheduleDim == "oh")
    return 2;
  return std::nullopt;
}

/// Whether dl-fold-filter-columns folds a blocked convolution's filter
/// columns into its input channels: its input channels are one block
/// (`channelBlocks`), its filter is wider than one column, and a batch
/// element of its microkernel calls (one filter tap) does little work
/// against its fixed cost (offsets, pointers, loop):
/// - under kMinElementWork vector FMAs per output pixel (`channelBlock`
///   times the 16-float vectors of `outChannelBlock`). A 1 -> 71 channel
///   21x21 5x5 convolution (blocks of 48: 3 FMAs) ran 0.020 ms unfolded,
///   0.016 folded (oneDNN 0.028). With 8 FMAs or more over long rows the
///   copy costs more than the elements save (one core, median of 5
///   interleaved runs): 5 -> 24 channels, 4x107x107, 5x5 (10 FMAs): 3.47 ms
///   folded, 2.92 unfolded; 7 -> 17, 2x56x56, 3x3 (14): 0.268 and 0.225;
///   4 -> 30, 64x64, 7x7 stride 2 (8 FMAs, 32 columns): 0.131 and 0.116;
/// - or under kMinElementRowWork vector FMAs over the kernel's rows (the
///   `outputColumns` of an output row): 2 -> 400 channels, 11x11, 7x7 pad
///   1 (8 FMAs, 7 columns: 56) 41.8 us unfolded, 19.6 folded (oneDNN 26.5);
///   2 -> 64, 13x13, 7x7 (56) 6.3 and 3.0; at 14 columns (112) 11.7 and
///   11.6; 4 -> 30, 24x24, 7x7 stride 2 (12 columns: 96) 8.2 and 9.0 (one
///   Zen 5 core).
/// The copy (`copyBytes`: S input pixels per output column) must stay within
/// the L2 (`l2Bytes`, 0: unknown): beyond it, writing and reading it again
/// costs more than the elements save, the more so at a stride, where it
/// holds each input pixel up to S / stride times. One Zen 5 core, folded
/// and unfolded: 5 -> 9 channels, 4x199x199, 5x5 stride 2 (5 FMAs, a 7.8
/// MB copy) 1.27 and 0.87 ms (oneDNN 1.0); 3 -> 11, 4x126x159, 5x5 stride
/// 2 pad 1 (3 FMAs, 2.4 MB) 0.379 and 0.309 (0.29).
inline bool foldsFilterColumns(int64_t channelBlocks, int64_t channelBlock,
                               int64_t filterColumns, int64_t outChannelBlock,
                               int64_t outputColumns, int64_t copyBytes,
                               int64_t l2Bytes) {
  constexpr int64_t kMinElementWork = 8, kMinElementRowWork = 64;
  int64_t vectors =
      (outChannelBlock + kLoweringVectorFloats - 1) / kLoweringVectorFloats;
  int64_t work = channelBlock * vectors;
  return channelBlocks == 1 && filterColumns > 1 &&
         (l2Bytes <= 0 || copyBytes <= l2Bytes) &&
         (work < kMinElementWork || work * outputColumns < kMinElementRowWork);
}

/// The last input column the taps of a plain `pixel_vectors` convolution
/// read (its rows start at 0): the last vector of an output row (from
/// max(OW, 16) - 16) reads up to column (max(OW, 16) - 1) * sw + (S - 1) *
/// dilation. From the input's width on, its lowering reads a window copy.
inline int64_t pixelVectorLastColumn(int64_t outColumns, int64_t strideW,
                                     int64_t filterColumns, int64_t dilationW) {
  return (std::max(outColumns, kLoweringVectorFloats) - 1) * strideW +
         (filterColumns - 1) * dilationW;
}

/// The share of the lanes of `lanes`-float vectors that `extent` elements
/// fill (the last vector partly).
inline double laneFill(int64_t extent, int64_t lanes) {
  return double(extent) / double((extent + lanes - 1) / lanes * lanes);
}

/// The accumulators of a `pixel_vectors` convolution's register tile
/// (vectors of kLoweringVectorFloats): three quarters of a register file of
/// `registers` such vectors (Target::loweringVectorRegisters), the others
/// holding the input vector being used and the broadcast weights.
inline int64_t pixelTileAccumulators(int64_t registers) {
  return std::max<int64_t>(1, 3 * registers / 4);
}

/// Whether a plain convolution with `outChannels` output channels and
/// `outColumns` output columns is vectorized along its output pixels
/// (`pixel_vectors`) instead of blocked: when its output channels fill
/// under half of a `vectorFloats`-lane register, which the blocked kernels
/// vectorize along, or, with masked partial vectors at a unit column
/// stride (`unitColumnStride`: its taps load their input vectors whole,
/// where strided ones shuffle several into one), under a whole register;
/// and its rows fill more of
/// their vectors than the channels would (docs/heuristics.md, "A few output
/// channels"). Without masked partial vectors (`wholeVectors`, AVX2) also
/// when all its output channels fit one register tile of one vector per
/// row (`tileAccumulators`) and its rows fill 3/4 of their vectors: the
/// blocked kernels' rows of one 8-float vector ran 1.7-2.8x slower there
/// (docs/heuristics.md, "Pixel vectors on AVX2").
inline bool vectorizesPixels(int64_t outChannels, int64_t outColumns,
                             int64_t vectorFloats, bool wholeVectors,
                             int64_t tileAccumulators, bool unitColumnStride) {
  constexpr double kMinRowFill = 0.75;
  if (wholeVectors && outChannels <= tileAccumulators &&
      laneFill(outColumns, kLoweringVectorFloats) >= kMinRowFill)
    return true;
  int64_t maxChannels =
      unitColumnStride && !wholeVectors ? vectorFloats : vectorFloats / 2;
  return outChannels < maxChannels && laneFill(outColumns, vectorFloats) >
                                          laneFill(outChannels, vectorFloats);
}

/// The blocks of `channels` in blocks of `block`, the last one padded.
inline int64_t channelBlocks(int64_t channels, int64_t block) {
  return (channels + block - 1) / block;
}

/// The columns of a microkernel's block of C (its vector dimension) for the
/// target's `vectorBits` (Target.h): four vector registers per row, 32
/// floats with AVX2 and 64 with AVX-512.
int64_t microkernelColumns(int64_t vectorBits);

/// Floats per vector of a microkernel row whose block limit is `blockK`
/// columns (four vectors per row, as microkernelColumns).
inline int64_t blockVectorFloats(int64_t blockK) {
  return std::max<int64_t>(1, blockK / 4);
}

/// Default block limit along a GEMM's K (the `block-k` options of
/// dl-pack-gemm-operands and dl-split-gemm-remainders repeat it).
constexpr int64_t kGemmBlockK = 128;

/// The rows of a GEMM's block of C: those that make the block 16 KiB with
/// `columns` columns, 128 with 32 (AVX2) and 64 with 64 (AVX-512).
int64_t gemmBlockRows(int64_t columns);

/// Most bytes of a copy of op(B) that every group of rows of A reads whole
/// (streaming's transposed B, a narrow GEMM's single B block): half of a
/// 1 MiB L2, where it stays while A streams past it (deepbench_1,
/// 1024x16x500000 with a 32 MB B, ran 567 ms streamed against 90 in
/// blocks).
constexpr int64_t kMaxWholeBBytes = 512 << 10;

/// Whether rows `leadingDim` floats apart fall into few L1 sets: when the
/// row stride is a multiple of 1 KiB, consecutive rows cycle through at most
/// 4 positions of a 4 KiB cache way (the way size of the 8-way 32 KiB L1 and
/// the 12-way 48 KiB L1 of x86 cores), so a kernel reading more rows at once
/// than the L1 has ways evicts its own lines.
inline bool conflictingRows(int64_t leadingDim) {
  return (leadingDim * static_cast<int64_t>(sizeof(float))) % 1024 == 0;
}

/// Whether a block of `rows` rows of `cols` floats, `stride` floats apart,
/// read in place, evicts its own lines from an L1 of `l1Bytes` that it fits
/// when contiguous: some set holds more of its 64-byte lines than the L1 has
/// ways. x86 L1 data caches
/// are indexed within the 4 KiB page (64 sets, 32 KiB in 8 ways, 48 KiB in
/// 12), so rows a multiple of 4 KiB apart all fall into the sets of the
/// first row, and rows some other multiple of 64 bytes apart into a few
/// more. Computed line by line (the row starts taken 64-byte aligned); no
/// library models set conflicts. One AVX2 core, 64 x N x 1152 in blocks of
/// 64 x 32 x 128 with B read in place against packed: N = 2048 (128 lines
/// of a block in one set) 10.6 ms against 5.1; N = 2080 (4) 5.7 against
/// 4.6 at K = 1024, N = 2112 (8) 4.7 against 4.5.
bool conflictsInL1(int64_t stride, int64_t rows, int64_t cols, int64_t l1Bytes);

/// The lines of such a block in its fullest L1 set per way of the L1 (0
/// for a block that conflictsInL1 cannot judge: not more rows than ways, or
/// larger than the L1): above 1 the block evicts its own lines, at 2 half
/// of those in that set at least.
double l1SetOverload(int64_t stride, int64_t rows, int64_t cols,
                     int64_t l1Bytes);

/// Whether the rows of a block `cols` floats wide, `stride` floats apart, read
/// in place, straddle cache lines: rows not a whole number of 64-byte lines
/// apart, in pieces of at most two lines, which then touch one line more
/// each (a 64-byte piece two lines, a 128-byte one three). One AVX2 core,
/// B read in place against packed, 45 x 1456 x 942 in 16-column blocks,
/// rows 1459 floats apart: 5.8 ms against 3.1; 45 x 1472 x 942 in
/// 32-column blocks, rows 1475 apart: 4.5 against 3.3.
inline bool straddlesLines(int64_t stride, int64_t cols) {
  constexpr int64_t kLineFloats = 16;
  return stride % kLineFloats != 0 && cols <= 2 * kLineFloats;
}

/// The rows of C one register tile of a GEMM microkernel call holds: those
/// whose `bn`-column accumulators fit the `registers` vector registers of
/// `vectorFloats` floats with one row of B's vectors (LIBXSMM's: 3 rows of
/// 4 vectors with AVX2's 16 registers, 7 with AVX-512's 32). The tile loads
/// one vector of B per that many FMAs.
inline int64_t registerTileRows(int64_t bn, int64_t vectorFloats,
                                int64_t registers) {
  int64_t vectors = (bn + vectorFloats - 1) / vectorFloats;
  return std::max<int64_t>(1, (registers - vectors) / vectors);
}

/// The floats between consecutive rows of a 2-D memref: its first stride
/// (a part of a larger operand keeps the operand's), or its row length when
/// the layout has no static strides.
inline int64_t rowStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (succeeded(type.getStridesAndOffset(strides, offset)) &&
      !strides.empty() && !ShapedType::isDynamic(strides.front()))
    return strides.front();
  return type.getDimSize(type.getRank() - 1);
}

/// Whether a GEMM of `m` x K rows with 6 to 8 (of 16) columns of C streams:
/// streaming reads A once but first copies B transposed (N x K), which
/// costs about as much per element as a row of A in the kernels, so it pays
/// once A has several times B's rows: at least 2 N rows while B's copy fits
/// half the L1, 4 N beyond (its dot products then read it from the L2).
/// LIBXSMM's 6- and 7-column kernels of one or two rows run slower than
/// streaming whatever K, and its 5-column kernels below 4 rows: those
/// stream. One Zen 5 core, streamed against kernels (us): 3x8x2395 5.8 and
/// 1.7, 3x7x1722 3.1 and 1.2 (oneDNN 1.9), 8x7x2395 6.0 and 3.3, 16x7x2395
/// 7.4 and 5.6, 16x7x500 1.1 and 1.2, 16x6x500 0.91 and 1.20, 32x8x500 2.0
/// and 2.4, 64x8x1000 6.3 and 8.9, 2000x8x1000 177 and 278; 1x7x2395 4.6
/// and 9.2, 2x6x2395 3.9 and 7.1, 1x8x2395 5.8 and 2.4; 3x5x1000 0.63 and
/// 1.93.
inline bool streamsManyRows(int64_t m, int64_t n, int64_t k,
                            int64_t vectorFloats, int64_t l1Bytes) {
  constexpr int64_t kFewKernelRows = 2;
  if (16 * n <= 5 * vectorFloats || ShapedType::isDynamic(m) ||
      (2 * n < vectorFloats && m <= kFewKernelRows))
    return true;
  bool copyInHalfL1 = n * k * int64_t(sizeof(float)) * 2 <= l1Bytes;
  return m >= (copyInHalfL1 ? 2 : 4) * n;
}

/// When a static GEMM streams A (`stream_a`): dot products along K, 16
/// floats at a time, read A once at full vector width, where microkernels
/// vectorizing along N keep N of each register's `vectorFloats` lanes busy.
/// For up to a quarter of the lanes, 4 columns of C with AVX-512 (a
/// 4096x4096 GEMV: 1.8-2.0 ms streaming, 8.7 ms in kernels), when rows
/// have at least 8 elements of K per column: the reduction that ends each
/// dot product costs about as much as 6 to 8 steps of K in the kernels
/// (one Sapphire Rapids core, 1200 rows, streamed against kernels, us:
/// 4 columns K = 16 7.1 and 4.2, 29 8.3 and 6.6, 32 7.7 and 7.6, 64 9.4
/// and 15.4; 3 columns K = 16 5.2 and 4.1, 29 6.3 and 6.9; 2 columns K =
/// 16 3.7 and 3.9); for up to
/// half of them, 8 columns, only when rows are long enough
/// (K >= 128) to amortize the N reductions that end each row, whether A is
/// in cache or not (one core, streamed against kernels reading A's rows
/// whole: 2000x8x1000 0.20 ms and 0.34, 3000x5x2000 0.83 and 1.11,
/// 2000x8x128 52 us and 70, 106x8x1023 22 and 44, 50x5x300 2.3 and 4.2;
/// 4096x8x32 54 and 37), and for 6 to 8 columns only with enough rows
/// (streamsManyRows). With more columns the kernels win (2048x16x2048:
/// 3.9 ms streamed, 0.83 in kernels; 1024x10x3000: 0.70 and 0.56), and so
/// they do with 16 columns and A in cache (51x16x199 streamed at 58 GFLOPS,
/// oneDNN 174) or short rows (3060x15x167 at 37 against 177). K must fill a
/// vector, and the transposed copy of B must stay in the L2. Without masked
/// partial vectors (AVX2's 8 lanes), a partial vector costs the kernels a
/// padded copy: up to 7 columns stream, 8 fill the kernels' vectors (one
/// Zen 3 core, streamed against kernels: 2903x8x394 1.0-1.3 ms and
/// 0.60-0.66, 2000x8x1000 2.2-2.4 and 1.5-1.7; 3000x5x2000 3.5-3.8 and
/// 4.2-4.7, 50x5x300 7 us and 11).
/// `m` may be dynamic (unknown rows: as many as streaming needs);
/// `l1Bytes` is the target's L1 (0: unknown).
inline bool streamsA(int64_t m, int64_t n, int64_t k, bool transposeA,
                     int64_t vectorFloats, bool masksPartialVectors,
                     int64_t l1Bytes) {
  constexpr int64_t kMinDepth = 16, kLongRows = 128, kDepthPerColumn = 8;
  int64_t kAlwaysColumns = vectorFloats / 4;
  int64_t kMaxColumns =
      masksPartialVectors ? vectorFloats / 2 : vectorFloats - 1;
  if (transposeA || k < kMinDepth || n > kMaxColumns ||
      n * k * int64_t(sizeof(float)) > kMaxWholeBBytes)
    return false;
  if (n <= kAlwaysColumns)
    return k >= kDepthPerColumn * n;
  // The rows rule was measured where partial vectors are masked (AVX-512).
  return k >= kLongRows && (!masksPartialVectors ||
                            streamsManyRows(m, n, k, vectorFloats, l1Bytes));
}

/// Whether a GEMM of at most `rows` rows (one block of rows of C) reads B,
/// K x N in place and larger than the L2 (`l2Bytes`, 0: unknown), once
/// from beyond it: dl-pack-gemm-operands then reads it in blocks of a few
/// whole rows in memory order.
inline bool readsBOnceFromBeyondL2(int64_t m, int64_t n, int64_t k,
                                   int64_t rows, int64_t l2Bytes) {
  return m <= rows && l2Bytes > 0 && k * n * int64_t(sizeof(float)) > l2Bytes;
}

/// The rows of B's blocks where dl-pack-gemm-operands streams B's rows from
/// beyond the L2 (readsBOnceFromBeyondL2) for `m` rows of C, 0 for a K
/// without such a block. The calls of one block of rows walk along its rows
/// (one K block a call: dl-tile-gemm-bands keeps the K blocks outside the
/// calls' columns), each row a memory stream of its own.
/// - A B of more than kFarBL2s L2s comes from memory or the far L3, where,
///   below kFarStreamedMaxRows rows of C (few FMAs per element of B), the
///   prefetchers' streams set the speed: the largest divisor of K up to
///   kStreamedRows rows, at least kMinStreamedRows (deeper blocks run more
///   streams than they follow, shallower ones reload C every few rows). One
///   Zen 5 core, ms by rows a block (oneDNN): 1x4096x4096 4 2.0, 8 1.80, 16
///   1.98, 32 2.43 (6.8); 4x2048x3000 4 1.12, 8 0.64, 12 0.52, 24 0.67
///   (2.1); 2x4095x2825 5 1.56-1.74, 25 2.1, 113 2.57 (2.3-2.6); but
///   11x1223x4096 0.87 with 16 rows, 0.75 with 32 (0.81).
/// - Otherwise: the largest divisor of K up to kStreamedDepth / m rows,
///   that limit within 2 x kStreamedRows to 8 x kStreamedRows, itself at
///   least 2 x kStreamedRows: shallow blocks cost a call per few FMAs
///   there. One Zen 5 core (oneDNN): 1x1500x1000 (B 6 MB) 10 rows 0.077
///   ms, 25-40 rows 0.066 (0.079); 1x892x1698 (6 MB) 0.087 in 6-row blocks,
///   0.073 unstreamed (0.078); 16x256x2048 0.12 with 16 rows, 0.078 with
///   32; 9x664x3534 0.30 with 6 rows, 0.28 with 38, 0.40 with 114.
constexpr int64_t kStreamedRows = 16, kMinStreamedRows = 4, kFarBL2s = 16,
                  kFarStreamedMaxRows = 8, kStreamedDepth = 512;
/// Whether a K x N B of more than kFarBL2s L2s comes from memory or the far
/// L3 whenever it is read.
inline bool isFarB(int64_t k, int64_t n, int64_t l2Bytes) {
  return l2Bytes > 0 && k * n * int64_t(sizeof(float)) > kFarBL2s * l2Bytes;
}
inline bool streamsFarRowsOfB(int64_t m, int64_t k, int64_t n,
                              int64_t l2Bytes) {
  return m < kFarStreamedMaxRows && isFarB(k, n, l2Bytes);
}
/// The rows of the whole blocks a K without a streamedRowsBlock is split
/// into (dl-split-gemm-remainders): the deepest block of the rule above.
inline int64_t streamedRowsUnit(int64_t m, int64_t k, int64_t n,
                                int64_t l2Bytes) {
  return streamsFarRowsOfB(m, k, n, l2Bytes) ? kStreamedRows
                                             : 2 * kStreamedRows;
}
inline int64_t streamedRowsBlock(int64_t k, int64_t m, int64_t n,
                                 int64_t l2Bytes) {
  if (streamsFarRowsOfB(m, k, n, l2Bytes)) {
    int64_t rows = largestDivisorAtMost(k, kStreamedRows);
    return rows >= kMinStreamedRows ? rows : 0;
  }
  int64_t limit = std::clamp<int64_t>(kStreamedDepth / std::max<int64_t>(m, 1),
                                      2 * kStreamedRows, 8 * kStreamedRows);
  int64_t rows = largestDivisorAtMost(k, limit);
  return rows >= 2 * kStreamedRows ? rows : 0;
}

/// Whether such a GEMM whose N has no good block up to `columns` reads
/// B's rows whole (blocks of all N columns; C, within an eighth of the L2,
/// stays in the L2): dl-split-gemm-remainders keeps N whole, since a part
/// of the last columns would be one more pass over B's rows that reads one
/// line of each, rows kilobytes apart, at memory latency (11x1223x4096 on a
/// Sapphire Rapids core: 3.7 ms with N split into 1216 and 7 columns, of
/// which the 7 took 1.7; 1.75 with N whole; oneDNN 2.1).
inline bool readsWholeRowsOfB(int64_t m, int64_t n, int64_t k, int64_t rows,
                              int64_t columns, int64_t l2Bytes) {
  return readsBOnceFromBeyondL2(m, n, k, rows, l2Bytes) &&
         !hasGoodBlock(n, columns) &&
         m * n * int64_t(sizeof(float)) <= l2Bytes / 8;
}

/// Whether a narrow GEMM (N up to 16 columns, one AVX-512 register per row
/// of C) not streamed computes each block of C in one microkernel call over
/// all of K, reading A in place: its blocks are then whole rows of A,
/// contiguous, and each is read once (there is one block column), so
/// packing A or splitting K only adds passes over A and C. B's single
/// K x N block must stay in the L2. 3148x15x829 ran 0.49 ms this way against
/// 0.91 with K split at 768 and A packed (oneDNN 0.50); 4096x12x4096 4.4
/// against 11.1 (oneDNN 3.8-4.2).
inline bool readsWholeRowsOfA(int64_t n, int64_t k, bool transposeA) {
  constexpr int64_t kNarrowColumns = 16;
  return !transposeA && n <= kNarrowColumns &&
         n * k * int64_t(sizeof(float)) <= kMaxWholeBBytes;
}

/// The most rows of a block of A read in place as whole rows
/// (`readsWholeRowsOfA`), `k` floats long: a kernel reads them all at once,
/// one memory stream each, so at most the 32 streams hardware prefetchers
/// track (as `prefetch-streams` bounds blocks of part rows), and 8 when the
/// rows fall into few L1 sets (2048x16x1024: 0.38 ms with 8-row blocks,
/// 0.61 with 16 or 32, 1.09 with 64; 3136x15x829, rows 3316 bytes apart:
/// 0.49-0.53 with 16 to 64 rows, 0.58 with 8). dl-split-gemm-remainders
/// splits M by it, dl-pack-gemm-operands takes its largest divisor.
inline int64_t wholeRowBlockLimit(int64_t k) {
  constexpr int64_t kStreams = 32, kConflictingRows = 8;
  return conflictingRows(k) ? kConflictingRows : kStreams;
}

/// Default of the `max-batch-bytes` options (dl-pack-gemm-operands,
/// dl-outline-microkernels, the dl-to-llvm pipeline, dl-compile; the
/// TableGen pass options repeat the number): half the 512 KiB L2 of the
/// machine the rule was measured on, so a call's A and B blocks stay in the
/// L2 while LIBXSMM re-reads them once per register tile.
constexpr int64_t kDefaultMaxBatchBytes = 256 * 1024;

/// The bytes of the A block (m x k) and the B block (k x n), f32, that one
/// batch element of an m x n x k batch-reduce microkernel call reads: what
/// `max-batch-bytes` bounds, times the batch count.
inline int64_t batchElementBytes(int64_t m, int64_t n, int64_t k) {
  return (m * k + k * n) * int64_t(sizeof(float));
}

/// The defaults of dl-im2col-convs' options (Passes.td repeats them): a
/// blocked convolution of one output-channel block whose microkernel calls
/// hold fewer than kIm2colMinVectors vectors of C runs as one GEMM on a copy
/// of its input windows of at most kIm2colMaxCopyBytes.
constexpr int64_t kIm2colMinVectors = 5;
constexpr int64_t kIm2colMaxCopyBytes = int64_t(64) << 20;

/// Whether a convolution of `outChannels` output channels, at most half of
/// a vector's `vectorFloats` lanes, whose output rows hold `columns` pixels,
/// at least kIm2colMinVectors and under kDeepWindowMaxColumns, runs as one
/// GEMM on a copy of its input windows all the same: windows of at least
/// kDeepWindowMinFloats floats (input channels x filter taps), whose dot
/// products are long, and a copy of `copyBytes` within the L2's `l2Bytes`,
/// which the GEMM then reads from there. One Zen 5 core and 2 threads,
/// `sweep.py`, dl/oneDNN before -> after: 176 -> 3 channels 3x3 stride 2 of
/// a 9x9 image (rows of 5) 0.55 / 0.61 -> 1.67 / 1.22; 113 -> 3 3x3 stride
/// 2 of 2 7x12 0.85 / 0.95 -> 1.65 / 0.98; 19 -> 3 5x5 stride 2 13x13 1.03
/// / 1.12 -> 1.94 / 1.61-2.23; 79 -> 1 3x3 8x8 2.85 / 1.84 -> 3.40 / 2.18.
/// Shallower windows lost at 2 threads (12 -> 5 3x3 stride 2 of 3 14x13:
/// 1.0-1.2 -> 0.55-0.75), and so did copies beyond the L2 (464 -> 5 7x7 of
/// a 41x9 image, 25 MB: 1.17 -> 0.55-0.64) (docs/heuristics.md, *Shapes
/// outside the lists*).
constexpr int64_t kDeepWindowMaxColumns = 8, kDeepWindowMinFloats = 256;
inline bool runsDeepWindowsAsGemm(int64_t outChannels, int64_t vectorFloats,
                                  int64_t columns, int64_t windowFloats,
                                  int64_t copyBytes, int64_t l2Bytes) {
  return 2 * outChannels <= vectorFloats && columns < kDeepWindowMaxColumns &&
         windowFloats >= kDeepWindowMinFloats && l2Bytes > 0 &&
         copyBytes <= l2Bytes;
}

/// Most rows of a blocked convolution's microkernel calls (output columns)
/// where its output width is dynamic: convert-dl-to-affine runs such a row
/// in blocks of this many columns, the last one partial (its kernels get
/// their rows at run time). dl-tile-gemm-bands' `max-block` default.
constexpr int64_t kMaxKernelRows = 128;

/// The largest tile dl-tile-gemm-bands (default `max-block`) gives a band
/// loop of `extent` iterations, which a microkernel call then covers: the
/// loop itself up to kMaxKernelRows, else its largest divisor up to that
/// where it is a good block, else kMaxKernelRows (whole tiles and a smaller
/// remainder).
inline int64_t kernelTileOf(int64_t extent) {
  if (!hasGoodBlock(extent, kMaxKernelRows))
    return kMaxKernelRows;
  return largestDivisorAtMost(extent, kMaxKernelRows);
}

/// Whether plain convolution `op`, blocked in one block of its output
/// channels (at most `vectorFloats`), would run as one GEMM on a copy of its
/// input windows (dl-im2col-convs with its default options): static sizes,
/// one group, output rows of fewer than kIm2colMinVectors pixels (not
/// joinable) or deep windows of a few more (runsDeepWindowsAsGemm), a copy
/// within kIm2colMaxCopyBytes. Its dot products along the
/// windows fill whole vectors where pixel vectors fill a row's few lanes:
/// one Zen 5 core, pixel vectors against blocked, 88 -> 2 channels 7x7
/// stride 2 3 x 8x8 (rows of 3) 45 against 12.6 us, 3 -> 1 5x5 stride 2 3 x
/// 10x10 (rows of 4) 1.2 against 0.9; rows of 5 and 7, kept as blocked
/// convolutions, ran as fast or faster as pixel vectors (11 -> 2 1x1 stride
/// 2 4 x 9x9 0.2 against 0.5 us, 1 -> 3 7x7 3 x 7x7 1.4 against 1.8).
bool runsAsWindowGemm(Conv2DOp op, int64_t vectorFloats);

/// The channel blocks of a convolution's blocked layout: input channels
/// (the kernels' K) and output channels (their vector dimension N).
struct ConvChannelBlocks {
  int64_t input, output;
};

/// The input and the output channels of the plain convolution `op`, where
/// static in any operand (else ShapedType::kDynamic).
int64_t getConvChannels(Conv2DOp op);
int64_t getConvOutChannels(Conv2DOp op);

/// Whether dl-block-conv-layouts gives the plain convolution `op` a blocked
/// layout: it has no epilogue, is not pixel_vectors and has channels (none
/// of its channel counts is a static 0). Any of its sizes may be dynamic.
bool hasBlockableLayout(Conv2DOp op);

/// The channel blocks of `op`'s blocked layout with blocks of at most
/// `blockC` input and `blockK` output channels, or nullopt when its output
/// pixels fill the vectors instead (a few output channels, all sizes
/// static: `pixel_vectors`; never with groups). A grouped convolution's
/// blocks hold whole groups (see groupedBlocksFit; the input block of
/// several groups may exceed `blockC`). A dynamic output row counts as
/// kMaxKernelRows columns; dynamic channels take blocks of the limit, the last
/// one padded. With `wholeVectors`, output-channel blocks of dense
/// convolutions are whole vectors (paddedVectorBlock).
std::optional<ConvChannelBlocks>
chooseConvChannelBlocks(Conv2DOp op, int64_t blockC, int64_t blockK,
                        bool wholeVectors = false);

/// Whether `op` (with pack_blocks) should compute C in packed blocks
/// (`pack_c`) under its effective schedule: when its bm x bn blocks are not
/// contiguous in C (bn < N) and the schedule reduces each block over more
/// than one microkernel call. Each call loads and stores its block of C;
/// the block's rows are N floats apart, each in another page, where the
/// hardware prefetchers do not follow, whereas a packed block is one
/// contiguous stream. dl-pack-gemm-operands decides it for the default loop
/// order, and `setSchedule` again for the schedule it sets.
bool computesCInPackedBlocks(MatmulOp op);

/// The `rows` x `cols` subview at (`rowOffset`, `colOffset`) of a GEMM's 2-D
/// operand `source`, or, when `transposed` (the operand is stored
/// transposed), the `cols` x `rows` one at (`colOffset`, `rowOffset`): the
/// operand slices of dl-split-gemm-remainders' parts and dl-split-k's
/// chunks.
Value sliceGemmOperand(OpBuilder &b, Location loc, Value source,
                       OpFoldResult rowOffset, int64_t rows,
                       OpFoldResult colOffset, int64_t cols, bool transposed);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_TRANSFORMS_BLOCKING_H
