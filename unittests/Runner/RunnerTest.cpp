//===- RunnerTest.cpp - dl-compile --run/--bench building blocks -*- C++
//-*-===//
//
// Comparison tolerances, deterministic data, memref descriptors, argument
// specs and FLOP counts, with exact expected values.
//
//===----------------------------------------------------------------------===//

#include "dl/Runner/Runner.h"
#include "dl/InitAllDL.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::dl;

namespace {

TEST(CompareBuffers, IdenticalBuffersMatchExactly) {
  std::vector<float> a = {1.0f, -2.0f, 0.0f, 3.5f};
  Comparison c = compareBuffers(a, a, 1e-4, std::nullopt);
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.maxAbsErr, 0.0);
  EXPECT_EQ(c.maxRelErr, 0.0);
}

TEST(CompareBuffers, ToleranceIsRelativeToTheBufferScale) {
  std::vector<float> ref = {100.0f, 0.0f, -50.0f};
  // 0.005 off on an element of 0 is within rtol * max|ref| = 0.01.
  std::vector<float> close = {100.0f, 0.005f, -50.0f};
  EXPECT_TRUE(compareBuffers(close, ref, 1e-4, std::nullopt).ok());
  // 0.05 off is not.
  std::vector<float> far = {100.0f, 0.05f, -50.0f};
  Comparison c = compareBuffers(far, ref, 1e-4, std::nullopt);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_NEAR(c.maxAbsErr, 0.05, 1e-7);
  // An explicit absolute tolerance replaces the scaled one.
  EXPECT_FALSE(compareBuffers(close, ref, 1e-4, 1e-3).ok());
}

TEST(CompareBuffers, RelativeErrorIgnoresNearZeroElements) {
  std::vector<float> ref = {2.0f, 1e-9f};
  std::vector<float> actual = {2.002f, 2e-9f};
  Comparison c = compareBuffers(actual, ref, 1e-2, std::nullopt);
  EXPECT_TRUE(c.ok());
  EXPECT_NEAR(c.maxRelErr, 1e-3, 1e-6);
}

TEST(CompareBuffers, NaNMatchesOnlyNaN) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> ref = {nan, 1.0f};
  EXPECT_TRUE(
      compareBuffers(std::vector<float>{nan, 1.0f}, ref, 1e-4, std::nullopt)
          .ok());
  EXPECT_FALSE(
      compareBuffers(std::vector<float>{0.0f, 1.0f}, ref, 1e-4, std::nullopt)
          .ok());
  EXPECT_FALSE(
      compareBuffers(std::vector<float>{nan, nan}, ref, 1e-4, std::nullopt)
          .ok());
}

TEST(HostBuffer, RowMajorDescriptor) {
  HostBuffer buffer(SmallVector<int64_t>{2, 3, 4});
  SmallVector<void *> args;
  buffer.appendPackedArguments(args);
  ASSERT_EQ(args.size(), 3u + 2 * 3);
  EXPECT_EQ(*static_cast<float **>(args[1]), buffer.values().data());
  EXPECT_EQ(*static_cast<int64_t *>(args[2]), 0);
  EXPECT_EQ(*static_cast<int64_t *>(args[3]), 2);
  EXPECT_EQ(*static_cast<int64_t *>(args[5]), 4);
  EXPECT_EQ(*static_cast<int64_t *>(args[6]), 12); // stride of dim 0
  EXPECT_EQ(*static_cast<int64_t *>(args[7]), 4);
  EXPECT_EQ(*static_cast<int64_t *>(args[8]), 1);
  // A copy points at its own data.
  HostBuffer copy(buffer);
  SmallVector<void *> copyArgs;
  copy.appendPackedArguments(copyArgs);
  EXPECT_EQ(*static_cast<float **>(copyArgs[1]), copy.values().data());
  EXPECT_NE(copy.values().data(), buffer.values().data());
}

TEST(HostBuffer, DeterministicFillRanges) {
  SmallVector<int64_t> shape = {1000};
  HostBuffer a(shape), b(shape), positive(shape);
  a.fillDeterministic(7, false);
  b.fillDeterministic(7, false);
  positive.fillDeterministic(7, true);
  EXPECT_EQ(a.values(), b.values());
  float lo = 1.0f, hi = -1.0f;
  for (float v : a.values()) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_GE(lo, -1.0f);
  EXPECT_LT(hi, 1.0f);
  EXPECT_LT(lo, -0.9f); // the range is covered
  EXPECT_GT(hi, 0.9f);
  for (float v : positive.values()) {
    EXPECT_GE(v, 0.5f);
    EXPECT_LT(v, 1.5f);
  }
  b.fillDeterministic(8, false);
  EXPECT_NE(a.values(), b.values());
}

