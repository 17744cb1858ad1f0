//===- Blocking.cpp - block sizes from the host's vector width ------------===//
//
// The default blocks of the layout passes follow the vector registers of the
// machine: LIBXSMM's kernels vectorize a block's columns, four registers per
// row, so the width that keeps them busy doubles from AVX2 to AVX-512
// (docs/heuristics.md, "GEMM blocks and packing" and "Convolution
// blocks").
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <numeric>

using namespace mlir;

int64_t dl::microkernelColumns(int64_t vectorBits) {
  // At least one column, whatever width a target gives.
  return std::max<int64_t>(1, 4 * vectorBits / 32);
}

int64_t dl::gemmBlockRows(int64_t columns) {
  return std::max<int64_t>(1, (16 << 10) / (columns * 4));
}

double dl::l1SetOverload(int64_t stride, int64_t rows, int64_t cols,
                         int64_t l1Bytes) {
  constexpr int64_t kLineBytes = 64, kWayBytes = 4096;
  constexpr int64_t kSets = kWayBytes / kLineBytes;
  int64_t ways = std::max<int64_t>(1, l1Bytes / kWayBytes);
  // A block larger than the L1 does not stay there however it is laid out.
  if (rows <= ways || cols <= 0 ||
      rows * cols * int64_t(sizeof(float)) > l1Bytes)
    return 0.0;
  int64_t lines[kSets] = {};
  int64_t rowBytes = stride * int64_t(sizeof(float)),
          colBytes = cols * int64_t(sizeof(float));
  for (int64_t row = 0; row < rows; ++row) {
    int64_t first = row * rowBytes / kLineBytes,
            last = (row * rowBytes + colBytes - 1) / kLineBytes;
    // A row wider than a way fills every set once per way it spans.
    for (int64_t line = first; line <= std::min(last, first + kSets - 1);
         ++line)
      ++lines[line % kSets];
  }
  return static_cast<double>(*std::max_element(lines, lines + kSets)) /
         static_cast<double>(ways);
}

bool dl::conflictsInL1(int64_t stride, int64_t rows, int64_t cols,
                       int64_t l1Bytes) {
  return l1SetOverload(stride, rows, cols, l1Bytes) > 1.0;
}

/// A size static in either of two shaped types' dims, or kDynamic.
static int64_t staticSizeOf(ShapedType a, int64_t aDim, ShapedType b,
                            int64_t bDim) {
  return a.isDynamicDim(aDim) ? b.getDimSize(bDim) : a.getDimSize(aDim);
}

int64_t dl::getConvChannels(Conv2DOp op) {
  // A grouped convolution's filter has one group's input channels.
  ShapedType input = op.getInput().getType();
  if (op.getGroups() > 1 && input.isDynamicDim(1))
    return op.getFilter().getType().getDimSize(1) * op.getGroups();
  return staticSizeOf(input, 1, op.getFilter().getType(), 1);
}

int64_t dl::getConvOutChannels(Conv2DOp op) {
  return staticSizeOf(op.getFilter().getType(), 0, op.getOutput().getType(), 1);
}

bool dl::hasBlockableLayout(Conv2DOp op) {
  return !op.isBlocked() && !op.getPixelVectors() &&
         op.getEpilogueOperands().empty() && !op.getEpilogue() &&
         getConvChannels(op) != 0 && getConvOutChannels(op) != 0;
}

