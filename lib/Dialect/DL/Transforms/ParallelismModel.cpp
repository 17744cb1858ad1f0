//===- ParallelismModel.cpp - is a parallel loop worth it? ------*- C++ -*-===//
//
// The time model of the parallel-loop decision (ParallelismModel.h).
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/ParallelismModel.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/IR/OpWork.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dl;

namespace {

/// The share of `coreGflops` a blocked GEMM's microkernel calls run at:
/// the lanes its bn columns fill, and its bk steps against the loads and
/// stores of the block of C in registers that each call adds, about
/// kCallSteps steps' worth (docs/heuristics.md, "Parallelism model").
double gemmBlockShare(MatmulOp op) {
  constexpr double kCallSteps = 7.0;
  std::optional<ArrayRef<int64_t>> blocks = op.getPackBlocks();
  if (!blocks)
    return 1.0;
  double steps = static_cast<double>((*blocks)[2]);
  return laneFill((*blocks)[1], kLoweringVectorFloats) * steps /
         (steps + kCallSteps);
}

/// The share of `coreGflops` an op runs at: a blocked GEMM's
/// (gemmBlockShare), a streamed one's (stream_a: dot products of 16-float
/// vectors along K, N of them per vector of A, then a reduction per element
/// of C, at about 0.4 of the microkernels' rate), a blocked convolution's
/// the lanes its output-channel block fills (its kernels' vectors, as a
/// GEMM's columns), all of it for other ops but a convolution marked
/// pixel_vectors, whose register tiles of 16-float vectors along its output
/// rows reach about half the microkernels' rate on the lanes its rows fill
/// (a pointwise one joins its rows into one). The measured rates:
/// docs/heuristics.md, "Parallelism model".
double pathShare(Operation *op) {
  constexpr double kPixelVectorsShare = 0.5, kStreamShare = 0.4;
  if (auto matmul = dyn_cast<MatmulOp>(op))
    return matmul.getStreamA() ? kStreamShare : gemmBlockShare(matmul);
  auto conv = dyn_cast<Conv2DOp>(op);
  if (!conv)
    return 1.0;
  ArrayRef<int64_t> output = conv.getOutput().getType().getShape();
  if (conv.isBlocked())
    return ShapedType::isDynamic(output[4])
               ? 1.0
               : laneFill(output[4], kLoweringVectorFloats);
  if (!conv.getPixelVectors())
    return 1.0;
  int64_t columns = output[3];
  if (conv.hasJoinableRows())
    columns *= output[2];
  return kPixelVectorsShare * laneFill(columns, kLoweringVectorFloats);
}

} // namespace

std::optional<double> dl::modelOneThreadMicros(Operation *op,
                                               const ParallelCosts &costs) {
  std::optional<double> flops = getFlops(op, getStaticShape);
  std::optional<double> bytes = getOperandBytes(op, getStaticShape);
  if (!flops || !bytes)
    return std::nullopt;
  // GFLOPS are thousands of FLOPs per microsecond.
  return std::max(*flops / (costs.coreGflops * pathShare(op) * 1e3),
                  modelMoveMicros(*bytes, costs));
}

double dl::modelMoveMicros(double bytes, const ParallelCosts &costs) {
  double bandwidth =
      costs.cacheBytes > 0 && bytes > static_cast<double>(costs.cacheBytes)
          ? costs.memoryBandwidth
          : costs.coreBandwidth;
  // GB/s are thousands of bytes per microsecond.
  return bytes / (bandwidth * 1e3);
}

double dl::modelParallelMicros(double oneThread, int64_t tripCount,
                               int64_t forks, const LoopTraffic &traffic,
                               const ParallelCosts &costs) {
  int64_t perThread = llvm::divideCeil(tripCount, costs.threads);
  // The busiest thread's share of the iterations (none to share: all).
  double share = tripCount > 0 ? static_cast<double>(perThread) /
                                     static_cast<double>(tripCount)
                               : 1.0;
  return std::max(oneThread * share, traffic.undividedMicros) +
         static_cast<double>(forks) * costs.forkJoinMicros +
         traffic.handoffBytes / (costs.handoffBandwidth * 1e3) +
         static_cast<double>(traffic.sharedLines) * costs.sharedLineMicros +
         traffic.nearLines * costs.nearLineMicros +
         traffic.pieceLines * costs.pieceLineMicros;
}

/// The FLOPs `op` does per element of its one static output, or none.
static std::optional<double> flopsPerOutputElement(Operation *op) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  if (!dps || dps.getNumDpsInits() != 1)
    return std::nullopt;
  auto output = dyn_cast<MemRefType>(dps.getDpsInits()[0].getType());
  std::optional<double> flops = getFlops(op, getStaticShape);
  if (!output || !output.hasStaticShape() || output.getNumElements() == 0 ||
      !flops)
    return std::nullopt;
  return *flops / static_cast<double>(output.getNumElements());
}

