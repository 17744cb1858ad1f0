//===- Runner.cpp - JIT-run, check and time dl functions --------*- C++ -*-===//
//
// Argument shapes and data, host buffers in MLIR's memref descriptor layout,
// comparison against a reference, and JIT compilation of a lowered module.
// MLIR's ExecutionEngine does the JIT; this file adapts host data to its
// packed calling convention, and links the object code it generated again
// (a compilation kept on disk) the way it does.
//
//===----------------------------------------------------------------------===//

#include "dl/Runner/Runner.h"
#include "dl-runtime/DLRuntime.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/IR/OpWork.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <iterator>
#include <limits>

#include <sys/resource.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::dl;

//===----------------------------------------------------------------------===//
// Argument specs
//===----------------------------------------------------------------------===//

/// True when `arg` feeds the variance operand of an inference batch norm,
/// whose values must be positive for the result to be defined.
static bool needsPositiveValues(BlockArgument arg) {
  return llvm::any_of(arg.getUses(), [](OpOperand &use) {
    auto bn = dyn_cast<BatchNormInferenceOp>(use.getOwner());
    return bn && use.get() == bn.getVariance();
  });
}

FailureOr<SmallVector<ArgumentSpec>>
mlir::dl::getArgumentSpecs(func::FuncOp func) {
  if (func.getNumResults() != 0)
    return func.emitError()
           << "function returns values; dl functions write their results "
              "into memref arguments";
  SmallVector<ArgumentSpec> specs;
  for (BlockArgument arg : func.getArguments()) {
    unsigned i = arg.getArgNumber();
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.getElementType().isF32() ||
        !type.getLayout().isIdentity())
      return func.emitError()
             << "argument #" << i << " has type " << arg.getType()
             << "; only f32 memrefs with the identity layout can be run";
    ArgumentSpec spec;
    spec.shape = llvm::to_vector(type.getShape());
    if (!type.hasStaticShape()) {
      auto runShape =
          func.getArgAttrOfType<DenseI64ArrayAttr>(i, kRunShapeAttrName);
      if (!runShape)
        return func.emitError() << "argument #" << i << " has dynamic sizes ("
                                << type << "); give the sizes to run with as {"
                                << kRunShapeAttrName << " = array<i64: ...>}";
      spec.shape = llvm::to_vector(runShape.asArrayRef());
    }
    spec.positive = needsPositiveValues(arg);
    specs.push_back(std::move(spec));
  }
  return specs;
}

