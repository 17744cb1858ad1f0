//===- Pipelines.cpp - dl pass pipelines ------------------------*- C++ -*-===//
//
// Builds and registers the pipelines from dl ops to the LLVM dialect. Both
// share the lowering below the affine level; they differ in the loop
// optimizations applied in between (none for the reference).
//
//===----------------------------------------------------------------------===//

#include "dl/Pipelines/Pipelines.h"
#include "dl/Analysis/TileSolver.h"
#include "dl/Conversion/Passes.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// affine/scf/arith/math/memref/func (and dl microkernel ops) -> LLVM
/// dialect; scf.parallel loops become OpenMP loops when numThreads > 1.
/// With `runtimeAllocator`, memref.alloc/dealloc call libDLRuntime's
/// _mlir_memref_to_llvm_alloc/free (which keep large scratch buffers between
/// calls) instead of malloc/free.
static void buildAffineToLLVM(OpPassManager &pm, unsigned numThreads = 1,
                              bool runtimeAllocator = false) {
  pm.addPass(dl::createApproximateMath());
  pm.addPass(createLowerAffinePass());
  if (numThreads > 1) {
    pm.addPass(createConvertSCFToOpenMPPass(
        ConvertSCFToOpenMPPassOptions{numThreads}));
    // Inlines the memref.alloca_scope the OpenMP conversion wraps loop bodies
    // in (it holds no alloca here); its single-block region could not hold
    // the control flow of the inner loops. Runs while microkernel calls are
    // still dl ops: the inliner must see that a call allocates nothing.
    pm.addPass(createCanonicalizerPass());
    pm.addPass(dl::createChunkOpenMPLoops());
  }
  pm.addPass(dl::createConvertDLMicrokernelsToRuntime());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  // Dynamic strides and offsets come out of the expansion as affine.apply.
  pm.addPass(createLowerAffinePass());
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = runtimeAllocator;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  if (runtimeAllocator)
    pm.addPass(dl::createAnnotateRuntimeAllocator());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  if (numThreads > 1)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

/// The options the model-driven passes share (threads), and where each
/// writes its report.
template <typename PassOptions>
static PassOptions getModelPassOptions(const dl::DLPipelineOptions &options,
                                       StringRef report) {
  PassOptions passOptions;
  passOptions.threads = options.numThreads;
  passOptions.report = report.str();
  return passOptions;
}

void dl::addSetTarget(OpPassManager &pm, int64_t vectorBits,
                      int64_t maxBatchBytes, StringRef cacheSizes,
                      StringRef machineFile) {
  dl::SetTargetOptions options;
  options.vectorBits = vectorBits;
  options.maxBatchBytes = maxBatchBytes;
  options.cacheSizes = cacheSizes.str();
  options.machineFile = machineFile.str();
  pm.addPass(dl::createSetTarget(options));
}

void dl::buildDLLayoutPipeline(OpPassManager &pm, bool reportFallbacks) {
  pm.addNestedPass<func::FuncOp>(dl::createBlockConvLayouts());
  pm.addNestedPass<func::FuncOp>(dl::createFoldFilterColumns());
  pm.addNestedPass<func::FuncOp>(dl::createReduceConvStrides());
  pm.addNestedPass<func::FuncOp>(dl::createMergeConvRows());
  dl::Im2colConvsOptions im2colOptions;
  im2colOptions.reportFallbacks = reportFallbacks;
  pm.addNestedPass<func::FuncOp>(dl::createIm2colConvs(im2colOptions));
  pm.addNestedPass<func::FuncOp>(dl::createSkipPaddingColumns());
  pm.addNestedPass<func::FuncOp>(dl::createSplitGemmRemainders());
  pm.addNestedPass<func::FuncOp>(dl::createPackGemmOperands());
  // After the layout copies exist, before the constant ones are kept.
  pm.addNestedPass<func::FuncOp>(dl::createFoldLayoutTransposes());
  pm.addPass(dl::createKeepConstantPacks());
}

/// linalg ops (left by the raising, or created by bufferization: copies,
/// fills, transposes) as affine loops.
static void lowerLinalgToLoops(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToAffineLoopsPass());
}

