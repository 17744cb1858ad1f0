//===- WorkingSetTest.cpp - PolyDL working sets, exact numbers --*- C++ -*-===//
//
// Algorithm 1 on affine nests parsed from MLIR text (the GEMM example of the
// PolyDL paper for several N and K, a parallel-loop working set, a blocked
// convolution computed by hand, a strided access counted on its lattice),
// the reuse profiles of the GEMM and the convolution by hand, and
// Algorithm 2 / eq. 1 and the traffic cost on hand-made lists, and the
// served fraction dl-probe sizes the last level by.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/WorkingSet.h"
#include "dl/Analysis/CacheModel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <fstream>
#include <string>

using namespace mlir;
using namespace mlir::dl;

namespace {

class WorkingSetTest : public ::testing::Test {
protected:
  WorkingSetTest() {
    context.loadDialect<affine::AffineDialect, arith::ArithDialect,
                        func::FuncDialect, memref::MemRefDialect>();
  }

  /// The analysis of the first top-level loop nest of `source` (null and a
  /// test failure if it cannot be built).
  std::unique_ptr<WorkingSetAnalysis> build(const std::string &source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    affine::AffineForOp root;
    module->walk([&](affine::AffineForOp loop) {
      if (!root && !loop->getParentOfType<affine::AffineForOp>())
        root = loop;
    });
    std::string whyNot;
    auto analysis = WorkingSetAnalysis::build(root, &whyNot);
    EXPECT_TRUE(succeeded(analysis)) << whyNot;
    return succeeded(analysis) ? std::move(*analysis) : nullptr;
  }

  /// The working sets of the first top-level loop nest of `source`.
  SmallVector<WorkingSet>
  analyze(const std::string &source, std::optional<unsigned> parallelDepth = {},
          unsigned long maxOperations = WorkingSetOptions().maxOperations) {
    WorkingSetOptions options;
    options.parallelDepth = parallelDepth;
    options.maxOperations = maxOperations;
    std::unique_ptr<WorkingSetAnalysis> analysis = build(source);
    return analysis ? analysis->compute(options) : SmallVector<WorkingSet>();
  }

  /// The reuse profile of the first top-level loop nest of `source`, with
  /// the loop at `parallelDepth` split among `threads`.
  ReuseProfile profile(const std::string &source,
                       std::optional<unsigned> parallelDepth = {},
                       unsigned threads = 1) {
    WorkingSetOptions options;
    options.parallelDepth = parallelDepth;
    options.threads = threads;
    std::unique_ptr<WorkingSetAnalysis> analysis = build(source);
    return analysis ? analysis->computeReuse(options) : ReuseProfile();
  }

  /// The reuse class of `array` carried by `carrier`.
  static const ReuseClass *findReuse(const ReuseProfile &profile,
                                     unsigned array,
                                     const std::string &carrier) {
    for (const ReuseClass &reuse : profile.reuses)
      if (reuse.array == array && reuse.carrier == carrier)
        return &reuse;
    return nullptr;
  }

  /// The working set of `kind` of the dependence named `dependence`.
  static const WorkingSet *find(ArrayRef<WorkingSet> sets,
                                const std::string &dependence,
                                WorkingSet::Kind kind) {
    for (const WorkingSet &ws : sets)
      if (ws.dependence == dependence && ws.kind == kind)
        return &ws;
    return nullptr;
  }

