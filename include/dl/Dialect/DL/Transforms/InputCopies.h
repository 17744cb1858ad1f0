//===- InputCopies.h - input copies in the parallel decision ----*- C++ -*-===//
//
// How dl-decide-parallelism treats the copy an earlier pass made of an op's
// input (a convolution's folded or strided copy, a GEMM's im2col A): a
// parallel region of its own before the op (InputCopies.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_INPUTCOPIES_H
#define DL_DIALECT_DL_TRANSFORMS_INPUTCOPIES_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace dl {

class Conv2DOp;

/// Runs the input copy made for `conv` in parallel over the loop that
/// divides it as `conv`'s parallel loop over schedule dimension `dim` divides
/// its reads (that loop moved outermost where the copy's dependences allow).
void alignInputCopy(Conv2DOp conv, llvm::StringRef dim);

/// The bytes each thread of `conv`'s parallel loop over `dim` reads of its
/// input copy that another thread wrote (0 where the copy is divided as the
/// loop divides its reads).
double copiedInputHandoffBytes(Conv2DOp conv, llvm::StringRef dim,
                               int64_t threads);

/// Marks the input copy made for `op`, if any, `dl.sequential`: an op run on
/// one thread reads it from the core that copies it.
void copyInputsOnOneThread(Operation *op);

/// The parallel regions `op`'s input copy brings (1 where it has one that
/// runs in parallel, else 0).
int64_t countInputCopyRegions(Operation *op);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_TRANSFORMS_INPUTCOPIES_H
