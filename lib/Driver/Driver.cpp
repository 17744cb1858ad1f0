//===- Driver.cpp - compile, emit and JIT dl modules ------------*- C++ -*-===//
//
// The pipeline from a CompileOptions, the front end (raising, bufferization),
// and the emission of a lowered module: LLVM IR optimized at -O3 for this
// host, assembly, object code, or a shared library linked by the system's C
// compiler against dl's runtime libraries.
//
//===----------------------------------------------------------------------===//

#include "dl/Driver/Driver.h"
#include "dl/Conversion/Passes.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Driver/CInterface.h"
#include "dl/Support/DiskCache.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"

#include <thread>

using namespace mlir;
using namespace mlir::dl;

unsigned CompileOptions::getThreadCount() const {
  if (threads > 0)
    return threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

void dl::addCompilePipeline(OpPassManager &pm, const CompileOptions &options) {
  if (options.reference)
    return buildReferenceToLLVMPipeline(pm);
  DLPipelineOptions pipeline;
  pipeline.numThreads = options.getThreadCount();
  pipeline.microkernels = options.microkernels;
  pipeline.rank = options.rank;
  pipeline.fuse = options.fuse;
  pipeline.prefetch = options.prefetch;
  pipeline.versioning = options.versioning;
  pipeline.maxVersions = options.maxVersions;
  pipeline.solveTiles = options.solveTiles;
  pipeline.tileReport = options.tileReport;
  pipeline.cacheSizes = options.cacheSizes;
  pipeline.machineFile = options.machineFile;
  pipeline.rankingCost = options.rankingCost;
  pipeline.rankingReport = options.rankingReport;
  pipeline.reportFallbacks = options.remarks;
  pipeline.maxBatchBytes = options.maxBatchBytes;
  pipeline.vectorBits = options.vectorBits;
  pipeline.cacheDirectory = options.cacheDirectory;
  pipeline.progress = options.progress;
  buildDLToLLVMPipeline(pm, pipeline);
}

LogicalResult dl::prepareModule(ModuleOp module, bool raise) {
  PassManager pm(module.getContext());
  if (raise)
    pm.addPass(createConvertLinalgToDL());
  pm.addPass(createBufferize());
  return pm.run(module);
}

LogicalResult dl::lowerModule(ModuleOp module, const CompileOptions &options) {
  PassManager pm(module.getContext());
  addCompilePipeline(pm, options);
  return pm.run(module);
}

/// What the code compiled from `module` with `options` depends on: the
/// module (with its locations, which run-time check messages quote), every
/// option that changes the code, the machine file's contents, and the build
/// of dl and the host.
static std::string getCompilationKey(ModuleOp module,
                                     const CompileOptions &options) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "reference: " << options.reference
     << "\nthreads: " << options.getThreadCount()
     << "\nmicrokernels: " << options.microkernels << "\nfuse: " << options.fuse
     << "\nprefetch: " << options.prefetch
     << "\nversioning: " << options.versioning
     << "\nmax versions: " << options.maxVersions << "\nrank: " << options.rank
     << "\nsolve tiles: " << options.solveTiles
     << "\ncache sizes: " << options.cacheSizes
     << "\nranking cost: " << options.rankingCost
     << "\nmax batch bytes: " << options.maxBatchBytes
     << "\nvector bits: " << options.vectorBits << "\nmachine file: ";
  if (!options.machineFile.empty())
    if (auto contents = llvm::MemoryBuffer::getFile(options.machineFile))
      os << (*contents)->getBuffer();
  os << "\n"
     << DiskCache::getBuildAndHostKey(
            reinterpret_cast<const void *>(&addCompilePipeline));
  module.print(os, OpPrintingFlags().enableDebugInfo().printGenericOpForm());
  return key;
}

FailureOr<std::unique_ptr<JitModule>>
dl::jitCompile(ModuleOp module, const CompileOptions &options) {
  auto buildPipeline = [&](OpPassManager &pm) {
    addCompilePipeline(pm, options);
  };
  // Remarks and reports come from the passes: those compilations run them.
  bool reusable = !options.remarks && options.tileReport.empty() &&
                  options.rankingReport.empty();
  DiskCache cache(reusable ? options.cacheDirectory : "", "code");
  if (!cache.isEnabled())
    return JitModule::create(module, buildPipeline, nullptr, options.progress);

  std::string key = getCompilationKey(module, options);
  if (std::unique_ptr<llvm::MemoryBuffer> entry = cache.lookup(key)) {
    // An entry that does not load is compiled again, with a remark.
    std::string whyNot;
    FailureOr<std::unique_ptr<JitModule>> loaded = [&] {
      ScopedDiagnosticHandler capture(module.getContext(), [&](Diagnostic &d) {
        whyNot = d.str();
        return success();
      });
      return JitModule::load(entry->getBuffer(), module.getLoc());
    }();
    if (succeeded(loaded)) {
      if (options.progress)
        llvm::errs() << "dl: the code is from the cache (" << cache.getPath(key)
                     << ")\n";
      return loaded;
    }
    emitRemark(module.getLoc(), "the cached code (")
        << cache.getPath(key) << ") was compiled again: " << whyNot;
  }
  std::string objectCode;
  FailureOr<std::unique_ptr<JitModule>> jit =
      JitModule::create(module, buildPipeline, &objectCode, options.progress);
  if (succeeded(jit) && !objectCode.empty())
    cache.store(key, objectCode);
  return jit;
}

