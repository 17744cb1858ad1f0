//===- InputCopies.cpp - input copies in the parallel decision ------------===//
//
// The copies earlier passes make of an op's input (dl-fold-filter-columns and
// dl-reduce-conv-strides for a convolution, dl-im2col-convs for a GEMM's A)
// are parallel regions of their own before the op: dl-decide-parallelism
// counts them, runs them on one thread with an op it runs on one thread, and
// divides them among the threads as the op's parallel loop divides its reads
// (docs/heuristics.md, "Parallelism model").
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/InputCopies.h"
#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dl;

namespace {

/// The top-level nest that writes `input`, a copy made for the op reading
/// it (dl-fold-filter-columns and dl-reduce-conv-strides for a
/// convolution's input, dl-im2col-convs for a GEMM's A), if any; `input`
/// may be a view of it (dl-merge-conv-rows' reshapes).
affine::AffineForOp getCopyNest(Value input) {
  while (auto view = input.getDefiningOp<ViewLikeOpInterface>())
    input = view.getViewSource();
  auto alloc = input.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape())
    return nullptr;
  for (Operation *user : input.getUsers()) {
    if (!isa<affine::AffineWriteOpInterface>(user))
      continue;
    auto nest = user->getParentOfType<affine::AffineForOp>();
    while (nest && nest->getParentOfType<affine::AffineForOp>())
      nest = nest->getParentOfType<affine::AffineForOp>();
    if (nest)
      return nest;
  }
  return nullptr;
}

/// The band of an input copy made for `conv` (getCopyNest) and the position
/// in it of the loop over the copy's dimension that `conv`'s parallel loop
/// over `dim` divides (images for `n`, rows for `oh`): the loop to run the
/// copy in parallel over, so that each thread copies about what it reads.
/// None where the convolution reads the copy through a view (merged rows:
/// its rows are not the copy's) or no loop of the copy's outer band indexes
/// that dimension alone.
std::optional<std::pair<SmallVector<affine::AffineForOp>, unsigned>>
getCopyDivision(Conv2DOp conv, StringRef dim) {
  std::optional<unsigned> copyDim = getDividedInputDim(dim);
  affine::AffineForOp copy = getCopyNest(conv.getInput());
  if (!copyDim || !copy || !conv.getInput().getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  SmallVector<affine::AffineForOp> band;
  affine::getPerfectlyNestedLoops(band, copy);
  // Every store into the copy indexes `copyDim` by one loop of the band.
  std::optional<unsigned> position;
  bool consistent = true;
  copy.walk([&](affine::AffineWriteOpInterface store) {
    if (store.getMemRef() != conv.getInput())
      return;
    AffineExpr index = store.getAffineMap().getResult(*copyDim);
    auto dimExpr = dyn_cast<AffineDimExpr>(index);
    std::optional<unsigned> found;
    if (dimExpr)
      for (auto [i, loop] : llvm::enumerate(band))
        if (store.getMapOperands()[dimExpr.getPosition()] ==
            loop.getInductionVar())
          found = i;
    if (!found || (position && *position != *found))
      consistent = false;
    position = found;
  });
  if (!consistent || !position)
    return std::nullopt;
  return std::make_pair(band, *position);
}

} // namespace

