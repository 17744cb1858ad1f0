//===- DL.cpp - C API of the dl compiler ------------------------*- C++ -*-===//
//
// dl-c/DL.h over the driver library (Driver.h): options, compilation to the
// LLVM dialect or a shared library, and JIT calls on caller-owned buffers,
// whose signatures are checked against the function's buffer form first.
//
//===----------------------------------------------------------------------===//

#include "dl-c/DL.h"
#include "dl/Driver/Driver.h"
#include "dl/InitAllDL.h"
#include "dl/Support/DiskCache.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Wrap.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace {
/// A JIT-compiled module and the argument shapes of its public functions'
/// buffer forms (a dynamic size is ShapedType::kDynamic).
struct Executable {
  std::unique_ptr<dl::JitModule> jit;
  llvm::StringMap<SmallVector<SmallVector<int64_t>>> signatures;
  /// Per public function, the trailing arguments that hold its results.
  llvm::StringMap<intptr_t> numResults;
  /// The public functions in the module's order.
  SmallVector<std::string> functions;
  MLIRContext *context;

  /// The argument shapes of `name`, null when there is no such function.
  const SmallVector<SmallVector<int64_t>> *lookup(StringRef name) const {
    auto it = signatures.find(name);
    return it == signatures.end() ? nullptr : &it->second;
  }
};
} // namespace

DEFINE_C_API_PTR_METHODS(DlCompileOptions, dl::CompileOptions)
DEFINE_C_API_PTR_METHODS(DlExecutable, Executable)

void dlRegisterAllDialects(MlirDialectRegistry registry) {
  dl::registerAllDLDialects(*unwrap(registry));
}

void dlRegisterAllPasses(void) { dl::registerAllDLPasses(); }

DlCompileOptions dlCompileOptionsCreate(void) {
  return wrap(new dl::CompileOptions());
}
void dlCompileOptionsDestroy(DlCompileOptions options) {
  delete unwrap(options);
}
void dlCompileOptionsSetThreads(DlCompileOptions options, unsigned threads) {
  unwrap(options)->threads = threads;
}
void dlCompileOptionsSetReference(DlCompileOptions options, bool reference) {
  unwrap(options)->reference = reference;
}
void dlCompileOptionsSetMicrokernels(DlCompileOptions options,
                                     bool microkernels) {
  unwrap(options)->microkernels = microkernels;
}
void dlCompileOptionsSetRank(DlCompileOptions options, bool rank) {
  unwrap(options)->rank = rank;
}
void dlCompileOptionsSetSolveTiles(DlCompileOptions options, bool solveTiles) {
  unwrap(options)->solveTiles = solveTiles;
}
void dlCompileOptionsSetVersioning(DlCompileOptions options, bool versioning) {
  unwrap(options)->versioning = versioning;
}
void dlCompileOptionsSetRemarks(DlCompileOptions options, bool remarks) {
  unwrap(options)->remarks = remarks;
}
void dlCompileOptionsSetCacheSizes(DlCompileOptions options,
                                   MlirStringRef spec) {
  unwrap(options)->cacheSizes = unwrap(spec).str();
}

void dlCompileOptionsSetCacheDirectory(DlCompileOptions options,
                                       MlirStringRef directory) {
  unwrap(options)->cacheDirectory = unwrap(directory).str();
}

MlirStringRef dlGetDefaultCacheDirectory(void) {
  static std::string directory;
  directory = dl::DiskCache::getDefaultDirectory();
  return mlirStringRefCreate(directory.data(), directory.size());
}

void dlCompileOptionsSetProgress(DlCompileOptions options, bool progress) {
  unwrap(options)->progress = progress;
}

/// The front end of `options`' pipeline (the reference lowering raises
/// nothing).
static LogicalResult prepare(ModuleOp module,
                             const dl::CompileOptions &options) {
  return dl::prepareModule(module, /*raise=*/!options.reference);
}