uint64_t mlir::dl::availableMemoryBytes() {
  uint64_t available = std::numeric_limits<uint64_t>::max();
  if (std::FILE *meminfo = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    unsigned long long kib;
    while (std::fgets(line, sizeof(line), meminfo))
      if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
        available = static_cast<uint64_t>(kib) * 1024;
    std::fclose(meminfo);
  }
  if (available == std::numeric_limits<uint64_t>::max()) {
    long pages = sysconf(_SC_AVPHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
      available = static_cast<uint64_t>(pages) * pageSize;
  }
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    available = std::min<uint64_t>(available, limit.rlim_cur);
  return available;
}

/// `bytes` in the largest binary unit that keeps it at least 1.
static std::string formatBytes(uint64_t bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  unsigned unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  return unit == 0 ? llvm::formatv("{0} bytes", bytes).str()
                   : llvm::formatv("{0:f1} {1}", value, units[unit]).str();
}

LogicalResult mlir::dl::checkArgumentMemory(func::FuncOp func,
                                            ArrayRef<ArgumentSpec> specs,
                                            unsigned copies,
                                            uint64_t availableBytes) {
  int64_t total = 0, largest = 0;
  unsigned largestArg = 0;
  for (auto [i, spec] : llvm::enumerate(specs)) {
    int64_t bytes = sizeof(float), held;
    for (int64_t extent : spec.shape)
      if (extent < 0 || llvm::MulOverflow(bytes, extent, bytes))
        return func.emitError()
               << "argument #" << i << " of " << func.getArgumentTypes()[i]
               << " has more bytes than a 64-bit size can count";
    if (llvm::MulOverflow(bytes, static_cast<int64_t>(copies), held) ||
        llvm::AddOverflow(total, held, total))
      return func.emitError() << "the arguments have more bytes than a "
                                 "64-bit size can count";
    if (bytes > largest) {
      largest = bytes;
      largestArg = i;
    }
  }
  if (static_cast<uint64_t>(total) <= availableBytes)
    return success();
  return func.emitError()
         << "out of memory: the run's buffers take " << formatBytes(total)
         << (copies > 1 ? " (the arguments and the reference run's copy)" : "")
         << ", the largest argument #" << largestArg << " ("
         << func.getArgumentTypes()[largestArg] << ") " << formatBytes(largest)
         << ", and " << formatBytes(availableBytes)
         << " of memory are available";
}

//===----------------------------------------------------------------------===//
// HostBuffer
//===----------------------------------------------------------------------===//

void HostBuffer::allocate(size_t elements) {
  constexpr size_t kAlignment = 64;
  size_t bytes = std::max<size_t>(elements * sizeof(float), 1);
  data.reset(static_cast<float *>(std::aligned_alloc(
      kAlignment, (bytes + kAlignment - 1) / kAlignment * kAlignment)));
  if (!data)
    llvm::report_fatal_error("out of memory for a host buffer");
  size = elements;
}

HostBuffer::HostBuffer(ArrayRef<int64_t> shape) {
  int64_t elements = 1;
  for (int64_t extent : shape)
    elements *= extent;
  allocate(elements);
  std::fill_n(data.get(), size, 0.0f);
  initDescriptor(llvm::to_vector(shape));
}

HostBuffer::HostBuffer(const HostBuffer &other) {
  allocate(other.size);
  std::copy_n(other.data.get(), size, data.get());
  initDescriptor(other.descriptor.sizes);
}

HostBuffer &HostBuffer::operator=(const HostBuffer &other) {
  if (this != &other)
    *this = HostBuffer(other);
  return *this;
}

void HostBuffer::initDescriptor(SmallVector<int64_t> shape) {
  descriptor.allocated = descriptor.aligned = data.get();
  descriptor.offset = 0;
  descriptor.sizes.assign(shape.begin(), shape.end());
  descriptor.strides.assign(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    descriptor.strides[d] = descriptor.strides[d + 1] * shape[d + 1];
}

void HostBuffer::fillDeterministic(uint64_t seed, bool positive) {
  // splitmix64: a fixed, platform-independent sequence.
  uint64_t state = seed;
  for (float &value : values()) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    float unit = static_cast<float>(z >> 40) * 0x1.0p-24f; // [0, 1)
    value = positive ? 0.5f + unit : 2.0f * unit - 1.0f;
  }
}

void HostBuffer::appendPackedArguments(SmallVectorImpl<void *> &args) {
  args.push_back(&descriptor.allocated);
  args.push_back(&descriptor.aligned);
  args.push_back(&descriptor.offset);
  for (int64_t &size : descriptor.sizes)
    args.push_back(&size);
  for (int64_t &stride : descriptor.strides)
    args.push_back(&stride);
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

void Comparison::merge(const Comparison &other) {
  maxAbsErr = std::max(maxAbsErr, other.maxAbsErr);
  maxRelErr = std::max(maxRelErr, other.maxRelErr);
  mismatches += other.mismatches;
}

Comparison mlir::dl::compareBuffers(ArrayRef<float> actual,
                                    ArrayRef<float> reference, double rtol,
                                    std::optional<double> atol) {
  Comparison result;
  if (actual.size() != reference.size()) {
    result.mismatches = std::max(actual.size(), reference.size());
    return result;
  }
  double scale = 0.0;
  for (float ref : reference)
    if (std::isfinite(ref))
      scale = std::max(scale, std::fabs(static_cast<double>(ref)));
  double absTol = atol ? *atol : rtol * scale;
  for (auto [a, r] : llvm::zip(actual, reference)) {
    if (std::isnan(a) || std::isnan(r)) {
      if (std::isnan(a) != std::isnan(r))
        ++result.mismatches;
      continue;
    }
    if (std::isinf(a) || std::isinf(r)) {
      if (a != r)
        ++result.mismatches;
      continue;
    }
    double err = std::fabs(static_cast<double>(a) - r);
    double magnitude = std::fabs(static_cast<double>(r));
    result.maxAbsErr = std::max(result.maxAbsErr, err);
    if (magnitude >= 1e-3 * scale && magnitude > 0.0)
      result.maxRelErr = std::max(result.maxRelErr, err / magnitude);
    if (err > absTol + rtol * magnitude)
      ++result.mismatches;
  }
  return result;
}

//===----------------------------------------------------------------------===//
// FLOP counting
//===----------------------------------------------------------------------===//

std::optional<double> mlir::dl::countFlops(func::FuncOp func,
                                           ArrayRef<ArgumentSpec> args) {
  // Sizes of an operand: static, or those the run gives a function argument.
  auto shapeOf = [&](Value value) -> std::optional<SmallVector<int64_t>> {
    if (std::optional<SmallVector<int64_t>> shape = getStaticShape(value))
      return shape;
    auto arg = dyn_cast<BlockArgument>(value);
    if (arg && arg.getOwner() == &func.front() &&
        arg.getArgNumber() < args.size())
      return args[arg.getArgNumber()].shape;
    return std::nullopt;
  };
  double total = 0.0;
  WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
    std::optional<double> flops = getFlops(op, shapeOf);
    if (!flops)
      return WalkResult::interrupt();
    total += *flops;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return total;
}

//===----------------------------------------------------------------------===//
// JIT
//===----------------------------------------------------------------------===//

FailureOr<std::unique_ptr<llvm::TargetMachine>>
mlir::dl::createHostTargetMachine(bool forObjectFile) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    llvm::consumeError(builder.takeError());
    return failure();
  }
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  if (forObjectFile) {
    builder->setRelocationModel(llvm::Reloc::PIC_);
    builder->setCodeModel(llvm::CodeModel::Small);
  }
  auto machine = builder->createTargetMachine();
  if (!machine) {
    llvm::consumeError(machine.takeError());
    return failure();
  }
  return std::move(*machine);
}