  /// A function accumulating out[outIndex] += in[inIndex] * f[fIndex] in a
  /// nest of `loops` (name, extent; outermost first). The arrays are A0 =
  /// in, A1 = f, A2 = out in the analysis' names.
  static std::string
  accumulationNest(const std::string &in, const std::string &f,
                   const std::string &out,
                   ArrayRef<std::pair<std::string, int64_t>> loops,
                   const std::string &inIndex, const std::string &fIndex,
                   const std::string &outIndex) {
    std::string text = "func.func @nest(%in: " + in + ", %f: " + f +
                       ", %out: " + out + ") {\n";
    for (auto [name, extent] : loops)
      text +=
          "affine.for %" + name + " = 0 to " + std::to_string(extent) + " {\n";
    text += "%x = affine.load %in[" + inIndex + "] : " + in + "\n" +
            "%y = affine.load %f[" + fIndex + "] : " + f + "\n" +
            "%o = affine.load %out[" + outIndex + "] : " + out + "\n" +
            "%p = arith.mulf %x, %y : f32\n" +
            "%s = arith.addf %o, %p : f32\n" + "affine.store %s, %out[" +
            outIndex + "] : " + out + "\n";
    for (size_t i = 0; i < loops.size(); ++i)
      text += "}\n";
    return text + "return\n}\n";
  }

  static std::string memref(ArrayRef<int64_t> shape) {
    std::string text = "memref<";
    for (int64_t size : shape)
      text += std::to_string(size) + "x";
    return text + "f32>";
  }

