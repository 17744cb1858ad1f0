//===- SizeRelations.h - size relations of dl ops ---------------*- C++ -*-===//
//
// Every relation between operand sizes that a dl op's semantics require
// (K of A equals K of B, the output height a convolution implies, blocks x
// block equals the plain channel count, ...), written once as affine
// expressions over the operands' dimension sizes. The verifiers check the
// relations whose sizes are all static; convert-dl-to-affine turns the others
// into run-time checks (cf.assert), so inconsistent dynamic sizes stop the
// program with a message instead of reading or writing out of bounds.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_IR_SIZERELATIONS_H
#define DL_DIALECT_DL_IR_SIZERELATIONS_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace mlir {
namespace dl {

/// `lhs == rhs` or `lhs <= rhs` over the sizes of a SizeRelations.
struct SizeRelation {
  enum class Kind { Equal, LessEqual };
  Kind kind;
  AffineExpr lhs, rhs;
  std::string lhsName, rhsName;
};

/// The size relations of one op: symbol i of every expression is the size of
/// dimension `sizes[i].second` of memref `sizes[i].first`.
class SizeRelations {
public:
  explicit SizeRelations(MLIRContext *context) : context(context) {}

  /// The symbol standing for dimension `dim` of `memref`.
  AffineExpr size(Value memref, unsigned dim);
  AffineExpr constant(int64_t value) const {
    return getAffineConstantExpr(value, context);
  }
  void addEqual(AffineExpr lhs, const Twine &lhsName, AffineExpr rhs,
                const Twine &rhsName);
  void addLessEqual(AffineExpr lhs, const Twine &lhsName, AffineExpr rhs,
                    const Twine &rhsName);
  /// Every dimension of `lhs` equals the same dimension of `rhs` (same rank).
  void addSameShape(Value lhs, StringRef lhsName, Value rhs, StringRef rhsName);

  ArrayRef<SizeRelation> getRelations() const { return relations; }
  ArrayRef<std::pair<Value, unsigned>> getSizes() const { return sizes; }

  /// The value of `expr` when every size it uses is static.
  std::optional<int64_t> evaluateStatic(AffineExpr expr) const;

private:
  MLIRContext *context;
  SmallVector<std::pair<Value, unsigned>> sizes;
  SmallVector<SizeRelation> relations;
};

/// The size relations of a dl layer op whose ranks and attributes are valid
/// (empty for the microkernel ops, which have none).
SizeRelations getSizeRelations(Operation *op);

/// Emits an error on `op` for the first relation whose sizes are static and
/// that does not hold.
LogicalResult verifyStaticSizeRelations(Operation *op);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_IR_SIZERELATIONS_H
