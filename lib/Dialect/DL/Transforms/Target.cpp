//===- Target.cpp - the machine dl compiles for -----------------*- C++ -*-===//
//
// #dl.target to and from the Target the passes use, the host's target, and
// the dl-set-target pass that writes it on a module.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Target.h"
#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_SETTARGET
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

Target Target::host() {
  static const int64_t vectorBits = [] {
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    if (features.lookup("avx512f"))
      return 512;
    if (features.lookup("avx2"))
      return 256;
    return 128;
  }();
  return Target{vectorBits, kDefaultMaxBatchBytes, CacheModel::detect()};
}

Target Target::fromAttr(TargetAttr attr) {
  Target target{attr.getVectorBits(), attr.getMaxBatchBytes(), CacheModel()};
  ArrayRef<int64_t> bytes = attr.getCacheBytes().asArrayRef();
  ArrayRef<double> latencies = attr.getLatencies().asArrayRef(),
                   bandwidths = attr.getBandwidths().asArrayRef();
  for (auto [i, size] : llvm::enumerate(bytes))
    target.cache.levels.push_back(CacheLevel{"L" + std::to_string(i + 1), size,
                                             latencies[i], bandwidths[i]});
  target.cache.memoryLatency = latencies.back();
  target.cache.memoryBandwidth = bandwidths.back();
  if (FloatAttr nearWrite = attr.getNearWriteLineNs())
    target.cache.nearWriteLineNs = nearWrite.getValueAsDouble();
  if (FloatAttr forkJoin = attr.getForkJoinNs())
    target.cache.forkJoinNs = forkJoin.getValueAsDouble();
  return target;
}

TargetAttr Target::toAttr(MLIRContext *context,
                          function_ref<InFlightDiagnostic()> emitError) const {
  SmallVector<int64_t> bytes;
  SmallVector<double> latencies, bandwidths;
  for (const CacheLevel &level : cache.levels) {
    bytes.push_back(level.bytes);
    latencies.push_back(level.latency);
    bandwidths.push_back(level.bandwidth);
  }
  latencies.push_back(cache.memoryLatency);
  bandwidths.push_back(cache.memoryBandwidth);
  auto cost = [&](std::optional<double> ns) {
    return ns ? FloatAttr::get(Float64Type::get(context), *ns) : FloatAttr();
  };
  return TargetAttr::getChecked(emitError, context, vectorBits, maxBatchBytes,
                                DenseI64ArrayAttr::get(context, bytes),
                                DenseF64ArrayAttr::get(context, latencies),
                                DenseF64ArrayAttr::get(context, bandwidths),
                                cost(cache.nearWriteLineNs),
                                cost(cache.forkJoinNs));
}

Target dl::getTarget(Operation *op) {
  for (Operation *scope = op; scope; scope = scope->getParentOp())
    if (auto attr =
            scope->getAttrOfType<TargetAttr>(DLDialect::getTargetAttrName()))
      return Target::fromAttr(attr);
  return Target::host();
}

namespace {
struct SetTargetPass : dl::impl::SetTargetBase<SetTargetPass> {
  using SetTargetBase::SetTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Target target = getTarget(module);
    auto fail = [&](const Twine &message) {
      module.emitError() << "dl-set-target: " << message;
      signalPassFailure();
    };
    if (!machineFile.empty()) {
      std::string error;
      FailureOr<CacheModel> read =
          CacheModel::readMachineFile(machineFile, error);
      if (failed(read))
        return fail(error);
      target.cache = *read;
    }
    std::string error;
    if (failed(target.cache.overrideSizes(cacheSizes, error)))
      return fail(error);
    if (vectorBits < 0)
      return fail("vector-bits must be >= 0 (0: keep)");
    if (vectorBits > 0)
      target.vectorBits = vectorBits;
    if (maxBatchBytes < -1)
      return fail("max-batch-bytes must be >= 0 (-1: keep)");
    if (maxBatchBytes >= 0)
      target.maxBatchBytes = maxBatchBytes;
    TargetAttr attr = target.toAttr(
        &getContext(), [&] { return module.emitError() << "dl-set-target: "; });
    if (!attr)
      return signalPassFailure();
    module->setAttr(DLDialect::getTargetAttrName(), attr);
  }
};
} // namespace