/// A C compiler driver to link shared libraries with.
static std::optional<std::string> findLinker() {
  for (StringRef name : {"cc", "clang-22", "clang", "gcc"})
    if (auto path = llvm::sys::findProgramByName(name))
      return *path;
  return std::nullopt;
}

/// Runs the C compiler driver with `args` (after its name).
static LogicalResult runCompiler(ModuleOp module, ArrayRef<StringRef> args,
                                 StringRef what) {
  std::optional<std::string> compiler = findLinker();
  if (!compiler)
    return module.emitError("no C compiler (cc, clang or gcc) found to ")
           << what;
  SmallVector<StringRef> command = {*compiler};
  command.append(args.begin(), args.end());
  std::string error;
  int status = llvm::sys::ExecuteAndWait(*compiler, command, std::nullopt, {},
                                         0, 0, &error);
  if (status != 0)
    return module.emitError("the C compiler failed to ")
           << what << (error.empty() ? "" : ": ") << error;
  return success();
}

/// Compiles the C source of `interface` into the object `object`.
static LogicalResult compileCInterface(ModuleOp module,
                                       const CInterface &interface,
                                       StringRef object) {
  llvm::SmallString<128> source;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("dl-interface", "c", fd, source))
    return module.emitError("cannot create a temporary file: ") << ec.message();
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << writeCSource(interface);
  }
  LogicalResult compiled =
      runCompiler(module, {"-c", "-O2", "-fPIC", "-o", object, source},
                  "compile the C interface");
  llvm::sys::fs::remove(source);
  return compiled;
}

/// Links `objects` and dl's runtime libraries into the shared library
/// `path`. The library records where the runtime libraries are (DT_NEEDED
/// and rpath), so it loads without LD_LIBRARY_PATH.
static LogicalResult linkSharedLibrary(ModuleOp module,
                                       ArrayRef<std::string> objects,
                                       StringRef path) {
  SmallVector<std::string> runtimeLibraries = getRuntimeLibraries();
  SmallVector<std::string> rpaths;
  for (const std::string &library : runtimeLibraries)
    rpaths.push_back("-Wl,-rpath," +
                     llvm::sys::path::parent_path(library).str());
  SmallVector<StringRef> linkArgs = {"-shared", "-o", path};
  linkArgs.append(objects.begin(), objects.end());
  linkArgs.append(runtimeLibraries.begin(), runtimeLibraries.end());
  linkArgs.append(rpaths.begin(), rpaths.end());
  linkArgs.push_back("-lm");
  return runCompiler(module, linkArgs, "link the shared library");
}

LogicalResult dl::emitModule(ModuleOp module, OutputKind kind, StringRef path,
                             const CInterface *cInterface) {
  std::string error;
  if (cInterface && kind != OutputKind::SharedLibrary)
    return module.emitError("a C interface is written with a shared library");
  if (kind == OutputKind::MLIR) {
    auto output = openOutputFile(path, &error);
    if (!output)
      return module.emitError(error);
    module.print(output->os());
    output->keep();
    return success();
  }

  registerLLVMTranslations(*module.getContext());
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return module.emitError("translation to LLVM IR failed");
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createHostTargetMachine(/*forObjectFile=*/true);
  if (failed(machine))
    return module.emitError("cannot create a target machine for this host");
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  if (llvm::Error err =
          makeOptimizingTransformer(3, 0, machine->get())(llvmModule.get()))
    return module.emitError("LLVM optimization failed: ")
           << llvm::toString(std::move(err));

  if (cInterface)
    redirectRunTimeChecks(*llvmModule);

  if (kind == OutputKind::LLVMIR) {
    auto output = openOutputFile(path, &error);
    if (!output)
      return module.emitError(error);
    llvmModule->print(output->os(), nullptr);
    output->keep();
    return success();
  }

  // Assembly or object code; a shared library is linked from a temporary
  // object.
  std::string objectPath = path.str();
  llvm::SmallString<128> tempObject;
  if (kind == OutputKind::SharedLibrary) {
    if (path == "-")
      return module.emitError("a shared library needs an output file");
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("dl-compile", "o", tempObject))
      return module.emitError("cannot create a temporary file: ")
             << ec.message();
    objectPath = tempObject.str().str();
  }
  {
    auto output = openOutputFile(objectPath, &error);
    if (!output)
      return module.emitError(error);
    llvm::legacy::PassManager codegen;
    auto fileType = kind == OutputKind::Assembly
                        ? llvm::CodeGenFileType::AssemblyFile
                        : llvm::CodeGenFileType::ObjectFile;
    if ((*machine)->addPassesToEmitFile(codegen, output->os(), nullptr,
                                        fileType))
      return module.emitError("the target cannot emit this file type");
    codegen.run(*llvmModule);
    output->keep();
  }
  if (kind != OutputKind::SharedLibrary)
    return success();
  SmallVector<std::string> objects = {tempObject.str().str()};
  LogicalResult linked = success();
  if (cInterface) {
    llvm::SmallString<128> interfaceObject;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "dl-interface", "o", interfaceObject))
      linked = module.emitError("cannot create a temporary file: ")
               << ec.message();
    else
      objects.push_back(interfaceObject.str().str());
    if (succeeded(linked))
      linked = compileCInterface(module, *cInterface, interfaceObject);
  }
  if (succeeded(linked))
    linked = linkSharedLibrary(module, objects, path);
  for (const std::string &object : objects)
    llvm::sys::fs::remove(object);
  if (failed(linked) || !cInterface)
    return linked;
  auto header = openOutputFile(cInterface->headerPath, &error);
  if (!header)
    return module.emitError(error);
  header->os() << writeCHeader(*cInterface);
  header->keep();
  return success();
}