/// Runs an input copy made for `conv` in parallel over the loop that
/// divides it as `conv`'s parallel loop over `dim` divides its reads
/// (getCopyDivision): that loop moved outermost in the copy's band, where
/// that keeps the copy's dependences, and marked `dl.parallel`. Divided over
/// its images and rows together (dl-parallelize-outer-loops' coalescing),
/// the copy crossed the convolution's division: a 2 -> 12 channel 7x7
/// stride-2 convolution of 3 104x104 images, its folded copy (2.9 MB)
/// divided by images and rows and its output rows in parallel, took 130 us
/// at 2 threads, 192 on one (docs/heuristics.md, "Parallelism model").
void dl::alignInputCopy(Conv2DOp conv, StringRef dim) {
  auto division = getCopyDivision(conv, dim);
  if (!division)
    return;
  auto [band, position] = *division;
  // The band's outermost loop is the copy nest.
  if (band.front()->hasAttr(DLDialect::getSequentialAttrName()))
    return;
  SmallVector<unsigned> permutation;
  for (unsigned i = 0; i < band.size(); ++i)
    permutation.push_back(i == position ? 0 : i < position ? i + 1 : i);
  if (position != 0) {
    if (!affine::isValidLoopInterchangePermutation(band, permutation))
      return;
    affine::permuteLoops(band, permutation);
  }
  band[position]->setAttr(DLDialect::getParallelLoopAttrName(),
                          UnitAttr::get(conv.getContext()));
}

/// The bytes each thread of a convolution's parallel loop over `dim` reads
/// of an input copy made for it (dl-fold-filter-columns,
/// dl-reduce-conv-strides: a nest writing the buffer, its outer loops over
/// the images and rows) that another thread wrote: its share of the input,
/// of which (threads - 1) / threads comes from the other cores, unless the
/// copy runs in parallel divided as the loop divides its reads
/// (getCopyDivision, alignInputCopy). The scratch lowering sees the copy as
/// an argument and counts none. A 3 -> 11 channel 13x13 5x5 convolution over 3
/// images, its folded copy divided by images and rows and its loop over output
/// rows in parallel, took 16 us at 2 threads, 11 on one.
double dl::copiedInputHandoffBytes(Conv2DOp conv, StringRef dim,
                                   int64_t threads) {
  affine::AffineForOp copy = getCopyNest(conv.getInput());
  if (!copy || (!copy->hasAttr(DLDialect::getSequentialAttrName()) &&
                getCopyDivision(conv, dim)))
    return 0.0;
  auto type = cast<MemRefType>(conv.getInput().getType());
  double bytes = static_cast<double>(type.getNumElements()) *
                 (type.getElementTypeBitWidth() / 8);
  return bytes / threads * (threads - 1) / threads;
}

/// The nest that copies `op`'s input (a convolution's input, a GEMM's
/// im2col A) before it, if an earlier pass made one.
affine::AffineForOp getInputCopyNest(Operation *op) {
  Value input = llvm::TypeSwitch<Operation *, Value>(op)
                    .Case([](Conv2DOp conv) { return conv.getInput(); })
                    .Case([](MatmulOp matmul) { return matmul.getA(); })
                    .Default([](Operation *) { return Value(); });
  return input ? getCopyNest(input) : nullptr;
}

/// An op run on one thread reads the copies made for it (a convolution's
/// input, a GEMM's im2col A) from the core that copies them: the copies run
/// on that thread too (the passes that make them run them in parallel where
/// the op's work would pay for a region, which dl-decide-parallelism
/// decides for its loops). A 103 -> 3 channel 40x8 5x5 convolution at
/// stride 2 as an im2col GEMM on one thread took 29 us at 2 threads with
/// its copy in parallel, 64 on one thread.
void dl::copyInputsOnOneThread(Operation *op) {
  if (affine::AffineForOp copy = getInputCopyNest(op))
    copy->setAttr(DLDialect::getSequentialAttrName(),
                  UnitAttr::get(op->getContext()));
}

/// The parallel regions `op` brings besides its own nests: its input copy's,
/// which runs in parallel with the op (and on one thread without it). A
/// 2 -> 508 channel 24x9 1x1 convolution of stride 2 over 4 images (0.5
/// MFLOP) took 3.6 us on one Zen 5 core and 11 us at 2 threads with its
/// strided copy and itself in regions of their own.
int64_t dl::countInputCopyRegions(Operation *op) {
  affine::AffineForOp copy = getInputCopyNest(op);
  return copy && !copy->hasAttr(DLDialect::getSequentialAttrName()) ? 1 : 0;
}