/// Parses `source` and returns its first function.
class RunnerIRTest : public ::testing::Test {
protected:
  RunnerIRTest() {
    DialectRegistry registry;
    registerAllDLDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  func::FuncOp parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    return *module->getOps<func::FuncOp>().begin();
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(RunnerIRTest, FlopsOfMatmulAndConv) {
  func::FuncOp fn = parse(R"mlir(
    func.func @f(%a: memref<8x5xf32>, %b: memref<5x3xf32>, %c: memref<8x3xf32>,
                 %in: memref<2x4x9x9xf32>, %w: memref<6x4x3x3xf32>,
                 %out: memref<2x6x4x4xf32>) {
      dl.matmul ins(%a, %b : memref<8x5xf32>, memref<5x3xf32>)
                outs(%c : memref<8x3xf32>)
      dl.conv2d ins(%in, %w : memref<2x4x9x9xf32>, memref<6x4x3x3xf32>)
                outs(%out : memref<2x6x4x4xf32>) {strides = array<i64: 2, 2>}
      dl.relu ins(%out : memref<2x6x4x4xf32>) outs(%out : memref<2x6x4x4xf32>)
      return
    })mlir");
  FailureOr<SmallVector<ArgumentSpec>> specs = getArgumentSpecs(fn);
  ASSERT_TRUE(succeeded(specs));
  // 2*8*3*5 + 2*(2*6*4*4)*(4*3*3) + 2*6*4*4
  EXPECT_EQ(countFlops(fn, *specs), 240.0 + 13824.0 + 192.0);
}

TEST_F(RunnerIRTest, FlopsOfBlockedConvAndBatchNorm) {
  func::FuncOp fn = parse(R"mlir(
    func.func @f(%in: memref<1x2x6x6x8xf32>, %w: memref<3x2x3x3x8x4xf32>,
                 %out: memref<1x3x4x4x4xf32>, %g: memref<12xf32>,
                 %m: memref<12xf32>, %v: memref<12xf32>) {
      dl.conv2d ins(%in, %w : memref<1x2x6x6x8xf32>, memref<3x2x3x3x8x4xf32>)
                outs(%out : memref<1x3x4x4x4xf32>)
      dl.batch_norm_training ins(%out, %g, %g : memref<1x3x4x4x4xf32>,
                                 memref<12xf32>, memref<12xf32>)
          outs(%out, %m, %v : memref<1x3x4x4x4xf32>, memref<12xf32>,
               memref<12xf32>)
      return
    })mlir");
  FailureOr<SmallVector<ArgumentSpec>> specs = getArgumentSpecs(fn);
  ASSERT_TRUE(succeeded(specs));
  // Output 192 elements, each 16*9 multiply-adds; BN 8 per element.
  EXPECT_EQ(countFlops(fn, *specs), 2.0 * 192 * 144 + 8.0 * 192);
}

TEST_F(RunnerIRTest, DynamicSizesComeFromRunShape) {
  func::FuncOp fn = parse(R"mlir(
    func.func @f(%x: memref<?x16xf32> {dl.run_shape = array<i64: 5, 16>},
                 %g: memref<16xf32>, %v: memref<16xf32>,
                 %y: memref<?x16xf32> {dl.run_shape = array<i64: 5, 16>}) {
      dl.relu ins(%x : memref<?x16xf32>) outs(%y : memref<?x16xf32>)
      return
    })mlir");
  FailureOr<SmallVector<ArgumentSpec>> specs = getArgumentSpecs(fn);
  ASSERT_TRUE(succeeded(specs));
  EXPECT_EQ((*specs)[0].shape, (SmallVector<int64_t>{5, 16}));
  EXPECT_EQ(countFlops(fn, *specs), 80.0);
}

TEST_F(RunnerIRTest, VarianceArgumentsArePositive) {
  func::FuncOp fn = parse(R"mlir(
    func.func @f(%x: memref<1x2x3x3xf32>, %p: memref<2xf32>,
                 %v: memref<2xf32>, %y: memref<1x2x3x3xf32>) {
      dl.batch_norm_inference ins(%x, %p, %p, %p, %v : memref<1x2x3x3xf32>,
          memref<2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>)
          outs(%y : memref<1x2x3x3xf32>)
      return
    })mlir");
  FailureOr<SmallVector<ArgumentSpec>> specs = getArgumentSpecs(fn);
  ASSERT_TRUE(succeeded(specs));
  EXPECT_FALSE((*specs)[1].positive);
  EXPECT_TRUE((*specs)[2].positive);
}

TEST_F(RunnerIRTest, DynamicSizesWithoutRunShapeAreRejected) {
  context.getDiagEngine().registerHandler([](Diagnostic &) {});
  func::FuncOp fn = parse(R"mlir(
    func.func @f(%x: memref<?xf32>) {
      return
    })mlir");
  EXPECT_TRUE(failed(getArgumentSpecs(fn)));
}

} // namespace
