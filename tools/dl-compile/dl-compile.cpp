//===- dl-compile.cpp - the dl compiler driver ------------------*- C++ -*-===//
//
// Compiles a .mlir file of dl ops to native code (--emit), or JIT-runs every
// public function and checks it against the reference lowering (--run), or
// times every public function (--bench). --autotune-top-k times the best
// ranked loop schedules first and keeps the fastest.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/CacheModel.h"
#include "dl/Conversion/Passes.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/VariantRanking.h"
#include "dl/Driver/Driver.h"
#include "dl/InitAllDL.h"
#include "dl/Pipelines/Pipelines.h"
#include "dl/Runner/Runner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <chrono>
#include <thread>

using namespace mlir;
using dl::Comparison;
using dl::HostBuffer;
namespace cl = llvm::cl;

namespace {
enum class EmitKind { None, MLIR, LLVM, Asm, Obj, Shared };
enum class PipelineKind { Optimized, Reference };

cl::OptionCategory category("dl-compile options");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input .mlir>"),
                                   cl::init("-"), cl::cat(category));
cl::opt<std::string> outputFilename("o",
                                    cl::desc("Output file (default: stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(category));
cl::opt<EmitKind> emit(
    "emit", cl::desc("What to write to -o"), cl::init(EmitKind::None),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir", "the LLVM-dialect module"),
               clEnumValN(EmitKind::LLVM, "llvm", "LLVM IR (optimized)"),
               clEnumValN(EmitKind::Asm, "asm", "host assembly"),
               clEnumValN(EmitKind::Obj, "obj", "a host object file"),
               clEnumValN(EmitKind::Shared, "shared", "a shared library")),
    cl::cat(category));
cl::opt<std::string> emitHeader(
    "emit-header",
    cl::desc("With --emit=shared: also write a C header here, and put its "
             "functions in the library: <name>_<function>(data, sizes...) "
             "returning 0, or 1 with <name>_last_error() on wrong sizes or a "
             "failed run-time check (<name>: the header's file name)"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<PipelineKind>
    pipeline("pipeline", cl::desc("Which lowering compiles the module"),
             cl::init(PipelineKind::Optimized),
             cl::values(clEnumValN(PipelineKind::Optimized, "optimized",
                                   "the dl-to-llvm pipeline (default)"),
                        clEnumValN(PipelineKind::Reference, "reference",
                                   "the unoptimized reference lowering")),
             cl::cat(category));
/// --threads (0: all cores). The option object is created in main: libLLVM
/// already registers an internal, undocumented `-threads`, which is removed
/// first.
unsigned threads = 0;
cl::opt<bool> microkernels(
    "microkernels",
    cl::desc("Outline GEMM bands to LIBXSMM microkernels (default: on)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> fuse("fuse",
                   cl::desc("Fuse element-wise ops into the convolutions "
                            "and batch normalizations that write their "
                            "inputs (dl-fuse-epilogues; default: on)"),
                   cl::init(true), cl::cat(category));
cl::opt<bool> prefetch(
    "prefetch",
    cl::desc("Prefetch the blocks the next outer iteration's microkernel "
             "calls read, spread over the current iteration's calls "
             "(dl-prefetch-next-blocks; default: on)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> versioning(
    "versioning",
    cl::desc("Run ops with a dynamic batch size (GEMM rows, images) as "
             "static versions of themselves, each scheduled like a static "
             "op (dl-parametric-versioning; default: on)"),
    cl::init(true), cl::cat(category));
cl::opt<int64_t> maxVersions(
    "max-versions",
    cl::desc("Most static versions of one dynamic op: powers of two up to "
             "2^(max-versions - 1) rows (default: 13)"),
    cl::init(dl::kDefaultMaxVersions), cl::cat(category));
cl::opt<bool> rank("rank",
                   cl::desc("Choose loop schedules by the working-set "
                            "ranking (dl-rank-variants; default: on)"),
                   cl::init(true), cl::cat(category));
cl::opt<bool> solveTiles(
    "solve-tiles",
    cl::desc("Add multi-level tiles and loop orders from MOpt's "
             "data-movement model solved by Ipopt to the ranking's variants: "
             "the solver proposes, the ranking decides (with --rank=false, "
             "the solver's best is the schedule)"),
    cl::init(false), cl::cat(category));
cl::opt<std::string> tileReport(
    "dl-tile-report",
    cl::desc("Write each op's tile problem, relaxed optimum, rounded "
             "candidates and solve time as JSON (with --solve-tiles "
             "--rank=false)"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> cacheSizes(
    "cache-sizes",
    cl::desc("Cache capacities for the ranking and the microkernel calls' "
             "shapes, e.g. L1=32K,L2=1M,L3=16M (default: this machine's)"),
    cl::value_desc("spec"), cl::cat(category));
cl::opt<std::string>
    machineFile("machine-file",
                cl::desc("Machine file written by dl-probe (capacities, "
                         "latencies, bandwidths) for the ranking"),
                cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> rankingCost(
    "ranking-cost",
    cl::desc("Cost the ranking sorts variants by: 'traffic' (bytes each "
             "cache level supplies, from the reuse profile) or "
             "'working-sets' (PolyDL's eq. 1)"),
    cl::value_desc("model"), cl::init("traffic"), cl::cat(category));
cl::opt<int64_t> maxBatchBytes("max-batch-bytes",
                               cl::desc(dl::kMaxBatchBytesDescription),
                               cl::init(-1), cl::cat(category));
cl::opt<int64_t> vectorBits("vector-bits", cl::desc(dl::kVectorBitsDescription),
                            cl::init(0), cl::cat(category));
cl::opt<std::string> rankingReport(
    "dl-ranking-report",
    cl::desc("Write every ranked variant (working sets, bytes per cache "
             "level, cost) as JSON"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<unsigned> autotuneTopK(
    "autotune-top-k",
    cl::desc("Time the K best-ranked variants of every op on this machine "
             "and keep the fastest (0: trust the ranking)"),
    cl::init(0), cl::cat(category));
cl::opt<std::string> autotuneReport(
    "autotune-report",
    cl::desc("Write each timed variant (schedules, model cost, time) as JSON"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<bool> remarks(
    "remarks",
    cl::desc("Show remarks: where the compiler fell back to a slower correct "
             "path (tile solver, isl bound, GEMM bands kept as loops), ops run "
             "on one thread or on another parallel loop than the outermost "
             "long enough (with --threads > 1), and, in --run/--bench, "
             "microkernels the runtime could not dispatch"),
    cl::init(false), cl::cat(category));
cl::opt<std::string> cacheDirectory(
    "cache-dir",
    cl::desc("Keep the ranking's schedule of each op, and with --run/--bench "
             "the generated code, in this directory, and take them from there "
             "in later compilations by this build of dl on this machine "
             "(default: none)"),
    cl::value_desc("directory"), cl::cat(category));
cl::opt<bool> progress(
    "progress",
    cl::desc("Print the progress of the compilation to stderr: a line per "
             "ranked op, and the JIT's steps"),
    cl::init(false), cl::cat(category));
cl::opt<bool> run("run",
                  cl::desc("JIT-run every public function on generated inputs "
                           "and check it against the reference lowering"),
                  cl::cat(category));
cl::opt<bool> bench("bench",
                    cl::desc("Time every public function (median of runs)"),
                    cl::cat(category));
cl::opt<bool> json("json", cl::desc("Print --run/--bench results as JSON"),
                   cl::cat(category));
cl::list<std::string>
    functions("function", cl::desc("Only run/bench this function (repeatable)"),
              cl::value_desc("name"), cl::cat(category));
cl::opt<double> rtol("rtol", cl::desc("Relative tolerance of --run"),
                     cl::init(1e-4), cl::cat(category));
cl::opt<double>
    atol("atol",
         cl::desc("Absolute tolerance of --run (default: rtol x the largest "
                  "reference magnitude of each buffer)"),
         cl::init(-1.0), cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the generated inputs"),
                       cl::init(42), cl::cat(category));
cl::opt<unsigned> warmup("bench-warmup", cl::desc("Untimed runs before timing"),
                         cl::init(2), cl::cat(category));
cl::opt<unsigned> minReps("bench-min-reps", cl::desc("Minimum timed runs"),
                          cl::init(5), cl::cat(category));
cl::opt<double> minTime("bench-min-time",
                        cl::desc("Minimum total timed seconds per function"),
                        cl::init(0.5), cl::cat(category));

/// Result of --run/--bench for one function.
struct FunctionReport {
  std::string name;
  std::optional<Comparison> comparison;
  std::optional<double> medianMs;
  std::optional<double> flops;
  std::optional<double> referenceMs; // One --run call of the reference.
  unsigned reps = 0;
};

/// The driver's options from the command line, for `kind`'s lowering.
dl::CompileOptions getCompileOptions(PipelineKind kind) {
  dl::CompileOptions options;
  options.reference = kind == PipelineKind::Reference;
  options.threads = threads;
  options.microkernels = microkernels;
  options.rank = rank;
  options.fuse = fuse;
  options.prefetch = prefetch;
  options.versioning = versioning;
  options.maxVersions = maxVersions;
  options.solveTiles = solveTiles;
  options.tileReport = tileReport;
  options.cacheSizes = cacheSizes;
  options.machineFile = machineFile;
  options.rankingCost = rankingCost;
  options.rankingReport = rankingReport;
  options.remarks = remarks;
  options.maxBatchBytes = maxBatchBytes;
  options.vectorBits = vectorBits;
  // The reference lowering is not ranked and its code is not kept.
  if (!options.reference) {
    options.cacheDirectory = cacheDirectory;
    options.progress = progress;
  }
  return options;
}

/// --bench-warmup, --bench-min-reps, --bench-min-time.
dl::TimingOptions getTimingOptions() { return {warmup, minReps, minTime}; }

/// The public functions with bodies, filtered by --function.
SmallVector<func::FuncOp> getEntryFunctions(ModuleOp module) {
  SmallVector<func::FuncOp> result;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal() &&
        (functions.empty() || llvm::is_contained(functions, fn.getName())))
      result.push_back(fn);
  return result;
}

void printReports(ArrayRef<FunctionReport> reports) {
  if (json) {
    llvm::json::Array array;
    for (const FunctionReport &r : reports) {
      llvm::json::Object entry{{"name", r.name}};
      if (r.comparison) {
        entry["max_abs_err"] = r.comparison->maxAbsErr;
        entry["max_rel_err"] = r.comparison->maxRelErr;
        entry["ok"] = r.comparison->ok();
        entry["reference_ms"] = *r.referenceMs;
      }
      if (r.medianMs) {
        entry["median_ms"] = *r.medianMs;
        entry["reps"] = static_cast<int64_t>(r.reps);
        if (r.flops) {
          entry["flops"] = *r.flops;
          entry["gflops"] = *r.flops / (*r.medianMs * 1e6);
        }
      }
      array.push_back(std::move(entry));
    }
    llvm::outs() << llvm::formatv(
        "{0:2}\n",
        llvm::json::Value(llvm::json::Object{{"functions", std::move(array)}}));
    return;
  }
  for (const FunctionReport &r : reports) {
    if (r.comparison)
      llvm::outs() << llvm::formatv(
          "{0}: max_abs_err={1:e} max_rel_err={2:e} {3}\n", r.name,
          r.comparison->maxAbsErr, r.comparison->maxRelErr,
          r.comparison->ok() ? "ok" : "MISMATCH");
    if (r.medianMs) {
      std::string gflops =
          r.flops
              ? llvm::formatv("{0:f2}", *r.flops / (*r.medianMs * 1e6)).str()
              : "n/a";
      llvm::outs() << llvm::formatv("{0}: {1} GFLOPS median_ms={2:f4}\n",
                                    r.name, gflops, *r.medianMs);
    }
  }
}

/// --run and --bench; a --run checks `module` against `unraised`, the same
/// program with its linalg ops not raised. Returns the process exit code.
int runAndBench(ModuleOp module, ModuleOp unraised) {
  SmallVector<func::FuncOp> entries = getEntryFunctions(module);
  if (entries.empty()) {
    module.emitError("no public function with a body to run");
    return 1;
  }
  SmallVector<SmallVector<dl::ArgumentSpec>> specs;
  // One function's buffers are live at a time; a --run copies them for the
  // reference.
  uint64_t available = dl::availableMemoryBytes();
  for (func::FuncOp fn : entries) {
    FailureOr<SmallVector<dl::ArgumentSpec>> fnSpecs = dl::getArgumentSpecs(fn);
    if (failed(fnSpecs) ||
        failed(dl::checkArgumentMemory(fn, *fnSpecs, run ? 2 : 1, available)))
      return 1;
    specs.push_back(std::move(*fnSpecs));
  }

  FailureOr<std::unique_ptr<dl::JitModule>> compiled =
      dl::jitCompile(module, getCompileOptions(pipeline));
  if (failed(compiled))
    return 1;
  std::unique_ptr<dl::JitModule> reference;
  if (run) {
    FailureOr<std::unique_ptr<dl::JitModule>> ref =
        dl::jitCompile(unraised, getCompileOptions(PipelineKind::Reference));
    if (failed(ref))
      return 1;
    reference = std::move(*ref);
  }

  bool allOk = true;
  SmallVector<FunctionReport> reports;
  for (auto [index, fn] : llvm::enumerate(entries)) {
    FunctionReport report;
    report.name = fn.getName().str();
    SmallVector<HostBuffer> args = dl::makeInputs(specs[index], seed + index);
    if (run) {
      if (failed((*compiled)->lookup(fn.getName())) ||
          failed(reference->lookup(fn.getName()))) {
        fn.emitError("cannot find the compiled function");
        return 1;
      }
      // A call fails only at a failed run-time check, whose message the
      // runner printed.
      SmallVector<HostBuffer> refArgs(args.begin(), args.end());
      auto start = std::chrono::steady_clock::now();
      bool referenceRan = succeeded(reference->call(fn.getName(), refArgs));
      report.referenceMs = std::chrono::duration<double, std::milli>(
                               std::chrono::steady_clock::now() - start)
                               .count();
      if (!referenceRan || failed((*compiled)->call(fn.getName(), args))) {
        emitError(fn.getLoc(), "stopped at a failed run-time check");
        return 1;
      }
      Comparison total;
      std::optional<double> absTol;
      if (atol >= 0.0)
        absTol = atol;
      for (auto [actual, expected] : llvm::zip(args, refArgs))
        total.merge(dl::compareBuffers(actual.values(), expected.values(), rtol,
                                       absTol));
      allOk &= total.ok();
      report.comparison = total;
    }
    if (bench) {
      FailureOr<void (*)(void **)> entry = (*compiled)->lookup(fn.getName());
      if (failed(entry)) {
        fn.emitError("cannot find the compiled function");
        return 1;
      }
      std::tie(report.medianMs, report.reps) =
          dl::timeFunction(*entry, args, getTimingOptions());
      report.flops = dl::countFlops(fn, specs[index]);
    }
    reports.push_back(std::move(report));
  }
  printReports(reports);
  return allOk ? 0 : 1;
}

/// --emit as the driver's output kind.
dl::OutputKind getOutputKind() {
  switch (emit) {
  case EmitKind::LLVM:
    return dl::OutputKind::LLVMIR;
  case EmitKind::Asm:
    return dl::OutputKind::Assembly;
  case EmitKind::Obj:
    return dl::OutputKind::Object;
  case EmitKind::Shared:
    return dl::OutputKind::SharedLibrary;
  case EmitKind::None:
  case EmitKind::MLIR:
    break;
  }
  return dl::OutputKind::MLIR;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  // Before the pass manager's options, so that
  // --mlir-print-ir-before/after=<pass> can name dl's passes.
  dl::registerAllDLPasses();
  registerPassManagerCLOptions();
  auto &registered = cl::getRegisteredOptions();
  if (auto it = registered.find("threads"); it != registered.end())
    it->second->removeArgument();
  cl::opt<unsigned, /*ExternalStorage=*/true> threadsOption(
      "threads",
      cl::desc("Threads the parallel loops use (default: all cores; 1 "
               "generates sequential code)"),
      cl::location(threads), cl::cat(category));
  // LLVM's backend flags and MLIR's --mlir-* options stay accepted but are
  // listed only by --help-hidden.
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "dl-compile: compile dl ops to native code, or run and time them\n\n"
      "  MLIR's options (--mlir-print-ir-after-all, --mlir-print-debuginfo,\n"
      "  ...) are accepted too; --help-hidden lists them.\n");
  if (!dl::parseRankingCost(rankingCost)) {
    llvm::errs() << "dl-compile: error: unknown --ranking-cost '" << rankingCost
                 << "' (expected 'traffic' or 'working-sets')\n";
    return 1;
  }

  DialectRegistry registry;
  dl::registerAllDLDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // A diagnostic's location points into the user's file; the op's generic
  // form after it (MLIR's default) only repeats it less readably.
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // Remarks only with --remarks (the newest handler sees diagnostics first).
  ScopedDiagnosticHandler dropRemarks(&context, [](Diagnostic &diag) {
    return success(!remarks &&
                   diag.getSeverity() == DiagnosticSeverity::Remark);
  });
  if (remarks)
    setenv("DL_RUNTIME_REMARKS", "1", /*overwrite=*/1);
  std::string error;
  auto input = openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "dl-compile: error: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  // A tensor program is run, timed and emitted in its buffer form, whose
  // signature (memrefs, results as trailing arguments) is the one callers
  // and the runner see. linalg ops are raised to dl ops before, on tensors,
  // where a zero fill or a bias broadcast into an output is a value. A --run
  // checks against the program not raised, its linalg ops lowered to loops.
  OwningOpRef<ModuleOp> reference = module->clone();
  if (failed(
          dl::prepareModule(*module,
                            /*raise=*/pipeline == PipelineKind::Optimized)) ||
      failed(dl::prepareModule(*reference, /*raise=*/false)))
    return 1;
  for (auto fn : module->getOps<func::FuncOp>()) {
    auto unraised = reference->lookupSymbol<func::FuncOp>(fn.getSymName());
    if (unraised && unraised.getFunctionType() != fn.getFunctionType())
      return fn.emitError() << "raising linalg ops changed the buffer form's "
                               "signature from "
                            << unraised.getFunctionType() << " to "
                            << fn.getFunctionType(),
             1;
  }

  if (autotuneTopK > 0 && pipeline == PipelineKind::Optimized) {
    dl::AutotuneOptions autotuneOptions;
    autotuneOptions.topK = autotuneTopK;
    autotuneOptions.seed = seed;
    autotuneOptions.timing = getTimingOptions();
    autotuneOptions.reportPath = autotuneReport;
    if (failed(dl::autotune(*module, getEntryFunctions(*module),
                            getCompileOptions(pipeline), autotuneOptions)))
      return 1;
  }
  if (!run && !bench && emit == EmitKind::None)
    emit = EmitKind::MLIR;
  if (run || bench) {
    int status = runAndBench(*module, *reference);
    if (status != 0 || emit == EmitKind::None)
      return status;
  }

  if (emit == EmitKind::Shared && outputFilename == "-")
    return module->emitError("--emit=shared needs -o <file>"), 1;
  std::optional<dl::CInterface> cInterface;
  if (!emitHeader.empty()) {
    if (emit != EmitKind::Shared)
      return module->emitError("--emit-header needs --emit=shared"), 1;
    FailureOr<dl::CInterface> interface =
        dl::getCInterface(*module, emitHeader);
    if (failed(interface))
      return 1;
    cInterface = std::move(*interface);
  }
  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  dl::addCompilePipeline(pm, getCompileOptions(pipeline));
  if (failed(pm.run(*module)))
    return 1;
  return failed(dl::emitModule(*module, getOutputKind(), outputFilename,
                               cInterface ? &*cInterface : nullptr))
             ? 1
             : 0;
}
