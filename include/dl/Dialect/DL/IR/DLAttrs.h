//===- DLAttrs.h - dl dialect attributes ------------------------*- C++ -*-===//
//
// Declares the attributes of the `dl` dialect (generated from DLAttrs.td) and
// the loop descriptions a schedule is checked against and lowered to.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_IR_DLATTRS_H
#define DL_DIALECT_DL_IR_DLATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace dl {

/// A dimension of a heavy op that its schedule may order and tile.
struct ScheduleDim {
  StringRef name;
  int64_t extent;
  /// The dimension sums into the result (K of a GEMM).
  bool reduction = false;
  /// Its (last) loop must be the innermost loop of the schedule.
  bool innermost = false;
  /// A schedule may leave it out: it then runs as one loop after the
  /// scheduled ones.
  bool optional = false;
};

/// One loop of a schedule: it runs `tripCount` iterations and advances
/// dimension `dim` by `stride` per iteration. A dimension's value is the sum
/// of stride * iv over its loops.
struct ScheduledLoop {
  unsigned dim;
  int64_t tripCount;
  int64_t stride;
};

} // namespace dl
} // namespace mlir

#include "dl/Dialect/DL/IR/DLEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dl/Dialect/DL/IR/DLAttrs.h.inc"

#endif // DL_DIALECT_DL_IR_DLATTRS_H