  static std::string gemm(int64_t m, int64_t n, int64_t k) {
    return accumulationNest(memref({m, k}), memref({k, n}), memref({m, n}),
                            {{"i", m}, {"j", n}, {"k", k}}, "%i, %k", "%k, %j",
                            "%i, %j");
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// The paper's example: the reuse of A[i][k] carried by j has
// WS_min = 2K + 3 and WS_max = N*K + N + 1 elements.
TEST_F(WorkingSetTest, GemmReuseOfACarriedByJ) {
  for (auto [n, k] :
       {std::pair<int64_t, int64_t>{4, 3}, {16, 8}, {10, 7}, {64, 64}}) {
    SmallVector<WorkingSet> sets = analyze(gemm(5, n, k));
    const std::string dep = "RAR A0[i0, i2] -> A0[i0, i2]";
    const WorkingSet *min = find(sets, dep, WorkingSet::Kind::Min);
    const WorkingSet *max = find(sets, dep, WorkingSet::Kind::Max);
    ASSERT_TRUE(min && max) << "N=" << n << " K=" << k;
    EXPECT_EQ(min->elements, 2 * k + 3) << "N=" << n << " K=" << k;
    EXPECT_EQ(max->elements, n * k + n + 1) << "N=" << n << " K=" << k;
    EXPECT_EQ(max->bytes, 4 * (n * k + n + 1));
    EXPECT_FALSE(max->approximate);
  }
}

// B[k][j] is reused by the next i: from S[0,0,0] to S[1,0,0] the nest
// touches the whole B (K*N), row 0 of A (K) plus A[1][0], and row 0 of C
// (N) plus C[1][0]; the last reuse (i = M-1) touches everything but the
// tail of the last rows.
TEST_F(WorkingSetTest, GemmReuseOfBCarriedByI) {
  const int64_t m = 6, n = 5, k = 4;
  SmallVector<WorkingSet> sets = analyze(gemm(m, n, k));
  const std::string dep = "RAR A1[i2, i1] -> A1[i2, i1]";
  const WorkingSet *min = find(sets, dep, WorkingSet::Kind::Min);
  const WorkingSet *max = find(sets, dep, WorkingSet::Kind::Max);
  ASSERT_TRUE(min && max);
  EXPECT_EQ(min->elements, k * n + (k + 1) + (n + 1));
  EXPECT_EQ(max->elements, k * n + ((m - 1) * k + 1) + ((m - 1) * n + 1));
}

// With j parallel, the reuse of A[i][k] across j spans the parallel loop:
// WS_par holds all iterations of j (and k) for the first i: row 0 of A, all
// of B, row 0 of C.
TEST_F(WorkingSetTest, ParallelLoopWorkingSet) {
  const int64_t m = 3, n = 8, k = 6;
  SmallVector<WorkingSet> sets = analyze(gemm(m, n, k), /*parallelDepth=*/1);
  const WorkingSet *par =
      find(sets, "RAR A0[i0, i2] -> A0[i0, i2]", WorkingSet::Kind::Parallel);
  ASSERT_TRUE(par);
  EXPECT_EQ(par->elements, k + k * n + n);
  // The reuse of C[i][j] across k does not cross j: WS_min/WS_max remain.
  // The load and the store of C give one relation, measured once under all
  // four kinds.
  EXPECT_TRUE(find(sets, "RAR,WAR,RAW,WAW A2[i0, i1] -> A2[i0, i1]",
                   WorkingSet::Kind::Min));
  EXPECT_EQ(llvm::count_if(sets,
                           [](const WorkingSet &ws) {
                             return ws.dependence.find("A2") !=
                                    std::string::npos;
                           }),
            2);
}

// A blocked 1-D convolution out[w][kk] += in[w + r][c] * f[r][c][kk] with
// loops (w, r, c, kk), by hand. The filter f[r][c][kk] is reused by the next
// w: from S[0,0,0,0] to S[1,0,0,0] run all (r, c, kk) of w = 0, touching
// in[0..R-1][*] (R*C), all of f (R*C*Kb), out[0][*] (Kb), then out[1][0].
// The input in[w + r][c] is first reused by the next kk (its dependence
// also holds the reuse at w + 1, r - 1, later): from S[0,0,0,0] to
// S[0,0,0,1] (1 + 2 + 2 elements), and all of kk for WS_max (1 + Kb + Kb).
TEST_F(WorkingSetTest, ConvolutionByHand) {
  const int64_t r = 3, c = 4, kb = 8;
  std::string source =
      accumulationNest(memref({7, c}), memref({r, c, kb}), memref({5, kb}),
                       {{"w", 5}, {"r", r}, {"c", c}, {"k", kb}}, "%w + %r, %c",
                       "%r, %c, %k", "%w, %k");
  SmallVector<WorkingSet> sets = analyze(source);
  const WorkingSet *filter =
      find(sets, "RAR A1[i1, i2, i3] -> A1[i1, i2, i3]", WorkingSet::Kind::Min);
  ASSERT_TRUE(filter);
  EXPECT_EQ(filter->elements, r * c + r * c * kb + kb + 1);
  const std::string input = "RAR A0[(i0 + i1), i2] -> A0[(i0 + i1), i2]";
  const WorkingSet *inputMin = find(sets, input, WorkingSet::Kind::Min);
  const WorkingSet *inputMax = find(sets, input, WorkingSet::Kind::Max);
  ASSERT_TRUE(inputMin && inputMax);
  EXPECT_EQ(inputMin->elements, 1 + 2 + 2);
  EXPECT_EQ(inputMax->elements, 1 + kb + kb);
}

// The reuse profile of the GEMM (i, j, k), by hand. A[i][k] is next used by
// the next j, except at the last j: M(N-1)K accesses, at the distance of the
// paper's WS_min (2K + 3 elements). B[k][j] is next used by the next i:
// (M-1)NK accesses, at the distance of B's WS_min. C[i][j] (load and store
// at one instance) is next used by the next k: MN(K-1) accesses, 5
// elements apart (A[0][0..1], B[0..1][0], C[0][0]). Nothing else is reused,
// and every element is touched once first.
TEST_F(WorkingSetTest, GemmReuseProfile) {
  const int64_t m = 6, n = 5, k = 4;
  ReuseProfile reuse = profile(gemm(m, n, k));
  EXPECT_EQ(reuse.reuses.size(), 3u);
  EXPECT_FALSE(reuse.approximate);
  ASSERT_EQ(reuse.firstTouchBytes.size(), 3u);
  EXPECT_EQ(reuse.firstTouchBytes[0], 4 * m * k);
  EXPECT_EQ(reuse.firstTouchBytes[1], 4 * k * n);
  EXPECT_EQ(reuse.firstTouchBytes[2], 4 * m * n);
  const ReuseClass *a = findReuse(reuse, 0, "d1");
  const ReuseClass *b = findReuse(reuse, 1, "d0");
  const ReuseClass *c = findReuse(reuse, 2, "d2");
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->accesses, m * (n - 1) * k);
  EXPECT_EQ(a->distanceElements, 2 * k + 3);
  EXPECT_EQ(a->distanceBytes, 4 * (2 * k + 3));
  EXPECT_EQ(b->accesses, (m - 1) * n * k);
  EXPECT_EQ(b->distanceElements, k * n + (k + 1) + (n + 1));
  EXPECT_EQ(c->accesses, m * n * (k - 1));
  EXPECT_EQ(c->distanceElements, 5);
  EXPECT_EQ(a->elementBytes, 4);
}

// With i parallel over 2 threads, the profile is the first thread's: i in
// [0, M/2). B is reused by its next i only within that chunk, A and C as
// before over half the rows, and the thread touches half of A and C.
TEST_F(WorkingSetTest, ReuseProfileOfOneThread) {
  const int64_t m = 6, n = 5, k = 4;
  ReuseProfile reuse =
      profile(gemm(m, n, k), /*parallelDepth=*/0, /*threads=*/2);
  ASSERT_EQ(reuse.firstTouchBytes.size(), 3u);
  EXPECT_EQ(reuse.firstTouchBytes[0], 4 * (m / 2) * k);
  EXPECT_EQ(reuse.firstTouchBytes[1], 4 * k * n);
  const ReuseClass *a = findReuse(reuse, 0, "d1");
  const ReuseClass *b = findReuse(reuse, 1, "d0");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->accesses, (m / 2) * (n - 1) * k);
  EXPECT_EQ(b->accesses, (m / 2 - 1) * n * k);
}

// The blocked 1-D convolution of ConvolutionByHand, loops (w, r, c, k): the
// input in[w + r][c] is next used by the next k (W R C (Kb-1) accesses, 5
// elements apart as the input's WS_min). At the last k its next use is at
// (w + 1, r - 1, c, 0), carried by w, for r >= 1 and w < W - 1:
// (W-1)(R-1)C accesses. The first of them, S[0,1,0,Kb-1], reaches S[1,0,0,0]
// through the rest of w = 0: input rows 1..R-1 ((R-1)C), the filter's
// f[1][0][Kb-1], f[1][1..C-1][*], f[2..R-1][*][*] and f[0][0][0], out[0][*]
// and out[1][0].
TEST_F(WorkingSetTest, ConvolutionReuseProfileByHand) {
  const int64_t w = 5, r = 3, c = 4, kb = 8;
  std::string source =
      accumulationNest(memref({7, c}), memref({r, c, kb}), memref({w, kb}),
                       {{"w", w}, {"r", r}, {"c", c}, {"k", kb}}, "%w + %r, %c",
                       "%r, %c, %k", "%w, %k");
  ReuseProfile reuse = profile(source);
  const ReuseClass *nextK = findReuse(reuse, 0, "d3");
  const ReuseClass *nextW = findReuse(reuse, 0, "d0");
  ASSERT_TRUE(nextK && nextW);
  EXPECT_EQ(nextK->accesses, w * r * c * (kb - 1));
  EXPECT_EQ(nextK->distanceElements, 1 + 2 + 2);
  EXPECT_EQ(nextW->accesses, (w - 1) * (r - 1) * c);
  EXPECT_EQ(nextW->distanceElements,
            (r - 1) * c + 1 + (c - 1) * kb + (r - 2) * c * kb + 1 + kb + 1);
  EXPECT_FALSE(findReuse(reuse, 0, "d1"));
  EXPECT_FALSE(findReuse(reuse, 0, "d2"));
}

// A padded 1-D convolution over a batch of two, loops (h, n, r, k), whose
// filter-row loop skips the taps on padding (r in [max(0, 1 - h), min(R, H +
// 1 - h))), as convert-dl-to-affine lowers padded convolutions. The filter
// f[r][k] is next used by the next n. From the first source, S[0,0,1,0], to
// S[0,1,1,0] the first output row touches two filter rows: 2 Kb + in[0][0..1]
// + out[0][0][*] + in[1][0] and out[1][0][0] = 3 Kb + 4 elements. Rows inside
// the image touch all three: from S[2,0,0,0] to S[2,1,0,0], 3 Kb + in[0][1..3]
// + out[0][2][*] + in[1][1] + out[1][2][0] = 4 Kb + 5, the distance of most
// of the reuses, and the one the profile reports.
TEST_F(WorkingSetTest, ReuseDistanceOfAnInteriorSourceWhenBordersSkipTaps) {
  const int64_t h = 6, kb = 8;
  std::string source = R"(
    func.func @nest(%in: memref<2x6xf32>, %f: memref<3x8xf32>,
                    %out: memref<2x6x8xf32>) {
      affine.for %h = 0 to 6 {
        affine.for %n = 0 to 2 {
          affine.for %r = max affine_map<(d0) -> (0, 1 - d0)>(%h)
              to min affine_map<(d0) -> (3, 7 - d0)>(%h) {
            affine.for %k = 0 to 8 {
              %x = affine.load %in[%n, %h + %r - 1] : memref<2x6xf32>
              %y = affine.load %f[%r, %k] : memref<3x8xf32>
              %o = affine.load %out[%n, %h, %k] : memref<2x6x8xf32>
              %p = arith.mulf %x, %y : f32
              %s = arith.addf %o, %p : f32
              affine.store %s, %out[%n, %h, %k] : memref<2x6x8xf32>
            }
          }
        }
      }
      return
    })";
  ReuseProfile reuse = profile(source);
  const ReuseClass *filter = findReuse(reuse, 1, "d1");
  ASSERT_TRUE(filter);
  EXPECT_EQ(filter->accesses, 3 * kb * (h - 2) + 2 * 2 * kb);
  EXPECT_EQ(filter->distanceElements, 4 * kb + 5);
}