void dl::registerLLVMTranslations(MLIRContext &context) {
  registerBuiltinDialectTranslation(context);
  registerLLVMDialectTranslation(context);
  registerOpenMPDialectTranslation(context);
}

/// The path of the libDLRuntime.so this process loaded (DLRunner links it, so
/// a tool in the build tree, an installed tool and an embedder's program each
/// find their own), or the build tree's when the loader does not say.
static std::string getLoadedRuntimeLibrary() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&dl_gemm_dispatch), &info) &&
      info.dli_fname && StringRef(info.dli_fname).contains("DLRuntime"))
    return info.dli_fname;
  return DL_RUNTIME_LIBRARY_PATH;
}

SmallVector<std::string> dl::getRuntimeLibraries() {
  // DL_RUNTIME_LIBRARY and DL_OPENMP_LIBRARY override the loaded runtime and
  // the OpenMP runtime CMake found.
  SmallVector<std::string> libraries;
  for (auto [variable, found] :
       {std::pair("DL_RUNTIME_LIBRARY", getLoadedRuntimeLibrary()),
        std::pair("DL_OPENMP_LIBRARY", std::string(DL_OPENMP_LIBRARY_PATH))}) {
    const char *path = std::getenv(variable);
    libraries.push_back(path ? std::string(path) : found);
  }
  return libraries;
}

//===----------------------------------------------------------------------===//
// Failed run-time checks in JIT-compiled code
//===----------------------------------------------------------------------===//
//
// A failed cf.assert (the size checks of dl-insert-size-checks) calls puts
// with its message and then abort. In the JIT both resolve to libDLRuntime's
// checked-call hooks, as in a library with a C interface (--emit-header):
// JitModule::callPacked runs the code through dl_checked_call, which
// returns instead of killing the process, and prints the message to stderr.

JitModule::~JitModule() {
  if (loaded)
    llvm::consumeError(loaded->deinitialize(loaded->getMainJITDylib()));
}

/// The symbols of the run-time check hooks, which replace puts and abort.
static llvm::orc::SymbolMap
getCheckHookSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  symbols[interner("puts")] = {
      llvm::orc::ExecutorAddr::fromPtr(&dl_check_message),
      llvm::JITSymbolFlags::Exported};
  symbols[interner("abort")] = {
      llvm::orc::ExecutorAddr::fromPtr(&dl_check_failed),
      llvm::JITSymbolFlags::Exported};
  return symbols;
}

/// The object code `engine` generates for `lowered`, compiled now: the
/// engine compiles on the first lookup, and keeps the object only to dump
/// it to a file.
static FailureOr<std::string> getObjectCode(ExecutionEngine &engine,
                                            ModuleOp lowered) {
  auto defined =
      llvm::find_if(lowered.getOps<LLVM::LLVMFuncOp>(),
                    [](LLVM::LLVMFuncOp fn) { return !fn.isExternal(); });
  if (defined == lowered.getOps<LLVM::LLVMFuncOp>().end())
    return failure();
  auto fn = engine.lookupPacked((*defined).getSymName());
  if (!fn) {
    llvm::consumeError(fn.takeError());
    return failure();
  }
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("dl-jit", "o", path))
    return failure();
  engine.dumpToObjectFile(path);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  llvm::sys::fs::remove(path);
  if (!buffer)
    return failure();
  return (*buffer)->getBuffer().str();
}

