//===- ApproximateMath.cpp - math.exp as a vectorizable polynomial --------===//
//
// The pass `dl-approximate-math`: math.exp on f32 becomes MLIR's polynomial
// approximation (arith ops), which LLVM vectorizes with its loop; LLVM's exp
// intrinsic is a scalar libm call per element without a vector math
// library. Only the patterns are MLIR's; the pass chooses which ops.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;

namespace {

struct ApproximateMathPass
    : dl::impl::ApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) { return name == "math.exp"; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