static constexpr int64_t kLineBytes = 64;

double dl::countNearWriteLines(Operation *op, int64_t threads) {
  std::optional<double> perElement = flopsPerOutputElement(op);
  if (threads <= 1 || !perElement)
    return 0.0;
  auto output = cast<MemRefType>(
      cast<DestinationStyleOpInterface>(op).getDpsInits()[0].getType());
  double exposed = std::max(0.0, 1.0 - *perElement / kHidingFlops);
  int64_t elementBytes = output.getElementTypeBitWidth() / 8;
  double lines = 0.0;
  if (isa<MatmulOp>(op)) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (output.getRank() != 2 ||
        failed(output.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(strides[0]))
      return 0.0;
    // C's rows, `rowBytes` apart in their buffer (a part of a split GEMM is
    // a view of pieces of them), each thread's first rows after the
    // previous thread's last.
    int64_t rowBytes = std::max<int64_t>(strides[0] * elementBytes, 1);
    int64_t nearRows = std::min(output.getDimSize(0) / threads,
                                kNearWriteBytes / rowBytes + 1);
    lines = static_cast<double>(
        (threads - 1) * nearRows *
        llvm::divideCeil(output.getDimSize(1) * elementBytes, kLineBytes));
  } else {
    if (!memref::isStaticShapeAndContiguousRowMajor(output))
      return 0.0;
    int64_t bytes = output.getNumElements() * elementBytes;
    lines = static_cast<double>((threads - 1) *
                                std::min(bytes / threads, kNearWriteBytes) /
                                kLineBytes);
  }
  return lines * exposed;
}

double dl::countRowPieceLines(MatmulOp op, int64_t threads,
                              int64_t columnsPerThread) {
  std::optional<double> perElement = flopsPerOutputElement(op);
  if (threads <= 1 || !perElement)
    return 0.0;
  auto output = cast<MemRefType>(op.getC().getType());
  // Pieces of a page or more are not counted (at 2 threads 251x3913x1, 7.8
  // KB pieces, ran 0.059 ms so, 0.069 on one thread), nor those of GEMMs
  // doing kPieceHidingFlops or more per element.
  int64_t pieceBytes = columnsPerThread * output.getElementTypeBitWidth() / 8;
  if (pieceBytes >= kPageBytes)
    return 0.0;
  double lines = static_cast<double>((threads - 1) * output.getDimSize(0) *
                                     llvm::divideCeil(pieceBytes, kLineBytes));
  return lines * std::max(0.0, 1.0 - *perElement / kPieceHidingFlops);
}

double dl::modelLoopMicros(double oneThread, ArrayRef<ScheduledLoop> loops,
                           unsigned position, int64_t otherRegions,
                           const LoopTraffic &traffic,
                           const ParallelCosts &costs) {
  int64_t forks = 1;
  for (const ScheduledLoop &loop : loops.take_front(position))
    forks *= loop.tripCount;
  return modelParallelMicros(oneThread, loops[position].tripCount,
                             forks + otherRegions, traffic, costs);
}

ParallelChoice
dl::chooseParallelLoop(double oneThread, ArrayRef<ScheduleDim> dims,
                       ArrayRef<ScheduledLoop> loops, int64_t otherRegions,
                       const ParallelCosts &costs, TrafficFn traffic) {
  ParallelChoice choice;
  for (auto [position, loop] : llvm::enumerate(loops)) {
    if (dims[loop.dim].reduction || loop.tripCount <= 1)
      continue;
    double micros =
        modelLoopMicros(oneThread, loops, position, otherRegions,
                        traffic ? traffic(position) : LoopTraffic(), costs);
    if (!choice.bestLoop || micros < choice.bestMicros) {
      choice.bestLoop = position;
      choice.bestMicros = micros;
    }
  }
  if (choice.bestLoop && choice.bestMicros <= costs.margin * oneThread)
    choice.loop = choice.bestLoop;
  return choice;
}

double dl::modelSplitKMicros(double oneThread, int64_t kBlocks,
                             int64_t cElements, const ParallelCosts &costs) {
  int64_t threads = costs.threads;
  int64_t perThread = kBlocks / threads, leftOver = kBlocks % threads;
  double share = static_cast<double>(perThread + leftOver) /
                 static_cast<double>(std::max<int64_t>(kBlocks, 1));
  double copyBytes = static_cast<double>(cElements) * sizeof(float);
  double copies = static_cast<double>(threads - 1);
  // Each addition reads a copy and C and writes C.
  double sum = copies * copyBytes / (costs.handoffBandwidth * 1e3) +
               copies * 3.0 * copyBytes / (costs.coreBandwidth * 1e3);
  return oneThread * share + costs.forkJoinMicros + sum;
}