TEST(CacheModelTest, Algorithm2AssignsSortedSetsToTheFastestLevelWithRoom) {
  CacheModel model;
  model.levels = {{"L1", 100, 1.0, 10.0}, {"L2", 1000, 10.0, 10.0}};
  model.memoryLatency = 100.0;
  model.memoryBandwidth = 10.0;
  // Sorted: 30, 40, 50, 900, 5000. L1 takes 30 and 40 (70; 50 does not fit),
  // L2 takes 50 and 900 (950), memory 5000.
  LevelAssignment a = assignToLevels({900, 50, 5000, 30, 40}, model);
  ASSERT_EQ(a.bytesPerLevel.size(), 2u);
  EXPECT_EQ(a.bytesPerLevel[0], 70);
  EXPECT_EQ(a.bytesPerLevel[1], 950);
  EXPECT_EQ(a.memoryBytes, 5000);
  EXPECT_DOUBLE_EQ(a.cost, 70 * 1.0 / 10 + 950 * 10.0 / 10 + 5000 * 100.0 / 10);
}

// Each reuse goes to the fastest level its distance fits, first touches to
// memory; the cost is bytes over bandwidth.
TEST(CacheModelTest, TrafficServesEachReuseFromTheFastestLevelHoldingIt) {
  CacheModel model;
  model.levels = {{"L1", 100, 1.0, 10.0}, {"L2", 1000, 10.0, 5.0}};
  model.memoryLatency = 100.0;
  model.memoryBandwidth = 2.0;
  LevelAssignment a = assignTraffic(
      {{100, 7000}, {101, 500}, {1000, 20}, {1001, 30}}, 40, model);
  ASSERT_EQ(a.bytesPerLevel.size(), 2u);
  EXPECT_EQ(a.bytesPerLevel[0], 7000);
  EXPECT_EQ(a.bytesPerLevel[1], 520);
  EXPECT_EQ(a.memoryBytes, 70);
  EXPECT_DOUBLE_EQ(a.cost, 7000 / 10.0 + 520 / 5.0 + 70 / 2.0);
}

