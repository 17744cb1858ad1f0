//===- BufferizableOpInterfaceImpl.cpp - dl ops on tensors -----*- C++ -*-===//
//
// The bufferization model of the dl layer ops. They are in destination-
// passing style, so MLIR's DstBufferizableOpInterfaceExternalModel gives the
// aliasing (each result is its `outs` operand's buffer) and the writes; this
// file adds which operands are read (an output is overwritten, except the C
// that a GEMM with beta != 0 accumulates into), that the element-wise ops may
// run in place, and the rewrite to the buffer form: the same op on the
// operands' buffers, without results.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/BufferizableOpInterfaceImpl.h"
#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::dl;

namespace {

template <typename OpTy>
struct LayerOpInterface
    : public DstBufferizableOpInterfaceExternalModel<LayerOpInterface<OpTy>,
                                                     OpTy> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &state) const {
    if (!cast<DestinationStyleOpInterface>(op).isDpsInit(&operand))
      return true;
    if (auto matmul = dyn_cast<MatmulOp>(op))
      return !matmul.getBeta().isZero();
    return false;
  }

  /// The element-wise ops read and write each element at the same index, so
  /// an input may share the output's buffer (their documented in-place form).
  bool bufferizesToElementwiseAccess(Operation *op, const AnalysisState &state,
                                     ArrayRef<OpOperand *> operands) const {
    // A broadcast rhs of dl.mul is read at other indices than the output's.
    if (auto mul = dyn_cast<MulOp>(op))
      return llvm::all_of(operands, [&](OpOperand *operand) {
        return operand->get().getType() == mul.getOutput().getType();
      });
    return isa<ReluOp, Relu6Op, SigmoidOp, SiluOp, HardSigmoidOp, HardSwishOp,
               AddOp>(op);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto dps = cast<DestinationStyleOpInterface>(op);
    if (dps.hasPureBufferSemantics())
      return success();
    if (!dps.hasPureTensorSemantics())
      return op->emitOpError("mixes tensor and buffer operands");
    SmallVector<Value> buffers;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    SmallVector<Value> results;
    for (OpOperand &init : dps.getDpsInitsMutable())
      results.push_back(buffers[init.getOperandNumber()]);
    // The same op on the buffers: the operand count is unchanged, so the
    // properties (operand segments, attributes) carry over as they are.
    rewriter.setInsertionPoint(op);
    Operation *bufferOp = Operation::create(
        op->getLoc(), op->getName(), /*resultTypes=*/TypeRange{}, buffers,
        NamedAttrList(op->getDiscardableAttrDictionary()),
        op->getPropertiesStorage(), /*successors=*/{}, /*numRegions=*/0);
    rewriter.insert(bufferOp);
    replaceOpWithBufferizedValues(rewriter, op, results);
    return success();
  }
};

template <typename... OpTys>
void attachLayerOpInterfaces(MLIRContext *context) {
  (OpTys::template attachInterface<LayerOpInterface<OpTys>>(*context), ...);
}

} // namespace

void mlir::dl::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, DLDialect *) {
    attachLayerOpInterfaces<MatmulOp, Conv2DOp, BatchNormInferenceOp,
                            BatchNormTrainingOp, ReluOp, Relu6Op, SigmoidOp,
                            SiluOp, HardSigmoidOp, HardSwishOp, MulOp, AddOp,
                            BiasAddOp, MaxPool2DOp, AvgPool2DOp,
                            DepthwiseConv2DOp, ConcatOp, PackOp, UnpackOp>(
        context);
  });
}
