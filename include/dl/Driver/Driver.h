//===- Driver.h - compile, emit, JIT and autotune dl modules ----*- C++ -*-===//
//
// The compiler driver as a library: what dl-compile, the C API and the
// Python package call. A module of dl (and linalg) ops, on tensors or
// buffers, is prepared (linalg raised, tensors bufferized), lowered by the
// dl-to-llvm pipeline (or the reference lowering) with the options of a
// CompileOptions, and emitted (LLVM dialect, LLVM IR, assembly, an object
// file, a shared library) or JIT-compiled. Autotuning times the best-ranked
// schedules on this machine.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DRIVER_DRIVER_H
#define DL_DRIVER_DRIVER_H

#include "dl/Pipelines/Pipelines.h"
#include "dl/Runner/Runner.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace dl {

/// How a module is compiled: the options of the dl-to-llvm pipeline
/// (Pipelines.h documents each), or the reference lowering.
struct CompileOptions {
  /// The plain reference lowering instead of dl-to-llvm (no linalg raising).
  bool reference = false;
  /// Threads of the parallel loops; 0: all cores of this machine.
  unsigned threads = 0;
  bool microkernels = true;
  bool fuse = true;
  bool prefetch = true;
  bool versioning = true;
  int64_t maxVersions = kDefaultMaxVersions;
  bool rank = true;
  bool solveTiles = false;
  std::string tileReport;
  std::string cacheSizes;
  std::string machineFile;
  std::string rankingCost = "traffic";
  std::string rankingReport;
  /// The target (dl-set-target): -1, 0 and "" keep the module's dl.target,
  /// or this machine's values.
  int64_t maxBatchBytes = -1;
  int64_t vectorBits = 0;
  /// Remark on every fallback (the pipeline's report-fallbacks).
  bool remarks = false;
  /// Where compilations keep what later ones reuse (DiskCache): the
  /// ranking's schedules, and the JIT's code per module (jitCompile).
  /// Empty: nothing is kept.
  std::string cacheDirectory;
  /// Print the progress of long compilations to stderr: a line per ranked
  /// op, and the JIT's steps.
  bool progress = false;

  /// `threads`, or the cores of this machine.
  unsigned getThreadCount() const;
};

/// Adds the pipeline `options` describe to `pm` (anchored on a module).
void addCompilePipeline(OpPassManager &pm, const CompileOptions &options);

/// The front end every way in runs first: raises linalg ops to dl ops
/// (`raise`: convert-linalg-to-dl) and turns a tensor program into its
/// buffer form (dl-bufferize), whose signatures (memrefs, results as
/// trailing arguments) are the ones generated code has.
LogicalResult prepareModule(ModuleOp module, bool raise);

/// Lowers a prepared `module` to the LLVM dialect, in place.
LogicalResult lowerModule(ModuleOp module, const CompileOptions &options);

enum class OutputKind { MLIR, LLVMIR, Assembly, Object, SharedLibrary };

/// A public function of a prepared module, as its C interface passes it:
/// per argument, a row-major contiguous f32 array of these sizes
/// (ShapedType::kDynamic where the caller says).
struct CFunction {
  std::string name;
  SmallVector<SmallVector<int64_t>> argumentShapes;
};

/// The C interface a shared library gets with a header (dl-compile
/// --emit-header): for each function, `<prefix>_<name>(data, sizes...)`
/// returning 0 or an error status, and `<prefix>_last_error()`.
struct CInterface {
  std::string headerPath;
  /// A C identifier (getCInterface makes one from the header's name).
  std::string prefix;
  SmallVector<CFunction> functions;
};

/// The public functions of a prepared `module` (buffer form); fails, with a
/// diagnostic, on an argument that is not an f32 memref of the identity
/// layout.
FailureOr<SmallVector<CFunction>> getCFunctions(ModuleOp module);

/// The C interface of a prepared `module` whose header is `headerPath`; its
/// prefix is a C identifier from the header's stem ("out/my-model.h" ->
/// "my_model"). Fails as getCFunctions does.
FailureOr<CInterface> getCInterface(ModuleOp module, StringRef headerPath);

/// Writes `module`, in the LLVM dialect, as `kind` to `path` ("-": stdout,
/// not for a shared library), optimized at -O3 for this host. A shared
/// library links libDLRuntime and libomp with their directories as rpath;
/// with `cInterface`, it also holds the interface's functions (a failed
/// run-time check or allocation in them returns an error status instead of
/// aborting) and the header is written.
LogicalResult emitModule(ModuleOp module, OutputKind kind, StringRef path,
                         const CInterface *cInterface = nullptr);

/// A prepared module JIT-compiled with `options`' pipeline.
FailureOr<std::unique_ptr<JitModule>> jitCompile(ModuleOp module,
                                                 const CompileOptions &options);

/// How a function is timed: untimed warm-up calls, then at least `minReps`
/// calls and `minSeconds` seconds.
struct TimingOptions {
  unsigned warmup = 2;
  unsigned minReps = 5;
  double minSeconds = 0.5;
};

/// Buffers for `specs`, filled with the deterministic data of `seed`.
SmallVector<HostBuffer> makeInputs(ArrayRef<ArgumentSpec> specs, uint64_t seed);

/// The median milliseconds of calling `fn` on `args`, and the calls timed.
std::pair<double, unsigned> timeFunction(void (*fn)(void **),
                                         MutableArrayRef<HostBuffer> args,
                                         const TimingOptions &timing);

/// Autotuning: the `topK` best-ranked schedules of every heavy op, timed.
struct AutotuneOptions {
  unsigned topK = 0;
  uint64_t seed = 42;
  TimingOptions timing;
  /// Where to write each timed variant as JSON (empty: nowhere).
  std::string reportPath;
};

/// Ranks the variants of every open heavy op of the prepared `module`, times
/// the module's `entries` with the v-th best variant of each op for v < K,
/// and sets the fastest candidate's schedules on `module` (progress on
/// stderr). Fails after a diagnostic.
LogicalResult autotune(ModuleOp module, ArrayRef<func::FuncOp> entries,
                       const CompileOptions &options,
                       const AutotuneOptions &autotuneOptions);

} // namespace dl
} // namespace mlir

#endif // DL_DRIVER_DRIVER_H