TEST(CacheModelTest, SizesFromSpecAndErrors) {
  CacheModel model = CacheModel::defaults();
  std::string error;
  ASSERT_TRUE(succeeded(model.overrideSizes("L1=48K, l2=1M,L3=65536", error)));
  EXPECT_EQ(model.levels[0].bytes, 48 << 10);
  EXPECT_EQ(model.levels[1].bytes, 1 << 20);
  EXPECT_EQ(model.levels[2].bytes, 65536);
  EXPECT_TRUE(failed(model.overrideSizes("L1=0", error)));
  EXPECT_NE(error.find("positive"), std::string::npos);
  EXPECT_TRUE(failed(model.overrideSizes("L4=1K", error)));
  EXPECT_NE(error.find("unknown cache level"), std::string::npos);
  CacheModel detected = CacheModel::detect();
  for (const CacheLevel &level : detected.levels)
    EXPECT_GT(level.bytes, 0);
}

// detect() gives the capacities sysfs lists for this machine's data and
// unified caches (read here with std::ifstream, which stops at the end of
// the text; a reader that takes sysfs's reported 4 KiB size gets NULs after
// it and fell back to the defaults).
TEST(CacheModelTest, DetectReadsThisMachinesSysfs) {
  const std::string root = "/sys/devices/system/cpu/cpu0/cache/index";
  auto read = [](const std::string &path) {
    std::ifstream file(path);
    std::string word;
    file >> word;
    return word;
  };
  CacheModel detected = CacheModel::detect();
  int checked = 0;
  for (int index = 0; index < 8; ++index) {
    std::string type = read(root + std::to_string(index) + "/type");
    std::string size = read(root + std::to_string(index) + "/size");
    std::string level = read(root + std::to_string(index) + "/level");
    if (type.empty() || type == "Instruction" || size.empty() ||
        size.back() != 'K' || level.size() != 1 || level[0] < '1' ||
        level[0] > '3')
      continue;
    int64_t kib = std::stoll(size.substr(0, size.size() - 1));
    EXPECT_EQ(detected.levels[level[0] - '1'].bytes, kib << 10)
        << "L" << level << " (sysfs: " << size << ")";
    ++checked;
  }
  if (checked == 0)
    GTEST_SKIP() << "no cache sizes in sysfs";
}

