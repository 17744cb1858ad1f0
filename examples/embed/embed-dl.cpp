//===- embed-dl.cpp - dl inside another MLIR tool ---------------*- C++ -*-===//
//
// An out-of-tree tool built against the installed dl package (find_package
// (DL)), as another MLIR compiler would embed dl: it registers dl's dialects
// and passes in its own MLIRContext, adds the dl-to-llvm pipeline with its
// options to its own PassManager and compiles a module (tensors or buffers)
// to LLVM IR. With
// --check-gemm=<function>, it also JIT-runs that function (a GEMM
// C = A * B, on tensors or buffers) through dl's runner and compares it with
// a plain loop.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/InitAllDL.h"
#include "dl/Pipelines/Pipelines.h"
#include "dl/Runner/Runner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                          cl::desc("<input .mlir>"));
static cl::opt<unsigned> threads("num-threads", cl::init(1),
                                 cl::desc("Threads of the generated code"));
static cl::opt<std::string>
    checkGemm("check-gemm", cl::desc("JIT-run this function as C = A * B "
                                     "and compare it with a plain loop"));

/// dl's pipeline, with this tool's options, in a pass manager of this tool.
static void addDLPipeline(OpPassManager &pm) {
  dl::DLPipelineOptions options;
  options.numThreads = threads;
  dl::buildDLToLLVMPipeline(pm, options);
}

/// Runs `name` on A (M x K), B (K x N), C (M x N) and compares C with the
/// plain triple loop.
static LogicalResult runGemm(ModuleOp module, StringRef name) {
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn || fn.getNumArguments() != 3)
    return module.emitError() << "no function @" << name << " of A, B, C";
  FailureOr<SmallVector<dl::ArgumentSpec>> specs = dl::getArgumentSpecs(fn);
  if (failed(specs))
    return failure();
  FailureOr<std::unique_ptr<dl::JitModule>> jit =
      dl::JitModule::create(module, addDLPipeline);
  if (failed(jit))
    return failure();
  SmallVector<dl::HostBuffer> args;
  for (auto [i, spec] : llvm::enumerate(*specs)) {
    args.emplace_back(spec.shape);
    args.back().fillDeterministic(i + 1, /*positive=*/false);
  }
  int64_t m = args[0].getShape()[0], k = args[0].getShape()[1],
          n = args[1].getShape()[1];
  if (failed((*jit)->call(name, args)))
    return failure();
  std::vector<float> reference(m * n, 0.0f);
  ArrayRef<float> a = args[0].values(), b = args[1].values();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        reference[i * n + j] += a[i * k + p] * b[p * n + j];
  dl::Comparison comparison = dl::compareBuffers(args[2].values(), reference,
                                                 /*rtol=*/1e-4, std::nullopt);
  llvm::outs() << "@" << name << " (" << m << "x" << n << "x" << k
               << "): max_abs_err=" << comparison.maxAbsErr << " "
               << (comparison.ok() ? "ok" : "MISMATCH") << "\n";
  return success(comparison.ok());
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "embed-dl: dl in another tool\n");

  DialectRegistry registry;
  dl::registerAllDLDialects(registry);
  MLIRContext context(registry);
  dl::registerLLVMTranslations(context);

  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFilename, sourceMgr, &context);
  if (!module)
    return 1;
  // The tensor functions in their buffer form, whose signature the runner
  // calls (dl-to-llvm starts with the same pass).
  PassManager bufferize(&context);
  bufferize.addPass(dl::createBufferize());
  if (failed(bufferize.run(*module)))
    return 1;
  if (!checkGemm.empty() && failed(runGemm(*module, checkGemm)))
    return 1;

  PassManager pm(&context);
  addDLPipeline(pm);
  if (failed(pm.run(*module)))
    return 1;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  if (!llvmModule)
    return 1;
  for (llvm::Function &function : *llvmModule)
    if (!function.isDeclaration() && !function.hasLocalLinkage())
      llvm::outs() << "compiled @" << function.getName() << " ("
                   << function.arg_size() << " arguments)\n";
  return 0;
}
