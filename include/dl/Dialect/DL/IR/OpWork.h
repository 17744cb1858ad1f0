//===- OpWork.h - the work of a dl op ---------------------------*- C++ -*-===//
//
// How much work one dl op does, from its operands' sizes: its floating-point
// operations and the bytes of its operands. dl-compile's --run/--bench count
// GFLOPS with it (countFlops) and dl-decide-parallelism models an op's time
// with it, so both count the same work.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_IR_OPWORK_H
#define DL_DIALECT_DL_IR_OPWORK_H

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir {
namespace dl {

/// The sizes of a memref operand, or none when they are not known (dynamic
/// sizes the caller cannot resolve).
using OperandShapeFn = function_ref<std::optional<SmallVector<int64_t>>(Value)>;

/// The static sizes of a memref value, none when it has a dynamic size.
std::optional<SmallVector<int64_t>> getStaticShape(Value memref);

/// Floating-point operations of one run of `op`: 2*M*N*K for dl.matmul, 2
/// per multiply-add of dl.conv2d, per element 4 for inference batch norm, 8
/// for training batch norm, 1 for relu/add/bias_add, 2 for relu6; 0 for
/// pack/unpack and ops of other dialects. None when a size of an operand it
/// needs is not known.
std::optional<double> getFlops(Operation *op, OperandShapeFn shapeOf);

/// Bytes of all memref operands of `op` (each read or written at least
/// once): what a memory-bound op moves. None when a size is not known.
std::optional<double> getOperandBytes(Operation *op, OperandShapeFn shapeOf);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_IR_OPWORK_H
