//===- DLOps.td - dl dialect operations --------------------*- tablegen -*-===//
//
// The operations of the `dl` dialect. All are fp32, on memrefs (the layer ops
// also on tensors), in
// destination-passing style (`ins(...) outs(...)`); each has a verifier that
// checks every size relation known statically.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_IR_DLOPS_TD
#define DL_DIALECT_DL_IR_DLOPS_TD

include "dl/Dialect/DL/IR/DLAttrs.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"

def DL_Buffer : MemRefOf<[F32]>;
def DL_Vector : MemRefRankOf<[F32], [1]>;
// The layer ops also take ranked tensors (all operands tensors, results the
// `outs` tensors); one-shot-bufferize turns them into the buffer form the
// passes optimize.
def DL_Shaped : AnyTypeOf<[DL_Buffer, RankedTensorOf<[F32]>],
                          "f32 memref or ranked tensor", "::mlir::ShapedType">;
def DL_ShapedVector : AnyTypeOf<[DL_Vector, TensorRankOf<[F32], [1]>],
                                "rank-1 f32 memref or tensor",
                                "::mlir::ShapedType">;

// Every dl layer op reads `ins` and writes `outs`; the DPS interface tells
// passes and tools which operands are written, and bufferization which tensor
// results the `outs` become. On buffers the ops read their inputs and write
// their outputs (getDestinationStyleEffects); on tensors they have no effect.
class DL_DPSOp<string mnemonic, list<Trait> traits = []>
    : DL_Op<mnemonic, !listconcat(traits,
                       [DestinationStyleOpInterface,
                        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
                        PredOpTrait<"operands are all tensors or all buffers",
                            CPred<"::mlir::dl::hasUniformOperandKind(&$_op)">>])> {
  let hasVerifier = 1;
  let results = (outs Variadic<RankedTensorOf<[F32]>>:$results);
  let extraClassDefinition = [{
    void $cppClass::getEffects(
        ::llvm::SmallVectorImpl<::mlir::SideEffects::EffectInstance<
            ::mlir::MemoryEffects::Effect>> &effects) {
      ::mlir::dl::getDestinationStyleEffects(getOperation(), effects);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Heavy ops
//===----------------------------------------------------------------------===//

def DL_MatmulOp : DL_DPSOp<"matmul"> {
  let summary = "GEMM: C = alpha * op(A) * op(B) + beta * C";
  let description = [{
    Computes `C = alpha * op(A) * op(B) + beta * C` where `op(X)` is `X` or
    its transpose (`transpose_a`, `transpose_b`). With `beta = 0` (the
    default) `C` is not read, as in BLAS. `op(A)` is M x K, `op(B)` is K x N
    and `C` is M x N.

    ```mlir
    dl.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
              outs(%c : memref<64x16xf32>) {alpha = 2.0 : f32, beta = 1.0 : f32}
    ```

    `B` may also be given blocked, as weights packed ahead of time are:
    rank 4, `N/bn x K/bk x bk x bn` with static `bk` and `bn`, where
    `op(B)[k][n] = B[n / bn][k / bk][k % bk][n % bn]` (the layout `dl.pack`
    makes of a K x N matrix, and the one `pack_b` copies into). Blocked `B`
    takes no `transpose_b` or `pack_b`, and its blocks are the GEMM's `bn`
    and `bk`: the microkernels read them in place.

    ```mlir
    dl.matmul ins(%a, %b : memref<128x256xf32>, memref<4x2x128x64xf32>)
              outs(%c : memref<128x256xf32>)
    ```

    `pack_blocks = array<i64: bm, bn, bk>` (set by `dl-pack-gemm-operands`)
    asks the lowering to compute C in bm x bn blocks, each the sum over K of
    bm x bk by bk x bn products. With `pack_a`, `alpha * op(A)` is first
    copied into a buffer `[M/bm][K/bk][bm][bk]`; with `pack_b`, `op(B)` into
    `[N/bn][K/bk][bk][bn]`, so that every block the microkernel reads is
    contiguous. With `pack_c`, C is computed in a buffer `[M/bm][N/bn][bm][bn]`:
    each tile of C is copied in (scaled by beta) right before its reduction
    and copied back right after it. The blocks must divide M, N and K (static
    sizes), unless `pad_blocks` (set by `dl-split-gemm-remainders` and, for
    columns that do not fill whole vectors, `dl-pack-gemm-operands`; needs
    `pack_b`, no blocked `B`, `pack_a` when bm or bk does not divide M or K,
    and `pack_c` when bm or bn does not divide M or N): then the packed
    buffers hold ceil(M/bm), ceil(N/bn) and ceil(K/bk) blocks, zero beyond
    the operands, so every block the microkernel computes is whole (a block
    larger than its size pads it to one block); C is
    copied into its packed buffer before the nest and back after it, where
    it exists. With dynamic sizes, `pad_blocks` (and `pack_c`, no
    `schedule`) is required: the packed buffers hold ceil(size / block)
    blocks, K's whole blocks and its rest (K mod bk) in separate buffers,
    and the loops over the last, partial blocks end at their run-time sizes
    (dl-outline-microkernels dispatches their kernels with them), so no
    padding is read or computed; `batch_blocks` then bounds the whole K
    blocks of one call and need not divide them.
    With a blocked `B`, `bn` and `bk` must be its blocks.
    `batch_blocks = c` (set by `dl-pack-gemm-operands`; needs
    `pack_blocks`, divides K/bk) bounds the K blocks one microkernel call
    reduces over in the default loop order: without a schedule the block
    loops run `[i, j, k:c, k]` instead of `[i, j, k]`.
    `schedule` (a `#dl.schedule`, set by `dl-rank-variants`) orders and
    tiles the block loops `i`, `j`, `k`; it needs `pack_blocks` and takes
    precedence over `batch_blocks`.
    `panel_a` / `panel_b` (set by `dl-decide-panels`; need `pack_a` /
    `pack_b`, a `schedule` and no `pad_blocks`) copy that operand's blocks
    inside the scheduled nest, one microkernel batch at a time, into a small
    panel scratch that the calls of the loops inside the copy re-read from
    cache, instead of into a packed copy of the whole operand before the
    nest (`convert-dl-to-affine` describes where the copy goes).
    `stream_a` (set by `dl-pack-gemm-operands` for GEMV-like GEMMs, N up to
    8; static sizes, no `transpose_a`, no `pack_blocks`) asks the lowering
    to stream A once, row by row, at full vector width: `op(B)` is first
    copied transposed (N x K, contiguous rows) and each element of C is a
    dot product of a row of A with a row of that copy, accumulated in
    vector registers over K, up to 8 rows of A at a time so each vector of
    the copy is loaded once for all of them.

    `epilogue`, `epilogue_operands` and `epilogue_epsilon` are as for
    `dl.conv2d`, with the columns of C as the channels (a bias per column);
    a blocked GEMM applies them to each block of C right after its last K
    block, the others in one sweep over C at the end.

    `split_k = t` (set by `dl-decide-parallelism` where no loop over M or N
    keeps the threads busy; needs `pack_blocks`, static sizes, a plain B, no
    `pad_blocks`, `stream_a` or epilogue, and at least t K blocks) divides
    the K blocks among t threads: `dl-split-k` rewrites the GEMM into t
    GEMMs over equal chunks of K's blocks run in parallel, the first into C,
    each other into a scratch copy of C that is then added to C, and the
    blocks left over by the chunks (K/bk mod t) into C after them.
  }];
  let arguments = (ins DL_Shaped:$a,
                       DL_Shaped:$b,
                       DL_Shaped:$c,
                       DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                       DefaultValuedAttr<F32Attr, "0.0">:$beta,
                       UnitAttr:$transpose_a,
                       UnitAttr:$transpose_b,
                       OptionalAttr<DenseI64ArrayAttr>:$pack_blocks,
                       UnitAttr:$pack_a,
                       UnitAttr:$pack_b,
                       UnitAttr:$pack_c,
                       UnitAttr:$pad_blocks,
                       UnitAttr:$panel_a,
                       UnitAttr:$panel_b,
                       UnitAttr:$stream_a,
                       OptionalAttr<I64Attr>:$batch_blocks,
                       OptionalAttr<DL_ScheduleAttr>:$schedule,
                       Variadic<DL_Shaped>:$epilogue_operands,
                       OptionalAttr<TypedArrayAttrBase<DL_PostOpAttr, "epilogue steps">>:$epilogue,
                       OptionalAttr<F32Attr>:$epilogue_epsilon,
                       OptionalAttr<I64Attr>:$split_k);
  let assemblyFormat = [{
    `ins` `(` $a `,` $b `:` type($a) `,` type($b) `)`
    `outs` `(` $c `:` type($c) `)`
    (`epilogue` `(` $epilogue_operands^ `:` type($epilogue_operands) `)`)?
    attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getCMutable(); }
    /// Checks pack_blocks / pack_a / pack_b / pack_c against the GEMM sizes.
    ::llvm::LogicalResult verifyPackBlocks(int64_t m, int64_t n, int64_t k);
    /// Whether B is given blocked (rank 4, N/bn x K/bk x bk x bn).
    bool hasBlockedB() { return getB().getType().getRank() == 4; }
    /// Whether its plain nest is the GEMM band C += A * B that
    /// dl-outline-microkernels turns into a call (no transposes, no alpha
    /// scaling, B plain).
    bool hasPlainGemmBand() {
      return getAlpha().isExactlyValue(1.0) && !getTransposeA() &&
             !getTransposeB() && !hasBlockedB();
    }
    /// Whether A, B or C has a dynamic size (some of M, N, K may still be
    /// static in another operand).
    bool hasDynamicSizes() {
      return !getA().getType().hasStaticShape() ||
             !getB().getType().hasStaticShape() ||
             !getC().getType().hasStaticShape();
    }
    /// Whether pack_blocks leaves a partial last block of C (bm or bn does
    /// not divide M or N: pad_blocks, static sizes).
    bool hasPartialCBlocks() {
      std::optional<::llvm::ArrayRef<int64_t>> blocks = getPackBlocks();
      ::mlir::ShapedType c = getC().getType();
      return blocks && blocks->size() == 3 && c.hasStaticShape() &&
             (c.getDimSize(0) % (*blocks)[0] != 0 ||
              c.getDimSize(1) % (*blocks)[1] != 0);
    }
    /// Whether pack_blocks leaves a partial block of op(A) (bm or bk does not
    /// divide M or K, or either is dynamic): it must then be packed.
    bool hasPartialABlocks() {
      std::optional<::llvm::ArrayRef<int64_t>> blocks = getPackBlocks();
      ::mlir::ShapedType a = getA().getType();
      if (!blocks || blocks->size() != 3)
        return false;
      if (!a.hasStaticShape())
        return true;
      int64_t m = a.getDimSize(getTransposeA() ? 1 : 0);
      int64_t k = a.getDimSize(getTransposeA() ? 0 : 1);
      return m % (*blocks)[0] != 0 || k % (*blocks)[2] != 0;
    }
    /// The dimensions a schedule orders: i, j, k (blocks of M, N, K; k
    /// innermost). Only with pack_blocks.
    std::optional<::llvm::SmallVector<ScheduleDim>> getScheduleDims();
    /// The schedule the lowering applies: `schedule`, else the default
    /// order with the K loop tiled by `batch_blocks`, else null (the
    /// default order).
    ScheduleAttr getEffectiveSchedule();
    /// The epilogue's steps (empty without one).
    ::llvm::SmallVector<PostOp> getPostOps() {
      return ::mlir::dl::getPostOps(getEpilogue());
    }
  }];
}

def DL_Conv2DOp : DL_DPSOp<"conv2d", [AttrSizedOperandSegments]> {
  let summary = "2-D forward convolution, plain (NCHW/KCRS) or blocked layout";
  let description = [{
    `output[n][k][oh][ow] = sum_{c,r,s} input[n][c][ih][iw] * filter[k][c][r][s]`
    with `ih = oh * stride_h + r * dilation_h - pad_top`,
    `iw = ow * stride_w + s * dilation_w - pad_left`, and input elements
    outside the image read as zero. The output is overwritten.

    Plain layout: `input: N x C x H x W`, `filter: K x C x R x S`,
    `output: N x K x OH x OW`. Blocked layout (PolyDL's):
    `input: N x C/c x H x W x c`, `filter: K/k x C/c x R x S x c x k`,
    `output: N x K/k x OH x OW x k`. The output size is
    `OH = (H + pad_top + pad_bottom - dilation_h * (R - 1) - 1) / stride_h + 1`
    (and likewise for W).

    `groups` (default 1) splits the channels as PyTorch's `Conv2d(groups=G)`
    does: in the plain layout the filter is `K x C/G x R x S` and output
    channel `k` sums over the input channels of its group,
    `input[n][(k / (K/G)) * (C/G) + c]` for `c` in `[0, C/G)`; C and K are
    static multiples of G. In the blocked layout the groups are of channel
    blocks: the filter is `K/k x (C/c)/G x R x S x c x k`, and output block
    `kb` reads the input blocks of its group,
    `input[n][(kb / ((K/k)/G)) * ((C/c)/G) + cb]`. `dl-block-conv-layouts`
    lays a grouped convolution out in blocks that hold whole groups (blocks
    of one group each) or several whole groups each (a block group per
    block, its filter block-diagonal: see `dl.pack`'s `groups`).

    `group_lanes` (set by `dl-block-conv-layouts` on a blocked convolution
    whose blocks hold several groups of `group_lanes` input and output
    channels each: `groups` is its output blocks, one input block each of
    the output block's size, static sizes) makes the groups lie within the
    lanes of a block: output channel `k` of a block sums over the
    `group_lanes` input channels of its group in the same block only,
    `(k / group_lanes) * group_lanes + j`, the filter's other entries
    unread (`dl.pack` of a grouped filter writes zeros there). It is
    lowered in register tiles of output pixels, as a depthwise
    convolution, each input vector permuted to its groups' lanes once per
    input channel of a group: one multiply-add per useful product, where
    the batch-reduce kernels would multiply the whole block-diagonal
    filter. Its epilogue runs in one sweep after it, and it has no
    schedule.

    `padding` is `[top, left, bottom, right]`. `schedule` (a
    `#dl.schedule`, set by `dl-rank-variants`) orders and tiles the loops
    `n`, `kb`, `oh` of a blocked convolution with static sizes.

    `skip_padding_columns` (set by `dl-skip-padding-columns`) lowers a
    blocked convolution with left or right padding and static widths without
    multiplying the padding's zeros: its filter columns are split into runs
    that read the input at the same output columns, each run a nest over
    those columns only. Without it, a blocked convolution reads a copy of
    its input with zero columns beside each row.

    `pixel_vectors` (set by `dl-block-conv-layouts` for convolutions with a
    few output channels) lowers a plain convolution with static sizes with
    the output pixels of a row as the vector dimension: each vector of 16
    output columns accumulates in a register over (c, r, s), with the output
    channels and a few rows sharing every loaded input vector. Blocked
    kernels vectorize along the output channels, of which such a convolution
    fills only a few lanes. With padding, a column stride or rows under 16
    columns, it reads a zero-padded copy of the input whose rows are split
    by column phase, so that every tap reads 16 consecutive floats.

    ```mlir
    dl.conv2d ins(%in, %f : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>)
              outs(%out : memref<1x64x56x56xf32>)
              {strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>}
    ```

    `epilogue` (set by `dl-fuse-epilogues`) is a list of element-wise
    steps applied in order to each output element once its sum is
    complete, as if the ops of the same names (`dl.bias_add`, `dl.add`,
    `dl.batch_norm_inference`, `dl.relu`, `dl.relu6`) ran on the output in
    place after the convolution; their other operands are the
    `epilogue_operands`, in order (one per `bias_add` and `add`, four per
    `batch_norm_inference`, whose epsilon is `epilogue_epsilon`). A blocked
    convolution applies them to each output tile right after the tile's
    last reduction step, while the tile is in cache; the other lowerings in
    one sweep over the output after the convolution.

    ```mlir
    dl.conv2d ins(%in, %f : memref<1x2x56x56x32xf32>, memref<2x2x3x3x32x32xf32>)
              outs(%out : memref<1x2x56x56x32xf32>)
              epilogue(%bias, %residual : memref<64xf32>, memref<1x2x56x56x32xf32>)
              {padding = array<i64: 1, 1, 1, 1>,
               epilogue = [#dl.post_op<bias_add>, #dl.post_op<add>, #dl.post_op<relu>]}
    ```

    `row_statistics` (set by `dl-fuse-epilogues` for a batch normalization
    in training that reads the output; blocked layout, static sizes) is
    also written: `N x OH x 2 x C` (C the output channels), for each output
    row `(n, oh)` and channel the mean over the row's `OW` elements (as
    written, after the epilogue) at `[n][oh][0][c]` and the sum of their
    squared deviations from it at `[n][oh][1][c]`. Each output tile's
    statistics are computed right after its epilogue, while it is in cache,
    two passes over the tile; `dl.batch_norm_training` merges them.
  }];
  let arguments = (ins
      DL_Shaped:$input,
      DL_Shaped:$filter,
      DL_Shaped:$output,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
      DefaultValuedAttr<I64Attr, "1">:$groups,
      OptionalAttr<I64Attr>:$group_lanes,
      OptionalAttr<DL_ScheduleAttr>:$schedule,
      UnitAttr:$skip_padding_columns,
      UnitAttr:$pixel_vectors,
      Variadic<DL_Shaped>:$epilogue_operands,
      // Set by dl-fuse-epilogues, on buffers only; written (see
      // getDestinationStyleEffects).
      Optional<DL_Buffer>:$row_statistics,
      OptionalAttr<TypedArrayAttrBase<DL_PostOpAttr, "epilogue steps">>:$epilogue,
      OptionalAttr<F32Attr>:$epilogue_epsilon);
  let assemblyFormat = [{
    `ins` `(` $input `,` $filter `:` type($input) `,` type($filter) `)`
    `outs` `(` $output `:` type($output) `)`
    (`epilogue` `(` $epilogue_operands^ `:` type($epilogue_operands) `)`)?
    (`row_statistics` `(` $row_statistics^ `:` type($row_statistics) `)`)?
    attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
    /// True for the blocked layout (rank-5 activations, rank-6 filter).
    bool isBlocked() { return getInput().getType().getRank() == 5; }
    /// The filter columns split into runs of TapColumns, in order (the taps
    /// that read only padding are in none); nullopt where there are no
    /// padding columns to skip (plain layout, no left or right padding) or
    /// a width (input, filter or output) is dynamic.
    std::optional<::llvm::SmallVector<TapColumns>> getTapColumns();
    /// True for a 1x1 filter without padding (either layout): each output
    /// pixel reads exactly one input pixel.
    bool isUnpaddedPointwise() {
      ::mlir::ShapedType filter = getFilter().getType();
      return filter.getDimSize(2) == 1 && filter.getDimSize(3) == 1 &&
             ::llvm::all_of(getPadding(), [](int64_t p) { return p == 0; });
    }
    /// True for an unpadded pointwise convolution at unit stride: input and
    /// output pixels correspond one to one, so each image's rows join into
    /// one row of its input and of its output.
    bool hasJoinableRows() {
      return isUnpaddedPointwise() &&
             ::llvm::all_of(getStrides(), [](int64_t s) { return s == 1; });
    }
    /// The dimensions a schedule orders: n, kb, oh (images, output-channel
    /// blocks, output rows) and cb. Only for the blocked layout with static
    /// output and filter sizes.
    std::optional<::llvm::SmallVector<ScheduleDim>> getScheduleDims();
    /// The epilogue's steps (empty without one).
    ::llvm::SmallVector<PostOp> getPostOps() {
      return ::mlir::dl::getPostOps(getEpilogue());
    }
  }];
}

//===----------------------------------------------------------------------===//
// Batch normalization
//===----------------------------------------------------------------------===//

def DL_BatchNormInferenceOp : DL_DPSOp<"batch_norm_inference"> {
  let summary = "batch normalization, inference form (given statistics)";
  let description = [{
    `output = gamma[c] * (input - mean[c]) / sqrt(variance[c] + epsilon) + beta[c]`
    per channel `c` of an `NCHW` (rank 4) or `NCHW{c}c` (rank 5, channel
    `c_blk * c + c`) activation. `gamma`, `beta`, `mean`, `variance` have one
    element per channel. `epsilon` (default 1e-3) is inside the square root.
    With `activation`, the output is the activation of that value
    (`dl-fuse-epilogues` folds a following `dl.relu` / `dl.relu6` into it).
  }];
  let arguments = (ins
      DL_Shaped:$input,
      DL_ShapedVector:$gamma,
      DL_ShapedVector:$beta,
      DL_ShapedVector:$mean,
      DL_ShapedVector:$variance,
      DL_Shaped:$output,
      DefaultValuedAttr<F32Attr, "1.0e-3">:$epsilon,
      OptionalAttr<DL_ActivationAttr>:$activation);
  let assemblyFormat = [{
    `ins` `(` $input `,` $gamma `,` $beta `,` $mean `,` $variance `:`
        type($input) `,` type($gamma) `,` type($beta) `,` type($mean) `,`
        type($variance) `)`
    `outs` `(` $output `:` type($output) `)` attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
  }];
}

def DL_BatchNormTrainingOp
    : DL_DPSOp<"batch_norm_training", [AttrSizedOperandSegments]> {
  let summary = "batch normalization, training forward form";
  let description = [{
    Computes per channel `c` the mini-batch mean
    `mean[c] = sum_{n,h,w} input / m` and the biased variance
    `var[c] = sum_{n,h,w} (input - mean[c])^2 / m` with `m = N * H * W`,
    writes them to `saved_mean` and `saved_variance`, and normalizes:
    `output = gamma[c] * (input - mean[c]) / sqrt(var[c] + epsilon) + beta[c]`
    (then `activation`, when given). Layouts as for
    `dl.batch_norm_inference`. With `inv_std`, it also writes what the
    backward pass reads next to the mean, `1 / sqrt(var[c] + epsilon)`, to
    that vector.

    With `row_statistics` (`R1 x R2 x 2 x C`, as a `dl.conv2d` writes them
    for the input), the statistics are merged from those of its
    `R1 * R2` groups of `m / (R1 * R2)` elements each (Chan et al.'s
    pairwise update of mean and sum of squared deviations) instead of
    swept from the input, which is then read once, to normalize.
  }];
  let arguments = (ins
      DL_Shaped:$input,
      DL_ShapedVector:$gamma,
      DL_ShapedVector:$beta,
      DL_Shaped:$output,
      DL_ShapedVector:$saved_mean,
      DL_ShapedVector:$saved_variance,
      Optional<DL_ShapedVector>:$saved_inv_std,
      Optional<DL_Shaped>:$row_statistics,
      DefaultValuedAttr<F32Attr, "1.0e-3">:$epsilon,
      OptionalAttr<DL_ActivationAttr>:$activation);
  let assemblyFormat = [{
    `ins` `(` $input `,` $gamma `,` $beta `:`
        type($input) `,` type($gamma) `,` type($beta) `)`
    `outs` `(` $output `,` $saved_mean `,` $saved_variance `:`
        type($output) `,` type($saved_mean) `,` type($saved_variance) `)`
    (`inv_std` `(` $saved_inv_std^ `:` type($saved_inv_std) `)`)?
    (`row_statistics` `(` $row_statistics^ `:` type($row_statistics) `)`)?
    attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      // output, saved_mean, saved_variance and saved_inv_std when present.
      return ::mlir::MutableOperandRange(getOperation(), /*start=*/3,
                                         /*length=*/getSavedInvStd() ? 4 : 3);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

class DL_UnaryElementwiseOp<string mnemonic, string expr>
    : DL_DPSOp<mnemonic> {
  let summary = "element-wise `output = " # expr # "`";
  let description = [{
    Element-wise on buffers of any rank and equal shape; `input` and
    `output` may be the same buffer (in place). `max` and `min` are IEEE
    maxNum / minNum: a NaN input gives 0.
  }];
  let arguments = (ins DL_Shaped:$input,
                       DL_Shaped:$output);
  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)`
    `outs` `(` $output `:` type($output) `)` attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
  }];
}

def DL_ReluOp : DL_UnaryElementwiseOp<"relu", "max(input, 0)">;
def DL_Relu6Op : DL_UnaryElementwiseOp<"relu6", "min(max(input, 0), 6)">;
def DL_SigmoidOp : DL_UnaryElementwiseOp<"sigmoid", "1 / (1 + exp(-input))">;
def DL_SiluOp : DL_UnaryElementwiseOp<"silu", "input / (1 + exp(-input))">;
def DL_HardSigmoidOp
    : DL_UnaryElementwiseOp<"hard_sigmoid", "min(max(input / 6 + 1 / 2, 0), 1)">;
def DL_HardSwishOp
    : DL_UnaryElementwiseOp<"hard_swish", "input * min(max(input + 3, 0), 6) / 6">;

def DL_MulOp : DL_DPSOp<"mul"> {
  let summary = "element-wise product, broadcasting the right operand";
  let description = [{
    `output = lhs * rhs` where `rhs` has the rank of `lhs` and each of its
    sizes is `lhs`'s or 1, broadcast along that dimension (a
    squeeze-and-excitation block's `N x C x 1 x 1` channel scales times its
    `N x C x H x W` activations). `output` has `lhs`'s shape and may be
    `lhs` (in place).

    ```mlir
    dl.mul ins(%x, %scale : memref<1x96x28x28xf32>, memref<1x96x1x1xf32>)
           outs(%x : memref<1x96x28x28xf32>)
    ```
  }];
  let arguments = (ins DL_Shaped:$lhs,
                       DL_Shaped:$rhs,
                       DL_Shaped:$output);
  let assemblyFormat = [{
    `ins` `(` $lhs `,` $rhs `:` type($lhs) `,` type($rhs) `)`
    `outs` `(` $output `:` type($output) `)` attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
  }];
}

def DL_AddOp : DL_DPSOp<"add"> {
  let summary = "element-wise sum (residual connection)";
  let description = [{
    `output = lhs + rhs` on buffers of equal shape; `output` may be `lhs` or
    `rhs` (in place).
  }];
  let arguments = (ins DL_Shaped:$lhs,
                       DL_Shaped:$rhs,
                       DL_Shaped:$output);
  let assemblyFormat = [{
    `ins` `(` $lhs `,` $rhs `:` type($lhs) `,` type($rhs) `)`
    `outs` `(` $output `:` type($output) `)` attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
  }];
}

def DL_BiasAddOp : DL_DPSOp<"bias_add"> {
  let summary = "adds a per-channel bias";
  let description = [{
    `output = input + bias[channel]` where the channel is dimension 1 of a
    rank-2 (`M x N`, bias per column), rank-4 (`NCHW`) input, or the pair of
    dimensions 1 and 4 of a rank-5 blocked `NCHW{c}c` input (channel
    `c_blk * c + c`). `output` may be `input` (in place).
  }];
  let arguments = (ins DL_Shaped:$input,
                       DL_ShapedVector:$bias,
                       DL_Shaped:$output);
  let assemblyFormat = [{
    `ins` `(` $input `,` $bias `:` type($input) `,` type($bias) `)`
    `outs` `(` $output `:` type($output) `)` attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
  }];
}

def DL_DepthwiseConv2DOp : DL_DPSOp<"depthwise_conv2d"> {
  let summary = "2-D depthwise convolution (one filter per channel)";
  let description = [{
    `output[n][c][oh][ow] = sum_{r,s} input[n][c][ih][iw] * filter[r][s][c]`
    with `ih = oh * stride_h + r * dilation_h - pad_top`,
    `iw = ow * stride_w + s * dilation_w - pad_left`, and input elements
    outside the image read as zero: a convolution whose groups are its
    channels, one input and one output channel each (PyTorch's
    `Conv2d(C, C, groups=C)`, whose `C x 1 x R x S` weights are this
    filter transposed). The filter is `R x S x C` (channels innermost) in
    both layouts. Plain: `input: N x C x H x W`, `output: N x C x OH x OW`.
    Blocked: `input: N x C/c x H x W x c`, `output: N x C/c x OH x OW x c`,
    channel `cb * c + c`; the blocks may pad the channels (the filter's
    count), and the output's padding channels are zero. Output sizes as
    for `dl.conv2d`. The output is overwritten; `dl-block-conv-layouts`
    runs it on the blocked copy of its input where there is one, and the
    lowering vectorizes along the channel block: the op is memory-bound
    (`R * S` multiply-adds per output element).

    ```mlir
    dl.depthwise_conv2d ins(%in, %f : memref<1x144x56x56xf32>, memref<3x3x144xf32>)
                        outs(%out : memref<1x144x28x28xf32>)
                        {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
    ```
  }];
  let arguments = (ins
      DL_Shaped:$input,
      DL_Shaped:$filter,
      DL_Shaped:$output,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations);
  let assemblyFormat = [{
    `ins` `(` $input `,` $filter `:` type($input) `,` type($filter) `)`
    `outs` `(` $output `:` type($output) `)` attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
    /// True for the blocked layout (rank-5 activations).
    bool isBlocked() { return getInput().getType().getRank() == 5; }
  }];
}

def DL_ConcatOp : DL_DPSOp<"concat"> {
  let summary = "concatenation along one dimension";
  let description = [{
    `output` is the `inputs` one after the other along dimension `axis`
    (default 1, the channels of `NCHW` activations: PyTorch's
    `torch.cat(..., dim=1)`): every other dimension of every input equals
    the output's, and the inputs' sizes along `axis` sum to the output's.
    Any rank and layout the operands share; along the channel blocks of
    blocked `NCHW{c}c` operands it concatenates channels when every input
    is whole blocks. The output must not be an input.

    ```mlir
    dl.concat ins(%a, %b : memref<1x64x28x28xf32>, memref<1x32x28x28xf32>)
              outs(%c : memref<1x96x28x28xf32>)
    ```
  }];
  let arguments = (ins
      Variadic<DL_Shaped>:$inputs,
      DL_Shaped:$output,
      DefaultValuedAttr<I64Attr, "1">:$axis);
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $output `:` type($output) `)` attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
  }];
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// Pooling over windows of the image: `NCHW` (rank 4) or `NCHW{c}c` (rank 5,
// the channel block innermost, vectorized) in, the same layout out.
class DL_Pool2DOp<string mnemonic, string what, dag extraArguments = (ins)>
    : DL_DPSOp<mnemonic> {
  let summary = "2-D " # what # " pooling, plain (NCHW) or blocked layout";
  let arguments = !con((ins DL_Shaped:$input,
                            DL_Shaped:$output,
                            DenseI64ArrayAttr:$window,
                            DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                            DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding),
                       extraArguments);
  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)`
    `outs` `(` $output `:` type($output) `)` attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
    /// True for the blocked layout (rank-5 activations).
    bool isBlocked() { return getInput().getType().getRank() == 5; }
  }];
}

def DL_MaxPool2DOp : DL_Pool2DOp<"max_pool2d", "max"> {
  let description = [{
    `output[n][c][oh][ow]` is the maximum of `input[n][c][ih][iw]` over the
    window `ih = oh * stride_h - pad_top + r`, `iw = ow * stride_w -
    pad_left + s` (`0 <= r < window_h`, `0 <= s < window_w`) within the
    image: padding is never the maximum. A window holding a NaN gives an
    unspecified value (the maximum is the machine's instruction, as in
    oneDNN, not IEEE's NaN-propagating maximum). `window` is
    `[height, width]`,
    `padding` `[top, left, bottom, right]`, and the output size
    `OH = (H + pad_top + pad_bottom - window_h) / stride_h + 1` (likewise
    OW). Every window must overlap the image: each padding below its
    window size, and the last window starting inside it. PyTorch's
    `ceil_mode` is more padding at the bottom and right. The blocked layout
    `N x C/c x H x W x c` pools each channel the same way.

    ```mlir
    dl.max_pool2d ins(%in : memref<1x64x112x112xf32>)
                  outs(%out : memref<1x64x56x56xf32>)
                  {window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                   padding = array<i64: 1, 1, 1, 1>}
    ```
  }];
}

def DL_AvgPool2DOp : DL_Pool2DOp<"avg_pool2d", "average",
    (ins DefaultValuedAttr<BoolAttr, "true">:$count_include_pad)> {
  let description = [{
    `output[n][c][oh][ow]` is the sum of `input[n][c][ih][iw]` over the
    window of `dl.max_pool2d` within the image, divided by the window's
    size (`window_h * window_w`) when `count_include_pad` (the default, as
    PyTorch's), else by the number of its elements inside the image.
    Sizes, padding and layouts as for `dl.max_pool2d`. A window of the
    whole image is global average pooling.

    ```mlir
    dl.avg_pool2d ins(%in : memref<1x2048x7x7xf32>)
                  outs(%out : memref<1x2048x1x1xf32>)
                  {window = array<i64: 7, 7>}
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Layout changes
//===----------------------------------------------------------------------===//

class DL_LayoutOp<string mnemonic, string direction, dag extraArguments = (ins)>
    : DL_DPSOp<mnemonic> {
  let arguments = !con((ins DL_Shaped:$source,
                            DL_Shaped:$dest), extraArguments);
  let assemblyFormat = [{
    `ins` `(` $source `:` type($source) `)`
    `outs` `(` $dest `:` type($dest) `)` attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getDestMutable(); }
    /// The plain-layout side (rank 4, or 2 for a matrix) and the blocked
    /// side (rank 5 or 6, or 4 for a matrix).
    ::mlir::TypedValue<::mlir::ShapedType> getPlain() {
      return }] # !if(!eq(direction, "pack"), "getSource()", "getDest()") # [{;
    }
    ::mlir::TypedValue<::mlir::ShapedType> getBlocked() {
      return }] # !if(!eq(direction, "pack"), "getDest()", "getSource()") # [{;
    }
  }];
}

def DL_PackOp : DL_LayoutOp<"pack", "pack",
                            (ins DefaultValuedAttr<I64Attr, "1">:$groups)> {
  let summary = "plain layout to blocked layout";
  let description = [{
    Activations: `NCHW` (rank 4) to `NCHW{c}c` (rank 5),
    `dest[n][cb][h][w][c] = source[n][cb * c_block + c][h][w]`.
    Filters: `KCRS` (rank 4) to `KCRS{c}c{k}k` (rank 6),
    `dest[kb][cb][r][s][c][k] = source[kb * k_block + k][cb * c_block + c][r][s]`.
    Matrices (the B of `dl.matmul`): `K x N` (rank 2) to `N/n x K/k x k x n`
    (rank 4), `dest[nb][kb][k][n] = source[kb * k_block + k][nb * n_block + n]`
    (a 1x1 filter's layout, with N as its output channels).
    The block sizes are the innermost sizes of `dest`. They must divide the
    matrix sizes; a channel count they do not divide is padded: the last
    channel block holds the remaining channels and zeros after them
    (`dest[...][c] = 0` for channels past the plain count), so a blocked
    convolution on padded operands computes the plain one (the zero input
    channels meet zero filter weights) and its padding output channels are
    0. Every block holds at least one channel: `blocks x block` is at least
    the plain count and less than it plus one block.

    `groups` (default 1) packs the `K x C/G x R x S` filter of a
    convolution of G groups (static sizes) for the blocked convolution of
    the same `groups` semantics (see `dl.conv2d`): output block `kb` reads
    the input channels from `((kb * k_block) / (K/G)) * (C/G)` on, and
    `dest[kb][cb][r][s][c][k]` is the weight of output channel
    `kb * k_block + k` for that input channel plus `cb * c_block + c` when
    both are in the same group, else 0 (a block holding several groups has
    a block-diagonal filter). The blocks must hold whole groups: `K/G` a
    multiple of `k_block` and `C/G` of `c_block`, or `k_block` a multiple
    of `K/G` whose groups' input channels fill the blocks of `dest`'s dim 1
    exactly.
  }];
}

def DL_UnpackOp : DL_LayoutOp<"unpack", "unpack"> {
  let summary = "blocked layout to plain layout";
  let description = [{
    The inverse of `dl.pack` (the padding channels of a padded blocked
    side are not read): `NCHW{c}c` (rank 5) to `NCHW`,
    `KCRS{c}c{k}k` (rank 6) to `KCRS`, or a blocked matrix (rank 4) to
    `K x N`.
  }];
}

//===----------------------------------------------------------------------===//
// Microkernels (created by dl-outline-microkernels, lowered to runtime calls)
//===----------------------------------------------------------------------===//

def DL_GemmDispatchOp : DL_Op<"gemm_dispatch",
                              [Pure, AttrSizedOperandSegments]> {
  let summary = "select a GEMM microkernel for static sizes";
  let description = [{
    Returns a handle to a microkernel computing, on row-major fp32 blocks,
    `C[m][n] (=|+=) A[m][k] * B[k][n]` with leading dimensions `lda`, `ldb`,
    `ldc` (in elements). `C` is overwritten when `beta_zero` is set and
    accumulated into otherwise. The batch-reduce form sums `count` products
    `A_i * B_i` into `C`: with `stride_a`/`stride_b` the blocks are
    `A + i * stride_a`, `B + i * stride_b`; with `batch_offsets` their
    offsets are given at the call. A handle of 0 means no microkernel exists
    for these sizes and the caller must run its loops. With `stream_c` (and
    `beta_zero`), the kernel stores C with non-temporal stores, past the
    caches, wherever a call's block of C starts 64-byte aligned (the runtime
    checks at each call and uses plain stores elsewhere): for a C written
    once and read by nothing soon (dl-outline-microkernels decides).

    The op is `Pure`, so it is hoisted out of the loops around the call.

    With `sizes(%m, %n, %k)`, the kernel's sizes are those values, known
    at run time (the partial blocks of a GEMM with dynamic sizes), and the
    attributes `m`, `n`, `k` are their largest values, against which the
    leading dimensions are checked. A size of 0 or less gets no kernel (a
    handle of 0). The runtime's dispatch is a lookup in LIBXSMM's registry
    after the first call with a shape, which generates the kernel.

    With `leading_dims(%lda, %ldb, %ldc)`, the leading dimensions are those
    values, known at run time (a GEMM on operands of dynamic sizes, in
    place), and the attributes `lda`, `ldb`, `ldc` are absent.

    ```mlir
    %kernel = dl.gemm_dispatch {m = 56, n = 64, k = 64, lda = 64, ldb = 64,
                                ldc = 64, batch_offsets}
    %edge = dl.gemm_dispatch sizes(%rows, %cols, %c64) {m = 64, n = 64,
                                k = 64, lda = 64, ldb = 64, ldc = 64}
    %whole = dl.gemm_dispatch sizes(%m, %n, %k) leading_dims(%k, %n, %n)
                              {m = 64, n = 64, k = 64, beta_zero}
    ```
  }];
  let arguments = (ins Variadic<Index>:$sizes,
                       Variadic<Index>:$leading_dims,
                       ConfinedAttr<I64Attr, [IntPositive]>:$m,
                       ConfinedAttr<I64Attr, [IntPositive]>:$n,
                       ConfinedAttr<I64Attr, [IntPositive]>:$k,
                       OptionalAttr<I64Attr>:$lda, OptionalAttr<I64Attr>:$ldb,
                       OptionalAttr<I64Attr>:$ldc,
                       OptionalAttr<I64Attr>:$stride_a,
                       OptionalAttr<I64Attr>:$stride_b,
                       UnitAttr:$batch_offsets,
                       UnitAttr:$beta_zero,
                       UnitAttr:$stream_c);
  let results = (outs I64:$kernel);
  let assemblyFormat = [{
    (`sizes` `(` $sizes^ `)`)? (`leading_dims` `(` $leading_dims^ `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True for the batch-reduce forms (strided or with offsets).
    bool isBatchReduce() { return getBatchOffsets() || getStrideA(); }
  }];
}

def DL_I64Vector : MemRefRankOf<[I64], [1]>;

def DL_GemmInvokeOp : DL_Op<"gemm_invoke", [AttrSizedOperandSegments]> {
  let summary = "run a microkernel from dl.gemm_dispatch";
  let description = [{
    Runs `kernel` on the blocks of `a`, `b` and `c` whose first elements are
    at the given indices (one per memref dimension; the leading dimensions
    the kernel was dispatched with are in elements of the linearized
    buffers). The batch-reduce forms take the number of block pairs in
    `batch`; the offsets form also takes the element offsets of each block
    of `A` and `B` from the first one.

    ```mlir
    dl.gemm_invoke %kernel(%in[%n, %c0, %oh, %c0, %c0],
                           %w[%kb, %c0, %c0, %c0, %c0, %c0],
                           %out[%n, %kb, %oh, %c0, %c0])
        batch(%c9) offsets(%offs_a, %offs_b)
        : memref<1x1x58x58x64xf32>, memref<1x1x3x3x64x64xf32>,
          memref<1x1x56x56x64xf32>, memref<9xi64>, memref<9xi64>
    ```
  }];
  let arguments = (ins I64:$kernel,
                       Arg<DL_Buffer, "A", [MemRead]>:$a,
                       Variadic<Index>:$a_indices,
                       Arg<DL_Buffer, "B", [MemRead]>:$b,
                       Variadic<Index>:$b_indices,
                       Arg<DL_Buffer, "C", [MemRead, MemWrite]>:$c,
                       Variadic<Index>:$c_indices,
                       Optional<Index>:$batch,
                       Arg<Optional<DL_I64Vector>, "offsets of A's blocks",
                           [MemRead]>:$offsets_a,
                       Arg<Optional<DL_I64Vector>, "offsets of B's blocks",
                           [MemRead]>:$offsets_b);
  let assemblyFormat = [{
    $kernel `(` $a `[` $a_indices `]` `,` $b `[` $b_indices `]` `,`
    $c `[` $c_indices `]` `)` (`batch` `(` $batch^ `)`)?
    (`offsets` `(` $offsets_a^ `,` $offsets_b `)`)? attr-dict `:`
    type($a) `,` type($b) `,` type($c)
    (`,` type($offsets_a)^ `,` type($offsets_b))?
  }];
  let hasVerifier = 1;
}

#endif // DL_DIALECT_DL_IR_DLOPS_TD
