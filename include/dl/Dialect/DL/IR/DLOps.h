//===- DLOps.h - dl dialect operations --------------------------*- C++ -*-===//
//
// Declares the operations of the `dl` dialect (generated from DLOps.td) and
// the size helpers their verifiers and lowerings share.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_IR_DLOPS_H
#define DL_DIALECT_DL_IR_DLOPS_H

#include "dl/Dialect/DL/IR/DLAttrs.h"
#include "dl/Dialect/DL/IR/DLDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

namespace mlir {
namespace dl {

/// Output size of a convolution along one spatial dimension:
/// (in + padBefore + padAfter - dilation * (filter - 1) - 1) / stride + 1.
/// Returns std::nullopt when the dilated filter does not fit in the padded
/// input (the convolution would have no output element).
std::optional<int64_t> getConvOutputSize(int64_t inputSize, int64_t filterSize,
                                         int64_t stride, int64_t padBefore,
                                         int64_t padAfter, int64_t dilation);

/// A run of filter columns [firstTap, endTap) of a convolution whose taps
/// read the input, not its left or right padding, at the same output columns
/// [firstColumn, endColumn), and only there.
struct TapColumns {
  int64_t firstTap, endTap, firstColumn, endColumn;
};

/// Whether blocks of `kBlock` output and `cBlock` input channels, output
/// blocks reading `cBlocks` input blocks each, hold whole groups of a
/// convolution whose groups have `outPerGroup` output and `inPerGroup`
/// input channels: blocks of one group (the group's channels are whole
/// blocks, `cBlocks` of them its input channels), or blocks of several
/// whole groups each (`kBlock` a multiple of `outPerGroup`, their input
/// channels exactly `cBlocks` blocks).
inline bool groupedBlocksFit(int64_t outPerGroup, int64_t inPerGroup,
                             int64_t kBlock, int64_t cBlock, int64_t cBlocks) {
  if (outPerGroup < 1 || inPerGroup < 1 || kBlock < 1 || cBlock < 1)
    return false;
  if (outPerGroup % kBlock == 0)
    return inPerGroup % cBlock == 0 && cBlocks * cBlock == inPerGroup;
  return kBlock % outPerGroup == 0 &&
         cBlocks * cBlock == kBlock / outPerGroup * inPerGroup;
}

/// True when the shaped operands of `op` are all tensors or all memrefs
/// (a dl layer op is either a tensor op or a buffer op).
bool hasUniformOperandKind(Operation *op);

/// Succeeds where no dl layer op under `root` is on tensors; otherwise emits
/// an error at the first one: `pass` (the dl passes and the lowering to
/// affine) runs on buffers, after `dl-bufferize`.
LogicalResult verifyBufferForm(Operation *root, StringRef pass);

/// The memory effects of a dl layer op (`DL_DPSOp`) on buffers: it reads its
/// inputs and writes its outputs (and reads a GEMM's C, which it may
/// accumulate into; writes a convolution's row statistics). None on tensors.
void getDestinationStyleEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects);

/// The number of epilogue operands a step of an epilogue takes.
unsigned getPostOpOperandCount(PostOp step);

/// The steps of an `epilogue` attribute (empty without one, or null).
SmallVector<PostOp> getPostOps(std::optional<ArrayAttr> epilogue);

} // namespace dl
} // namespace mlir

#define GET_OP_CLASSES
#include "dl/Dialect/DL/IR/DLOps.h.inc"

#endif // DL_DIALECT_DL_IR_DLOPS_H
