//===- Bufferize.cpp - tensor programs to the buffer form ------*- C++ -*-===//
//
// The dl-bufferize pass: MLIR's one-shot bufferization, function-boundary
// clean-ups and buffer deallocation, run as one nested pipeline on modules
// that hold tensors, so that the dl pipelines accept tensor programs and
// leave buffer programs (which may free their own buffers, which the
// deallocation pipeline does not accept) as they are.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_BUFFERIZE
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;

namespace {

/// The three steps of dl-bufferize, each a pipeline of upstream passes.
struct BufferizationPipelines {
  BufferizationPipelines() {
    bufferization::OneShotBufferizePassOptions oneShot;
    oneShot.bufferizeFunctionBoundaries = true;
    oneShot.functionBoundaryTypeConversion =
        bufferization::LayoutMapOption::IdentityLayoutMap;
    bufferize.addPass(bufferization::createOneShotBufferizePass(oneShot));
    // A result computed on reshaped views (a raised batch GEMM's collapsed
    // operands) is returned as expand_shape(collapse_shape(alloc)): folded
    // to the allocation, buffer-results-to-out-params writes it in place of
    // the result argument instead of copying it there.
    bufferize.addPass(createCanonicalizerPass());
    signatures.addPass(bufferization::createDropEquivalentBufferResultsPass());
    bufferization::BufferResultsToOutParamsPassOptions outParams;
    outParams.hoistStaticAllocs = true;
    outParams.hoistDynamicAllocs = true;
    outParams.modifyPublicFunctions = true;
    signatures.addPass(
        bufferization::createBufferResultsToOutParamsPass(outParams));
    bufferization::buildBufferDeallocationPipeline(deallocate);
  }

  OpPassManager bufferize{ModuleOp::getOperationName()};
  OpPassManager signatures{ModuleOp::getOperationName()};
  /// Per function: the pipeline rejects the deallocations a buffer function
  /// of the same module makes itself.
  OpPassManager deallocate{func::FuncOp::getOperationName()};
};

bool holdsTensors(Operation *root) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  WalkResult result = root->walk([&](Operation *op) {
    if (auto fn = dyn_cast<FunctionOpInterface>(op))
      if (llvm::any_of(fn.getArgumentTypes(), isTensor) ||
          llvm::any_of(fn.getResultTypes(), isTensor))
        return WalkResult::interrupt();
    if (llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

struct BufferizePass : dl::impl::BufferizeBase<BufferizePass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    BufferizationPipelines pipelines;
    pipelines.bufferize.getDependentDialects(registry);
    pipelines.signatures.getDependentDialects(registry);
    pipelines.deallocate.getDependentDialects(registry);
    registry.insert<linalg::LinalgDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(bufferize(module)))
      return signalPassFailure();
    copyStridedBuffersAsLoops(module);
  }

  /// A memref.copy between layouts that are not both contiguous (the copy
  /// into a padded buffer that a tensor.pad bufferizes to) lowers to a call
  /// of MLIR's C runner utilities, which code built by dl does not link; as
  /// linalg.copy, the pipelines lower it to loops.
  static void copyStridedBuffersAsLoops(ModuleOp module) {
    module.walk([](memref::CopyOp copy) {
      auto isContiguous = [](Value buffer) {
        return cast<MemRefType>(buffer.getType()).getLayout().isIdentity();
      };
      if (isContiguous(copy.getSource()) && isContiguous(copy.getTarget()))
        return;
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
  }

  LogicalResult bufferize(ModuleOp module) {
    // Each top-level op is walked once: the functions that hold tensors are
    // also the ones whose buffers the deallocation pipeline frees.
    SmallVector<func::FuncOp> tensorFunctions;
    bool tensors = false;
    for (Operation &op : module.getOps()) {
      if (!holdsTensors(&op))
        continue;
      tensors = true;
      if (auto fn = dyn_cast<func::FuncOp>(op))
        tensorFunctions.push_back(fn);
    }
    if (!tensors)
      return success();
    BufferizationPipelines pipelines;
    if (failed(runPipeline(pipelines.bufferize, module)))
      return failure();
    // drop-equivalent-buffer-results leaves public functions alone (their
    // callers may be outside the module); here the public functions are the
    // ones dl-compile runs and emits, whose signatures this pass defines.
    SmallVector<func::FuncOp> publicFunctions;
    for (auto fn : module.getOps<func::FuncOp>())
      if (fn.isPublic() && !fn.isExternal()) {
        publicFunctions.push_back(fn);
        fn.setPrivate();
      }
    LogicalResult signatures = runPipeline(pipelines.signatures, module);
    for (func::FuncOp fn : publicFunctions)
      fn.setPublic();
    if (failed(signatures))
      return failure();
    for (func::FuncOp fn : tensorFunctions)
      if (!fn.isExternal() && failed(runPipeline(pipelines.deallocate, fn)))
        return failure();
    return success();
  }
};

} // namespace
