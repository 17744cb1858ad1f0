//===- OpWork.cpp - the work of a dl op -------------------------*- C++ -*-===//
//
// FLOPs and operand bytes of one dl op from its operands' sizes (OpWork.h).
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/OpWork.h"
#include "dl/Dialect/DL/IR/DLOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dl;

std::optional<SmallVector<int64_t>> dl::getStaticShape(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return llvm::to_vector(type.getShape());
}

/// The number of elements of `value`, none when a size is not known.
static std::optional<double> countElements(Value value,
                                           OperandShapeFn shapeOf) {
  std::optional<SmallVector<int64_t>> shape = shapeOf(value);
  if (!shape)
    return std::nullopt;
  double count = 1.0;
  for (int64_t size : *shape)
    count *= static_cast<double>(size);
  return count;
}

std::optional<double> dl::getFlops(Operation *op, OperandShapeFn shapeOf) {
  auto elements = [&](Value value) { return countElements(value, shapeOf); };
  // `perElement` flops for every element of `value`.
  auto elementwise = [&](Value value,
                         double perElement) -> std::optional<double> {
    std::optional<double> n = elements(value);
    return n ? std::optional<double>(perElement * *n) : std::nullopt;
  };
  return llvm::TypeSwitch<Operation *, std::optional<double>>(op)
      .Case([&](MatmulOp mm) -> std::optional<double> {
        std::optional<double> c = elements(mm.getC());
        std::optional<SmallVector<int64_t>> a = shapeOf(mm.getA());
        if (!c || !a)
          return std::nullopt;
        double k = (*a)[mm.getTransposeA() ? 0 : 1];
        return 2.0 * *c * k;
      })
      .Case([&](Conv2DOp conv) -> std::optional<double> {
        // Every output element sums C * R * S products (the filter's
        // elements per output channel).
        std::optional<double> out = elements(conv.getOutput());
        std::optional<double> filter = elements(conv.getFilter());
        std::optional<SmallVector<int64_t>> outShape =
            shapeOf(conv.getOutput());
        if (!out || !filter || !outShape)
          return std::nullopt;
        double outChannels = (*outShape)[1];
        if (conv.isBlocked())
          outChannels *= (*outShape)[4];
        if (outChannels == 0)
          return 0.0; // No output: nothing to compute.
        return 2.0 * *out * (*filter / outChannels);
      })
      .Case([&](BatchNormInferenceOp bn) {
        return elementwise(bn.getInput(), 4.0);
      })
      .Case([&](BatchNormTrainingOp bn) {
        return elementwise(bn.getInput(), 8.0);
      })
      .Case<ReluOp, AddOp, BiasAddOp>(
          [&](auto op) { return elementwise(op.getOutput(), 1.0); })
      .Case([&](Relu6Op op) { return elementwise(op.getOutput(), 2.0); })
      .Case<MulOp, HardSigmoidOp>(
          [&](auto op) { return elementwise(op.getOutput(), 2.0); })
      .Case([&](HardSwishOp op) { return elementwise(op.getOutput(), 4.0); })
      // exp's polynomial (about 10 operations), an add and a division.
      .Case<SigmoidOp, SiluOp>(
          [&](auto op) { return elementwise(op.getOutput(), 12.0); })
      .Case([&](DepthwiseConv2DOp op) -> std::optional<double> {
        // A multiply-add per filter tap of each output element.
        std::optional<SmallVector<int64_t>> filter = shapeOf(op.getFilter());
        if (!filter)
          return std::nullopt;
        return elementwise(op.getOutput(), 2.0 * (*filter)[0] * (*filter)[1]);
      })
      .Case<MaxPool2DOp, AvgPool2DOp>([&](auto op) {
        // One max or add per window element.
        ArrayRef<int64_t> window = op.getWindow();
        return elementwise(op.getOutput(),
                           window.size() == 2 ? window[0] * window[1] : 0);
      })
      .Default([](Operation *) { return 0.0; });
}

std::optional<double> dl::getOperandBytes(Operation *op,
                                          OperandShapeFn shapeOf) {
  double bytes = 0.0;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      continue;
    std::optional<double> n = countElements(operand, shapeOf);
    if (!n)
      return std::nullopt;
    bytes += *n * static_cast<double>(type.getElementTypeBitWidth() / 8);
  }
  return bytes;
}
