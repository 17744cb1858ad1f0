//===- DLOps.cpp - dl dialect operations ------------------------*- C++ -*-===//
//
// Verifiers of the `dl` operations. Each checks ranks and attribute ranges,
// then the op's size relations (SizeRelations.h) whose sizes are static;
// relations involving dynamic sizes are checked at run time.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/IR/SizeRelations.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::dl;

/// The dilated filter extent and the padded input size of one spatial
/// dimension, or std::nullopt when either overflows int64.
static std::optional<std::pair<int64_t, int64_t>>
getConvExtents(int64_t inputSize, int64_t filterSize, int64_t padBefore,
               int64_t padAfter, int64_t dilation) {
  std::optional<int64_t> extent =
      llvm::checkedMulAdd<int64_t>(dilation, filterSize - 1, 1);
  std::optional<int64_t> padded = llvm::checkedAdd(inputSize, padBefore);
  if (padded)
    padded = llvm::checkedAdd(*padded, padAfter);
  if (!extent || !padded)
    return std::nullopt;
  return std::make_pair(*extent, *padded);
}

std::optional<int64_t>
mlir::dl::getConvOutputSize(int64_t inputSize, int64_t filterSize,
                            int64_t stride, int64_t padBefore, int64_t padAfter,
                            int64_t dilation) {
  if (filterSize < 1)
    return std::nullopt;
  auto extents =
      getConvExtents(inputSize, filterSize, padBefore, padAfter, dilation);
  if (!extents || extents->first > extents->second)
    return std::nullopt;
  return (extents->second - extents->first) / stride + 1;
}

//===----------------------------------------------------------------------===//
// Tensor and buffer forms
//===----------------------------------------------------------------------===//

bool mlir::dl::hasUniformOperandKind(Operation *op) {
  auto isTensor = [](Value value) { return isa<TensorType>(value.getType()); };
  return llvm::all_of(op->getOperands(), isTensor) ||
         llvm::none_of(op->getOperands(), isTensor);
}

