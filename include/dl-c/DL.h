/*===-- dl-c/DL.h - C API of the dl compiler ----------------------*- C -*-===*\
|*                                                                            *|
|* dl from C with MLIR's C API types (MlirContext, MlirModule, ...): register *|
|* the dl dialect and passes, compile a module (dl and linalg ops, tensors or *|
|* buffers) in place to the LLVM dialect or to a shared library, or JIT it    *|
|* and call its functions on f32 buffers. Diagnostics go to the context's     *|
|* handlers (mlirContextAttachDiagnosticHandler). Opaque handles follow       *|
|* MLIR's conventions: dlXxxCreate / dlXxxDestroy, dlXxxIsNull.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DL_C_DL_H
#define DL_C_DL_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DEFINE_C_API_STRUCT(name, storage)                                     \
  struct name {                                                                \
    storage *ptr;                                                              \
  };                                                                           \
  typedef struct name name

/// How a module is compiled (defaults as dl-compile's).
DEFINE_C_API_STRUCT(DlCompileOptions, void);
/// A module JIT-compiled in this process.
DEFINE_C_API_STRUCT(DlExecutable, void);

#undef DEFINE_C_API_STRUCT

/// Registers the dialects the dl pipelines use, with the interfaces
/// bufferization needs, in `registry`.
MLIR_CAPI_EXPORTED void dlRegisterAllDialects(MlirDialectRegistry registry);

/// Registers dl's passes and pipelines (dl-to-llvm, ...) by name.
MLIR_CAPI_EXPORTED void dlRegisterAllPasses(void);

//===----------------------------------------------------------------------===//
// Compile options
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED DlCompileOptions dlCompileOptionsCreate(void);
MLIR_CAPI_EXPORTED void dlCompileOptionsDestroy(DlCompileOptions options);
/// Threads of the generated code (0, the default: all cores).
MLIR_CAPI_EXPORTED void dlCompileOptionsSetThreads(DlCompileOptions options,
                                                   unsigned threads);
/// The plain reference lowering instead of the optimizing pipeline.
MLIR_CAPI_EXPORTED void dlCompileOptionsSetReference(DlCompileOptions options,
                                                     bool reference);
/// LIBXSMM microkernels (default: on).
MLIR_CAPI_EXPORTED void
dlCompileOptionsSetMicrokernels(DlCompileOptions options, bool microkernels);
/// Schedules ranked by the working-set model (default: on).
MLIR_CAPI_EXPORTED void dlCompileOptionsSetRank(DlCompileOptions options,
                                                bool rank);
/// The tile solver's candidates (Ipopt) in the ranking (default: off).
MLIR_CAPI_EXPORTED void dlCompileOptionsSetSolveTiles(DlCompileOptions options,
                                                      bool solveTiles);
/// Static versions of ops with a dynamic batch (default: on).
MLIR_CAPI_EXPORTED void dlCompileOptionsSetVersioning(DlCompileOptions options,
                                                      bool versioning);
/// Remarks on every fallback (default: off).
MLIR_CAPI_EXPORTED void dlCompileOptionsSetRemarks(DlCompileOptions options,
                                                   bool remarks);
/// Cache capacities, e.g. "L1=48K,L2=1M" (default: this machine's).
MLIR_CAPI_EXPORTED void dlCompileOptionsSetCacheSizes(DlCompileOptions options,
                                                      MlirStringRef spec);
/// A directory where compilations keep the ranking's schedules and the
/// generated code, and take them from in later compilations by the same
/// build of dl on the same machine (default: "", nothing kept).
MLIR_CAPI_EXPORTED void
dlCompileOptionsSetCacheDirectory(DlCompileOptions options,
                                  MlirStringRef directory);
/// The directory the Python package keeps compilations in: $DL_CACHE_DIR,
/// else dl/ in the user's cache directory ($XDG_CACHE_HOME or ~/.cache);
/// empty when there is neither. Valid until the next call.
MLIR_CAPI_EXPORTED MlirStringRef dlGetDefaultCacheDirectory(void);
/// Progress of long compilations printed to stderr (default: off).
MLIR_CAPI_EXPORTED void dlCompileOptionsSetProgress(DlCompileOptions options,
                                                    bool progress);

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

/// Compiles `module` in place: linalg raised, tensors bufferized (a tensor
/// function's results become trailing memref arguments, or are dropped when
/// they are an `outs` argument), then the pipeline to the LLVM dialect.
MLIR_CAPI_EXPORTED MlirLogicalResult dlCompileModule(MlirModule module,
                                                     DlCompileOptions options);

/// Compiles a copy of `module` into the shared library `path`, which links
/// dl's runtime. Its functions take expanded memref descriptors.
MLIR_CAPI_EXPORTED MlirLogicalResult dlCompileToSharedLibrary(
    MlirModule module, DlCompileOptions options, MlirStringRef path);

/// As dlCompileToSharedLibrary, and writes the C header `headerPath` of
/// functions the library also holds, `<name>_<function>(data, sizes...)`,
/// which return an error status (and `<name>_last_error()`) where the
/// functions above would abort (`<name>`: the header's file name; see
/// dl-compile --emit-header).
MLIR_CAPI_EXPORTED MlirLogicalResult dlCompileToSharedLibraryWithHeader(
    MlirModule module, DlCompileOptions options, MlirStringRef path,
    MlirStringRef headerPath);

//===----------------------------------------------------------------------===//
// JIT
//===----------------------------------------------------------------------===//

/// An f32 buffer, row-major and contiguous, of `rank` sizes.
typedef struct DlBuffer {
  float *data;
  int64_t rank;
  const int64_t *sizes;
} DlBuffer;

/// JIT-compiles a copy of `module`; null (after diagnostics) on failure.
MLIR_CAPI_EXPORTED DlExecutable dlExecutableCreate(MlirModule module,
                                                   DlCompileOptions options);
MLIR_CAPI_EXPORTED void dlExecutableDestroy(DlExecutable executable);
static inline bool dlExecutableIsNull(DlExecutable executable) {
  return !executable.ptr;
}

/// The number of arguments of public function `name` in its buffer form,
/// -1 when there is no such function.
MLIR_CAPI_EXPORTED intptr_t dlExecutableGetNumArguments(DlExecutable executable,
                                                        MlirStringRef name);

/// Whether the code was taken from the cache directory, not compiled.
MLIR_CAPI_EXPORTED bool dlExecutableIsFromCache(DlExecutable executable);

/// The number of public functions, and the name of the `position`-th (in
/// the module's order; valid as long as the executable).
MLIR_CAPI_EXPORTED intptr_t
dlExecutableGetNumFunctions(DlExecutable executable);
MLIR_CAPI_EXPORTED MlirStringRef
dlExecutableGetFunctionName(DlExecutable executable, intptr_t position);

/// How many of the trailing arguments of public function `name`'s buffer
/// form hold its results (a tensor function's results, which bufferization
/// appends as arguments); -1 when there is no such function.
MLIR_CAPI_EXPORTED intptr_t dlExecutableGetNumResults(DlExecutable executable,
                                                      MlirStringRef name);

/// A size that is only known when the function is called.
#define DL_DYNAMIC_SIZE (-1)

/// The rank of argument `position` of public function `name`'s buffer form;
/// -1 when there is no such function or argument.
MLIR_CAPI_EXPORTED intptr_t dlExecutableGetArgumentRank(DlExecutable executable,
                                                        MlirStringRef name,
                                                        intptr_t position);

/// Its size in dimension `dim` (DL_DYNAMIC_SIZE when dynamic); -1 also when
/// there is no such function, argument or dimension.
MLIR_CAPI_EXPORTED int64_t dlExecutableGetArgumentSize(DlExecutable executable,
                                                       MlirStringRef name,
                                                       intptr_t position,
                                                       intptr_t dim);

/// Calls public function `name` with one buffer per argument of its buffer
/// form. Fails, with a diagnostic and without running it, on an unknown
/// function or arguments that do not fit its signature (count, ranks,
/// static sizes); fails when the code stops at a failed run-time size check
/// (its message on stderr). The process keeps running in both cases.
MLIR_CAPI_EXPORTED MlirLogicalResult dlExecutableCall(DlExecutable executable,
                                                      MlirStringRef name,
                                                      const DlBuffer *arguments,
                                                      intptr_t numArguments);

#ifdef __cplusplus
}
#endif

#endif // DL_C_DL_H
