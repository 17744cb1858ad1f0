//===- Passes.h - dl conversion passes --------------------------*- C++ -*-===//
//
// Declarations and registration of the passes that lower the `dl` dialect.
//
//===----------------------------------------------------------------------===//

#ifndef DL_CONVERSION_PASSES_H
#define DL_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace dl {

#define GEN_PASS_DECL
#include "dl/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dl/Conversion/Passes.h.inc"

} // namespace dl
} // namespace mlir

#endif // DL_CONVERSION_PASSES_H