LogicalResult mlir::dl::verifyBufferForm(Operation *root, StringRef pass) {
  WalkResult result = root->walk([&](DestinationStyleOpInterface op) {
    if (!isa<DLDialect>(op->getDialect()) || op.hasPureBufferSemantics())
      return WalkResult::advance();
    op->emitOpError() << "is on tensors; '" << pass
                      << "' runs on buffers: bufferize first (dl-bufferize)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

void mlir::dl::getDestinationStyleEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    bool written = dps.isDpsInit(&operand);
    bool read = !written;
    if (auto matmul = dyn_cast<MatmulOp>(op))
      read |= operand.get() == matmul.getC();
    if (auto conv = dyn_cast<Conv2DOp>(op)) {
      written |= operand.get() == conv.getRowStatistics();
      read &= !written;
    }
    if (read)
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
    if (written)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// Checks that `value` has one of the ranks in `ranks`.
static LogicalResult verifyRank(Operation *op, TypedValue<ShapedType> value,
                                StringRef name, ArrayRef<int64_t> ranks) {
  int64_t rank = value.getType().getRank();
  if (llvm::is_contained(ranks, rank))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "expects " << name << " of rank ";
  llvm::interleave(ranks, diag, " or ");
  return diag << ", got rank " << rank;
}

/// Checks that `lhs` and `rhs` have the same rank (their sizes are size
/// relations).
static LogicalResult verifySameRank(Operation *op, ShapedType lhs,
                                    StringRef lhsName, ShapedType rhs,
                                    StringRef rhsName) {
  if (lhs.getRank() != rhs.getRank())
    return op->emitOpError()
           << lhsName << " rank (" << lhs.getRank() << ") does not match "
           << rhsName << " rank (" << rhs.getRank() << ")";
  return success();
}

/// Rejects an output buffer that is also one of the inputs, for ops whose
/// lowering reads inputs after it has started writing the output. (A tensor
/// may be both: bufferization gives the output its own buffer.)
static LogicalResult verifyNoAliasing(Operation *op, Value output,
                                      ValueRange inputs) {
  if (isa<MemRefType>(output.getType()) && llvm::is_contained(inputs, output))
    return op->emitOpError()
           << "output must not be the same buffer as an input";
  return success();
}

/// Blocked layouts need a static, positive block size (the innermost dims):
/// element addresses are affine in the block index only when it is constant.
static LogicalResult verifyStaticBlock(Operation *op, int64_t block,
                                       const Twine &name) {
  if (ShapedType::isDynamic(block))
    return op->emitOpError() << name << " block size must be static";
  if (block < 1)
    return op->emitOpError()
           << name << " block size must be >= 1, got " << block;
  return success();
}

/// A blocked (rank-5) activation needs a static channel block.
static LogicalResult verifyChannelBlock(Operation *op, ShapedType activation) {
  if (activation.getRank() != 5)
    return success();
  return verifyStaticBlock(op, activation.getDimSize(4), "channel");
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

/// Checks an op's `schedule` against the dimensions it may order.
template <typename OpTy> static LogicalResult verifySchedule(OpTy op) {
  ScheduleAttr schedule = op.getScheduleAttr();
  if (!schedule)
    return success();
  std::optional<SmallVector<ScheduleDim>> dims = op.getScheduleDims();
  if (!dims)
    return op.emitOpError(
        "a schedule needs static sizes and blocked loops (pack_blocks on "
        "dl.matmul, the blocked layout of dl.conv2d)");
  return schedule.getLoops(*dims, [&] { return op.emitOpError(); });
}

/// Checks a blocked B (N/bn x K/bk x bk x bn): static blocks, read in place.
static LogicalResult verifyBlockedB(MatmulOp op) {
  ShapedType b = op.getB().getType();
  if (failed(verifyStaticBlock(op, b.getDimSize(2), "B's K")) ||
      failed(verifyStaticBlock(op, b.getDimSize(3), "B's N")))
    return failure();
  if (op.getTransposeB() || op.getPackB())
    return op.emitOpError(
        "a blocked B (rank 4) takes neither transpose_b nor pack_b");
  std::optional<ArrayRef<int64_t>> blocks = op.getPackBlocks();
  if (blocks && blocks->size() == 3 &&
      ((*blocks)[1] != b.getDimSize(3) || (*blocks)[2] != b.getDimSize(2)))
    return op.emitOpError("pack_blocks' bn and bk (")
           << (*blocks)[1] << ", " << (*blocks)[2]
           << ") must be the blocks of the blocked B (" << b.getDimSize(3)
           << ", " << b.getDimSize(2) << ")";
  return success();
}

template <typename OpTy>
static LogicalResult verifyEpilogue(OpTy op, ShapedType outputType);

LogicalResult MatmulOp::verify() {
  if (failed(verifyRank(*this, getA(), "A", {2})) ||
      failed(verifyRank(*this, getB(), "B", {2, 4})) ||
      failed(verifyRank(*this, getC(), "C", {2})))
    return failure();
  if (hasBlockedB() && failed(verifyBlockedB(*this)))
    return failure();
  if (failed(verifyEpilogue(*this, getC().getType())) ||
      failed(verifyStaticSizeRelations(*this)))
    return failure();
  ShapedType a = getA().getType();
  int64_t m = a.getDimSize(getTransposeA() ? 1 : 0);
  int64_t k = a.getDimSize(getTransposeA() ? 0 : 1);
  int64_t n = getC().getType().getDimSize(1);
  if (failed(verifyPackBlocks(m, n, k)) || failed(verifySchedule(*this)))
    return failure();
  if (getStreamA() &&
      (getPackBlocks() || getTransposeA() || ShapedType::isDynamic(m) ||
       ShapedType::isDynamic(n) || ShapedType::isDynamic(k)))
    return emitOpError("stream_a needs static sizes, and neither "
                       "pack_blocks nor transpose_a");
  if (std::optional<int64_t> chunks = getSplitK()) {
    std::optional<ArrayRef<int64_t>> blocks = getPackBlocks();
    if (!blocks || hasDynamicSizes() || hasBlockedB() || getPadBlocks() ||
        !getPostOps().empty())
      return emitOpError("split_k needs pack_blocks, static sizes, a plain B, "
                         "no pad_blocks and no epilogue");
    if (*chunks < 2 || k / (*blocks)[2] < *chunks)
      return emitOpError("split_k must be at least 2 and at most the ")
             << k / (*blocks)[2] << " K blocks, got " << *chunks;
  }
  return verifyNoAliasing(*this, getC(), {getA(), getB()});
}

std::optional<SmallVector<ScheduleDim>> MatmulOp::getScheduleDims() {
  std::optional<ArrayRef<int64_t>> blocks = getPackBlocks();
  if (!blocks || blocks->size() != 3)
    return std::nullopt;
  int64_t m = getC().getType().getDimSize(0);
  int64_t n = getC().getType().getDimSize(1);
  int64_t k = getA().getType().getDimSize(getTransposeA() ? 0 : 1);
  if (hasDynamicSizes())
    return std::nullopt;
  return SmallVector<ScheduleDim>{
      {"i", llvm::divideCeilSigned(m, (*blocks)[0])},
      {"j", llvm::divideCeilSigned(n, (*blocks)[1])},
      {"k", llvm::divideCeilSigned(k, (*blocks)[2]),
       /*reduction=*/true,
       /*innermost=*/true}};
}

LogicalResult MatmulOp::verifyPackBlocks(int64_t m, int64_t n, int64_t k) {
  std::optional<ArrayRef<int64_t>> blocks = getPackBlocks();
  if (!blocks) {
    if (getPackA() || getPackB() || getPackC() || getPadBlocks() ||
        getBatchBlocks() || getPanelA() || getPanelB())
      return emitOpError("pack_a, pack_b, pack_c, pad_blocks, panel_a, "
                         "panel_b and batch_blocks need pack_blocks");
    return success();
  }
  if (blocks->size() != 3)
    return emitOpError("pack_blocks must have 3 entries (bm, bn, bk), got ")
           << blocks->size();
  int64_t sizes[] = {m, n, k};
  const char *names[] = {"M", "N", "K"};
  for (auto [block, size, name] : llvm::zip(*blocks, sizes, names)) {
    if (ShapedType::isDynamic(size)) {
      if (!getPadBlocks())
        return emitOpError("pack_blocks needs a static ")
               << name << ", or pad_blocks";
      if (block < 1)
        return emitOpError("pack_blocks entry for ")
               << name << " must be positive, got " << block;
      continue;
    }
    if (getPadBlocks() ? block < 1 : block < 1 || size % block != 0)
      return emitOpError("pack_blocks entry for ")
             << name << " must be "
             << (getPadBlocks()
                     ? "positive with pad_blocks"
                     : "a positive divisor of " + std::to_string(size))
             << ", got " << block;
  }
  if (getPadBlocks() && ((hasPartialABlocks() && !getPackA()) || !getPackB() ||
                         (hasPartialCBlocks() && !getPackC()) || hasBlockedB()))
    return emitOpError("pad_blocks needs pack_b, a plain B, pack_a when bm "
                       "or bk does not divide M or K, and pack_c when bm or "
                       "bn does not divide M or N");
  if (hasDynamicSizes() && (!getPackC() || getScheduleAttr()))
    return emitOpError("pack_blocks with dynamic sizes needs pack_c and no "
                       "schedule");
  if ((getPanelA() && !getPackA()) || (getPanelB() && !getPackB()) ||
      ((getPanelA() || getPanelB()) && (!getScheduleAttr() || getPadBlocks())))
    return emitOpError("panel_a and panel_b need the operand's pack_a or "
                       "pack_b, a schedule and no pad_blocks");
  if (std::optional<int64_t> batch = getBatchBlocks()) {
    if (ShapedType::isDynamic(k)) {
      if (*batch < 1)
        return emitOpError("batch_blocks must be positive, got ") << *batch;
      return success();
    }
    int64_t kBlocks = llvm::divideCeilSigned(k, (*blocks)[2]);
    if (*batch < 1 || kBlocks % *batch != 0)
      return emitOpError("batch_blocks must be a positive divisor of the ")
             << kBlocks << " K blocks, got " << *batch;
  }
  return success();
}

ScheduleAttr MatmulOp::getEffectiveSchedule() {
  if (ScheduleAttr schedule = getScheduleAttr())
    return schedule;
  std::optional<int64_t> batch = getBatchBlocks();
  std::optional<SmallVector<ScheduleDim>> dims = getScheduleDims();
  if (!batch || !dims || *batch == (*dims)[2].extent)
    return nullptr;
  MLIRContext *ctx = getContext();
  SmallVector<StringAttr> names = llvm::map_to_vector(
      ArrayRef<StringRef>{"i", "j", "k", "k"},
      [&](StringRef name) { return StringAttr::get(ctx, name); });
  return ScheduleAttr::get(ctx, names, ArrayRef<int64_t>{0, 0, *batch, 0},
                           /*parallel=*/-1);
}

//===----------------------------------------------------------------------===//
// Conv2DOp
//===----------------------------------------------------------------------===//

/// The checks of a convolution's strides, padding and dilations: their
/// arities and signs.
static LogicalResult verifyConvGeometry(Operation *op,
                                        ArrayRef<int64_t> strides,
                                        ArrayRef<int64_t> padding,
                                        ArrayRef<int64_t> dilations) {
  if (strides.size() != 2)
    return op->emitOpError() << "expects 2 strides, got " << strides.size();
  if (dilations.size() != 2)
    return op->emitOpError() << "expects 2 dilations, got " << dilations.size();
  if (padding.size() != 4)
    return op->emitOpError()
           << "expects 4 paddings [top, left, bottom, right], got "
           << padding.size();
  if (llvm::any_of(strides, [](int64_t s) { return s <= 0; }))
    return op->emitOpError() << "expects strides > 0";
  if (llvm::any_of(dilations, [](int64_t d) { return d <= 0; }))
    return op->emitOpError() << "expects dilations > 0";
  if (llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return op->emitOpError() << "expects paddings >= 0";
  return success();
}

LogicalResult Conv2DOp::verify() {
  ShapedType in = getInput().getType(), filter = getFilter().getType(),
             out = getOutput().getType();
  bool plain = in.getRank() == 4 && filter.getRank() == 4 && out.getRank() == 4;
  bool blocked =
      in.getRank() == 5 && filter.getRank() == 6 && out.getRank() == 5;
  if (!plain && !blocked)
    return emitOpError()
           << "expects the plain layout (input, filter, output of ranks 4, "
              "4, 4) or the blocked layout (ranks 5, 6, 5), got ranks "
           << in.getRank() << ", " << filter.getRank() << ", " << out.getRank();

  ArrayRef<int64_t> strides = getStrides(), padding = getPadding(),
                    dilations = getDilations();
  if (failed(verifyConvGeometry(*this, strides, padding, dilations)))
    return failure();
  // Before the size relations, which divide the channels into the groups.
  int64_t groups = getGroups();
  if (groups < 1)
    return emitOpError() << "expects groups >= 1, got " << groups;
  if (groups > 1 && !filter.hasStaticShape())
    return emitOpError("groups > 1 needs a static filter shape");
  if (filter.hasStaticShape() && filter.getDimSize(0) % groups != 0)
    return emitOpError() << "groups (" << groups
                         << ") do not divide the filter's output channel"
                         << (blocked ? " blocks (" : "s (")
                         << filter.getDimSize(0) << ")";

  if (blocked &&
      (failed(verifyStaticBlock(*this, in.getDimSize(4), "input channel")) ||
       failed(verifyStaticBlock(*this, filter.getDimSize(4),
                                "filter input channel")) ||
       failed(verifyStaticBlock(*this, filter.getDimSize(5),
                                "filter output channel")) ||
       failed(verifyStaticBlock(*this, out.getDimSize(4), "output channel"))))
    return failure();

  // Spatial sizes, H then W: overflow and a filter that does not fit get
  // their own messages; the output size is a size relation.
  for (int dim = 0; dim < 2; ++dim) {
    int64_t inSize = in.getDimSize(2 + dim);
    int64_t filterSize = filter.getDimSize(2 + dim);
    StringRef dimName = dim == 0 ? "height" : "width";
    if (!ShapedType::isDynamic(filterSize) && filterSize < 1)
      return emitOpError() << "expects a filter " << dimName << " >= 1";
    if (ShapedType::isDynamic(inSize) || ShapedType::isDynamic(filterSize))
      continue;
    auto extents = getConvExtents(inSize, filterSize, padding[dim],
                                  padding[dim + 2], dilations[dim]);
    if (!extents)
      return emitOpError() << "filter " << dimName << " extent or padded input "
                           << dimName << " overflows a 64-bit integer";
    if (extents->first > extents->second)
      return emitOpError() << "filter " << dimName << " (" << filterSize
                           << ", dilated " << extents->first
                           << ") is larger than the padded input " << dimName
                           << " (" << extents->second << ")";
  }
  // The epilogue's operand ranks before the size relations index them.
  if (failed(verifyEpilogue(*this, out)) ||
      failed(verifyStaticSizeRelations(*this)) || failed(verifySchedule(*this)))
    return failure();
  if (getSkipPaddingColumns() && !getTapColumns())
    return emitOpError("skip_padding_columns needs the blocked layout, left "
                       "or right padding and static widths (input, filter, "
                       "output)");
  if (Value rows = getRowStatistics()) {
    auto rowsType = cast<ShapedType>(rows.getType());
    if (!blocked || !out.hasStaticShape() ||
        rowsType.getShape() !=
            ArrayRef<int64_t>{out.getDimSize(0), out.getDimSize(2), 2,
                              out.getDimSize(1) * out.getDimSize(4)})
      return emitOpError("row_statistics needs the blocked layout, a static "
                         "output N x K/k x OH x OW x k and the shape "
                         "N x OH x 2 x K");
  }
  if (groups > 1 && getPixelVectors())
    return emitOpError("pixel_vectors needs groups = 1");
  if (std::optional<uint64_t> lanes = getGroupLanes()) {
    int64_t groupLanes = *lanes;
    if (!blocked || !in.hasStaticShape() || !filter.hasStaticShape() ||
        !out.hasStaticShape() || filter.getDimSize(1) != 1 ||
        groups != filter.getDimSize(0) ||
        filter.getDimSize(4) != filter.getDimSize(5) || groupLanes < 1 ||
        filter.getDimSize(5) % groupLanes != 0 || getSchedule() ||
        getRowStatistics())
      return emitOpError(
          "group_lanes needs the blocked layout, static sizes, one input "
          "block per output block of the same size, a group per output "
          "block, group_lanes dividing the block, and no schedule or row "
          "statistics");
  }
  if (getPixelVectors() && (blocked || !in.hasStaticShape() ||
                            !filter.hasStaticShape() || !out.hasStaticShape()))
    return emitOpError("pixel_vectors needs the plain layout and static sizes "
                       "(input, filter, output)");
  return verifyNoAliasing(*this, getOutput(), {getInput(), getFilter()});
}

SmallVector<PostOp> dl::getPostOps(std::optional<ArrayAttr> epilogue) {
  SmallVector<PostOp> steps;
  if (epilogue && *epilogue)
    for (Attribute step : *epilogue)
      steps.push_back(cast<PostOpAttr>(step).getValue());
  return steps;
}

unsigned dl::getPostOpOperandCount(PostOp step) {
  switch (step) {
  case PostOp::bias_add:
  case PostOp::add:
    return 1;
  case PostOp::batch_norm_inference:
    return 4;
  case PostOp::relu:
  case PostOp::relu6:
    return 0;
  }
  llvm_unreachable("unknown post-op");
}

/// The epilogue's operands match its steps: one per bias_add and add, four
/// per batch_norm_inference (one of them at most, with epilogue_epsilon);
/// per-channel vectors are rank 1, residuals of the output's rank.
template <typename OpTy>
static LogicalResult verifyEpilogue(OpTy op, ShapedType outputType) {
  SmallVector<PostOp> steps = op.getPostOps();
  unsigned expected = 0, batchNorms = 0;
  for (PostOp step : steps) {
    expected += getPostOpOperandCount(step);
    batchNorms += step == PostOp::batch_norm_inference;
  }
  ValueRange operands = op.getEpilogueOperands();
  if (operands.size() != expected)
    return op.emitOpError()
           << "epilogue expects " << expected << " operands for its steps, got "
           << operands.size();
  if (batchNorms > 1)
    return op.emitOpError(
        "epilogue has more than one batch_norm_inference step");
  if ((batchNorms == 1) != op.getEpilogueEpsilon().has_value())
    return op.emitOpError("epilogue_epsilon must be given exactly when the "
                          "epilogue has a batch_norm_inference step");
  unsigned next = 0;
  int64_t outRank = outputType.getRank();
  for (PostOp step : steps) {
    for (Value operand : operands.slice(next, getPostOpOperandCount(step))) {
      int64_t rank = cast<ShapedType>(operand.getType()).getRank();
      int64_t wanted = step == PostOp::add ? outRank : 1;
      if (rank != wanted)
        return op.emitOpError()
               << "epilogue step " << stringifyPostOp(step)
               << " expects operands of rank " << wanted << ", got " << rank;
    }
    next += getPostOpOperandCount(step);
  }
  return success();
}

std::optional<SmallVector<TapColumns>> Conv2DOp::getTapColumns() {
  int64_t left = getPadding()[1], right = getPadding()[3];
  if (!isBlocked() || (left == 0 && right == 0))
    return std::nullopt;
  int64_t inputWidth = getInput().getType().getDimSize(3);
  int64_t filterWidth = getFilter().getType().getDimSize(3);
  int64_t outputWidth = getOutput().getType().getDimSize(3);
  if (ShapedType::isDynamic(inputWidth) || ShapedType::isDynamic(filterWidth) ||
      ShapedType::isDynamic(outputWidth))
    return std::nullopt;
  // Output column ow reads input column ow * stride + s * dilation - left at
  // tap s, which is in [0, inputWidth) for ow in [ceil((left - s *
  // dilation) / stride), ceil((inputWidth + left - s * dilation) / stride)),
  // clamped to [0, outputWidth).
  int64_t stride = getStrides()[1], dilation = getDilations()[1];
  SmallVector<TapColumns> runs;
  for (int64_t tap = 0; tap < filterWidth; ++tap) {
    int64_t first = left - tap * dilation;
    int64_t firstColumn =
        std::max<int64_t>(0, llvm::divideCeilSigned(first, stride));
    int64_t endColumn = std::min(
        outputWidth, llvm::divideCeilSigned(inputWidth + first, stride));
    if (firstColumn >= endColumn)
      continue;
    if (!runs.empty() && runs.back().endTap == tap &&
        runs.back().firstColumn == firstColumn &&
        runs.back().endColumn == endColumn) {
      ++runs.back().endTap;
      continue;
    }
    runs.push_back({tap, tap + 1, firstColumn, endColumn});
  }
  return runs;
}

std::optional<SmallVector<ScheduleDim>> Conv2DOp::getScheduleDims() {
  ShapedType out = getOutput().getType();
  // The loops' extents come from the output and the filter (cb); a
  // group_lanes convolution has no such loops.
  if (!isBlocked() || getGroupLanes() || !out.hasStaticShape() ||
      !getFilter().getType().hasStaticShape())
    return std::nullopt;
  return SmallVector<ScheduleDim>{{"n", out.getDimSize(0)},
                                  {"kb", out.getDimSize(1)},
                                  {"oh", out.getDimSize(2)},
                                  {"cb", getFilter().getType().getDimSize(1),
                                   /*reduction=*/true,
                                   /*innermost=*/true, /*optional=*/true}};
}

//===----------------------------------------------------------------------===//
// Batch normalization
//===----------------------------------------------------------------------===//

/// Checks shared by both batch-norm forms.
static LogicalResult verifyBatchNorm(Operation *op,
                                     TypedValue<ShapedType> input,
                                     TypedValue<ShapedType> output,
                                     float epsilon) {
  if (failed(verifyRank(op, input, "input", {4, 5})) ||
      failed(verifySameRank(op, input.getType(), "input", output.getType(),
                            "output")) ||
      failed(verifyChannelBlock(op, input.getType())) ||
      failed(verifyStaticSizeRelations(op)))
    return failure();
  if (!(epsilon >= 0.0f))
    return op->emitOpError() << "expects epsilon >= 0, got " << epsilon;
  return success();
}

LogicalResult BatchNormInferenceOp::verify() {
  return verifyBatchNorm(*this, getInput(), getOutput(),
                         getEpsilon().convertToFloat());
}

LogicalResult BatchNormTrainingOp::verify() {
  if (failed(verifyBatchNorm(*this, getInput(), getOutput(),
                             getEpsilon().convertToFloat())))
    return failure();
  SmallVector<Value> saved = {getSavedMean(), getSavedVariance()};
  if (Value invStd = getSavedInvStd())
    saved.push_back(invStd);
  // Tensors are values: one may start several results.
  for (auto [i, value] : llvm::enumerate(saved))
    if (isa<MemRefType>(value.getType()) &&
        llvm::is_contained(ArrayRef(saved).drop_front(i + 1), value))
      return emitOpError() << "saved_mean, saved_variance and inv_std must be "
                              "different buffers";
  if (Value rows = getRowStatistics()) {
    // R1 x R2 x 2 x C, static, and the groups split the m elements of a
    // channel evenly.
    auto rowsType = cast<ShapedType>(rows.getType());
    ShapedType in = getInput().getType();
    int64_t channels = in.getRank() == 5 ? in.getDimSize(1) * in.getDimSize(4)
                                         : in.getDimSize(1);
    int64_t m = in.getDimSize(0) * in.getDimSize(2) * in.getDimSize(3);
    if (!in.hasStaticShape() || !rowsType.hasStaticShape() ||
        rowsType.getRank() != 4 || rowsType.getDimSize(2) != 2 ||
        rowsType.getDimSize(3) != channels)
      return emitOpError() << "row_statistics must be static R1 x R2 x 2 x "
                              "channels of a static input";
    int64_t groups = rowsType.getDimSize(0) * rowsType.getDimSize(1);
    if (groups == 0 || m % groups != 0)
      return emitOpError() << "row_statistics has " << groups
                           << " groups, which do not split the " << m
                           << " elements per channel evenly";
  }
  // The statistics are stored before gamma and beta are read.
  for (Value value : saved)
    if (isa<MemRefType>(value.getType()) &&
        llvm::is_contained({getGamma(), getBeta()}, value))
      return emitOpError()
             << "saved_mean, saved_variance and inv_std must not be gamma or "
                "beta";
  return success();
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

/// The checks of the unary element-wise ops: equal ranks and sizes.
template <typename OpTy> static LogicalResult verifyUnary(OpTy op) {
  if (failed(verifySameRank(op, op.getInput().getType(), "input",
                            op.getOutput().getType(), "output")))
    return failure();
  return verifyStaticSizeRelations(op);
}

LogicalResult ReluOp::verify() { return verifyUnary(*this); }
LogicalResult Relu6Op::verify() { return verifyUnary(*this); }
LogicalResult SigmoidOp::verify() { return verifyUnary(*this); }
LogicalResult SiluOp::verify() { return verifyUnary(*this); }
LogicalResult HardSigmoidOp::verify() { return verifyUnary(*this); }
LogicalResult HardSwishOp::verify() { return verifyUnary(*this); }

LogicalResult MulOp::verify() {
  if (failed(verifySameRank(*this, getLhs().getType(), "lhs",
                            getRhs().getType(), "rhs")) ||
      failed(verifySameRank(*this, getLhs().getType(), "lhs",
                            getOutput().getType(), "output")))
    return failure();
  ArrayRef<int64_t> lhs = getLhs().getType().getShape(),
                    rhs = getRhs().getType().getShape();
  for (auto [dim, sizes] : llvm::enumerate(llvm::zip(lhs, rhs))) {
    auto [l, r] = sizes;
    // Dynamic sizes are checked at run time (the size relations).
    if (!ShapedType::isDynamic(l) && !ShapedType::isDynamic(r) && r != 1 &&
        r != l)
      return emitOpError() << "rhs size " << r << " along dimension " << dim
                           << " is neither 1 nor lhs's size " << l;
  }
  return verifyStaticSizeRelations(*this);
}

LogicalResult AddOp::verify() {
  if (failed(verifySameRank(*this, getLhs().getType(), "lhs",
                            getRhs().getType(), "rhs")) ||
      failed(verifySameRank(*this, getLhs().getType(), "lhs",
                            getOutput().getType(), "output")))
    return failure();
  return verifyStaticSizeRelations(*this);
}

LogicalResult BiasAddOp::verify() {
  if (failed(verifyRank(*this, getInput(), "input", {2, 4, 5})) ||
      failed(verifySameRank(*this, getInput().getType(), "input",
                            getOutput().getType(), "output")) ||
      failed(verifyChannelBlock(*this, getInput().getType())))
    return failure();
  return verifyStaticSizeRelations(*this);
}

//===----------------------------------------------------------------------===//
// DepthwiseConv2DOp
//===----------------------------------------------------------------------===//

LogicalResult DepthwiseConv2DOp::verify() {
  if (failed(verifyRank(*this, getInput(), "input", {4, 5})) ||
      failed(verifyRank(*this, getFilter(), "filter", {3})) ||
      failed(verifySameRank(*this, getInput().getType(), "input",
                            getOutput().getType(), "output")) ||
      failed(verifyChannelBlock(*this, getInput().getType())) ||
      failed(verifyChannelBlock(*this, getOutput().getType())) ||
      failed(verifyNoAliasing(*this, getOutput(), {getInput(), getFilter()})))
    return failure();
  if (failed(verifyConvGeometry(*this, getStrides(), getPadding(),
                                getDilations())))
    return failure();
  return verifyStaticSizeRelations(*this);
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "expects at least one input";
  ShapedType outputType = getOutput().getType();
  for (Value input : getInputs())
    if (failed(verifySameRank(*this, cast<ShapedType>(input.getType()), "input",
                              outputType, "output")))
      return failure();
  // I64Attr's getter is unsigned: a negative axis reads as its signed value.
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0 || axis >= outputType.getRank())
    return emitOpError() << "expects an axis in [0, " << outputType.getRank()
                         << "), got " << axis;
  if (failed(verifyNoAliasing(*this, getOutput(), getInputs())))
    return failure();
  return verifyStaticSizeRelations(*this);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// The checks both pooling ops share: layouts, attribute arities, windows
/// that all overlap the image (padding below the window), size relations.
template <typename OpTy> static LogicalResult verifyPool2D(OpTy op) {
  if (failed(verifyRank(op, op.getInput(), "input", {4, 5})) ||
      failed(verifySameRank(op, op.getInput().getType(), "input",
                            op.getOutput().getType(), "output")) ||
      failed(verifyChannelBlock(op, op.getInput().getType())) ||
      failed(verifyNoAliasing(op, op.getOutput(), op.getInput())))
    return failure();
  ArrayRef<int64_t> window = op.getWindow(), strides = op.getStrides(),
                    padding = op.getPadding();
  if (window.size() != 2)
    return op.emitOpError() << "expects a window [height, width], got "
                            << window.size() << " sizes";
  if (strides.size() != 2)
    return op.emitOpError() << "expects 2 strides, got " << strides.size();
  if (padding.size() != 4)
    return op.emitOpError()
           << "expects 4 paddings [top, left, bottom, right], got "
           << padding.size();
  if (llvm::any_of(window, [](int64_t w) { return w <= 0; }))
    return op.emitOpError() << "expects window sizes > 0";
  if (llvm::any_of(strides, [](int64_t s) { return s <= 0; }))
    return op.emitOpError() << "expects strides > 0";
  for (auto [i, pad] : llvm::enumerate(padding))
    if (pad < 0 || pad >= window[i % 2])
      return op.emitOpError()
             << "expects each padding in [0, window size), got " << pad
             << " against a window " << (i % 2 ? "width" : "height") << " of "
             << window[i % 2];
  return verifyStaticSizeRelations(op);
}

LogicalResult MaxPool2DOp::verify() { return verifyPool2D(*this); }
LogicalResult AvgPool2DOp::verify() { return verifyPool2D(*this); }

//===----------------------------------------------------------------------===//
// Pack / unpack
//===----------------------------------------------------------------------===//

/// Checks that the `name` block is static and divides `whole`, which
/// `wholeName` describes (blocks x block = whole is a size relation).
static LogicalResult verifyBlock(Operation *op, int64_t whole, int64_t block,
                                 StringRef name, StringRef wholeName) {
  if (failed(verifyStaticBlock(op, block, name)))
    return failure();
  if (!ShapedType::isDynamic(whole) && whole % block != 0)
    return op->emitOpError()
           << name << " block size (" << block << ") does not divide "
           << wholeName << " (" << whole << ")";
  return success();
}

/// Checks a pack or unpack between `plain` and `blocked` memrefs.
static LogicalResult verifyLayoutChange(Operation *op,
                                        TypedValue<ShapedType> plainValue,
                                        TypedValue<ShapedType> blockedValue) {
  if (plainValue == blockedValue && isa<MemRefType>(plainValue.getType()))
    return op->emitOpError()
           << "source and destination must be different buffers";
  if (failed(verifyRank(op, plainValue, "a plain-layout side", {2, 4})) ||
      failed(verifyRank(op, blockedValue, "a blocked-layout side",
                        plainValue.getType().getRank() == 2
                            ? ArrayRef<int64_t>{4}
                            : ArrayRef<int64_t>{5, 6})))
    return failure();
  ShapedType plain = plainValue.getType(), blocked = blockedValue.getType();
  // K x N <-> N/n x K/k x k x n blocks both sizes of a matrix.
  if (plain.getRank() == 2) {
    if (failed(verifyBlock(op, plain.getDimSize(1), blocked.getDimSize(3),
                           "column", "the matrix's columns")) ||
        failed(verifyBlock(op, plain.getDimSize(0), blocked.getDimSize(2),
                           "row", "the matrix's rows")))
      return failure();
    return verifyStaticSizeRelations(op);
  }
  // NCHW <-> NCHW{c}c blocks the channels; KCRS <-> KCRS{c}c{k}k both
  // kinds. The last channel block may be padded (the size relations bound
  // the padding).
  if (blocked.getRank() == 6 &&
      failed(verifyStaticBlock(op, blocked.getDimSize(5), "output")))
    return failure();
  if (failed(verifyStaticBlock(op, blocked.getDimSize(4), "input")))
    return failure();
  return verifyStaticSizeRelations(op);
}

LogicalResult PackOp::verify() {
  if (failed(verifyLayoutChange(*this, getPlain(), getBlocked())))
    return failure();
  int64_t groups = getGroups();
  if (groups == 1)
    return success();
  ShapedType plain = getPlain().getType(), blocked = getBlocked().getType();
  if (groups < 1 || blocked.getRank() != 6 || !plain.hasStaticShape() ||
      !blocked.hasStaticShape())
    return emitOpError() << "groups (" << groups
                         << ") must be 1, or above 1 for a filter of static "
                            "sizes (rank 4 to rank 6)";
  if (plain.getDimSize(0) % groups != 0)
    return emitOpError() << "groups (" << groups
                         << ") do not divide the output channels ("
                         << plain.getDimSize(0) << ")";
  if (!groupedBlocksFit(plain.getDimSize(0) / groups, plain.getDimSize(1),
                        blocked.getDimSize(5), blocked.getDimSize(4),
                        blocked.getDimSize(1)))
    return emitOpError() << "blocks of " << blocked.getDimSize(5)
                         << " output and " << blocked.getDimSize(4)
                         << " input channels, " << blocked.getDimSize(1)
                         << " input blocks per output block, do not hold "
                            "whole groups of "
                         << plain.getDimSize(0) / groups << " output and "
                         << plain.getDimSize(1) << " input channels";
  return success();
}

LogicalResult UnpackOp::verify() {
  return verifyLayoutChange(*this, getPlain(), getBlocked());
}

//===----------------------------------------------------------------------===//
// Microkernels
//===----------------------------------------------------------------------===//

LogicalResult GemmDispatchOp::verify() {
  if (!getSizes().empty() && getSizes().size() != 3)
    return emitOpError("expected no run-time sizes or three (m, n, k), got ")
           << getSizes().size();
  bool staticLeadingDims = getLda() && getLdb() && getLdc();
  if (getLeadingDims().empty() != staticLeadingDims ||
      (!staticLeadingDims && (getLda() || getLdb() || getLdc())))
    return emitOpError("expected the leading dimensions either as the "
                       "attributes lda, ldb, ldc or as three run-time values");
  if (!getLeadingDims().empty() && getLeadingDims().size() != 3)
    return emitOpError("expected three run-time leading dimensions (lda, "
                       "ldb, ldc), got ")
           << getLeadingDims().size();
  if (staticLeadingDims &&
      (*getLda() < getK() || *getLdb() < getN() || *getLdc() < getN()))
    return emitOpError("leading dimensions must be at least the row lengths "
                       "(lda >= k, ldb >= n, ldc >= n)");
  if (getStrideA().has_value() != getStrideB().has_value())
    return emitOpError("stride_a and stride_b must be given together");
  if (getStrideA() && getBatchOffsets())
    return emitOpError(
        "a batch-reduce is either strided or given by offsets, not both");
  if (getStreamC() && !getBetaZero())
    return emitOpError("stream_c needs beta_zero (a C written, not read)");
  return success();
}

LogicalResult GemmInvokeOp::verify() {
  for (auto [buffer, indices, name] : {std::tuple(getA(), getAIndices(), "A"),
                                       std::tuple(getB(), getBIndices(), "B"),
                                       std::tuple(getC(), getCIndices(), "C")})
    if (static_cast<int64_t>(indices.size()) != buffer.getType().getRank())
      return emitOpError("expected one index per dimension of ") << name;
  auto dispatch = getKernel().getDefiningOp<GemmDispatchOp>();
  bool batched = static_cast<bool>(getBatch());
  bool withOffsets = static_cast<bool>(getOffsetsA());
  if (withOffsets && !batched)
    return emitOpError("block offsets need a batch count");
  if (!dispatch)
    return success();
  if (dispatch.isBatchReduce() != batched)
    return emitOpError("a batch count must be given exactly when the kernel "
                       "is a batch-reduce kernel");
  if (dispatch.getBatchOffsets() != withOffsets)
    return emitOpError("block offsets must be given exactly when the kernel "
                       "takes them");
  return success();
}

#define GET_OP_CLASSES
#include "dl/Dialect/DL/IR/DLOps.cpp.inc"
