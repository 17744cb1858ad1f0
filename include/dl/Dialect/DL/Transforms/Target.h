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
#include "dl/Dialect/DL/Transforms/Blocking.h"

#include <algorithm>

namespace mlir {
class Operation;
namespace dl {

/// Whether `vectorBits`-wide vectors have masked partial lanes (see
/// Target::masksPartialVectors): AVX-512's.
inline bool masksPartialVectors(int64_t vectorBits) {
  return vectorBits >= 512;
}

struct Target {
  /// Width of the microkernels' vector registers.
  int64_t vectorBits;
  /// Most bytes of A and B blocks one batch-reduce kernel call reads (0: no
  /// bound).
  int64_t maxBatchBytes;
  CacheModel cache;

  /// Whether a vector's partial lanes cost one masked instruction, as with
  /// AVX-512's mask registers. Without them (AVX2), LIBXSMM's kernels
  /// compute the rest of a row that does not fill a vector in 4-, 2- and
  /// 1-float pieces: on one AVX2 core, 31 x 64b x 1152 GEMMs in blocks of b
  /// columns ran at 9.9 GFLOPS with b = 15, 13.4 with 23 and 15.5 with 31,
  /// against 38.5, 45.6 and 42.5 with 16, 24 and 32; a 17-channel block of
  /// a convolution took 13.6 ms where the block padded to 24 took 7.8. The
  /// blocking passes then give vector dimensions whole vectors, padded.
  bool masksPartialVectors() const {
    return dl::masksPartialVectors(vectorBits);
  }
  /// GFLOPS one core runs a GEMM or a convolution at, packing included:
  /// the FMA rate scales with the vector width, 200 at 512 bits as measured
  /// on the Zen 5 (dl-decide-parallelism's description), 100 at 256 (an
  /// AVX2 Zen 3 core: 96 in an FMA loop, 70-80 in GEMMs).
  double coreGflops() const { return 200.0 * double(vectorBits) / 512.0; }
  /// Floats per vector register: 16 with AVX-512, 8 with AVX2.
  int64_t vectorFloats() const { return vectorBits / 32; }
  /// The vector registers of the ISA: 32 with AVX-512, else 16.
  int64_t vectorRegisters() const { return vectorBits >= 512 ? 32 : 16; }
  /// How many vectors of kLoweringVectorFloats (the loops dl vectorizes
  /// itself) the vector registers hold: 32 with AVX-512, 8 with AVX2.
  int64_t loweringVectorRegisters() const {
    return std::max<int64_t>(1, vectorRegisters() * vectorBits /
                                    (32 * kLoweringVectorFloats));
  }
  /// The capacity of the first cache level (0: none described).
  int64_t l1Bytes() const {
    return cache.levels.empty() ? 0 : cache.levels.front().bytes;
  }
  /// The capacity of the second cache level (0: none described).
  int64_t l2Bytes() const {
    return cache.levels.size() > 1 ? cache.levels[1].bytes : 0;
  }
  /// The bandwidth of memory as a share of the first cache level's, in
  /// whatever units the two are described in (1: none described); a core
  /// reads operands beyond its caches at this share of its cache speed.
  double memoryBandwidthShare() const {
    if (cache.levels.empty() || cache.levels.front().bandwidth <= 0.0)
      return 1.0;
    return std::min(1.0,
                    cache.memoryBandwidth / cache.levels.front().bandwidth);
  }
  /// The bandwidth of a sweep over `bytes` bytes as a share of the first
  /// cache level's: that of the fastest level holding them all, else
  /// memory's (1: none described).
  double sweepBandwidthShare(int64_t bytes) const {
    if (cache.levels.empty() || cache.levels.front().bandwidth <= 0.0)
      return 1.0;
    for (const CacheLevel &level : cache.levels)
      if (bytes <= level.bytes)
        return std::min(1.0, level.bandwidth / cache.levels.front().bandwidth);
    return memoryBandwidthShare();
  }

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
