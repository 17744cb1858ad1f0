//===- InsertSizeChecks.cpp - run-time checks of dynamic size relations ---===//
//
// The pass `dl-insert-size-checks`: before each dl op, a cf.assert for each
// of its size relations (SizeRelations.h) that involves a dynamic size. The
// verifier proves the static ones; a dynamic one can only be checked when the
// sizes are known, and an op whose sizes disagree would otherwise read or
// write out of bounds. Kept out of convert-dl-to-affine so that the lowering
// only lowers (the analyses that lower scratch copies of an op need no
// checks).
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/IR/SizeRelations.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_INSERTSIZECHECKS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// "file:line:col" of `op`, or its printed location when it has no file.
std::string describeLocation(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << op->getLoc();
  return text;
}

/// Before `op`, a cf.assert for each of its size relations that involves a
/// dynamic size.
void insertSizeChecks(Operation *op) {
  SizeRelations relations = getSizeRelations(op);
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> sizes;
  for (const SizeRelation &relation : relations.getRelations()) {
    if ((relations.evaluateStatic(relation.lhs) &&
         relations.evaluateStatic(relation.rhs)) ||
        relation.lhs == relation.rhs)
      continue;
    if (sizes.empty())
      for (auto [memref, dim] : relations.getSizes())
        sizes.push_back(getValueOrCreateConstantIndexOp(
            b, loc, memref::getMixedSize(b, loc, memref, dim)));
    Value lhs = affine::expandAffineExpr(b, loc, relation.lhs, {}, sizes);
    Value rhs = affine::expandAffineExpr(b, loc, relation.rhs, {}, sizes);
    bool equal = relation.kind == SizeRelation::Kind::Equal;
    Value holds = arith::CmpIOp::create(
        b, loc, equal ? arith::CmpIPredicate::eq : arith::CmpIPredicate::sle,
        lhs, rhs);
    std::string message = describeLocation(op) + ": '" +
                          op->getName().getStringRef().str() +
                          "' op run-time size check failed: ";
    message += equal ? relation.lhsName + " does not match " + relation.rhsName
                     : relation.rhsName + " is less than " + relation.lhsName;
    cf::AssertOp::create(b, loc, holds, message);
  }
}

struct InsertSizeChecksPass
    : dl::impl::InsertSizeChecksBase<InsertSizeChecksPass> {
  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    getOperation().walk([](Operation *op) {
      if (isa_and_nonnull<DLDialect>(op->getDialect()))
        insertSizeChecks(op);
    });
  }
};

} // namespace