MlirLogicalResult dlCompileModule(MlirModule module, DlCompileOptions options) {
  ModuleOp op = unwrap(module);
  return wrap(success(succeeded(prepare(op, *unwrap(options))) &&
                      succeeded(dl::lowerModule(op, *unwrap(options)))));
}

/// A copy of `module` compiled into the shared library `path`, with the C
/// interface of header `headerPath` where it is not empty.
static LogicalResult compileToSharedLibrary(MlirModule module,
                                            const dl::CompileOptions &options,
                                            StringRef path,
                                            StringRef headerPath) {
  OwningOpRef<ModuleOp> copy = unwrap(module).clone();
  if (failed(prepare(*copy, options)))
    return failure();
  std::optional<dl::CInterface> interface;
  if (!headerPath.empty()) {
    FailureOr<dl::CInterface> built = dl::getCInterface(*copy, headerPath);
    if (failed(built))
      return failure();
    interface = std::move(*built);
  }
  return success(
      succeeded(dl::lowerModule(*copy, options)) &&
      succeeded(dl::emitModule(*copy, dl::OutputKind::SharedLibrary, path,
                               interface ? &*interface : nullptr)));
}

MlirLogicalResult dlCompileToSharedLibrary(MlirModule module,
                                           DlCompileOptions options,
                                           MlirStringRef path) {
  return wrap(
      compileToSharedLibrary(module, *unwrap(options), unwrap(path), ""));
}

MlirLogicalResult dlCompileToSharedLibraryWithHeader(MlirModule module,
                                                     DlCompileOptions options,
                                                     MlirStringRef path,
                                                     MlirStringRef headerPath) {
  return wrap(compileToSharedLibrary(module, *unwrap(options), unwrap(path),
                                     unwrap(headerPath)));
}

/// The public functions with a body.
static auto getPublicFunctions(ModuleOp module) {
  return llvm::make_filter_range(
      module.getOps<func::FuncOp>(),
      [](func::FuncOp fn) { return fn.isPublic() && !fn.isExternal(); });
}

DlExecutable dlExecutableCreate(MlirModule module, DlCompileOptions options) {
  auto executable = std::make_unique<Executable>();
  // Bufferization appends the results as arguments.
  for (func::FuncOp fn : getPublicFunctions(unwrap(module)))
    executable->numResults[fn.getName()] =
        -static_cast<intptr_t>(fn.getNumArguments());
  OwningOpRef<ModuleOp> copy = unwrap(module).clone();
  if (failed(prepare(*copy, *unwrap(options))))
    return {nullptr};
  executable->context = copy->getContext();
  for (func::FuncOp fn : getPublicFunctions(*copy)) {
    executable->functions.push_back(fn.getName().str());
    executable->numResults[fn.getName()] += fn.getNumArguments();
    auto &shapes = executable->signatures[fn.getName()];
    for (Type type : fn.getArgumentTypes()) {
      auto memref = dyn_cast<MemRefType>(type);
      shapes.push_back(memref ? llvm::to_vector(memref.getShape())
                              : SmallVector<int64_t>{});
    }
  }
  FailureOr<std::unique_ptr<dl::JitModule>> jit =
      dl::jitCompile(*copy, *unwrap(options));
  if (failed(jit))
    return {nullptr};
  executable->jit = std::move(*jit);
  return wrap(executable.release());
}

void dlExecutableDestroy(DlExecutable executable) { delete unwrap(executable); }

intptr_t dlExecutableGetNumArguments(DlExecutable executable,
                                     MlirStringRef name) {
  const auto *shapes = unwrap(executable)->lookup(unwrap(name));
  return shapes ? static_cast<intptr_t>(shapes->size()) : -1;
}

bool dlExecutableIsFromCache(DlExecutable executable) {
  return unwrap(executable)->jit->isLoaded();
}

intptr_t dlExecutableGetNumFunctions(DlExecutable executable) {
  return unwrap(executable)->functions.size();
}

MlirStringRef dlExecutableGetFunctionName(DlExecutable executable,
                                          intptr_t position) {
  const std::string &name = unwrap(executable)->functions[position];
  return mlirStringRefCreate(name.data(), name.size());
}

