//===- Pipelines.cpp - dl pass pipelines ------------------------*- C++ -*-===//
//
// Builds and registers the pipelines from dl ops to the LLVM dialect. Both
// share the lowering below the affine level; they differ in the loop
// optimizations applied in between (none for the reference).
//
//===----------------------------------------------------------------------===//

#include "dl/Pipelines/Pipelines.h"
#include "dl/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// affine/arith/math/memref/func -> LLVM dialect.
static void buildAffineToLLVM(OpPassManager &pm) {
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void dl::buildDLToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(dl::createConvertDLToAffine());
  pm.addPass(createCanonicalizerPass());
  // Keep loaded values in registers across the reduction loops.
  pm.addNestedPass<func::FuncOp>(affine::createAffineScalarReplacementPass());
  pm.addNestedPass<func::FuncOp>(
      affine::createAffineLoopInvariantCodeMotionPass());
  pm.addPass(createCSEPass());
  buildAffineToLLVM(pm);
}

void dl::buildReferenceToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(dl::createConvertDLToAffine());
  buildAffineToLLVM(pm);
}

void dl::registerDLPipelines() {
  PassPipelineRegistration<>(
      "dl-to-llvm",
      "Lower dl ops through affine loop nests to the LLVM dialect, optimized",
      buildDLToLLVMPipeline);
  PassPipelineRegistration<>(
      "dl-reference-to-llvm",
      "Lower dl ops to the LLVM dialect through the plain reference loop "
      "nests, unoptimized",
      buildReferenceToLLVMPipeline);
}
