//===- DLToAffine.cpp - lower dl ops to affine loop nests -------*- C++ -*-===//
//
// The pass `convert-dl-to-affine`: every dl op becomes a plain affine.for nest
// computing its reference semantics. No tiling or reordering happens here
// unless the op carries its decisions (GEMM blocks, a #dl.schedule of its
// outer loops), so this lowering doubles as the reference that optimized code
// is checked against. Loop bounds are constants for static sizes and memref.dim
// symbols for dynamic ones. The patterns, one file per op family, build on
// NestBuilders; this file runs them (dl-insert-size-checks, before, checks
// the dynamic size relations).
//
//===----------------------------------------------------------------------===//

#include "dl/Conversion/DLToAffine.h"
#include "Lowerings.h"
#include "NestBuilders.h"
#include "dl/Conversion/Passes.h"
#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_CONVERTDLTOAFFINE
#include "dl/Conversion/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;
using affine::AffineForOp;

namespace {

struct ConvertDLToAffinePass
    : dl::impl::ConvertDLToAffineBase<ConvertDLToAffinePass> {
  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (failed(dl::lowerDLToAffine(getOperation())))
      signalPassFailure();
  }
};

} // namespace

void dl::populateDLToAffinePatterns(RewritePatternSet &patterns,
                                    const DLToAffineOptions &options) {
  populateMatmulLoweringPatterns(patterns, options);
  populateConvLoweringPatterns(patterns, options);
  populateBatchNormLoweringPatterns(patterns);
  populateElementwiseLoweringPatterns(patterns);
  populateWindowLoweringPatterns(patterns);
  populateLayoutLoweringPatterns(patterns);
}

LogicalResult dl::lowerDLToAffine(Operation *root,
                                  const DLToAffineOptions &options) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  populateDLToAffinePatterns(patterns, options);
  FrozenRewritePatternSet frozenPatterns(std::move(patterns));
  ConversionTarget target(*ctx);
  target.addIllegalDialect<DLDialect>();
  target.addLegalOp<GemmDispatchOp, GemmInvokeOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  SmallVector<Operation *> dlOps;
  root->walk([&](Operation *op) {
    if (isa_and_nonnull<DLDialect>(op->getDialect()))
      dlOps.push_back(op);
  });
  // An op that runs on one thread, or whose generic nests run a given
  // depth in parallel, is lowered alone, in program order, so the nests
  // between its neighbours are its own (the patterns build them right
  // before the op): each carries the op's mark, or the loop at that depth
  // `dl.parallel`.
  StringRef sequential = DLDialect::getSequentialAttrName();
  for (Operation *op : dlOps) {
    auto parallelDepth =
        op->getAttrOfType<IntegerAttr>(DLDialect::getParallelDepthAttrName());
    bool isSequential = op->hasAttr(sequential);
    if (!isSequential && !parallelDepth)
      continue;
    Block *block = op->getBlock();
    Operation *prev = op->getPrevNode(), *next = op->getNextNode();
    if (failed(applyPartialConversion(op, target, frozenPatterns)))
      return failure();
    auto begin = prev ? std::next(prev->getIterator()) : block->begin();
    auto end = next ? next->getIterator() : block->end();
    for (Operation &created : llvm::make_range(begin, end)) {
      auto root = dyn_cast<AffineForOp>(created);
      if (!root)
        continue;
      // A nest the pattern marked sequential stays so.
      if (isSequential || root->hasAttr(sequential)) {
        root->setAttr(sequential, UnitAttr::get(ctx));
        continue;
      }
      SmallVector<AffineForOp> nest;
      affine::getPerfectlyNestedLoops(nest, root);
      if (parallelDepth.getInt() < static_cast<int64_t>(nest.size()))
        nest[parallelDepth.getInt()]->setAttr(
            DLDialect::getParallelLoopAttrName(), UnitAttr::get(ctx));
    }
  }
  return applyPartialConversion(root, target, frozenPatterns);
}

FailureOr<OwningOpRef<ModuleOp>>
dl::lowerScratchCopy(Operation *op, const DLToAffineOptions &options,
                     function_ref<void(Operation *)> prepare) {
  Location loc = op->getLoc();
  OpBuilder b(op->getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto fn = func::FuncOp::create(b, loc, "scratch",
                                 b.getFunctionType(op->getOperandTypes(), {}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(op->getOperands(), entry->getArguments());
  Operation *clone = b.clone(*op, mapping);
  if (prepare)
    prepare(clone);
  func::ReturnOp::create(b, loc);
  if (failed(lowerDLToAffine(*module, options)))
    return failure();
  return module;
}
