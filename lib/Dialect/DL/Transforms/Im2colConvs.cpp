//===- Im2colConvs.cpp - short-row convolutions as GEMMs ------------------===//
//
// The pass `dl-im2col-convs`: the microkernel of a blocked convolution
// computes one output row per call, a block of C of OW rows of
// ceil(kb / lanes) vectors. Where that block holds too few vectors to hide
// the FMA latency (output rows of a few pixels, a few output channels), the
// convolution runs as one GEMM instead: with one output-channel block, its
// filter is already a row-major (CB*R*S*cb) x kb matrix and its output a
// row-major (N*OH*OW) x kb one, so only the input windows are copied, into
// the GEMM's A (im2col). The copy is an affine nest written here: no
// upstream op copies windows with zero padding into this order, and its
// inner loop over a channel block's consecutive floats is what
// dl-vectorize-copies turns into vector loads and stores. The rewrite is
// the decision, on the IR for dl-opt to show.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/ParallelismModel.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "dl-im2col-convs"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_IM2COLCONVS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// The sizes of a blocked convolution (N x CB x H x W x cb input,
/// KB x CB x R x S x cb x kb filter, N x KB x OH x OW x kb output).
struct BlockedConvSizes {
  int64_t n, cBlocks, h, w, cb, r, s, kBlocks, kb, oh, ow;

  explicit BlockedConvSizes(Conv2DOp op) {
    ArrayRef<int64_t> in = cast<MemRefType>(op.getInput().getType()).getShape();
    ArrayRef<int64_t> f = cast<MemRefType>(op.getFilter().getType()).getShape();
    ArrayRef<int64_t> out =
        cast<MemRefType>(op.getOutput().getType()).getShape();
    n = in[0], cBlocks = in[1], h = in[2], w = in[3], cb = in[4];
    kBlocks = f[0], r = f[2], s = f[3], kb = f[5];
    oh = out[2], ow = out[3];
  }
  int64_t pixels() const { return n * oh * ow; }
  int64_t windowFloats() const { return cBlocks * r * s * cb; }
};

