//===- SizeRelations.cpp - size relations of dl ops -------------*- C++ -*-===//
//
// The relations each dl layer op imposes on its operands' sizes (see
// SizeRelations.h), and their static check for the verifiers.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/SizeRelations.h"
#include "dl/Dialect/DL/IR/DLOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dl;

AffineExpr SizeRelations::size(Value memref, unsigned dim) {
  auto key = std::make_pair(memref, dim);
  auto it = llvm::find(sizes, key);
  if (it != sizes.end())
    return getAffineSymbolExpr(it - sizes.begin(), context);
  sizes.push_back(key);
  return getAffineSymbolExpr(sizes.size() - 1, context);
}

void SizeRelations::addEqual(AffineExpr lhs, const Twine &lhsName,
                             AffineExpr rhs, const Twine &rhsName) {
  relations.push_back(
      {SizeRelation::Kind::Equal, lhs, rhs, lhsName.str(), rhsName.str()});
}

void SizeRelations::addLessEqual(AffineExpr lhs, const Twine &lhsName,
                                 AffineExpr rhs, const Twine &rhsName) {
  relations.push_back(
      {SizeRelation::Kind::LessEqual, lhs, rhs, lhsName.str(), rhsName.str()});
}

void SizeRelations::addSameShape(Value lhs, StringRef lhsName, Value rhs,
                                 StringRef rhsName) {
  for (unsigned d = 0, e = cast<MemRefType>(lhs.getType()).getRank(); d < e;
       ++d)
    addEqual(size(lhs, d), lhsName + " size " + Twine(d), size(rhs, d),
             rhsName + " size " + Twine(d));
}

std::optional<int64_t> SizeRelations::evaluateStatic(AffineExpr expr) const {
  SmallVector<AffineExpr> values;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    int64_t extent = cast<MemRefType>(size.first.getType())
                         .getDimSize(static_cast<int64_t>(size.second));
    values.push_back(ShapedType::isDynamic(extent)
                         ? getAffineSymbolExpr(i, context)
                         : getAffineConstantExpr(extent, context));
  }
  // Substituting constants folds every operation whose operands are known.
  AffineExpr folded = expr.replaceSymbols(values);
  if (auto value = dyn_cast<AffineConstantExpr>(folded))
    return value.getValue();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The relations of each op
//===----------------------------------------------------------------------===//

