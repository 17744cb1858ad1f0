//===- dl-fuzz.cpp - libFuzzer target for the dl compiler -------*- C++ -*-===//
//
// Feeds arbitrary bytes through what a user's file goes through: parse,
// verify, then the optimized dl-to-llvm pipeline (ranking, tile solver,
// lowering, outlining, LLVM dialect). Diagnostics are expected and dropped;
// a crash, a sanitizer report or a pipeline that leaves invalid IR is a bug.
// Inputs with ops outside builtin/func/arith/dl, or with large buffers, are
// skipped, ops with a dynamic batch get at most four versions, and the tile
// solver runs only on inputs with few ops to solve, so the fuzzer explores
// dl's verifiers and passes (not upstream dialects) at a useful rate.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/InitAllDL.h"
#include "dl/Pipelines/Pipelines.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

namespace {

/// One context for the whole run: creating one per input would dominate.
MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    dl::registerAllDLDialects(registry);
    auto *ctx = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  return *context;
}

/// Buffers above this many elements make an input too slow to fuzz (the
/// analyses' cost grows with the sizes); the test suite covers large layers.
constexpr int64_t kMaxElements = int64_t(1) << 16;

/// Whether every op is one a user writes in a dl input file, on buffers of
/// at most kMaxElements static elements.
bool isSmallDLInput(ModuleOp module) {
  return !module
              ->walk([](Operation *op) {
                StringRef dialect = op->getName().getDialectNamespace();
                if (dialect != "dl" && dialect != "arith" &&
                    dialect != "builtin" && dialect != "func")
                  return WalkResult::interrupt();
                for (Type type : op->getOperandTypes())
                  if (auto memref = dyn_cast<MemRefType>(type);
                      memref && memref.hasStaticShape() &&
                      memref.getNumElements() > kMaxElements)
                    return WalkResult::interrupt();
                return WalkResult::advance();
              })
              .wasInterrupted();
}

/// Most convolutions and GEMMs (a dynamic one counted once per version) an
/// input may have for the tile solver to run on it: each op's solve is a few
/// hundred small Ipopt problems, whose fixed costs (MUMPS' setup, Ipopt's
/// timers) make it ~5 s under the sanitizers, against the fuzzer's 60 s
/// timeout per input.
constexpr int64_t kMaxSolvedOps = 2;

/// The ops the tile solver would solve in `module` with `maxVersions`.
int64_t countSolvedOps(ModuleOp module, int64_t maxVersions) {
  int64_t count = 0;
  module->walk([&](Operation *op) {
    if (!isa<dl::Conv2DOp, dl::MatmulOp>(op))
      return;
    bool dynamic = llvm::any_of(op->getOperandTypes(), [](Type type) {
      auto memref = dyn_cast<MemRefType>(type);
      return memref && !memref.hasStaticShape();
    });
    count += dynamic ? maxVersions : 1;
  });
  return count;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  ScopedDiagnosticHandler dropDiagnostics(
      &context, [](Diagnostic &) { return success(); });
  StringRef text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&context));
  if (!module || !isSmallDLInput(*module))
    return 0;

  // The input's length picks the options, so a crashing input reproduces
  // with the same pipeline.
  dl::DLPipelineOptions options;
  options.numThreads = 1 + size % 2;
  // Each version is ranked (and solved) as an op of its own: the default of
  // up to 13 versions per dynamic op multiplies an input's time past the
  // fuzzer's timeout under the sanitizers.
  options.maxVersions = 1 + (size / 4) % 4;
  options.solveTiles =
      (size / 2) % 2 &&
      countSolvedOps(*module, options.maxVersions) <= kMaxSolvedOps;
  options.cacheSizes = "L1=32K,L2=512K,L3=8M";
  PassManager pm(&context);
  dl::buildDLToLLVMPipeline(pm, options);
  if (succeeded(pm.run(*module)) && failed(verify(*module))) {
    llvm::errs() << "dl-fuzz: the pipeline succeeded but left invalid IR\n";
    std::abort();
  }
  return 0;
}