intptr_t dlExecutableGetNumResults(DlExecutable executable,
                                   MlirStringRef name) {
  Executable &exec = *unwrap(executable);
  return exec.lookup(unwrap(name)) ? exec.numResults.lookup(unwrap(name)) : -1;
}

/// The shape of argument `position` of `name`, null when there is none.
static const SmallVector<int64_t> *
lookupArgument(DlExecutable executable, MlirStringRef name, intptr_t position) {
  const auto *shapes = unwrap(executable)->lookup(unwrap(name));
  if (!shapes || position < 0 ||
      position >= static_cast<intptr_t>(shapes->size()))
    return nullptr;
  return &(*shapes)[position];
}

intptr_t dlExecutableGetArgumentRank(DlExecutable executable,
                                     MlirStringRef name, intptr_t position) {
  const SmallVector<int64_t> *shape =
      lookupArgument(executable, name, position);
  return shape ? static_cast<intptr_t>(shape->size()) : -1;
}

int64_t dlExecutableGetArgumentSize(DlExecutable executable, MlirStringRef name,
                                    intptr_t position, intptr_t dim) {
  const SmallVector<int64_t> *shape =
      lookupArgument(executable, name, position);
  if (!shape || dim < 0 || dim >= static_cast<intptr_t>(shape->size()))
    return -1;
  int64_t size = (*shape)[dim];
  return ShapedType::isDynamic(size) ? DL_DYNAMIC_SIZE : size;
}

MlirLogicalResult dlExecutableCall(DlExecutable executable, MlirStringRef name,
                                   const DlBuffer *arguments,
                                   intptr_t numArguments) {
  Executable &exec = *unwrap(executable);
  StringRef function = unwrap(name);
  auto error = [&]() {
    return emitError(UnknownLoc::get(exec.context))
           << "dlExecutableCall: @" << function << ": ";
  };
  auto it = exec.signatures.find(function);
  if (it == exec.signatures.end())
    return error() << "no such public function", wrap(failure());
  ArrayRef<SmallVector<int64_t>> shapes = it->second;
  if (numArguments != static_cast<intptr_t>(shapes.size()))
    return error() << numArguments << " arguments for " << shapes.size(),
           wrap(failure());
  // The expanded memref descriptors (allocated and aligned pointers, offset,
  // sizes, strides) and a pointer to each of their fields.
  struct Descriptor {
    float *allocated, *aligned;
    int64_t offset = 0;
    SmallVector<int64_t> sizes, strides;
  };
  SmallVector<Descriptor> descriptors(numArguments);
  SmallVector<void *> packed;
  for (auto [i, shape] : llvm::enumerate(shapes)) {
    const DlBuffer &buffer = arguments[i];
    if (buffer.rank != static_cast<int64_t>(shape.size()) ||
        (buffer.rank > 0 && !buffer.sizes))
      return error() << "argument #" << i << " has rank " << buffer.rank
                     << ", expected " << shape.size(),
             wrap(failure());
    Descriptor &d = descriptors[i];
    d.allocated = d.aligned = buffer.data;
    d.sizes.assign(buffer.sizes, buffer.sizes + buffer.rank);
    for (auto [dim, size] : llvm::enumerate(d.sizes))
      if (!ShapedType::isDynamic(shape[dim]) && shape[dim] != size)
        return error() << "argument #" << i << " has size " << size
                       << " in dimension " << dim << ", expected "
                       << shape[dim],
               wrap(failure());
    d.strides.assign(buffer.rank, 1);
    for (int64_t dim = buffer.rank - 2; dim >= 0; --dim)
      d.strides[dim] = d.strides[dim + 1] * d.sizes[dim + 1];
    packed.append({&d.allocated, &d.aligned, &d.offset});
    for (int64_t &size : d.sizes)
      packed.push_back(&size);
    for (int64_t &stride : d.strides)
      packed.push_back(&stride);
  }
  if (failed(exec.jit->callPacked(function, packed.data())))
    return error() << "stopped at a failed run-time check", wrap(failure());
  return wrap(success());
}