void dl::buildDLToLLVMPipeline(OpPassManager &pm,
                               const DLPipelineOptions &options) {
  // The target first: every pass reads it. linalg GEMMs, convolutions and
  // element-wise ops become dl ops, then a tensor program a buffer one,
  // whose remaining linalg ops become loops after the layout passes. The
  // run-time checks of the dynamic sizes come next: versioning makes the
  // ops it versions static.
  addSetTarget(pm, options.vectorBits, options.maxBatchBytes,
               options.cacheSizes, options.machineFile);
  pm.addPass(dl::createConvertLinalgToDL());
  pm.addPass(dl::createBufferize());
  pm.addNestedPass<func::FuncOp>(dl::createInsertSizeChecks());
  if (options.microkernels && options.versioning) {
    dl::ParametricVersioningOptions versioningOptions;
    versioningOptions.reportFallbacks = options.reportFallbacks;
    versioningOptions.maxVersions = options.maxVersions;
    versioningOptions.threads = options.numThreads;
    pm.addNestedPass<func::FuncOp>(
        dl::createParametricVersioning(versioningOptions));
  }
  if (options.microkernels)
    buildDLLayoutPipeline(pm, options.reportFallbacks);
  // The layout passes first: dl-fold-layout-transposes folds the transposes
  // around raised NHWC convolutions into their layout copies.
  lowerLinalgToLoops(pm);
  if (options.microkernels) {
    // The solver proposes and the ranking decides; without the ranking, the
    // solver's best candidate is the schedule.
    if (options.solveTiles && !options.rank)
      pm.addPass(dl::createSolveTileSizes(
          getModelPassOptions<dl::SolveTileSizesOptions>(options,
                                                         options.tileReport)));
    if (options.rank) {
      auto rankOptions = getModelPassOptions<dl::RankVariantsOptions>(
          options, options.rankingReport);
      rankOptions.cost = options.rankingCost;
      rankOptions.cacheDirectory = options.cacheDirectory;
      rankOptions.progress = options.progress;
      if (options.solveTiles)
        rankOptions.solverCandidates = dl::TileSolverOptions().candidates;
      pm.addPass(dl::createRankVariants(rankOptions));
    }
    pm.addNestedPass<func::FuncOp>(dl::createDecidePanels());
  }
  if (options.fuse) {
    dl::FuseEpiloguesOptions fuseOptions;
    fuseOptions.reportFallbacks = options.reportFallbacks;
    pm.addNestedPass<func::FuncOp>(dl::createFuseEpilogues(fuseOptions));
  }
  if (options.numThreads > 1) {
    dl::DecideParallelismOptions parallelismOptions;
    parallelismOptions.threads = options.numThreads;
    parallelismOptions.reportFallbacks = options.reportFallbacks;
    pm.addPass(dl::createDecideParallelism(parallelismOptions));
    pm.addNestedPass<func::FuncOp>(dl::createSplitK());
  }
  pm.addPass(dl::createConvertDLToAffine());
  pm.addPass(createCanonicalizerPass());
  if (options.microkernels)
    pm.addNestedPass<func::FuncOp>(dl::createTileGemmBands());
  // Parallelism is proven on the loops, before calls hide their accesses.
  if (options.numThreads > 1) {
    dl::ParallelizeOuterLoopsOptions parallelOptions;
    parallelOptions.threads = options.numThreads;
    pm.addNestedPass<func::FuncOp>(
        dl::createParallelizeOuterLoops(parallelOptions));
  }
  if (options.microkernels) {
    dl::OutlineMicrokernelsOptions outlineOptions;
    outlineOptions.reportFallbacks = options.reportFallbacks;
    pm.addPass(dl::createOutlineMicrokernels(outlineOptions));
    // Before LICM, which hoists the prefetches' loop-invariant views.
    if (options.prefetch)
      pm.addNestedPass<func::FuncOp>(dl::createPrefetchNextBlocks());
    // Hoists the Pure dispatches out of all loops.
    pm.addPass(createLoopInvariantCodeMotionPass());
  }
  pm.addNestedPass<func::FuncOp>(dl::createVectorizeCopies());
  // Keep loaded values in registers across the reduction loops.
  pm.addNestedPass<func::FuncOp>(affine::createAffineScalarReplacementPass());
  pm.addNestedPass<func::FuncOp>(
      affine::createAffineLoopInvariantCodeMotionPass());
  pm.addPass(createCSEPass());
  buildAffineToLLVM(pm, options.numThreads, /*runtimeAllocator=*/true);
}

void dl::buildReferenceToLLVMPipeline(OpPassManager &pm) {
  // linalg ops are not raised: `dl-compile --run` checks the raising too.
  pm.addPass(dl::createBufferize());
  lowerLinalgToLoops(pm);
  pm.addNestedPass<func::FuncOp>(dl::createInsertSizeChecks());
  pm.addPass(dl::createConvertDLToAffine());
  buildAffineToLLVM(pm);
}

void dl::registerDLPipelines() {
  PassPipelineRegistration<DLPipelineOptions>(
      "dl-to-llvm",
      "Lower dl ops through affine loop nests to the LLVM dialect, optimized",
      buildDLToLLVMPipeline);
  PassPipelineRegistration<DLLayoutPipelineOptions>(
      "dl-layouts",
      "The layout passes that run before the ranking in dl-to-llvm (blocked "
      "conv layouts, reduced strides, merged rows, short-row convolutions as "
      "GEMMs, skipped padding columns, GEMM remainders, GEMM packing)",
      [](OpPassManager &pm, const DLLayoutPipelineOptions &options) {
        addSetTarget(pm, options.vectorBits, options.maxBatchBytes);
        buildDLLayoutPipeline(pm);
      });
  PassPipelineRegistration<>(
      "dl-reference-to-llvm",
      "Lower dl ops to the LLVM dialect through the plain reference loop "
      "nests, unoptimized",
      buildReferenceToLLVMPipeline);
}
