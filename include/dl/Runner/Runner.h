//===- Runner.h - JIT-run, check and time dl functions ----------*- C++ -*-===//
//
// What `dl-compile --run/--bench` is made of, as a library: concrete argument
// shapes for a function (dynamic sizes from `dl.run_shape`), deterministic
// input data, host buffers passed to JIT code as MLIR memref descriptors,
// element-wise comparison against a reference, FLOP counting from the dl ops,
// and a JIT-compiled module to call functions in.
//
//===----------------------------------------------------------------------===//

#ifndef DL_RUNNER_RUNNER_H
#define DL_RUNNER_RUNNER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace llvm {
class TargetMachine;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace mlir {
class ExecutionEngine;
class OpPassManager;
namespace func {
class FuncOp;
} // namespace func

namespace dl {

/// Name of the argument attribute giving the sizes `--run`/`--bench` use for
/// a memref argument with dynamic sizes (`array<i64: ...>`, one per dim).
constexpr llvm::StringLiteral kRunShapeAttrName = "dl.run_shape";

/// How to fill one argument before a run.
struct ArgumentSpec {
  SmallVector<int64_t> shape;
  /// Values must be positive (e.g. a variance): drawn from [0.5, 1.5)
  /// instead of [-1, 1).
  bool positive = false;
};

/// Concrete shapes of `func`'s arguments. Fails with a diagnostic on the
/// function when an argument is not an f32 memref with the identity layout,
/// when a dynamic size has no `dl.run_shape`, or when the function returns
/// values.
FailureOr<SmallVector<ArgumentSpec>> getArgumentSpecs(func::FuncOp func);

/// Bytes of memory a process may still allocate: the kernel's estimate of
/// available memory (MemAvailable), capped by the address-space limit.
uint64_t availableMemoryBytes();

/// Fails with a diagnostic on `func` when its arguments, each held
/// `copies` times (a --run keeps a second copy for the reference), would
/// not fit `availableBytes`, or when a size overflows: which argument is
/// largest, its size, the total and what is available.
LogicalResult checkArgumentMemory(func::FuncOp func,
                                  ArrayRef<ArgumentSpec> specs, unsigned copies,
                                  uint64_t availableBytes);

/// An f32 host buffer, row-major, passed to JIT code as a memref descriptor.
/// The data is 64-byte aligned (a cache line, as oneDNN aligns its buffers):
/// malloc's 16-byte alignment would make every channel block of a blocked
/// layout straddle cache lines and penalize the timed code.
class HostBuffer {
public:
  explicit HostBuffer(ArrayRef<int64_t> shape);
  // Copies own their data; the descriptor always points at this buffer's.
  HostBuffer(const HostBuffer &other);
  HostBuffer &operator=(const HostBuffer &other);
  HostBuffer(HostBuffer &&) = default;
  HostBuffer &operator=(HostBuffer &&) = default;

  /// Fills with values from a fixed pseudo-random sequence of `seed`:
  /// uniform in [-1, 1), or in [0.5, 1.5) when `positive`.
  void fillDeterministic(uint64_t seed, bool positive);

  ArrayRef<float> values() const { return {data.get(), size}; }
  MutableArrayRef<float> values() { return {data.get(), size}; }
  ArrayRef<int64_t> getShape() const { return descriptor.sizes; }

  /// Appends, for ExecutionEngine's packed calling convention, one pointer
  /// per field of the expanded memref descriptor (allocated, aligned,
  /// offset, sizes..., strides...).
  void appendPackedArguments(SmallVectorImpl<void *> &args);

private:
  void initDescriptor(SmallVector<int64_t> shape);

  struct FreeDeleter {
    void operator()(float *pointer) const { std::free(pointer); }
  };
  void allocate(size_t elements);