/// The blocks of a convolution of `groups` groups (static channels) that
/// hold whole groups (groupedBlocksFit), the ones whose vectors do the most
/// useful work: blocks of one group, the divisor of its output channels up
/// to `blockK` that fills the most lanes (then the largest), or blocks of
/// one vector holding several groups, whose block-diagonal filter does
/// useful work in the lanes of one group per input channel (4 output
/// channels per group: a quarter either way, and then the vector-wide
/// blocks, whose kernels and layouts are the dense convolutions'). Input
/// blocks of one group are the largest divisor of its input channels up to
/// `blockC`; those of several groups all their input channels, at most
/// kMaxGroupedInputBlock (else the blocks of one group).
static std::optional<dl::ConvChannelBlocks>
chooseGroupedChannelBlocks(int64_t outChannels, int64_t channels,
                           int64_t groups, int64_t blockC, int64_t blockK,
                           int64_t vectorFloats) {
  constexpr int64_t kMaxGroupedInputBlock = 256;
  if (ShapedType::isDynamic(outChannels) || ShapedType::isDynamic(channels) ||
      outChannels % groups != 0 || channels % groups != 0)
    return std::nullopt;
  int64_t outPerGroup = outChannels / groups, inPerGroup = channels / groups;
  int64_t oneGroup = 1;
  for (int64_t block = 1; block <= std::min(outPerGroup, blockK); ++block)
    if (outPerGroup % block == 0 &&
        std::make_pair(dl::laneFill(block, vectorFloats), block) >
            std::make_pair(dl::laneFill(oneGroup, vectorFloats), oneGroup))
      oneGroup = block;
  int64_t several = std::lcm(outPerGroup, vectorFloats);
  int64_t severalInput = several / outPerGroup * inPerGroup;
  if (several <= blockK && severalInput <= kMaxGroupedInputBlock &&
      double(outPerGroup) / double(several) >=
          dl::laneFill(oneGroup, vectorFloats))
    return dl::ConvChannelBlocks{severalInput, several};
  return dl::ConvChannelBlocks{dl::largestDivisorAtMost(inPerGroup, blockC),
                               oneGroup};
}

bool dl::runsAsWindowGemm(Conv2DOp op, int64_t vectorFloats) {
  ArrayRef<int64_t> output = op.getOutput().getType().getShape();
  auto filter = op.getFilter().getType();
  if (!op.getInput().getType().hasStaticShape() || !filter.hasStaticShape() ||
      !op.getOutput().getType().hasStaticShape() || op.getGroups() != 1 ||
      op.hasJoinableRows() || getConvOutChannels(op) > vectorFloats ||
      output[3] >= kDeepWindowMaxColumns)
    return false;
  // The copy's bytes, without overflowing on absurd static sizes.
  std::optional<int64_t> copyBytes = int64_t(sizeof(float));
  for (int64_t size : {output[0], output[2], output[3], getConvChannels(op),
                       filter.getDimSize(2), filter.getDimSize(3)})
    if (copyBytes)
      copyBytes = llvm::checkedMul(*copyBytes, size);
  if (!copyBytes || *copyBytes > kIm2colMaxCopyBytes)
    return false;
  int64_t windowFloats =
      getConvChannels(op) * filter.getDimSize(2) * filter.getDimSize(3);
  return output[3] < kIm2colMinVectors ||
         runsDeepWindowsAsGemm(getConvOutChannels(op), vectorFloats, output[3],
                               windowFloats, *copyBytes,
                               getTarget(op).l2Bytes());
}

