//===- BlockConvLayouts.cpp - blocked layouts for plain convolutions ------===//
//
// The pass `dl-block-conv-layouts`: a plain-layout (NCHW/KCRS) dl.conv2d
// with static sizes becomes dl.pack of its input and filter, the blocked
// convolution, and dl.unpack of its result. The blocked form is the one whose
// inner band is a batch-reduce GEMM, so the scheduling passes and the
// microkernel outlining apply to convolutions written in the plain layout
// too. The rewrite stays on dl ops, so dl-opt shows the chosen blocks.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_BLOCKCONVLAYOUTS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

struct BlockConvLayoutsPass
    : dl::impl::BlockConvLayoutsBase<BlockConvLayoutsPass> {
  using BlockConvLayoutsBase::BlockConvLayoutsBase;

  void runOnOperation() override {
    if (blockC < 1 || blockK < 1) {
      getOperation().emitError(
          "dl-block-conv-layouts: block-c and block-k must be >= 1");
      return signalPassFailure();
    }
    SmallVector<Conv2DOp> plainConvs;
    getOperation().walk([&](Conv2DOp op) {
      if (!op.isBlocked() && op.getInput().getType().hasStaticShape() &&
          op.getFilter().getType().hasStaticShape() &&
          op.getOutput().getType().hasStaticShape())
        plainConvs.push_back(op);
    });
    for (Conv2DOp op : plainConvs)
      block(op);
  }

  void block(Conv2DOp op) {
    ArrayRef<int64_t> input = op.getInput().getType().getShape();
    ArrayRef<int64_t> filter = op.getFilter().getType().getShape();
    ArrayRef<int64_t> output = op.getOutput().getType().getShape();
    int64_t channels = input[1], outChannels = filter[0];
    int64_t cb = largestDivisorAtMost(channels, blockC);
    int64_t kb = largestDivisorAtMost(outChannels, blockK);
    if (kb == 1)
      return;

    OpBuilder b(op);
    Location loc = op.getLoc();
    auto allocate = [&](ArrayRef<int64_t> shape) {
      return memref::AllocOp::create(
          b, loc, MemRefType::get(shape, b.getF32Type()));
    };
    Value blockedInput =
        allocate({input[0], channels / cb, input[2], input[3], cb});
    PackOp::create(b, loc, op.getInput(), blockedInput);
    Value blockedFilter = allocate(
        {outChannels / kb, channels / cb, filter[2], filter[3], cb, kb});
    PackOp::create(b, loc, op.getFilter(), blockedFilter);
    Value blockedOutput =
        allocate({output[0], outChannels / kb, output[2], output[3], kb});
    Conv2DOp::create(b, loc, TypeRange{},
                     ValueRange{blockedInput, blockedFilter, blockedOutput},
                     op->getAttrs());
    UnpackOp::create(b, loc, blockedOutput, op.getOutput());
    for (Value buffer : {blockedInput, blockedFilter, blockedOutput})
      memref::DeallocOp::create(b, loc, buffer);
    op.erase();
  }
};

} // namespace
