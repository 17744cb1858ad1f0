//===- DecidePanels.cpp - which packed GEMM operands become panels --------===//
//
// The pass `dl-decide-panels`: records on each scheduled dl.matmul which of
// its packed operands convert-dl-to-affine copies inside the nest, a
// microkernel batch at a time, into a panel scratch (`panel_a`, `panel_b`),
// as dl::choosePanels answers for the nest the schedule gives. The attributes
// are the decision, for dl-opt to show; the lowering applies them.
//
//===----------------------------------------------------------------------===//

#include "dl/Conversion/DLToAffine.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_DECIDEPANELS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

struct DecidePanelsPass : dl::impl::DecidePanelsBase<DecidePanelsPass> {
  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    getOperation().walk([](MatmulOp op) {
      PanelChoice choice = choosePanels(op);
      op.setPanelA(choice.a);
      op.setPanelB(choice.b);
    });
  }
};

} // namespace
