//===- ParallelismModelTest.cpp - the parallel-loop time model ------------===//
//
// The times dl-decide-parallelism compares, with exact numbers: an op's time
// on one thread from its work, a loop's time in parallel (imbalance, forks
// and joins, bytes handed between threads), and which loop wins, or none.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/ParallelismModel.h"
#include "dl/InitAllDL.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dl;

namespace {

/// 2 threads, the pass's default costs but a fork and join of 3 us.
ParallelCosts twoThreads() {
  ParallelCosts costs;
  costs.threads = 2;
  costs.forkJoinMicros = 3.0;
  return costs;
}

/// What a loop moves between the cores.
LoopTraffic moved(double handoffBytes, int64_t sharedLines = 0) {
  LoopTraffic traffic;
  traffic.handoffBytes = handoffBytes;
  traffic.sharedLines = sharedLines;
  return traffic;
}

TEST(ParallelismModelTest, ParallelTimeOfALoop) {
  ParallelCosts costs = twoThreads();
  // Balanced: half the work, one region.
  EXPECT_DOUBLE_EQ(modelParallelMicros(100.0, 4, 1, moved(0.0), costs), 53.0);
  // 3 iterations: one thread runs 2 of them; two regions.
  EXPECT_DOUBLE_EQ(modelParallelMicros(90.0, 3, 2, moved(0.0), costs), 66.0);
  // 20000 bytes handed over at 10 GB/s: 2 us.
  EXPECT_DOUBLE_EQ(modelParallelMicros(100.0, 4, 1, moved(20000.0), costs),
                   55.0);
  // 100 lines of C written by both threads, 0.01 us each: 1 us.
  EXPECT_DOUBLE_EQ(modelParallelMicros(100.0, 4, 1, moved(0.0, 100), costs),
                   54.0);
  // 1000 lines written near another thread's part and 2000 lines of pieces
  // of rows, 0.003 us each (the defaults without a measured target): 9 us.
  LoopTraffic lines;
  lines.nearLines = 1000.0;
  lines.pieceLines = 2000.0;
  EXPECT_DOUBLE_EQ(modelParallelMicros(100.0, 4, 1, lines, costs), 62.0);
  // Reads no thread shortens (pieces of rows of an operand in memory): no
  // thread takes less than their 80 us.
  LoopTraffic undivided;
  undivided.undividedMicros = 80.0;
  EXPECT_DOUBLE_EQ(modelParallelMicros(100.0, 4, 1, undivided, costs), 83.0);
  undivided.undividedMicros = 20.0;
  EXPECT_DOUBLE_EQ(modelParallelMicros(100.0, 4, 1, undivided, costs), 53.0);
  // A loop below others forks once per iteration of theirs, and the op's
  // other nests are a region each.
  SmallVector<ScheduledLoop> loops = {{0, 2, 1}, {1, 3, 1}, {2, 8, 1}};
  EXPECT_DOUBLE_EQ(modelLoopMicros(60.0, loops, 2, 1, moved(0.0), costs),
                   30.0 + 7 * 3.0);
}

/// A blocked convolution's loops [n, kb, oh] with 1 image, 3 output-channel
/// blocks and 28 rows.
struct ConvLoops {
  SmallVector<ScheduleDim> dims = {{"n", 1}, {"kb", 3}, {"oh", 28}};
  SmallVector<ScheduledLoop> loops = {{0, 1, 1}, {1, 3, 1}, {2, 28, 1}};
};

TEST(ParallelismModelTest, TheLoopWithTheLeastTime) {
  ParallelCosts costs = twoThreads();
  ConvLoops conv;
  // Much work: the rows keep both threads busy (300 + 9 us) where the
  // blocks would not (400 + 3 us).
  ParallelChoice large =
      chooseParallelLoop(600.0, conv.dims, conv.loops, 0, costs);
  EXPECT_EQ(large.loop, 2u);
  EXPECT_DOUBLE_EQ(large.bestMicros, 309.0);
  // Little work: the 3 forks of the rows cost more than the imbalance of
  // the blocks (10 + 9 against 13.33 + 3), which beat 0.9 * 20 us.
  ParallelChoice small =
      chooseParallelLoop(20.0, conv.dims, conv.loops, 0, costs);
  EXPECT_EQ(small.loop, 1u);
  EXPECT_DOUBLE_EQ(small.bestMicros, 20.0 * 2 / 3 + 3.0);
  // Less still: the best (9.67 us) is above 0.9 * 10 us, one thread.
  ParallelChoice tiny =
      chooseParallelLoop(10.0, conv.dims, conv.loops, 0, costs);
  EXPECT_FALSE(tiny.loop);
  EXPECT_EQ(tiny.bestLoop, 1u);
  EXPECT_DOUBLE_EQ(tiny.bestMicros, 10.0 * 2 / 3 + 3.0);
}

TEST(ParallelismModelTest, HandoffAndReductions) {
  ParallelCosts costs = twoThreads();
  // GEMM [i, j, k] with 2 x 2 blocks: the reduction never runs in
  // parallel; equal times go to the outermost loop.
  SmallVector<ScheduleDim> dims = {
      {"i", 2}, {"j", 2}, {"k", 4, /*reduction=*/true, /*innermost=*/true}};
  SmallVector<ScheduledLoop> loops = {{0, 2, 1}, {1, 2, 1}, {2, 4, 1}};
  ParallelChoice outer = chooseParallelLoop(1000.0, dims, loops, 0, costs);
  EXPECT_EQ(outer.loop, 0u);
  EXPECT_DOUBLE_EQ(outer.bestMicros, 503.0);
  // The row blocks read 100 KB another thread wrote (10 us), the column
  // blocks none: j wins despite its second fork.
  auto traffic = [](unsigned position) {
    return moved(position == 0 ? 100000.0 : 0.0);
  };
  ParallelChoice inner =
      chooseParallelLoop(1000.0, dims, loops, 0, costs, traffic);
  EXPECT_EQ(inner.loop, 1u);
  EXPECT_DOUBLE_EQ(inner.bestMicros, 506.0);
  // No loop over a non-reduction dimension has 2 iterations.
  SmallVector<ScheduledLoop> oneBlock = {{0, 1, 1}, {1, 1, 1}, {2, 4, 1}};
  ParallelChoice none = chooseParallelLoop(1000.0, dims, oneBlock, 0, costs);
  EXPECT_FALSE(none.loop);
  EXPECT_FALSE(none.bestLoop);
}

TEST(ParallelismModelTest, SplitKTime) {
  ParallelCosts costs = twoThreads();
  // 32 K blocks, 16 per thread; C of 1000 floats: one copy of 4000 bytes
  // handed over (0.4 us) and added (12000 bytes at 100 GB/s: 0.12 us).
  EXPECT_DOUBLE_EQ(modelSplitKMicros(1000.0, 32, 1000, costs),
                   500.0 + 3.0 + 0.4 + 0.12);
  // 33 blocks: 16 per thread and one left over after them.
  EXPECT_DOUBLE_EQ(modelSplitKMicros(1000.0, 33, 1000, costs),
                   1000.0 * 17 / 33 + 3.0 + 0.4 + 0.12);
  // 3 threads: 10 blocks each of 31, one left over; two copies.
  costs.threads = 3;
  EXPECT_DOUBLE_EQ(modelSplitKMicros(1000.0, 31, 1000, costs),
                   1000.0 * 11 / 31 + 3.0 + 2 * (0.4 + 0.12));
}

TEST(ParallelismModelTest, OneThreadTimeFromTheWork) {
  DialectRegistry registry;
  registerAllDLDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                 %c: memref<64x64xf32>, %x: memref<?x64xf32>) {
      dl.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
      dl.relu ins(%a : memref<64x64xf32>) outs(%a : memref<64x64xf32>)
      dl.relu ins(%x : memref<?x64xf32>) outs(%x : memref<?x64xf32>)
      return
    }
  )mlir",
                                                             &context);
  ASSERT_TRUE(module);
  SmallVector<Operation *> ops;
  module->walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "dl")
      ops.push_back(op);
  });
  ASSERT_EQ(ops.size(), 3u);
  ParallelCosts costs = twoThreads();
  // 2 * 64^3 FLOPs at 200 GFLOPS (its 48 KiB at 100 GB/s take 0.49 us).
  EXPECT_DOUBLE_EQ(*modelOneThreadMicros(ops[0], costs),
                   2.0 * 64 * 64 * 64 / 200e3);
  // A relu (a FLOP per element): its bytes, in and out, at 100 GB/s.
  EXPECT_DOUBLE_EQ(*modelOneThreadMicros(ops[1], costs),
                   2.0 * 64 * 64 * 4 / 100e3);
  // Dynamic sizes: no model.
  EXPECT_FALSE(modelOneThreadMicros(ops[2], costs));
  // Operands beyond the cache come from memory at memoryBandwidth: the
  // relu's 32 KiB beyond 16 KiB at 12.5 GB/s; the GEMM's 48 KiB at 12.5
  // GB/s take 3.9 us, longer than its FLOPs.
  costs.cacheBytes = 16384;
  EXPECT_DOUBLE_EQ(*modelOneThreadMicros(ops[1], costs),
                   2.0 * 64 * 64 * 4 / 12.5e3);
  EXPECT_DOUBLE_EQ(*modelOneThreadMicros(ops[0], costs),
                   3.0 * 64 * 64 * 4 / 12.5e3);
}

} // namespace
