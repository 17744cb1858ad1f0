//===- GenericVersions.h - ops with dynamic inner sizes ---------*- C++ -*-===//
//
// The generic version dl-parametric-versioning gives an op whose dynamic
// sizes its static versions do not take.
//
//===----------------------------------------------------------------------===//

#ifndef DL_LIB_DIALECT_DL_TRANSFORMS_GENERICVERSIONS_H
#define DL_LIB_DIALECT_DL_TRANSFORMS_GENERICVERSIONS_H

#include "dl/Analysis/GuardTree.h"

#include "mlir/IR/Operation.h"

namespace mlir {
namespace dl {

/// Iterations per thread a parallel loop needs: a/b.
struct Occupancy {
  int64_t a = 4, b = 1;
};

/// `a` or `a/b`, integers from 1 to 2^20.
FailureOr<Occupancy> parseOccupancy(StringRef text);

/// dl-parametric-versioning's options, as the generic version uses them.
struct GenericVersionOptions {
  int64_t threads = 0;
  Occupancy occupancy;
  GuardArrangement arrangement = GuardArrangement::Auto;
  int64_t maxVersions = 13;
  int64_t vectorBits = 0;
  int64_t maxBatchBytes = 0;
  bool reportFallbacks = false;
};

/// Makes `op` (a dl.matmul or dl.conv2d with dynamic sizes, not versionable
/// on its batch for `reason`) its generic version: a GEMM blocked, with a
/// plain copy for small sizes; at several threads, occupancy versions of
/// its nests under guards.
void versionGeneric(Operation *op, StringRef reason,
                    const GenericVersionOptions &options);

} // namespace dl
} // namespace mlir

#endif // DL_LIB_DIALECT_DL_TRANSFORMS_GENERICVERSIONS_H