// A machine file round-trips every field, and options apply on top of it.
TEST(CacheModelTest, MachineFileRoundTripAndOverrides) {
  CacheModel model;
  model.levels = {{"L1", 49152, 1.5, 120.0}, {"L2", 2 << 20, 4.25, 60.0}};
  model.memoryLatency = 95.0;
  model.memoryBandwidth = 12.5;
  model.nearWriteLineNs = 0.25;
  model.forkJoinNs = 450.0;
  llvm::SmallString<64> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("machine", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << model.toMachineFile();
  }
  std::string error;
  FailureOr<CacheModel> read = CacheModel::fromOptions(path, "L2=1M", error);
  ASSERT_TRUE(succeeded(read)) << error;
  ASSERT_EQ(read->levels.size(), 2u);
  EXPECT_EQ(read->levels[0].name, "L1");
  EXPECT_EQ(read->levels[0].bytes, 49152);
  EXPECT_DOUBLE_EQ(read->levels[0].latency, 1.5);
  EXPECT_DOUBLE_EQ(read->levels[0].bandwidth, 120.0);
  EXPECT_EQ(read->levels[1].bytes, 1 << 20); // The override wins.
  EXPECT_DOUBLE_EQ(read->levels[1].latency, 4.25);
  EXPECT_DOUBLE_EQ(read->memoryLatency, 95.0);
  EXPECT_DOUBLE_EQ(read->memoryBandwidth, 12.5);
  ASSERT_TRUE(read->nearWriteLineNs.has_value());
  EXPECT_DOUBLE_EQ(*read->nearWriteLineNs, 0.25);
  ASSERT_TRUE(read->forkJoinNs.has_value());
  EXPECT_DOUBLE_EQ(*read->forkJoinNs, 450.0);
  // Without the "cores" object (a file of an earlier dl-probe, or of a
  // machine it measured on one CPU), nothing is measured.
  model.nearWriteLineNs.reset();
  model.forkJoinNs.reset();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << model.toMachineFile();
  }
  read = CacheModel::readMachineFile(path, error);
  ASSERT_TRUE(succeeded(read)) << error;
  EXPECT_FALSE(read->nearWriteLineNs.has_value());
  EXPECT_FALSE(read->forkJoinNs.has_value());
  llvm::sys::fs::remove(path);

  EXPECT_TRUE(failed(CacheModel::readMachineFile(path, error)));
  EXPECT_NE(error.find("cannot read machine file"), std::string::npos);
}

} // namespace