namespace {

/// The size `blocks x block` of a blocked dimension. The sizes are
/// registered in that order: the operands of `*` are unsequenced, and the
/// registration order numbers the symbols, which the run-time checks follow.
AffineExpr blocksTimesBlock(SizeRelations &relations, Value memref,
                            unsigned blocksDim, unsigned blockDim) {
  AffineExpr blocks = relations.size(memref, blocksDim);
  return blocks * relations.size(memref, blockDim);
}

/// Channels of a plain (rank 2 or 4: dim 1) or blocked (rank 5: dims 1 x 4)
/// activation.
AffineExpr getChannels(SizeRelations &relations, Value activation) {
  if (cast<MemRefType>(activation.getType()).getRank() == 5)
    return blocksTimesBlock(relations, activation, 1, 4);
  return relations.size(activation, 1);
}

/// A per-channel parameter vector has one entry per channel.
void addPerChannel(SizeRelations &relations, Value activation, Value vector,
                   StringRef name) {
  relations.addEqual(relations.size(vector, 0), name + " size",
                     getChannels(relations, activation),
                     "the number of channels");
}

/// The operands of an epilogue on `output`: per-channel vectors of the
/// output's channels (its columns for a matrix), residuals of its shape.
void addEpilogue(SizeRelations &relations, Value output, ArrayRef<PostOp> steps,
                 ValueRange operands) {
  unsigned next = 0;
  for (PostOp step : steps) {
    unsigned count = getPostOpOperandCount(step);
    if (next + count > operands.size())
      return; // The verifier reports the count.
    for (Value operand : operands.slice(next, count)) {
      if (step == PostOp::add)
        relations.addSameShape(output, "output", operand, "epilogue residual");
      else
        addPerChannel(relations, output, operand, "epilogue vector");
    }
    next += count;
  }
}

void addMatmul(SizeRelations &relations, MatmulOp op) {
  addEpilogue(relations, op.getC(), op.getPostOps(), op.getEpilogueOperands());
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  AffineExpr m = relations.size(op.getA(), ta ? 1 : 0);
  AffineExpr kA = relations.size(op.getA(), ta ? 0 : 1);
  AffineExpr kB, n;
  if (op.hasBlockedB()) {
    // N/bn x K/bk x bk x bn (the blocks are static).
    kB = blocksTimesBlock(relations, op.getB(), 1, 2);
    n = blocksTimesBlock(relations, op.getB(), 0, 3);
  } else {
    kB = relations.size(op.getB(), tb ? 1 : 0);
    n = relations.size(op.getB(), tb ? 0 : 1);
  }
  relations.addEqual(kA, "K of op(A)", kB, "K of op(B)");
  relations.addEqual(m, "M of op(A)", relations.size(op.getC(), 0),
                     "rows of C");
  relations.addEqual(n, "N of op(B)", relations.size(op.getC(), 1),
                     "columns of C");
}

/// A convolution's output heights and widths from its input's, its
/// filter's (dims `filterDim` and `filterDim + 1`), strides, padding and
/// dilations (both of arity 2, padding 4: the verifier's).
void addConvOutputSizes(SizeRelations &relations, Value in, Value filter,
                        unsigned filterDim, Value out,
                        ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                        ArrayRef<int64_t> dilations) {
  if (strides.size() != 2 || padding.size() != 4 || dilations.size() != 2)
    return; // The verifier reports the arity.
  for (unsigned dim = 0; dim < 2; ++dim) {
    StringRef name = dim == 0 ? "height" : "width";
    AffineExpr filterSize = relations.size(filter, filterDim + dim);
    AffineExpr extent = (filterSize - 1) * dilations[dim] + 1;
    AffineExpr padded =
        relations.size(in, 2 + dim) + padding[dim] + padding[dim + 2];
    relations.addLessEqual(relations.constant(1), "1", filterSize,
                           Twine("filter ") + name);
    relations.addLessEqual(extent, Twine("the dilated filter ") + name, padded,
                           Twine("the padded input ") + name);
    relations.addEqual(relations.size(out, 2 + dim), Twine("output ") + name,
                       (padded - extent).floorDiv(strides[dim]) + 1,
                       Twine("the ") + name +
                           " implied by input, filter, stride, padding and "
                           "dilation");
  }
}

void addConv2D(SizeRelations &relations, Conv2DOp op) {
  addEpilogue(relations, op.getOutput(), op.getPostOps(),
              op.getEpilogueOperands());
  Value in = op.getInput(), filter = op.getFilter(), out = op.getOutput();
  bool plain = !op.isBlocked();
  relations.addEqual(relations.size(in, 0), "input batch",
                     relations.size(out, 0), "output batch");
  // With groups, the filter's input channels (blocks) are a group's (the
  // verifier checks that the groups divide its static output channels).
  int64_t groups = op.getGroups();
  StringRef inputName = plain ? "input channels" : "input channel blocks";
  StringRef filterInputName =
      plain ? "filter input channels" : "filter input channel blocks";
  StringRef outputName =
      plain ? "filter output channels" : "filter output channel blocks";
  if (groups == 1)
    relations.addEqual(relations.size(in, 1), inputName,
                       relations.size(filter, 1), filterInputName);
  else
    relations.addEqual(
        relations.size(in, 1), inputName, relations.size(filter, 1) * groups,
        Twine("groups (") + Twine(groups) + ") times " + filterInputName);
  relations.addEqual(relations.size(filter, 0), outputName,
                     relations.size(out, 1),
                     plain ? "output channels" : "output channel blocks");
  if (!plain) {
    relations.addEqual(relations.size(in, 4), "input channel block",
                       relations.size(filter, 4), "filter input channel block");
    relations.addEqual(relations.size(filter, 5), "filter output channel block",
                       relations.size(out, 4), "output channel block");
  }
  addConvOutputSizes(relations, in, filter, 2, out, op.getStrides(),
                     op.getPadding(), op.getDilations());
}

/// Depthwise convolution: batch and channels kept (the filter's channels,
/// which a blocked activation's blocks may pad), the output size as a
/// convolution's.
/// Every input has the output's sizes but along the axis, where they sum to
/// the output's.
void addConcat(SizeRelations &relations, ConcatOp op) {
  Value output = op.getOutput();
  int64_t rank = cast<ShapedType>(output.getType()).getRank();
  int64_t axis = op.getAxis();
  AffineExpr total = relations.constant(0);
  for (auto [position, input] : llvm::enumerate(op.getInputs())) {
    for (int64_t dim = 0; dim < rank; ++dim)
      if (dim != axis)
        relations.addEqual(relations.size(input, dim),
                           "size " + Twine(dim) + " of input #" +
                               Twine(position),
                           relations.size(output, dim),
                           "size " + Twine(dim) + " of the output");
    total = total + relations.size(input, axis);
  }
  relations.addEqual(total, "the inputs' sizes along the axis",
                     relations.size(output, axis),
                     "the output's size along it");
}

void addDepthwiseConv2D(SizeRelations &relations, DepthwiseConv2DOp op) {
  Value in = op.getInput(), filter = op.getFilter(), out = op.getOutput();
  relations.addEqual(relations.size(in, 0), "input batch",
                     relations.size(out, 0), "output batch");
  AffineExpr channels = relations.size(filter, 2);
  if (op.isBlocked()) {
    relations.addEqual(relations.size(in, 1), "input channel blocks",
                       relations.size(out, 1), "output channel blocks");
    relations.addEqual(relations.size(in, 4), "input channel block",
                       relations.size(out, 4), "output channel block");
    AffineExpr padded = blocksTimesBlock(relations, in, 1, 4);
    relations.addLessEqual(channels, "filter channels", padded,
                           "input channels (blocks x block)");
    relations.addLessEqual(padded, "input channels (blocks x block)",
                           channels + relations.size(in, 4) - 1,
                           "filter channels plus the block less one");
  } else {
    relations.addEqual(relations.size(in, 1), "input channels", channels,
                       "filter channels");
    relations.addEqual(relations.size(out, 1), "output channels", channels,
                       "filter channels");
  }
  addConvOutputSizes(relations, in, filter, 0, out, op.getStrides(),
                     op.getPadding(), op.getDilations());
}

/// Pooling: batch and channels kept, the output size implied by window,
/// stride and padding. (With each padding below the window, the verifier's
/// check, the last window then starts inside the image.)
template <typename OpTy> void addPool2D(SizeRelations &relations, OpTy op) {
  Value in = op.getInput(), out = op.getOutput();
  relations.addEqual(relations.size(in, 0), "input batch",
                     relations.size(out, 0), "output batch");
  bool blocked = op.isBlocked();
  relations.addEqual(relations.size(in, 1),
                     blocked ? "input channel blocks" : "input channels",
                     relations.size(out, 1),
                     blocked ? "output channel blocks" : "output channels");
  if (blocked)
    relations.addEqual(relations.size(in, 4), "input channel block",
                       relations.size(out, 4), "output channel block");
  ArrayRef<int64_t> window = op.getWindow(), strides = op.getStrides(),
                    padding = op.getPadding();
  if (window.size() != 2 || strides.size() != 2 || padding.size() != 4)
    return; // The verifier reports the arity.
  for (unsigned dim = 0; dim < 2; ++dim) {
    StringRef name = dim == 0 ? "height" : "width";
    AffineExpr padded =
        relations.size(in, 2 + dim) + padding[dim] + padding[dim + 2];
    relations.addLessEqual(relations.constant(window[dim]),
                           Twine("the window ") + name, padded,
                           Twine("the padded input ") + name);
    relations.addEqual(relations.size(out, 2 + dim), Twine("output ") + name,
                       (padded - window[dim]).floorDiv(strides[dim]) + 1,
                       Twine("the ") + name +
                           " implied by input, window, stride and padding");
  }
}

void addBatchNorm(SizeRelations &relations, Value input, Value output,
                  ArrayRef<std::pair<Value, StringRef>> vectors) {
  relations.addSameShape(input, "input", output, "output");
  for (auto [vector, name] : vectors)
    addPerChannel(relations, input, vector, name);
}

/// pack / unpack between `plain` and `blocked` (a grouped filter's input
/// channels relate to its blocks as dl.pack's verifier checks).
void addLayoutChange(SizeRelations &relations, Value plain, Value blocked,
                     int64_t groups) {
  auto addBlocking = [&](unsigned plainDim, unsigned blocksDim,
                         unsigned blockDim, StringRef name) {
    relations.addEqual(
        blocksTimesBlock(relations, blocked, blocksDim, blockDim),
        "blocked " + name + " (blocks x block)",
        relations.size(plain, plainDim), "plain " + name);
  };
  auto addSame = [&](unsigned dim, StringRef name) {
    relations.addEqual(relations.size(plain, dim), "plain " + name,
                       relations.size(blocked, dim), "blocked " + name);
  };
  if (cast<MemRefType>(plain.getType()).getRank() == 2) {
    // K x N <-> N/n x K/k x k x n.
    addBlocking(0, 1, 2, "matrix rows");
    addBlocking(1, 0, 3, "matrix columns");
    return;
  }
  // Channels may be padded: the blocks hold the plain channels and fewer
  // than a block more.
  auto addPaddedBlocking = [&](unsigned plainDim, unsigned blocksDim,
                               unsigned blockDim, StringRef name) {
    AffineExpr padded =
        blocksTimesBlock(relations, blocked, blocksDim, blockDim);
    AffineExpr channels = relations.size(plain, plainDim);
    relations.addLessEqual(channels, "plain " + name, padded,
                           "blocked " + name + " (blocks x block)");
    relations.addLessEqual(padded, "blocked " + name + " (blocks x block)",
                           channels + relations.size(blocked, blockDim) - 1,
                           "plain " + name + " plus the block less one");
  };
  if (cast<MemRefType>(blocked.getType()).getRank() == 5) {
    // NCHW <-> NCHW{c}c.
    addSame(0, "batch");
    addSame(2, "height");
    addSame(3, "width");
    addPaddedBlocking(1, 1, 4, "input channels");
    return;
  }
  // KCRS <-> KCRS{c}c{k}k.
  addPaddedBlocking(0, 0, 5, "output channels");
  if (groups == 1)
    addPaddedBlocking(1, 1, 4, "input channels");
  addSame(2, "filter height");
  addSame(3, "filter width");
}

} // namespace

