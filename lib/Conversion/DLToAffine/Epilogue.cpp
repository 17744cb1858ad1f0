//===- Epilogue.cpp - the fused element-wise steps of a heavy op ----------===//
//
// See Epilogue.h.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "NestBuilders.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::dl;

Epilogue::Epilogue(OpBuilder &b, Location loc, Conv2DOp op)
    : Epilogue(b, loc, op.getOutput(), op.getPostOps(),
               op.getEpilogueOperands(), op.getEpilogueEpsilon(),
               op.getRowStatistics()) {}

Epilogue::Epilogue(OpBuilder &b, Location loc, MatmulOp op)
    : Epilogue(b, loc, op.getC(), op.getPostOps(), op.getEpilogueOperands(),
               op.getEpilogueEpsilon(), Value()) {}

Epilogue::Epilogue(OpBuilder &b, Location loc, Value output,
                   ArrayRef<PostOp> kinds, ValueRange operands,
                   std::optional<APFloat> epsilon, Value rowStatistics)
    : output(output), rowStatistics(rowStatistics) {
  for (PostOp kind : kinds) {
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
      Value epsilonValue = f32Constant(b, loc, epsilon->convertToFloat());
      buildNest(b, loc, getSizes(b, loc, gamma),
                [&](OpBuilder &nb, Location l, ValueRange ivs) {
                  AffineExpr c = nb.getAffineDimExpr(0);
                  Value shifted = arith::AddFOp::create(
                      nb, l, loadAt(nb, l, variance, ivs, c), epsilonValue);
                  Value gammaValue = loadAt(nb, l, gamma, ivs, c);
                  Value s = arith::MulFOp::create(
                      nb, l, gammaValue, math::RsqrtOp::create(nb, l, shifted));
                  Value meanScaled = arith::MulFOp::create(
                      nb, l, loadAt(nb, l, mean, ivs, c), s);
                  storeAt(nb, l, s, scale, ivs, c);
                  storeAt(nb, l,
                          arith::SubFOp::create(
                              nb, l, loadAt(nb, l, beta, ivs, c), meanScaled),
                          shift, ivs, c);
                });
      step.operands = {scale, shift};
    }
    steps.push_back(std::move(step));
  }
}

Value Epilogue::apply(OpBuilder &b, Location loc, Value sum,
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
    case PostOp::batch_norm_inference: {
      // Separate statements: the IR's order must not depend on the
      // compiler's order of evaluating arguments.
      Value scale = perChannel(step.operands[0]);
      Value shift = perChannel(step.operands[1]);
      value = math::FmaOp::create(b, loc, value, scale, shift);
    } break;
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

void Epilogue::buildRowStatistics(OpBuilder &b, Location loc, ValueRange ivs,
                                  ArrayRef<AffineExpr> base,
                                  ArrayRef<int64_t> extents) const {
  auto outputType = cast<MemRefType>(output.getType());
  int64_t width = outputType.getDimSize(3), block = outputType.getDimSize(4);
  // A pixel's channels of the block, one vector: the sums over a row are
  // carried in registers.
  auto vectorType = VectorType::get({block}, b.getF32Type());
  SmallVector<OpFoldResult> tileBounds = llvm::map_to_vector(
      extents, [&](int64_t e) -> OpFoldResult { return b.getIndexAttr(e); });
  buildNest(
      b, loc, tileBounds, [&](OpBuilder &rb, Location l, ValueRange rowIvs) {
        SmallVector<Value> operands(ivs);
        llvm::append_range(operands, rowIvs);
        unsigned numDims = operands.size();
        SmallVector<AffineExpr> row;
        for (unsigned d = 0; d < 3; ++d)
          row.push_back(base[d] + rb.getAffineDimExpr(ivs.size() + d));
        AffineExpr n = row[0], kb = row[1], oh = row[2];
        // One sweep over the row's pixels: acc = f(pixel vector, acc).
        auto sweep =
            [&](Value init,
                function_ref<Value(OpBuilder &, Location, Value, Value)> f) {
              auto loop = affine::AffineForOp::create(
                  rb, l, 0, width, 1, init,
                  [&](OpBuilder &pb, Location pl, Value ow, ValueRange acc) {
                    SmallVector<Value> all(operands);
                    all.push_back(ow);
                    AffineMap map =
                        AffineMap::get(numDims + 1, 0,
                                       {n, kb, oh, pb.getAffineDimExpr(numDims),
                                        pb.getAffineConstantExpr(0)},
                                       pb.getContext());
                    Value x = affine::AffineVectorLoadOp::create(
                        pb, pl, vectorType, output, map, all);
                    affine::AffineYieldOp::create(pb, pl, f(pb, pl, x, acc[0]));
                  });
              return loop.getResult(0);
            };
        auto store = [&](Value value, int64_t which) {
          AffineMap map = AffineMap::get(
              numDims, 0, {n, oh, rb.getAffineConstantExpr(which), kb * block},
              rb.getContext());
          affine::AffineVectorStoreOp::create(rb, l, value, rowStatistics, map,
                                              operands);
        };
        Value zero = arith::ConstantOp::create(
            rb, l, vectorType,
            DenseElementsAttr::get(vectorType, rb.getF32FloatAttr(0.0f)));
        Value sum = sweep(
            zero, [](OpBuilder &pb, Location pl, Value x, Value acc) -> Value {
              return arith::AddFOp::create(pb, pl, acc, x);
            });
        Value inverseWidth = arith::ConstantOp::create(
            rb, l, vectorType,
            DenseElementsAttr::get(
                vectorType,
                rb.getF32FloatAttr(1.0f / static_cast<float>(width))));
        Value mean = arith::MulFOp::create(rb, l, sum, inverseWidth);
        Value squares = sweep(
            zero, [&](OpBuilder &pb, Location pl, Value x, Value acc) -> Value {
              Value centered = arith::SubFOp::create(pb, pl, x, mean);
              return math::FmaOp::create(pb, pl, centered, centered, acc);
            });
        store(mean, 0);
        store(squares, 1);
      });
}

void Epilogue::applyToOutput(OpBuilder &b, Location loc) const {
  if (!hasSteps())
    return;
  buildNest(b, loc, getSizes(b, loc, output),
            [&](OpBuilder &nb, Location l, ValueRange ivs) {
              SmallVector<AffineExpr> index = identityIndex(nb, ivs.size());
              Value sum = loadAt(nb, l, output, ivs, index);
              storeAt(nb, l, apply(nb, l, sum, ivs, ivs.size(), index), output,
                      ivs, index);
            });
}

void Epilogue::finish(OpBuilder &b, Location loc) const {
  for (Value buffer : scratch)
    memref::DeallocOp::create(b, loc, buffer);
}
