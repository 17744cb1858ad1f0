//===- Target.h - the machine dl compiles for -------------------*- C++ -*-===//
//
// The target every dl pass reads: the module's #dl.target, which
// dl-set-target writes once (from this machine, a machine file or explicit
// values), or this machine where a module has none. The only place that
// queries the host.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_TARGET_H
#define DL_DIALECT_DL_TRANSFORMS_TARGET_H

#include "dl/Analysis/CacheModel.h"
#include "dl/Dialect/DL/IR/DLAttrs.h"

namespace mlir {
class Operation;
namespace dl {

struct Target {
  /// Width of the microkernels' vector registers.
  int64_t vectorBits;
  /// Most bytes of A and B blocks one batch-reduce kernel call reads (0: no
  /// bound).
  int64_t maxBatchBytes;
  CacheModel cache;

  /// This machine: its widest vector registers (512 with AVX-512F, 256 with
  /// AVX2, else 128), its cache capacities with the default latencies and
  /// bandwidths (CacheModel::detect), the default batch bound.
  static Target host();
  static Target fromAttr(TargetAttr attr);
  /// The attribute; null, after `emitError`'s diagnostic, where a value is
  /// out of range.
  TargetAttr toAttr(MLIRContext *context,
                    function_ref<InFlightDiagnostic()> emitError) const;
};

/// The target of the module around `op`: its `dl.target`, or the host's.
Target getTarget(Operation *op);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_TRANSFORMS_TARGET_H
