//===- ParallelismModel.h - is a parallel loop worth it? --------*- C++ -*-===//
//
// The time model behind the parallel-loop decision (dl-decide-parallelism,
// and each ranked variant's parallel loop in dl-rank-variants): an op's time
// on one thread from its work, and the time of running one of its loops in
// parallel, which pays for the imbalance of the loop's iterations over the
// threads, for one fork and join per parallel region and for the data one
// thread reads from another's cache (R-Stream's occupation test, made a
// comparison of times). Small problems then run on
// one thread, and a loop too short to keep the threads busy gives way to an
// inner one.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_PARALLELISMMODEL_H
#define DL_DIALECT_DL_TRANSFORMS_PARALLELISMMODEL_H

#include "dl/Dialect/DL/IR/DLAttrs.h"

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir {
namespace dl {

class Conv2DOp;
class MatmulOp;

/// The machine's costs the decision weighs. The defaults were measured on
/// the 2-core Zen 5 this project targets (see dl-decide-parallelism's
/// description in Passes.td).
struct ParallelCosts {
  /// Threads of the generated code.
  unsigned threads = 1;
  /// GFLOPS one core runs a GEMM or convolution at, packing included.
  double coreGflops = 200.0;
  /// GB/s one core moves an element-wise op's or a copy's operands at.
  double coreBandwidth = 100.0;
  /// GB/s one core reads operands at that its caches do not hold
  /// (`coreBandwidth` times the target's memoryBandwidthShare: 12.5 with
  /// the default 64 and 8 bytes/cycle of the L1 and memory; dl-probe
  /// measures 11 GB/s on one core of the Xeon).
  double memoryBandwidth = 12.5;
  /// Bytes of operands one core's cache holds (its L2); beyond them an op
  /// reads its operands from memory. 0: every op's operands in cache.
  int64_t cacheBytes = 0;
  /// Microseconds one parallel region costs (fork and join).
  double forkJoinMicros = 1.5;
  /// GB/s a thread reads data at that another thread wrote into its cache
  /// in an earlier region (a packed operand copied before the nest).
  double handoffBandwidth = 10.0;
  /// Microseconds a cache line costs that two threads write in the same
  /// region (the columns of a row of C divided between them off a line
  /// boundary): the line moves between the cores as each writes its part.
  double sharedLineMicros = 0.01;
  /// Microseconds a cache line of an op's output costs that a thread
  /// writes near (within kNearWriteBytes of) another thread's writes in the
  /// same region, where the op does little work per output element
  /// (countNearWriteLines): the target's near_write_line_ns where dl-probe
  /// measured it.
  double nearLineMicros = 0.003;
  /// Microseconds a cache line of a thread's pieces of the rows of a GEMM's
  /// C costs where a loop over N divides every row (countRowPieceLines).
  double pieceLineMicros = 0.003;
  /// A parallel loop is taken only when its modeled time is at most this
  /// fraction of the time on one thread.
  double margin = 0.9;
};

/// The modeled time in microseconds of `op` on one thread: its FLOPs at
/// `coreGflops` or its operands' bytes at `coreBandwidth` (at
/// `memoryBandwidth` when they are more than `cacheBytes`), whichever takes
/// longer (getFlops, getOperandBytes). None when a size is dynamic.
std::optional<double> modelOneThreadMicros(Operation *op,
                                           const ParallelCosts &costs);

/// The microseconds one core takes to move `bytes` of operands: at
/// `coreBandwidth`, or at `memoryBandwidth` where they exceed the L2
/// (`cacheBytes`), as modelOneThreadMicros counts an op's operands.
double modelMoveMicros(double bytes, const ParallelCosts &costs);

/// What the threads of a parallel loop move between the cores: the bytes
/// each reads that another thread wrote, and the cache lines two threads
/// write; and the microseconds of its reads that more threads do not
/// shorten (pieces of the rows of an operand in memory too short for the
/// prefetchers, see undividedRowPieceMicros).
struct LoopTraffic {
  double handoffBytes = 0.0;
  int64_t sharedLines = 0;
  double undividedMicros = 0.0;
  /// Lines of the output written near another thread's writes, weighted by
  /// how little work hides them (countNearWriteLines), and lines of the
  /// pieces of rows of C threads write side by side (countRowPieceLines).
  double nearLines = 0.0;
  double pieceLines = 0.0;
};

/// The lines of `op`'s output (its one destination, static shape) that
/// the threads of a loop dividing it into contiguous parts write near
/// another thread's part. Each thread but the first starts where the
/// previous one's part ends, and its lines within kNearWriteBytes of that
/// boundary move between the cores as both write: writing two halves of a
/// 230 KB C at two threads, the thread writing the second took 4.6 us
/// where it took 1.4 alone, 1.8 with 256 KB between the parts (one Zen 5
/// VM, 2 cores, in some hours; in others the halves cost nothing more:
/// docs/heuristics.md, "Parallelism model"). A GEMM's C is counted by its
/// rows (a part of a GEMM split along N is a view of pieces of them), where
/// a loop over M divides them. Work per element hides the cost: weighted by
/// 1 - f / kHidingFlops (0 from kHidingFlops on) for f FLOPs per output
/// element (the extra time per line measured for GEMMs with K = 3, 8, 16,
/// 32 and 64: 2.5, 2.7, 1.5, 1.1 and 0 ns). Other ops' outputs count only
/// where contiguous; 0 for ops without one destination.
constexpr int64_t kNearWriteBytes = 256 * 1024;
constexpr double kHidingFlops = 128.0;
double countNearWriteLines(Operation *op, int64_t threads);

/// The lines of the pieces of GEMM `op`'s rows of C that a loop over N
/// gives each thread but the first (`columnsPerThread` columns of every
/// row), where they are shorter than a page (kPageBytes): within a page the
/// hardware prefetchers run ahead of one thread's writes into the next
/// thread's piece. 704 rows of C of N = 64, 128 and 1024 columns written as
/// two halves of every row at 2 threads took 14, 75 and 301 us, on one
/// thread 3.3, 7.3 and 51, as two halves of the rows 3.6, 5.7 and 29; with
/// N = 4096 (8 KB pieces), 302 against 782 on one thread. Weighted by 1 -
/// f / kPieceHidingFlops for f FLOPs per element of C: GEMMs of K = 22-37
/// ran faster with their 2-3 KB pieces in parallel (8x1446x37 5.2 us at 2
/// threads, 8.3 on one).
constexpr int64_t kPageBytes = 4096;
constexpr double kPieceHidingFlops = 32.0;
double countRowPieceLines(MatmulOp op, int64_t threads,
                          int64_t columnsPerThread);

/// The modeled time in microseconds of work that takes `oneThread` on one
/// thread with a loop of `tripCount` iterations in parallel, entered `forks`
/// times, whose threads move `traffic` between the cores: each thread runs
/// at most ceil(tripCount / threads) of the iterations, each entry forks and
/// joins once (no thread faster than `traffic`'s undivided reads), the
/// handed-over bytes come at `handoffBandwidth`, each shared line costs
/// `sharedLineMicros`, each near-written line `nearLineMicros` and each
/// line of a row's piece `pieceLineMicros`.
double modelParallelMicros(double oneThread, int64_t tripCount, int64_t forks,
                           const LoopTraffic &traffic,
                           const ParallelCosts &costs);

/// modelParallelMicros with loop `position` of a schedule's `loops`
/// (ScheduleAttr::getLoops) in parallel: entered once per iteration of the
/// loops outside it, in an op with `otherRegions` more parallel regions (its
/// copies).
double modelLoopMicros(double oneThread, ArrayRef<ScheduledLoop> loops,
                       unsigned position, int64_t otherRegions,
                       const LoopTraffic &traffic, const ParallelCosts &costs);

/// What to run in parallel, and the modeled time that decided it.
struct ParallelChoice {
  /// The loop of the schedule to run in parallel; none for one thread.
  std::optional<unsigned> loop;
  /// The loop with the least modeled time (`loop` when there is one), and
  /// that time; none when no loop may run in parallel.
  std::optional<unsigned> bestLoop;
  double bestMicros = 0.0;
};

/// What the threads move between the cores with loop `position` of a
/// schedule in parallel.
using TrafficFn = function_ref<LoopTraffic(unsigned position)>;

/// The elements of a dimension each thread covers when a loop of `tripCount`
/// iterations over its `extent` is divided among `threads` in contiguous
/// chunks of ceil(tripCount / threads) iterations (OpenMP's static schedule,
/// dl-chunk-openmp-loops), or nullopt where the iterations are not blocks of
/// equal size.
std::optional<int64_t> extentPerThread(int64_t extent, int64_t tripCount,
                                       int64_t threads);

/// The cache lines of C two threads write with loop `position` of a GEMM's
/// schedule in parallel (a loop over N dividing every row of C off a line
/// boundary; none for a loop over M).
int64_t countSharedLinesOfC(MatmulOp op, ArrayRef<ScheduleDim> dims,
                            ArrayRef<ScheduledLoop> loops, unsigned position,
                            int64_t threads);

/// The microseconds of a GEMM's reads of B that loop `position` of its
/// schedule in parallel does not shorten (a loop over N whose threads read
/// pieces of B's rows shorter than a page from beyond their L2s).
double undividedRowPieceMicros(MatmulOp op, ArrayRef<ScheduleDim> dims,
                               ArrayRef<ScheduledLoop> loops, unsigned position,
                               const ParallelCosts &costs);

/// Of the `loops` of a schedule over `dims`, the loop that runs work of
/// `oneThread` microseconds fastest in parallel: among the loops over a
/// non-reduction dimension with more than one iteration, the one with the
/// least modeled time (modelLoopMicros, with `traffic`'s, none without it),
/// the outermost of equals. None when that time is above `margin` times
/// `oneThread`.
ParallelChoice chooseParallelLoop(double oneThread, ArrayRef<ScheduleDim> dims,
                                  ArrayRef<ScheduledLoop> loops,
                                  int64_t otherRegions,
                                  const ParallelCosts &costs,
                                  TrafficFn traffic = nullptr);

/// The modeled time in microseconds of a GEMM that takes `oneThread` on one
/// thread with its `kBlocks` K blocks divided among the threads (split_k,
/// dl-split-k): in one parallel region, each thread computes
/// floor(kBlocks / threads) blocks into its own copy of C (`cElements`
/// elements; the first thread's is C); one thread then adds the others'
/// copies to C, each read from the core that wrote it at
/// `handoffBandwidth` and with C read and written at `coreBandwidth`, and
/// computes the kBlocks mod threads blocks left over.
double modelSplitKMicros(double oneThread, int64_t kBlocks, int64_t cElements,
                         const ParallelCosts &costs);

/// Whether a copy of `conv`'s input made for it (dl-fold-filter-columns,
/// dl-reduce-conv-strides) runs in parallel, over `iterations` of its outer
/// loops: where the
/// convolution's own work pays for a parallel region on two threads by the
/// parallel-loop decision's time model (dl-decide-parallelism then runs it
/// in parallel, and each thread finds the rows it reads copied by itself).
/// Otherwise one thread copies: the copies of the small convolutions this
/// pass folds take a few microseconds, under a fork and join (a 1 -> 15
/// channel 11x11 5x5 one took 4 us at 2 threads with its copy in parallel,
/// 0.4 on one), and a copy made on one thread for a convolution run on two
/// hands half of it over between the cores (a 3 -> 19 channel 196x100 3x3
/// one took 86 us at 2 threads, 57 on one).
bool copiesInParallel(Conv2DOp conv, int64_t iterations);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_TRANSFORMS_PARALLELISMMODEL_H