// The fraction of reads a level serves, from bandwidths (dl-probe's rule
// for the usable part of the last level): all at the level's own bandwidth,
// none at memory's, and 1/75 = h/110 + (1-h)/40 in between (this VM's L3 at
// 22.6 MiB: h = 0.733, below dl-probe's 0.9 though above the half-way
// bandwidth 75 that its old rule compared with).
TEST(CacheModelTest, ServedFractionFromBandwidths) {
  EXPECT_DOUBLE_EQ(CacheModel::servedFraction(110.0, 110.0, 40.0), 1.0);
  EXPECT_DOUBLE_EQ(CacheModel::servedFraction(40.0, 110.0, 40.0), 0.0);
  double h = (1.0 / 75 - 1.0 / 40) / (1.0 / 110 - 1.0 / 40);
  EXPECT_NEAR(h, 0.733, 1e-3);
  EXPECT_DOUBLE_EQ(CacheModel::servedFraction(75.0, 110.0, 40.0), h);
  // Noise beyond either end is clamped, and equal bandwidths serve all.
  EXPECT_DOUBLE_EQ(CacheModel::servedFraction(120.0, 110.0, 40.0), 1.0);
  EXPECT_DOUBLE_EQ(CacheModel::servedFraction(30.0, 110.0, 40.0), 0.0);
  EXPECT_DOUBLE_EQ(CacheModel::servedFraction(50.0, 60.0, 60.0), 1.0);
}

// A stride-2 1x1 convolution out[w][k] += in[2w][c] * f[c][k], loops
// (w, c, k). The filter's reuse from w = 0 to the last w (WS_max) touches the
// rows 0, 2, ..., 2(W-2) of the input (and in[2(W-1)][0]): a box on a
// lattice, counted from its extents without enumerating (isl may not
// enumerate here: maxOperations = 0 would make any enumerated count a
// bounding box, marked approximate).
TEST_F(WorkingSetTest, StridedAccessCountedExactlyWithoutEnumeration) {
  const int64_t w = 5, c = 4, kb = 8;
  std::string source = accumulationNest(
      memref({2 * w, c}), memref({c, kb}), memref({w, kb}),
      {{"w", w}, {"c", c}, {"k", kb}}, "%w * 2, %c", "%c, %k", "%w, %k");
  SmallVector<WorkingSet> sets =
      analyze(source, /*parallelDepth=*/std::nullopt, /*maxOperations=*/0);
  const WorkingSet *filter =
      find(sets, "RAR A1[i1, i2] -> A1[i1, i2]", WorkingSet::Kind::Max);
  ASSERT_TRUE(filter);
  EXPECT_FALSE(filter->approximate);
  EXPECT_EQ(filter->elements, (w - 1) * c + 1 + c * kb + (w - 1) * kb + 1);
}
