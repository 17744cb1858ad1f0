//===- DLMicrokernelsToRuntime.cpp - microkernel ops to calls ---*- C++ -*-===//
//
// The pass `convert-dl-microkernels-to-runtime`: dl.gemm_dispatch and
// dl.gemm_invoke become calls into libDLRuntime's C API
// (runtime/include/dl-runtime/DLRuntime.h). Only the runtime knows LIBXSMM;
// the IR passes it sizes, integer pointers and element offsets.
//
//===----------------------------------------------------------------------===//

#include "dl/Conversion/Passes.h"
#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_CONVERTDLMICROKERNELSTORUNTIME
#include "dl/Conversion/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// The runtime function `name` taking `numArgs` i64 (intptr_t and int64_t
/// alike on the 64-bit targets we generate for), declared on first use.
FailureOr<func::FuncOp> getRuntimeFunction(SymbolTable &symbols, StringRef name,
                                           unsigned numArgs, bool returnsHandle,
                                           Location loc) {
  MLIRContext *ctx = symbols.getOp()->getContext();
  Type i64 = IntegerType::get(ctx, 64);
  auto type = FunctionType::get(ctx, SmallVector<Type>(numArgs, i64),
                                returnsHandle ? TypeRange{i64} : TypeRange{});
  if (auto existing = symbols.lookup<func::FuncOp>(name)) {
    if (existing.getFunctionType() != type)
      return existing.emitError("'")
             << name << "' is reserved for the dl runtime, expected type "
             << type;
    return existing;
  }
  OpBuilder builder(symbols.getOp()->getRegion(0));
  auto function = func::FuncOp::create(builder, loc, name, type);
  function.setPrivate();
  symbols.insert(function);
  return function;
}

Value i64Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// The aligned pointer of `memref` and the linear element offset of
/// `indices` in it (the memref's own offset included), both as i64.
std::pair<Value, Value> pointerAndOffset(OpBuilder &b, Location loc,
                                         Value memref, ValueRange indices) {
  Value pointer = toI64(
      b, loc, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value offset = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    offset = arith::AddIOp::create(
        b, loc, offset, arith::MulIOp::create(b, loc, index, stride));
  return {pointer, toI64(b, loc, offset)};
}

/// The address of the first element of a vector of i64 block offsets.
Value tableAddress(OpBuilder &b, Location loc, Value table) {
  auto [pointer, offset] = pointerAndOffset(b, loc, table, ValueRange{});
  Value bytes = arith::MulIOp::create(b, loc, offset, i64Constant(b, loc, 8));
  return arith::AddIOp::create(b, loc, pointer, bytes);
}

LogicalResult lowerDispatch(GemmDispatchOp op, SymbolTable &symbols) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  StringRef name = op.getBatchOffsets() ? "dl_brgemm_offs_dispatch"
                   : op.getStrideA()    ? "dl_brgemm_dispatch"
                                        : "dl_gemm_dispatch";
  SmallVector<Value> args;
  // Run-time sizes, when given, replace the static m, n, k.
  for (Value size : op.getSizes())
    args.push_back(toI64(b, loc, size));
  if (op.getSizes().empty())
    for (uint64_t size : {op.getM(), op.getN(), op.getK()})
      args.push_back(i64Constant(b, loc, size));
  // Run-time leading dimensions, when given, replace the static ones.
  for (Value leadingDim : op.getLeadingDims())
    args.push_back(toI64(b, loc, leadingDim));
  if (op.getLeadingDims().empty())
    for (uint64_t leadingDim : {*op.getLda(), *op.getLdb(), *op.getLdc()})
      args.push_back(i64Constant(b, loc, leadingDim));
  if (op.getStrideA()) {
    args.push_back(i64Constant(b, loc, *op.getStrideA()));
    args.push_back(i64Constant(b, loc, *op.getStrideB()));
  }
  // 0 accumulates, 1 overwrites, 2 overwrites with streaming stores
  // (DL_RUNTIME_STREAM_C).
  args.push_back(i64Constant(b, loc,
                             op.getStreamC()    ? 2
                             : op.getBetaZero() ? 1
                                                : 0));
  FailureOr<func::FuncOp> callee =
      getRuntimeFunction(symbols, name, args.size(), true, loc);
  if (failed(callee))
    return failure();
  auto call = func::CallOp::create(b, loc, *callee, args);
  op.replaceAllUsesWith(call.getResult(0));
  op.erase();
  return success();
}

LogicalResult lowerInvoke(GemmInvokeOp op, SymbolTable &symbols) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> args = {op.getKernel()};
  for (auto [memref, indices] : {std::pair(op.getA(), op.getAIndices()),
                                 std::pair(op.getB(), op.getBIndices()),
                                 std::pair(op.getC(), op.getCIndices())}) {
    auto [pointer, offset] = pointerAndOffset(b, loc, memref, indices);
    args.append({pointer, offset});
  }
  StringRef name = "dl_gemm_invoke";
  if (op.getBatch()) {
    args.push_back(toI64(b, loc, op.getBatch()));
    name = "dl_brgemm_invoke";
  }
  if (op.getOffsetsA()) {
    args.push_back(tableAddress(b, loc, op.getOffsetsA()));
    args.push_back(tableAddress(b, loc, op.getOffsetsB()));
    name = "dl_brgemm_offs_invoke";
  }
  FailureOr<func::FuncOp> callee =
      getRuntimeFunction(symbols, name, args.size(), false, loc);
  if (failed(callee))
    return failure();
  func::CallOp::create(b, loc, *callee, args);
  op.erase();
  return success();
}

struct ConvertDLMicrokernelsToRuntimePass
    : dl::impl::ConvertDLMicrokernelsToRuntimeBase<
          ConvertDLMicrokernelsToRuntimePass> {
  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    SmallVector<GemmInvokeOp> invokes;
    SmallVector<GemmDispatchOp> dispatches;
    getOperation().walk([&](Operation *op) {
      if (auto invoke = dyn_cast<GemmInvokeOp>(op))
        invokes.push_back(invoke);
      else if (auto dispatch = dyn_cast<GemmDispatchOp>(op))
        dispatches.push_back(dispatch);
    });
    for (GemmInvokeOp invoke : invokes)
      if (failed(lowerInvoke(invoke, symbols)))
        return signalPassFailure();
    for (GemmDispatchOp dispatch : dispatches)
      if (failed(lowerDispatch(dispatch, symbols)))
        return signalPassFailure();
  }
};

} // namespace