  std::unique_ptr<float[], FreeDeleter> data;
  size_t size = 0;
  struct {
    float *allocated = nullptr;
    float *aligned = nullptr;
    int64_t offset = 0;
    SmallVector<int64_t> sizes;
    SmallVector<int64_t> strides;
  } descriptor;
};

/// Result of comparing a buffer with its reference.
struct Comparison {
  double maxAbsErr = 0.0;
  /// Max of |actual - ref| / |ref| over elements with |ref| at least 1e-3 of
  /// the largest |ref| (elements near zero are judged by the absolute part).
  double maxRelErr = 0.0;
  int64_t mismatches = 0;
  bool ok() const { return mismatches == 0; }
  /// Merges the comparison of another buffer.
  void merge(const Comparison &other);
};

/// Compares element-wise: an element matches when
/// `|actual - ref| <= atol + rtol * |ref|`, where `atol` defaults to
/// `rtol * max|ref|` (errors are judged relative to the buffer's scale) when
/// not given. NaN matches only NaN.
Comparison compareBuffers(ArrayRef<float> actual, ArrayRef<float> reference,
                          double rtol, std::optional<double> atol);

/// Floating-point operations of one call of `func` with `args`, counted from
/// its dl ops before lowering: 2*M*N*K for matmul, 2 per multiply-add of a
/// convolution, per element 4 for inference batch norm, 8 for training batch
/// norm, 1 for relu/add/bias_add, 2 for relu6, 0 for pack/unpack (each op's
/// getFlops, OpWork.h). Returns std::nullopt when an operand's sizes cannot
/// be resolved.
std::optional<double> countFlops(func::FuncOp func,
                                 ArrayRef<ArgumentSpec> args);

/// Registers the translations of the dialects dl's pipelines end in (LLVM,
/// builtin, OpenMP) to LLVM IR.
void registerLLVMTranslations(MLIRContext &context);

/// The shared libraries generated code calls into: libDLRuntime (the
/// microkernels) and libomp (parallel loops).
SmallVector<std::string> getRuntimeLibraries();

/// A module lowered by a pipeline and JIT-compiled for the host CPU, with the
/// runtime libraries loaded.
class JitModule {
public:
  ~JitModule();
  /// Clones `module`, runs `buildPipeline` on the clone (it must end in the
  /// LLVM dialect) and JIT-compiles it at LLVM -O3 for the host. Diagnostics
  /// go to the module's context. With `objectCode`, the whole module is
  /// compiled at once and its object code returned there (for `load`); with
  /// `progress`, the steps are printed to stderr.
  static FailureOr<std::unique_ptr<JitModule>>
  create(ModuleOp module,
         const std::function<void(OpPassManager &)> &buildPipeline,
         std::string *objectCode = nullptr, bool progress = false);

  /// Loads object code that `create` returned, on this host, with the
  /// runtime libraries. Fails with a diagnostic at `loc`.
  static FailureOr<std::unique_ptr<JitModule>> load(StringRef objectCode,
                                                    Location loc);

  /// Calls `name` with one memref argument per buffer. Fails when there is
  /// no such function, or when the code stopped at a failed run-time check
  /// (its message went to stderr; the buffers may be partly written).
  LogicalResult call(StringRef name, MutableArrayRef<HostBuffer> args);

  /// Calls `name` with ExecutionEngine's packed arguments (one pointer per
  /// field of each expanded memref descriptor), failing as `call` does.
  LogicalResult callPacked(StringRef name, void **packed);

  /// The packed entry point of `name` (for timing without lookups). The
  /// JIT's symbol lookup takes about a microsecond, so each name's entry
  /// point is looked up once and kept.
  FailureOr<void (*)(void **)> lookup(StringRef name);

  /// Whether the code was loaded as object code (`load`), not compiled.
  bool isLoaded() const { return loaded != nullptr; }

private:
  JitModule() = default;
  /// The code: compiled from IR by MLIR's ExecutionEngine (`create`), or
  /// object code linked by a bare LLJIT (`load`).
  std::unique_ptr<ExecutionEngine> engine;
  std::unique_ptr<llvm::orc::LLJIT> loaded;
  /// The entry points looked up so far (calls may come from several
  /// threads at once).
  llvm::StringMap<void (*)(void **)> entryPoints;
  std::mutex entryPointsMutex;
};

/// Creates a TargetMachine for the host CPU (all its features), at -O3;
/// position-independent with the small code model when `forObjectFile` (the
/// JIT's default large code model does not link into shared libraries).
/// Initializes the native target on first use.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(bool forObjectFile = false);

} // namespace dl
} // namespace mlir

#endif // DL_RUNNER_RUNNER_H
