//===- CacheModel.h - cache hierarchy and PolyDL's cost ---------*- C++ -*-===//
//
// The machine the ranking models: cache levels (capacity, latency,
// bandwidth) and memory. Capacities are read from the running machine
// (sysfs), latencies and bandwidths have documented defaults; all can be
// overridden (for cross-compiling) or read from a machine file. Algorithm 2
// of PolyDL assigns sorted working sets to the levels, and eq. 1 turns the
// assignment into a cost.
//
//===----------------------------------------------------------------------===//

#ifndef DL_ANALYSIS_CACHEMODEL_H
#define DL_ANALYSIS_CACHEMODEL_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir {
class Operation;
namespace dl {

struct CacheLevel {
  std::string name;
  int64_t bytes;
  /// Load-to-use latency in cycles and sustained bandwidth in bytes/cycle.
  double latency;
  double bandwidth;
};

struct CacheModel {
  SmallVector<CacheLevel> levels; // Fastest first.
  double memoryLatency = 300.0;
  double memoryBandwidth = 8.0;
  /// Nanoseconds more a core takes per cache line it writes right after
  /// (within 256 KiB of) the memory another core is writing at the same
  /// time, against the same writes far from the other core's (dl-probe
  /// measures it where it may run on two CPUs): what dl-decide-parallelism
  /// charges a thread for each line of its part of an output next to
  /// another thread's part. None where not measured.
  std::optional<double> nearWriteLineNs;
  /// Nanoseconds an empty OpenMP parallel region of two threads takes (the
  /// fork and the join in libomp, which the generated code calls; dl-probe
  /// measures it as it does nearWriteLineNs). None where not measured.
  std::optional<double> forkJoinNs;

  /// Defaults for an x86 core: L1 32 KiB, L2 512 KiB, L3 32 MiB, with
  /// latencies 4/14/50/300 cycles and bandwidths 64/32/16/8 bytes/cycle.
  static CacheModel defaults();
  /// The defaults with the capacities of this machine's data/unified caches
  /// (/sys/devices/system/cpu/cpu0/cache); defaults where unreadable.
  static CacheModel detect();
  /// Overrides capacities from "L1=32768,L2=524288,..." (bytes, K/M/G
  /// suffixes allowed). Fails with a message on malformed text or sizes <= 0.
  LogicalResult overrideSizes(StringRef spec, std::string &error);

  /// Reads a machine file (what `dl-probe` writes):
  ///   {"levels": [{"name": "L1", "bytes": 32768, "latency": 4,
  ///                "bandwidth": 64}, ...],
  ///    "memory": {"latency": 300, "bandwidth": 8},
  ///    "cores": {"near_write_line_ns": 0.5, "fork_join_ns": 450}}
  /// ("cores" and each of its costs are optional; in ns, >= 0). Latency and
  /// bandwidth may be in any units (cycles and bytes/cycle, or ns and bytes/ns)
  /// as long as one file uses the same for all levels: the ranking only
  /// compares costs computed with one model.
  static FailureOr<CacheModel> readMachineFile(StringRef path,
                                               std::string &error);
  /// The model as JSON ({"levels": [...], "memory": {...}}), and as the
  /// text of a machine file.
  llvm::json::Object toJSON() const;
  std::string toMachineFile() const;

  /// The model the passes use: `machineFile` when given, else this
  /// machine's detected sizes with the default latencies and bandwidths;
  /// then the capacities of `sizes` ("L1=48K,L2=1M") on top.
  static FailureOr<CacheModel> fromOptions(StringRef machineFile,
                                           StringRef sizes, std::string &error);
  /// fromOptions for the pass `pass` running on `op`: on failure, emits
  /// "<pass>: <why>" on `op`.
  static FailureOr<CacheModel> fromPassOptions(Operation *op, StringRef pass,
                                               StringRef machineFile,
                                               StringRef sizes);

  /// The fraction of reads a cache level serves when a sweep reads at
  /// `bandwidth`, the level alone at `levelBandwidth` and memory at
  /// `memoryBandwidth` (any one unit): the h in 1/bandwidth = h/level +
  /// (1-h)/memory, clamped to [0, 1]. 1 when the two bandwidths are equal.
  static double servedFraction(double bandwidth, double levelBandwidth,
                               double memoryBandwidth);
};

/// Bytes per cache level and memory, and their cost: the working sets each
/// level holds (Algorithm 2 and eq. 1), or the bytes each level supplies
/// (the traffic cost).
struct LevelAssignment {
  SmallVector<int64_t> bytesPerLevel;
  int64_t memoryBytes = 0;
  double cost = 0.0;
};

/// Assigns the working sets (bytes), sorted ascending, each to the fastest
/// level with room left (Algorithm 2, fully associative exclusive caches),
/// else to memory, and sums sum_i WS_Li * lat_Li / bw_Li + WS_mem * lat_mem
/// / bw_mem (eq. 1).
LevelAssignment assignToLevels(ArrayRef<int64_t> workingSetBytes,
                               const CacheModel &model);

/// A reuse of `bytes` bytes whose reuse distance is `distanceBytes`.
struct Reuse {
  int64_t distanceBytes;
  int64_t bytes;
};

/// The traffic cost of a reuse profile: each reuse is supplied by the fastest
/// level whose capacity holds its distance (an LRU cache keeps an element
/// while fewer distinct bytes than its capacity are touched), else by memory,
/// as are the `firstTouchBytes`; the cost sums sum_L bytes_L / bw_L, the
/// time to stream each level's bytes at its bandwidth (hardware prefetch
/// hides the latency of these regular streams). Unlike eq. 1, a working set
/// re-read a thousand times costs a thousand times as much.
LevelAssignment assignTraffic(ArrayRef<Reuse> reuses, int64_t firstTouchBytes,
                              const CacheModel &model);

} // namespace dl
} // namespace mlir

#endif // DL_ANALYSIS_CACHEMODEL_H
