//===- Autotune.cpp - time the best-ranked schedules ------------*- C++ -*-===//
//
// Autotuning: the K best-ranked schedules of every heavy op (VariantRanking),
// each candidate module JIT-compiled and timed on deterministic inputs; the
// fastest candidate's schedules are kept. And the timing it shares with
// dl-compile --bench: median wall time of repeated calls after warm-up.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/CacheModel.h"
#include "dl/Dialect/DL/Transforms/Target.h"
#include "dl/Dialect/DL/Transforms/VariantRanking.h"
#include "dl/Driver/Driver.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace mlir::dl;

SmallVector<HostBuffer> dl::makeInputs(ArrayRef<ArgumentSpec> specs,
                                       uint64_t functionSeed) {
  SmallVector<HostBuffer> buffers;
  for (auto [i, spec] : llvm::enumerate(specs)) {
    buffers.emplace_back(spec.shape);
    buffers.back().fillDeterministic(functionSeed * 1000003 + i, spec.positive);
  }
  return buffers;
}

std::pair<double, unsigned> dl::timeFunction(void (*fn)(void **),
                                             MutableArrayRef<HostBuffer> args,
                                             const TimingOptions &timing) {
  SmallVector<void *> packed;
  for (HostBuffer &buffer : args)
    buffer.appendPackedArguments(packed);
  using Clock = std::chrono::steady_clock;
  for (unsigned i = 0; i < timing.warmup; ++i)
    fn(packed.data());
  std::vector<double> samples;
  double total = 0.0;
  while (samples.size() < timing.minReps || total < timing.minSeconds) {
    auto start = Clock::now();
    fn(packed.data());
    double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    samples.push_back(seconds);
    total += seconds;
    if (samples.size() >= 100000)
      break;
  }
  std::nth_element(samples.begin(), samples.begin() + samples.size() / 2,
                   samples.end());
  return {samples[samples.size() / 2] * 1e3,
          static_cast<unsigned>(samples.size())};
}

LogicalResult dl::autotune(ModuleOp module, ArrayRef<func::FuncOp> entries,
                           const CompileOptions &options,
                           const AutotuneOptions &autotuneOptions) {
  // The target, then layouts and GEMM blocks are decided first, as in the
  // pipeline: the schedules order their block loops.
  PassManager pm(module.getContext());
  addSetTarget(pm, options.vectorBits, options.maxBatchBytes,
               options.cacheSizes, options.machineFile);
  if (options.microkernels)
    buildDLLayoutPipeline(pm, options.remarks);
  if (failed(pm.run(module)))
    return failure();
  Target target = getTarget(module);
  std::string error;
  std::optional<RankingCost> cost = parseRankingCost(options.rankingCost);
  if (!cost)
    return module.emitError("unknown ranking cost '")
           << options.rankingCost << "' (expected 'traffic' or 'working-sets')";
  RankingOptions ranking;
  ranking.cache = target.cache;
  ranking.cost = *cost;
  ranking.threads = options.getThreadCount();
  ranking.maxBatchBytes = target.maxBatchBytes;
  SmallVector<Operation *> ops = getUnscheduledOps(module);
  std::vector<OpRanking> rankings;
  size_t candidates = 0;
  for (Operation *op : ops) {
    rankings.push_back(rankVariants(op, ranking));
    llvm::erase_if(rankings.back().variants,
                   [](const RankedVariant &v) { return !v.failure.empty(); });
    candidates = std::max(candidates, rankings.back().variants.size());
  }
  candidates = std::min<size_t>(candidates, autotuneOptions.topK);
  if (candidates == 0) {
    llvm::errs() << "autotune: no op has ranked variants\n";
    return success();
  }

  SmallVector<SmallVector<HostBuffer>> inputs;
  for (auto [index, constFn] : llvm::enumerate(entries)) {
    func::FuncOp fn = constFn;
    FailureOr<SmallVector<ArgumentSpec>> specs = getArgumentSpecs(fn);
    if (failed(specs) ||
        failed(checkArgumentMemory(fn, *specs, 1, availableMemoryBytes())))
      return failure();
    inputs.push_back(makeInputs(*specs, autotuneOptions.seed + index));
  }
  // The schedule each op gets in candidate `v`: its v-th best (its last
  // when it has fewer variants).
  auto scheduleOf = [&](size_t op, size_t v) {
    const auto &variants = rankings[op].variants;
    return variants[std::min(v, variants.size() - 1)];
  };
  llvm::json::Array reports;
  std::optional<std::pair<double, size_t>> best;
  for (size_t v = 0; v < candidates; ++v) {
    OwningOpRef<ModuleOp> candidate = module.clone();
    SmallVector<Operation *> copies = getUnscheduledOps(*candidate);
    llvm::json::Array schedules, costs;
    for (auto [index, copy] : llvm::enumerate(copies)) {
      const RankedVariant &variant = scheduleOf(index, v);
      setSchedule(copy, variant.schedule);
      std::string text;
      llvm::raw_string_ostream(text) << variant.schedule;
      schedules.push_back(text);
      costs.push_back(variant.assignment.cost);
    }
    FailureOr<std::unique_ptr<JitModule>> compiled =
        jitCompile(*candidate, options);
    if (failed(compiled))
      return failure();
    double totalMs = 0.0;
    for (auto [index, constFn] : llvm::enumerate(entries)) {
      func::FuncOp fn = constFn;
      FailureOr<void (*)(void **)> entry = (*compiled)->lookup(fn.getName());
      if (failed(entry))
        return fn.emitError("cannot find the compiled function");
      totalMs +=
          timeFunction(*entry, inputs[index], autotuneOptions.timing).first;
    }
    llvm::errs() << llvm::formatv("autotune: variant {0}/{1}: {2:f4} ms", v + 1,
                                  candidates, totalMs);
    for (const llvm::json::Value &text : schedules)
      llvm::errs() << " " << *text.getAsString();
    llvm::errs() << "\n";
    if (!best || totalMs < best->first)
      best = {totalMs, v};
    reports.push_back(
        llvm::json::Object{{"model_rank", static_cast<int64_t>(v)},
                           {"schedules", std::move(schedules)},
                           {"model_costs", std::move(costs)},
                           {"median_ms", totalMs}});
  }
  for (auto [index, op] : llvm::enumerate(ops))
    setSchedule(op, scheduleOf(index, best->second).schedule);
  llvm::errs() << llvm::formatv("autotune: kept variant {0} ({1:f4} ms)\n",
                                best->second + 1, best->first);
  if (autotuneOptions.reportPath.empty())
    return success();
  llvm::json::Array analysis;
  for (const OpRanking &ranking : rankings)
    analysis.push_back(ranking.analysisSeconds);
  auto file = openOutputFile(autotuneOptions.reportPath, &error);
  if (!file)
    return module.emitError(error);
  file->os() << llvm::formatv(
      "{0:2}\n",
      llvm::json::Value(llvm::json::Object{
          {"threads", static_cast<int64_t>(options.getThreadCount())},
          {"analysis_seconds", std::move(analysis)},
          {"kept", static_cast<int64_t>(best->second)},
          {"variants", std::move(reports)}}));
  file->keep();
  return success();
}