std::optional<dl::ConvChannelBlocks>
dl::chooseConvChannelBlocks(Conv2DOp op, int64_t blockC, int64_t blockK,
                            bool wholeVectors) {
  ArrayRef<int64_t> output = op.getOutput().getType().getShape();
  int64_t channels = getConvChannels(op);
  int64_t outChannels = getConvOutChannels(op);
  // Output channels are the microkernels' vector dimension (four vectors
  // per row at the default limit).
  int64_t vectorFloats = blockVectorFloats(blockK);
  if (int64_t groups = op.getGroups(); groups > 1)
    return chooseGroupedChannelBlocks(outChannels, channels, groups, blockC,
                                      blockK, vectorFloats);
  bool dynamicRows =
      ShapedType::isDynamic(output[2]) || ShapedType::isDynamic(output[3]);
  // A few output channels: the output pixels fill the vectors instead
  // (pixel_vectors needs static sizes). Not a pointwise one with a column
  // stride whose input is beyond the L2: its pixel vectors gather every
  // other input pixel from memory, where the blocked layout reads a dense
  // copy (dl-reduce-conv-strides). Stride 2, one Sapphire Rapids core (2
  // MiB of L2), pixel vectors against blocked, of oneDNN: 435 -> 5
  // channels, 3 x 70x70 (25.6 MB) 0.14 against 0.77; 256 -> 2, 4 x 28x28
  // (3.2 MB) 0.48 against 0.77; 17 -> 7, 2 x 100x100 (1.4 MB) 1.59 against
  // 1.34; 64 -> 3, 56x56 (0.8 MB) 2.19 against 1.14.
  bool isStatic = op.getInput().getType().hasStaticShape() &&
                  op.getFilter().getType().hasStaticShape() &&
                  op.getOutput().getType().hasStaticShape();
  int64_t l2Bytes = getTarget(op).l2Bytes();
  bool gathersFromMemory =
      isStatic && op.isUnpaddedPointwise() && op.getStrides()[1] > 1 &&
      l2Bytes > 0 &&
      op.getInput().getType().getNumElements() * int64_t(sizeof(float)) >
          l2Bytes;
  // Rows for a GEMM on the input windows (runsAsWindowGemm): blocked.
  if (isStatic && !gathersFromMemory && !runsAsWindowGemm(op, vectorFloats) &&
      vectorizesPixels(
          outChannels, output[3], vectorFloats, wholeVectors,
          pixelTileAccumulators(getTarget(op).loweringVectorRegisters()),
          op.getStrides()[1] == 1))
    return std::nullopt;
  // Dynamic channels take whole blocks of the limit, the last one padded.
  int64_t cb = ShapedType::isDynamic(channels)
                   ? blockC
                   : paddedChannelBlock(channels, blockC);
  if (ShapedType::isDynamic(outChannels))
    return ConvChannelBlocks{cb, blockK};
  // The kernels' rows: the output rows, joined for a pointwise unit-stride
  // convolution (dl-merge-conv-rows).
  int64_t kernelRows = kMaxKernelRows;
  if (!dynamicRows)
    kernelRows = op.hasJoinableRows() ? output[2] * output[3] : output[3];
  int64_t kb = paddedVectorBlock(outChannels, blockK, vectorFloats, kernelRows,
                                 cb, wholeVectors);
  // A pointwise unit-stride convolution whose input comes from beyond the
  // L2 reads it in one block of all its channels (each pixel's channels
  // contiguous) where a kernel call's A and B blocks over all of them stay
  // within max-batch-bytes: blocks of channels make every call read a piece
  // of each channel block's plane, megabytes apart, and ran 1.3-2x slower
  // from memory (one Zen 5 core, cb = blockC against cb = C: 229 -> 11
  // channels 3 x 200x200 18.4 -> 9.6 ms, oneDNN 14.0; 192 -> 37 4 x 87x87
  // 5.6 -> 3.9, oneDNN 4.3; 128 -> 64 150x150 3.7 -> 2.6; 96 -> 16 200x200
  // 2.3 -> 1.3). Inputs in the L2 ran the same either way (256 -> 64 56x56,
  // 1024 -> 256 14x14 on a 1 MiB L2).
  if (isStatic && op.hasJoinableRows() && cb < channels && l2Bytes > 0 &&
      op.getInput().getType().getNumElements() * int64_t(sizeof(float)) >
          l2Bytes) {
    int64_t maxBatchBytes = getTarget(op).maxBatchBytes;
    int64_t oneBlockKb = paddedVectorBlock(outChannels, blockK, vectorFloats,
                                           kernelRows, channels, wholeVectors);
    int64_t rows = std::min(kernelRows, kMaxKernelRows);
    if (maxBatchBytes <= 0 ||
        batchElementBytes(rows, oneBlockKb, channels) <= maxBatchBytes)
      return ConvChannelBlocks{channels, oneBlockKb};
  }
  return ConvChannelBlocks{cb, kb};
}

Value dl::sliceGemmOperand(OpBuilder &b, Location loc, Value source,
                           OpFoldResult rowOffset, int64_t rows,
                           OpFoldResult colOffset, int64_t cols,
                           bool transposed) {
  if (transposed) {
    std::swap(rowOffset, colOffset);
    std::swap(rows, cols);
  }
  return memref::SubViewOp::create(
      b, loc, source, ArrayRef<OpFoldResult>{rowOffset, colOffset},
      ArrayRef<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(cols)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}
