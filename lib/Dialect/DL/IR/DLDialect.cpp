//===- DLDialect.cpp - the dl dialect ---------------------------*- C++ -*-===//
//
// Registers the operations of the `dl` dialect and verifies its argument
// attribute `dl.run_shape` (on memrefs and tensors) and the module attribute
// `dl.target`.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::dl;

#include "dl/Dialect/DL/IR/DLOpsDialect.cpp.inc"

void DLDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dl/Dialect/DL/IR/DLOps.cpp.inc"
      >();
}

LogicalResult DLDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attribute) {
  if (attribute.getName() != getTargetAttrName())
    return success();
  if (!isa<TargetAttr>(attribute.getValue()))
    return op->emitError() << "'" << getTargetAttrName()
                           << "' must be a #dl.target";
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << getTargetAttrName()
                           << "' belongs on a module";
  return success();
}

LogicalResult DLDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attribute) {
  if (attribute.getName() == getConstantAttrName()) {
    if (!isa<UnitAttr>(attribute.getValue()))
      return op->emitError()
             << "'" << getConstantAttrName() << "' is a unit attribute";
    return success();
  }
  if (attribute.getName() != "dl.run_shape")
    return op->emitError() << "unknown dl argument attribute '"
                           << attribute.getName().getValue() << "'";
  auto sizes = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
  if (!sizes)
    return op->emitError() << "'dl.run_shape' must be an array<i64: ...>";
  // The argument's type, from the signature (a declaration has no block).
  Type argType;
  if (auto fn = dyn_cast<FunctionOpInterface>(op))
    argType = fn.getArgumentTypes()[argIndex];
  else
    argType = op->getRegion(regionIndex).getArgument(argIndex).getType();
  auto type = dyn_cast<ShapedType>(argType);
  if (!type || !isa<MemRefType, RankedTensorType>(type))
    return op->emitError() << "'dl.run_shape' on argument #" << argIndex
                           << " which is not a ranked memref or tensor";
  if (static_cast<int64_t>(sizes.size()) != type.getRank())
    return op->emitError() << "'dl.run_shape' of argument #" << argIndex
                           << " has " << sizes.size() << " sizes for a rank-"
                           << type.getRank() << " "
                           << (isa<MemRefType>(type) ? "memref" : "tensor");
  for (auto [dim, size] : llvm::enumerate(sizes.asArrayRef())) {
    if (size < 0)
      return op->emitError() << "'dl.run_shape' of argument #" << argIndex
                             << " has a negative size";
    int64_t typeSize = type.getDimSize(dim);
    if (!ShapedType::isDynamic(typeSize) && typeSize != size)
      return op->emitError() << "'dl.run_shape' of argument #" << argIndex
                             << " gives size " << size << " to dimension "
                             << dim << " of static size " << typeSize;
  }
  return success();
}
