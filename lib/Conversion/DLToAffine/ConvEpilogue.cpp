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
    : output(op.getOutput()), rowStatistics(op.getRowStatistics()) {
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

void ConvEpilogue::buildRowStatistics(OpBuilder &b, Location loc,
                                      ValueRange ivs, ArrayRef<AffineExpr> base,
                                      ArrayRef<int64_t> extents) const {
  auto outputType = cast<MemRefType>(output.getType());
  int64_t width = outputType.getDimSize(3), block = outputType.getDimSize(4);
  SmallVector<OpFoldResult> tileBounds = llvm::map_to_vector(
      extents, [&](int64_t e) -> OpFoldResult { return b.getIndexAttr(e); });
  buildNest(
      b, loc, tileBounds, [&](OpBuilder &rb, Location l, ValueRange rowIvs) {
        // Operands: the enclosing ivs, the row's (n, kb, oh) offsets in the
        // tile, then ow and k of the loops inside.
        SmallVector<Value> operands(ivs);
        llvm::append_range(operands, rowIvs);
        unsigned first = ivs.size();
        SmallVector<AffineExpr> row;
        for (unsigned d = 0; d < 3; ++d)
          row.push_back(base[d] + rb.getAffineDimExpr(first + d));
        AffineExpr n = row[0], kb = row[1], oh = row[2];
        // Nests over (k) or (ow, k) whose body gets the element and statistics
        // indices.
        auto overChannels =
            [&](bool withColumns,
                function_ref<void(OpBuilder &, Location, ValueRange, unsigned,
                                  AffineExpr, AffineExpr)>
                    body) {
              SmallVector<OpFoldResult> bounds;
              if (withColumns)
                bounds.push_back(rb.getIndexAttr(width));
              bounds.push_back(rb.getIndexAttr(block));
              buildNest(rb, l, bounds,
                        [&](OpBuilder &nb, Location nl, ValueRange inner) {
                          SmallVector<Value> all(operands);
                          llvm::append_range(all, inner);
                          unsigned numDims = all.size();
                          AffineExpr k = nb.getAffineDimExpr(numDims - 1);
                          AffineExpr ow = withColumns
                                              ? nb.getAffineDimExpr(numDims - 2)
                                              : nb.getAffineConstantExpr(0);
                          body(nb, nl, all, numDims, ow, k);
                        });
            };
        auto statisticsIndex = [&](unsigned which, AffineExpr k) {
          return SmallVector<AffineExpr>{n, oh, b.getAffineConstantExpr(which),
                                         kb * block + k};
        };
        Value zero = f32Constant(rb, l, 0.0);
        overChannels(false, [&](OpBuilder &nb, Location nl, ValueRange all,
                                unsigned numDims, AffineExpr, AffineExpr k) {
          for (unsigned which : {0u, 1u})
            storeAt(nb, nl, zero, rowStatistics, all, numDims,
                    statisticsIndex(which, k));
        });
        // Accumulates f(element, mean) into statistic `which`.
        auto accumulate = [&](unsigned which,
                              function_ref<Value(OpBuilder &, Location, Value,
                                                 ValueRange, unsigned,
                                                 AffineExpr)>
                                  f) {
          overChannels(true, [&](OpBuilder &nb, Location nl, ValueRange all,
                                 unsigned numDims, AffineExpr ow,
                                 AffineExpr k) {
            Value x = loadAt(nb, nl, output, all, numDims, {n, kb, oh, ow, k});
            SmallVector<AffineExpr> index = statisticsIndex(which, k);
            Value acc = loadAt(nb, nl, rowStatistics, all, numDims, index);
            storeAt(nb, nl,
                    arith::AddFOp::create(nb, nl, acc,
                                          f(nb, nl, x, all, numDims, k)),
                    rowStatistics, all, numDims, index);
          });
        };
        accumulate(0, [](OpBuilder &, Location, Value x, ValueRange, unsigned,
                         AffineExpr) { return x; });
        Value inverseWidth =
            f32Constant(rb, l, 1.0 / static_cast<double>(width));
        overChannels(false, [&](OpBuilder &nb, Location nl, ValueRange all,
                                unsigned numDims, AffineExpr, AffineExpr k) {
          SmallVector<AffineExpr> index = statisticsIndex(0, k);
          Value sum = loadAt(nb, nl, rowStatistics, all, numDims, index);
          storeAt(nb, nl, arith::MulFOp::create(nb, nl, sum, inverseWidth),
                  rowStatistics, all, numDims, index);
        });
        accumulate(1,
                   [&](OpBuilder &nb, Location nl, Value x, ValueRange all,
                       unsigned numDims, AffineExpr k) -> Value {
                     Value mean = loadAt(nb, nl, rowStatistics, all, numDims,
                                         statisticsIndex(0, k));
                     Value centered = arith::SubFOp::create(nb, nl, x, mean);
                     return arith::MulFOp::create(nb, nl, centered, centered);
                   });
      });
}

void ConvEpilogue::applyToOutput(OpBuilder &b, Location loc) const {
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

void ConvEpilogue::finish(OpBuilder &b, Location loc) const {
  for (Value buffer : scratch)
    memref::DeallocOp::create(b, loc, buffer);
}