struct Im2colConvPattern : OpRewritePattern<Conv2DOp> {
  Im2colConvPattern(MLIRContext *context, const Im2colConvsOptions &options,
                    int64_t vectorFloats)
      : OpRewritePattern(context), options(options),
        vectorFloats(vectorFloats) {}

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 0)
      return rewriter.notifyMatchFailure(op, "not in buffer form");
    if (!op.isBlocked())
      return rewriter.notifyMatchFailure(op, "not blocked");
    auto input = cast<MemRefType>(op.getInput().getType());
    auto filter = cast<MemRefType>(op.getFilter().getType());
    auto output = cast<MemRefType>(op.getOutput().getType());
    if (!input.hasStaticShape() || !filter.hasStaticShape() ||
        !output.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic sizes");
    if (op.getGroups() != 1 || op.getGroupLanes() || op.getEpilogue() ||
        op.getRowStatistics() || op.getScheduleAttr() ||
        op.getSkipPaddingColumns())
      return rewriter.notifyMatchFailure(
          op, "groups, an epilogue, a schedule or skipped padding columns");
    if (!filter.getLayout().isIdentity() || !output.getLayout().isIdentity())
      return rewriter.notifyMatchFailure(
          op, "filter or output not in an identity layout");
    if (op.hasJoinableRows())
      return rewriter.notifyMatchFailure(
          op, "pointwise at unit stride: dl-merge-conv-rows joins its rows");
    BlockedConvSizes sizes(op);
    if (sizes.kBlocks != 1)
      return rewriter.notifyMatchFailure(op, "more than one channel block");
    int64_t vectors = sizes.ow * ((sizes.kb + vectorFloats - 1) / vectorFloats);
    int64_t copyBytes = sizes.pixels() * sizes.windowFloats() *
                        input.getElementTypeBitWidth() / 8;
    if (vectors >= options.minVectors &&
        !runsDeepWindowsAsGemm(sizes.kb, vectorFloats, sizes.ow,
                               sizes.windowFloats(), copyBytes,
                               getTarget(op).l2Bytes()))
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "the microkernel's block of C holds " << vectors
             << " vectors, its windows " << sizes.windowFloats() << " floats";
      });
    if (copyBytes > options.maxCopyBytes) {
      if (options.reportFallbacks)
        op.emitRemark() << "dl-im2col-convs: output rows of " << sizes.ow
                        << " pixels (" << vectors
                        << " vectors a call) kept: the copy of the input "
                           "windows would take "
                        << copyBytes << " bytes, above max-copy-bytes ("
                        << options.maxCopyBytes << ")";
      return rewriter.notifyMatchFailure(op, "copy above max-copy-bytes");
    }
    LLVM_DEBUG(llvm::dbgs()
               << "[" DEBUG_TYPE "] " << vectors << " vectors a call, "
               << copyBytes << " bytes copied: " << op << "\n");

    Location loc = op.getLoc();
    auto windowsType = MemRefType::get({sizes.pixels(), sizes.windowFloats()},
                                       input.getElementType());
    Value windows = memref::AllocOp::create(rewriter, loc, windowsType);
    affine::AffineForOp copy = copyWindows(rewriter, loc, op, sizes, windows);
    // The copy's outer loops run over the images and output rows.
    if (!copiesInParallel(op, sizes.n * sizes.oh))
      rewriter.modifyOpInPlace(copy, [&] {
        copy->setAttr(DLDialect::getSequentialAttrName(),
                      rewriter.getUnitAttr());
      });
    Value filterMatrix = memref::CollapseShapeOp::create(
        rewriter, loc, op.getFilter(),
        ArrayRef<ReassociationIndices>{{0, 1, 2, 3, 4}, {5}});
    Value outputMatrix = memref::CollapseShapeOp::create(
        rewriter, loc, op.getOutput(),
        ArrayRef<ReassociationIndices>{{0, 1, 2, 3}, {4}});
    MatmulOp::create(rewriter, loc, TypeRange{},
                     ValueRange{windows, filterMatrix, outputMatrix},
                     ArrayRef<NamedAttribute>{});
    memref::DeallocOp::create(rewriter, loc, windows);
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// windows[(n*OH + oh)*OW + ow][((cb*R + r)*S + s)*cbSize + c] =
  /// input[n][cb][oh*sh + r*dh - top][ow*sw + s*dw - left][c], 0 in the
  /// padding: the order of the filter's rows.
  /// Returns the outermost loop.
  static affine::AffineForOp copyWindows(PatternRewriter &rewriter,
                                         Location loc, Conv2DOp op,
                                         const BlockedConvSizes &sizes,
                                         Value windows) {
    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations(),
                      padding = op.getPadding();
    int64_t top = padding[0], left = padding[1];
    bool padded = llvm::any_of(padding, [](int64_t p) { return p != 0; });

    // Loops n, oh, ow, cb, r, s; the channels inside each branch.
    OpBuilder::InsertionGuard guard(rewriter);
    SmallVector<int64_t> extents = {sizes.n,       sizes.oh, sizes.ow,
                                    sizes.cBlocks, sizes.r,  sizes.s};
    SmallVector<Value> ivs;
    affine::AffineForOp outermost;
    for (int64_t extent : extents) {
      auto loop = affine::AffineForOp::create(rewriter, loc, 0, extent);
      if (!outermost)
        outermost = loop;
      ivs.push_back(loop.getInductionVar());
      rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    }
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr n, oh, ow, cBlock, r, s, c;
    bindDims(ctx, n, oh, ow, cBlock, r, s, c);
    AffineExpr ih = oh * strides[0] + r * dilations[0] - top;
    AffineExpr iw = ow * strides[1] + s * dilations[1] - left;
    AffineMap windowMap =
        AffineMap::get(7, 0,
                       {(n * sizes.oh + oh) * sizes.ow + ow,
                        ((cBlock * sizes.r + r) * sizes.s + s) * sizes.cb + c},
                       ctx);
    AffineMap inputMap = AffineMap::get(7, 0, {n, cBlock, ih, iw, c}, ctx);

    // The channels of one window pixel, at the insertion point: copied, or
    // zeros in the padding.
    Value zero;
    auto channels = [&](bool copy) {
      auto loop = affine::AffineForOp::create(rewriter, loc, 0, sizes.cb);
      rewriter.setInsertionPoint(loop.getBody()->getTerminator());
      SmallVector<Value> indices(ivs);
      indices.push_back(loop.getInductionVar());
      Value value = copy ? affine::AffineLoadOp::create(
                               rewriter, loc, op.getInput(), inputMap, indices)
                               .getResult()
                         : zero;
      affine::AffineStoreOp::create(rewriter, loc, value, windows, windowMap,
                                    indices);
    };
    if (!padded) {
      channels(/*copy=*/true);
      return outermost;
    }
    // 0 <= ih < H and 0 <= iw < W, on the loops' dimensions (ih and iw do
    // not involve the channel, the seventh).
    IntegerSet inside =
        IntegerSet::get(6, 0, {ih, sizes.h - 1 - ih, iw, sizes.w - 1 - iw},
                        {false, false, false, false});
    auto branch =
        affine::AffineIfOp::create(rewriter, loc, TypeRange{}, inside, ivs,
                                   /*withElseRegion=*/true);
    rewriter.setInsertionPoint(branch.getThenBlock()->getTerminator());
    channels(/*copy=*/true);
    rewriter.setInsertionPoint(branch.getElseBlock()->getTerminator());
    zero = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getZeroAttr(
            cast<MemRefType>(windows.getType()).getElementType()));
    channels(/*copy=*/false);
    return outermost;
  }

  Im2colConvsOptions options;
  int64_t vectorFloats;
};

struct Im2colConvsPass : dl::impl::Im2colConvsBase<Im2colConvsPass> {
  using Im2colConvsBase::Im2colConvsBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (minVectors < 1 || maxCopyBytes < 0) {
      getOperation().emitError("dl-im2col-convs: min-vectors must be >= 1 "
                               "and max-copy-bytes >= 0");
      return signalPassFailure();
    }
    Im2colConvsOptions options;
    options.minVectors = minVectors;
    options.maxCopyBytes = maxCopyBytes;
    options.reportFallbacks = reportFallbacks;
    RewritePatternSet patterns(&getContext());
    populateIm2colConvsPatterns(patterns, options,
                                getTarget(getOperation()).vectorFloats());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void dl::populateIm2colConvsPatterns(RewritePatternSet &patterns,
                                     const Im2colConvsOptions &options,
                                     int64_t vectorFloats) {
  patterns.add<Im2colConvPattern>(patterns.getContext(), options, vectorFloats);
}
