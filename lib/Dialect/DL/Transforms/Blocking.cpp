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

#include <algorithm>

using namespace mlir;

int64_t dl::microkernelColumns(int64_t vectorBits) {
  // At least one column, whatever width a target gives.
  return std::max<int64_t>(1, 4 * vectorBits / 32);
}

int64_t dl::gemmBlockRows(int64_t columns) {
  return std::max<int64_t>(1, (16 << 10) / (columns * 4));
}

/// A size static in either of two shaped types' dims, or kDynamic.
static int64_t staticSizeOf(ShapedType a, int64_t aDim, ShapedType b,
                            int64_t bDim) {
  return a.isDynamicDim(aDim) ? b.getDimSize(bDim) : a.getDimSize(aDim);
}

int64_t dl::getConvChannels(Conv2DOp op) {
  return staticSizeOf(op.getInput().getType(), 1, op.getFilter().getType(), 1);
}

int64_t dl::getConvOutChannels(Conv2DOp op) {
  return staticSizeOf(op.getFilter().getType(), 0, op.getOutput().getType(), 1);
}

bool dl::hasBlockableLayout(Conv2DOp op) {
  return !op.isBlocked() && !op.getPixelVectors() &&
         op.getEpilogueOperands().empty() && !op.getEpilogue() &&
         getConvChannels(op) != 0 && getConvOutChannels(op) != 0;
}

std::optional<dl::ConvChannelBlocks>
dl::chooseConvChannelBlocks(Conv2DOp op, int64_t blockC, int64_t blockK) {
  ArrayRef<int64_t> output = op.getOutput().getType().getShape();
  int64_t channels = getConvChannels(op);
  int64_t outChannels = getConvOutChannels(op);
  // Output channels are the microkernels' vector dimension (four vectors
  // per row at the default limit).
  int64_t vectorFloats = std::max<int64_t>(1, blockK / 4);
  bool dynamicRows =
      ShapedType::isDynamic(output[2]) || ShapedType::isDynamic(output[3]);
  // A few output channels: the output pixels fill the vectors instead
  // (pixel_vectors needs static sizes).
  bool isStatic = op.getInput().getType().hasStaticShape() &&
                  op.getFilter().getType().hasStaticShape() &&
                  op.getOutput().getType().hasStaticShape();
  if (isStatic && vectorizesPixels(outChannels, output[3], vectorFloats))
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
  int64_t kb =
      paddedVectorBlock(outChannels, blockK, vectorFloats, kernelRows, cb);
  return ConvChannelBlocks{cb, kb};
}