FailureOr<std::unique_ptr<JitModule>>
JitModule::create(ModuleOp module,
                  const std::function<void(OpPassManager &)> &buildPipeline,
                  std::string *objectCode, bool progress) {
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> lowered(module.clone());
  PassManager pm(context);
  buildPipeline(pm);
  if (failed(pm.run(*lowered)))
    return failure();

  if (progress)
    llvm::errs() << "dl: LLVM optimization and code generation\n";
  registerLLVMTranslations(*context);
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createHostTargetMachine();
  if (failed(machine))
    return module.emitError("cannot create a target machine for this host");
  auto transformer = makeOptimizingTransformer(/*optLevel=*/3,
                                               /*sizeLevel=*/0, machine->get());
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.enableObjectDump = objectCode != nullptr;
  SmallVector<std::string> libraries = getRuntimeLibraries();
  SmallVector<StringRef> libraryRefs(libraries.begin(), libraries.end());
  options.sharedLibPaths = libraryRefs;
  auto engine = ExecutionEngine::create(*lowered, options, std::move(*machine));
  if (!engine)
    return module.emitError("JIT compilation failed: ")
           << llvm::toString(engine.takeError());
  (*engine)->registerSymbols(getCheckHookSymbols);
  if (objectCode) {
    FailureOr<std::string> code = getObjectCode(**engine, *lowered);
    if (succeeded(code))
      *objectCode = std::move(*code);
    else
      objectCode->clear();
  }
  std::unique_ptr<JitModule> jit(new JitModule());
  jit->engine = std::move(*engine);
  return jit;
}

FailureOr<std::unique_ptr<JitModule>> JitModule::load(StringRef objectCode,
                                                      Location loc) {
  // ExecutionEngine takes only IR: the object is linked as it links the code
  // it compiles (RTDyld into section memory), with the symbols it resolves
  // (the runtime libraries', this process's, the check hooks).
  if (failed(createHostTargetMachine()))
    return emitError(loc, "cannot create a target machine for this host");
  auto fail = [&](llvm::Error error) {
    return emitError(loc, "cannot load the cached code: ")
           << llvm::toString(std::move(error));
  };
  auto host = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!host)
    return fail(host.takeError());
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(*host))
          .setObjectLinkingLayerCreator(
              [](llvm::orc::ExecutionSession &session)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                    session, [](const llvm::MemoryBuffer &) {
                      return std::make_unique<llvm::SectionMemoryManager>();
                    });
              })
          .create();
  if (!jit)
    return fail(jit.takeError());
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  for (const std::string &library : getRuntimeLibraries()) {
    auto generator =
        llvm::orc::DynamicLibrarySearchGenerator::Load(library.c_str(), prefix);
    if (!generator)
      return fail(generator.takeError());
    main.addGenerator(std::move(*generator));
  }
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return fail(process.takeError());
  main.addGenerator(std::move(*process));
  if (llvm::Error error = main.define(llvm::orc::absoluteSymbols(
          getCheckHookSymbols(llvm::orc::MangleAndInterner(
              main.getExecutionSession(), (*jit)->getDataLayout())))))
    return fail(std::move(error));
  if (llvm::Error error = (*jit)->addObjectFile(
          llvm::MemoryBuffer::getMemBufferCopy(objectCode, "dl-cached-code")))
    return fail(std::move(error));
  if (llvm::Error error = (*jit)->initialize(main))
    return fail(std::move(error));
  std::unique_ptr<JitModule> module(new JitModule());
  module->loaded = std::move(*jit);
  return module;
}

FailureOr<void (*)(void **)> JitModule::lookup(StringRef name) {
  std::lock_guard<std::mutex> lock(entryPointsMutex);
  auto known = entryPoints.find(name);
  if (known != entryPoints.end())
    return known->second;
  void (*entry)(void **) = nullptr;
  if (loaded) {
    // The packed entry points ExecutionEngine generated.
    auto fn = loaded->lookup(("_mlir_" + name).str());
    if (!fn) {
      llvm::consumeError(fn.takeError());
      return failure();
    }
    entry = fn->toPtr<void (*)(void **)>();
  } else {
    auto fn = engine->lookupPacked(name);
    if (!fn) {
      llvm::consumeError(fn.takeError());
      return failure();
    }
    entry = *fn;
  }
  entryPoints[name] = entry;
  return entry;
}

LogicalResult JitModule::call(StringRef name,
                              MutableArrayRef<HostBuffer> args) {
  SmallVector<void *> packed;
  for (HostBuffer &buffer : args)
    buffer.appendPackedArguments(packed);
  return callPacked(name, packed.data());
}

LogicalResult JitModule::callPacked(StringRef name, void **packed) {
  FailureOr<void (*)(void **)> fn = lookup(name);
  if (failed(fn))
    return failure();
  struct Call {
    void (*fn)(void **);
    void **packed;
  } call = {*fn, packed};
  auto body = [](void *context) {
    auto *call = static_cast<Call *>(context);
    call->fn(call->packed);
  };
  if (dl_checked_call(body, &call) == 0)
    return success();
  std::fputs(dl_last_error(), stderr);
  std::fputc('\n', stderr);
  return failure();
}