SizeRelations dl::getSizeRelations(Operation *op) {
  SizeRelations relations(op->getContext());
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](MatmulOp op) { addMatmul(relations, op); })
      .Case([&](Conv2DOp op) { addConv2D(relations, op); })
      .Case([&](BatchNormInferenceOp op) {
        addBatchNorm(relations, op.getInput(), op.getOutput(),
                     {{op.getGamma(), "gamma"},
                      {op.getBeta(), "beta"},
                      {op.getMean(), "mean"},
                      {op.getVariance(), "variance"}});
      })
      .Case([&](BatchNormTrainingOp op) {
        SmallVector<std::pair<Value, StringRef>> vectors = {
            {op.getGamma(), "gamma"},
            {op.getBeta(), "beta"},
            {op.getSavedMean(), "saved_mean"},
            {op.getSavedVariance(), "saved_variance"}};
        if (Value invStd = op.getSavedInvStd())
          vectors.push_back({invStd, "inv_std"});
        addBatchNorm(relations, op.getInput(), op.getOutput(), vectors);
      })
      .Case<ReluOp, Relu6Op, SigmoidOp, SiluOp, HardSigmoidOp, HardSwishOp>(
          [&](auto op) {
            relations.addSameShape(op.getInput(), "input", op.getOutput(),
                                   "output");
          })
      .Case([&](MulOp op) {
        relations.addSameShape(op.getLhs(), "lhs", op.getOutput(), "output");
        // Each size of rhs is lhs's, but those that are 1 (broadcast).
        ArrayRef<int64_t> rhs = op.getRhs().getType().getShape();
        for (auto [dim, size] : llvm::enumerate(rhs))
          if (size != 1)
            relations.addEqual(relations.size(op.getRhs(), dim),
                               "size " + Twine(dim) + " of rhs",
                               relations.size(op.getLhs(), dim),
                               "size " + Twine(dim) + " of lhs");
      })
      .Case([&](AddOp op) {
        relations.addSameShape(op.getLhs(), "lhs", op.getRhs(), "rhs");
        relations.addSameShape(op.getLhs(), "lhs", op.getOutput(), "output");
      })
      .Case([&](BiasAddOp op) {
        relations.addSameShape(op.getInput(), "input", op.getOutput(),
                               "output");
        addPerChannel(relations, op.getInput(), op.getBias(), "bias");
      })
      .Case<MaxPool2DOp, AvgPool2DOp>(
          [&](auto op) { addPool2D(relations, op); })
      .Case([&](DepthwiseConv2DOp op) { addDepthwiseConv2D(relations, op); })
      .Case([&](ConcatOp op) { addConcat(relations, op); })
      .Case([&](PackOp op) {
        addLayoutChange(relations, op.getPlain(), op.getBlocked(),
                        op.getGroups());
      })
      .Case([&](UnpackOp op) {
        addLayoutChange(relations, op.getPlain(), op.getBlocked(), 1);
      });
  return relations;
}

LogicalResult dl::verifyStaticSizeRelations(Operation *op) {
  SizeRelations relations = getSizeRelations(op);
  for (const SizeRelation &relation : relations.getRelations()) {
    std::optional<int64_t> lhs = relations.evaluateStatic(relation.lhs);
    std::optional<int64_t> rhs = relations.evaluateStatic(relation.rhs);
    if (!lhs || !rhs)
      continue;
    if (relation.kind == SizeRelation::Kind::Equal && *lhs != *rhs)
      return op->emitOpError()
             << relation.lhsName << " (" << *lhs << ") does not match "
             << relation.rhsName << " (" << *rhs << ")";
    if (relation.kind == SizeRelation::Kind::LessEqual && *lhs > *rhs)
      return op->emitOpError()
             << relation.rhsName << " (" << *rhs << ") is less than "
             << relation.lhsName << " (" << *lhs << ")";
  }
  return success();
}