bool dl::copiesInParallel(Conv2DOp conv, int64_t iterations) {
  ParallelCosts costs;
  costs.threads = 2;
  costs.coreGflops = getTarget(conv).coreGflops();
  std::optional<double> oneThread = modelOneThreadMicros(conv, costs);
  return oneThread &&
         modelParallelMicros(*oneThread, iterations, /*forks=*/1, LoopTraffic(),
                             costs) < costs.margin * *oneThread;
}

/// The elements of a dimension each thread covers when a loop of
/// `tripCount` iterations over its `extent` is divided among `threads` as
/// OpenMP's static schedule and dl-chunk-openmp-loops divide it (contiguous
/// chunks of ceil(tripCount / threads) iterations), or nullopt where the
/// iterations are not blocks of equal size.
std::optional<int64_t> dl::extentPerThread(int64_t extent, int64_t tripCount,
                                           int64_t threads) {
  if (tripCount <= 0 || extent % tripCount != 0)
    return std::nullopt;
  return llvm::divideCeil(tripCount, threads) * (extent / tripCount);
}

/// The cache lines of C two threads write with loop `position` of a GEMM's
/// schedule in parallel: with the loop over N (`j`), the threads divide
/// every row of C where their chunks of columns meet (ceil(trips / threads)
/// iterations of N / trips columns each), and a row whose boundary falls
/// inside a line shares that line. A loop over M shares at most a line per
/// thread: none are counted.
int64_t dl::countSharedLinesOfC(MatmulOp op, ArrayRef<ScheduleDim> dims,
                                ArrayRef<ScheduledLoop> loops,
                                unsigned position, int64_t threads) {
  constexpr int64_t kLineBytes = 64;
  const ScheduledLoop &loop = loops[position];
  auto c = cast<MemRefType>(op.getC().getType());
  if (dims[loop.dim].name != "j" || !c.hasStaticShape())
    return 0;
  std::optional<int64_t> perThread =
      extentPerThread(c.getDimSize(1), loop.tripCount, threads);
  if (!perThread)
    return 0;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(c.getStridesAndOffset(strides, offset)) || strides[1] != 1 ||
      ShapedType::isDynamic(strides[0]))
    return 0;
  if (ShapedType::isDynamic(offset))
    offset = 0;
  int64_t lineElements =
      std::max<int64_t>(1, kLineBytes * 8 / c.getElementTypeBitWidth());
  int64_t columns = c.getDimSize(1);
  int64_t lines = 0;
  for (int64_t boundary = *perThread; boundary < columns;
       boundary += *perThread)
    for (int64_t row = 0; row < c.getDimSize(0); ++row)
      if ((offset + row * strides[0] + boundary) % lineElements != 0)
        ++lines;
  return lines;
}

/// The microseconds of a GEMM's reads of B that loop `position` of its
/// schedule in parallel does not shorten: with the loop over N (`j`), each
/// thread reads its chunk of columns of every row of a row-major B read in
/// place (no pack_b, no transpose_b); where B does not fit the L2s of the
/// threads that read it and a chunk is shorter than a page, the hardware
/// prefetchers, which stop at page boundaries, restart on every row and the
/// threads read B from memory no faster together than one thread alone
/// (docs/heuristics.md, *K divided among the threads*). 0 otherwise: each
/// thread's columns then stay in its own L2 (19x897x183, a 656 KB B, ran
/// 16 us with its columns divided between 2 Zen 5 cores of 512 KiB of L2,
/// 29 on one).
double dl::undividedRowPieceMicros(MatmulOp op, ArrayRef<ScheduleDim> dims,
                                   ArrayRef<ScheduledLoop> loops,
                                   unsigned position,
                                   const ParallelCosts &costs) {
  const ScheduledLoop &loop = loops[position];
  auto b = cast<MemRefType>(op.getB().getType());
  if (dims[loop.dim].name != "j" || op.hasBlockedB() || op.getPackB() ||
      op.getTransposeB() || !b.hasStaticShape() || costs.cacheBytes <= 0)
    return 0.0;
  int64_t elementBytes = b.getElementTypeBitWidth() / 8;
  double bytes = static_cast<double>(b.getNumElements() * elementBytes);
  std::optional<int64_t> perThread =
      extentPerThread(b.getDimSize(1), loop.tripCount, costs.threads);
  if (bytes <= static_cast<double>(costs.cacheBytes * costs.threads) ||
      !perThread || *perThread * elementBytes >= kPageBytes)
    return 0.0;
  return bytes / (costs.memoryBandwidth * 1e3);
}
