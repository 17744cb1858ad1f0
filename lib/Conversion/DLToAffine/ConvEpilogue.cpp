//===- ConvEpilogue.cpp - a convolution's fused element-wise steps --------===//
//
// See ConvEpilogue.h.
//
//===----------------------------------------------------------------------===//

#include "ConvEpilogue.h"
#include "NestBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dl;

ConvEpilogue::ConvEpilogue(OpBuilder &b, Location loc, Conv2DOp op)
    : output(op.getOutput()) {
  ValueRange operands = op.getEpilogueOperands();
  for (PostOp kind : op.getPostOps()) {
    unsigned count = getPostOpOperandCount(kind);
    Step step{kind, llvm::to_vector(operands.take_front(count))};
    operands = operands.drop_front(count);
    if (kind == PostOp::batch_norm_inference) {
      // scale = gamma / sqrt(variance + epsilon), shift = beta - mean *
      // scale, per channel.
      Value gamma = step.operands[0], beta = step.operands[1],
            mean = step.operands[2], variance = step.operands[3];
      auto vectorType = cast<MemRefType>(gamma.getType());
      SmallVector<Value> dynamicSize;
      if (vectorType.isDynamicDim(0))
        dynamicSize.push_back(memref::DimOp::create(b, loc, gamma, 0));
      auto scratchType = MemRefType::get(vectorType.getShape(), b.getF32Type());
      Value scale = memref::AllocOp::create(b, loc, scratchType, dynamicSize);
      Value shift = memref::AllocOp::create(b, loc, scratchType, dynamicSize);
      scratch.append({scale, shift});
      Value epsilon =
          f32Constant(b, loc, op.getEpilogueEpsilon()->convertToFloat());
      buildNest(
          b, loc, getSizes(b, loc, gamma),
          [&](OpBuilder &nb, Location l, ValueRange ivs) {
            AffineExpr c = nb.getAffineDimExpr(0);
            Value shifted = arith::AddFOp::create(
                nb, l, loadAt(nb, l, variance, ivs, c), epsilon);
            Value s =
                arith::MulFOp::create(nb, l, loadAt(nb, l, gamma, ivs, c),
                                      math::RsqrtOp::create(nb, l, shifted));
            Value meanScaled =
                arith::MulFOp::create(nb, l, loadAt(nb, l, mean, ivs, c), s);
            storeAt(nb, l, s, scale, ivs, c);
            storeAt(nb, l,
                    arith::SubFOp::create(nb, l, loadAt(nb, l, beta, ivs, c),
                                          meanScaled),
                    shift, ivs, c);
          });
      step.operands = {scale, shift};
    }
    steps.push_back(std::move(step));
  }
}

Value ConvEpilogue::apply(OpBuilder &b, Location loc, Value sum,
                          ValueRange operands, unsigned numDims,
                          ArrayRef<AffineExpr> index) const {
  auto outputType = cast<MemRefType>(output.getType());
  // The element's channel: k, or kb * block + k for the blocked layout.
  AffineExpr channel = index[1];
  if (outputType.getRank() == 5)
    channel = index[1] * outputType.getDimSize(4) + index[4];
  auto perChannel = [&](Value vector) {
    return loadAt(b, loc, vector, operands, numDims, channel);
  };
  Value value = sum;
  for (const Step &step : steps) {
    switch (step.kind) {
    case PostOp::bias_add:
      value =
          arith::AddFOp::create(b, loc, value, perChannel(step.operands[0]));
      break;
    case PostOp::add:
      value = arith::AddFOp::create(
          b, loc, value,
          loadAt(b, loc, step.operands[0], operands, numDims, index));
      break;
    case PostOp::batch_norm_inference:
      value = math::FmaOp::create(b, loc, value, perChannel(step.operands[0]),
                                  perChannel(step.operands[1]));
      break;
    case PostOp::relu:
    case PostOp::relu6: {
      // maxNum / minNum, as dl.relu and dl.relu6 lower.
      value = arith::MaxNumFOp::create(b, loc, value, f32Constant(b, loc, 0.0));
      if (step.kind == PostOp::relu6)
        value =
            arith::MinNumFOp::create(b, loc, value, f32Constant(b, loc, 6.0));
      break;
    }
    }
  }
  return value;
}

void ConvEpilogue::applyToOutput(OpBuilder &b, Location loc) const {
  if (empty())
    return;
  buildNest(b, loc, getSizes(b, loc, output),
            [&](OpBuilder &nb, Location l, ValueRange ivs) {
              SmallVector<AffineExpr> index = identityIndex(nb, ivs.size());
              Value sum = loadAt(nb, l, output, ivs, index);
              storeAt(nb, l, apply(nb, l, sum, ivs, ivs.size(), index), output,
                      ivs, index);
            });
}

void ConvEpilogue::finish(OpBuilder &b, Location loc) const {
  for (Value buffer : scratch)
    memref::DeallocOp::create(b, loc, buffer);
}
