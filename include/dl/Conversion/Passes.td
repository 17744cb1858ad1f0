//===- Passes.td - dl conversion passes --------------------*- tablegen -*-===//
//
// Passes that raise linalg to the `dl` dialect and lower the `dl` dialect.
//
//===----------------------------------------------------------------------===//

#ifndef DL_CONVERSION_PASSES_TD
#define DL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToDL : Pass<"convert-linalg-to-dl"> {
  let summary = "Raise linalg GEMMs, convolutions and element-wise layer ops to dl ops";
  let description = [{
    The linalg form that MLIR front ends produce (`tosa-to-linalg-named` and
    `tosa-to-linalg`, StableHLO and torch-mlir lower to it), on tensors or
    buffers, becomes dl ops, matched by semantics, not by names:

    | linalg | dl |
    |---|---|
    | `linalg.matmul` (maps of A x B, A^T x B, A x B^T) | `dl.matmul` |
    | `linalg.batch_matmul` of one GEMM (batch size 1) | `dl.matmul` on collapsed views |
    | `linalg.conv_2d_nchw_fchw` | `dl.conv2d` |
    | `linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nhwc_fhwc` | `dl.conv2d` between `linalg.transpose`s to NCHW / FCHW and back (folded into the blocked layout's copies by `dl-fold-layout-transposes`) |
    | all-parallel body `max(x, 0)` (`maximumf`/`maxnumf`, either order), `select(x > 0, x, 0)`, a clamp `[0, +max]` | `dl.relu` |
    | a clamp `[0, 6]` (`min(max(x, 0), 6)` or `max(min(x, 6), 0)`) | `dl.relu6` |
    | `a + b`, both indexed as the output | `dl.add` |
    | `a + v`, `v` a vector along dimension 1 (NCHW channels, matrix columns) | `dl.bias_add` |
    | `gamma * (x - mean) / sqrt(var + eps) + beta` in any arithmetic (`subf`, `mulf`, `divf`, `sqrt`, `rsqrt`, ...), four vectors along the NCHW channels, `eps` one of the body's constants: matched by evaluating the body at sample points | `dl.batch_norm_inference` |

    A vector along the channels of a 4-D op is a rank-1 operand indexed by
    `d1`, or a `1 x C x 1 x 1` operand broadcast along the other dimensions
    (TOSA's and torch-mlir's form), read through a collapsed view. Chains of
    element-wise ops (TOSA's `sub`, `mul`, `rsqrt`, `add` of a batch
    normalization) are matched once linalg's element-wise fusion
    (`linalg-fuse-elementwise-ops`) has made them one op.

    A linalg GEMM or convolution accumulates into its output; a dl one
    overwrites it (`beta = 0`). A zero-filled output (`linalg.fill` of 0:
    the defining op on tensors, the op right before on buffers) is the dl
    op's output as it is; a per-channel bias broadcast into the output
    (TOSA's convolution) becomes a `dl.bias_add` after the convolution; any
    other output is accumulated (`beta = 1` for a GEMM, a `dl.add` after a
    convolution). A `tensor.pad` of 0 on a convolution input's rows and
    columns becomes the convolution's `padding`. Convolutions with dynamic
    sizes, batches of several GEMMs, other element types and other bodies
    stay as they are, with a remark that says why (`--remarks` in
    dl-compile); the `dl-to-llvm` pipeline, which starts with this pass,
    lowers what is left to loops. ReLUs raised from `maximumf` give 0 where
    the input is NaN (dl's `max` is IEEE maxNum).
  }];
  let dependentDialects = [
    "::mlir::dl::DLDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def ConvertDLToAffine : Pass<"convert-dl-to-affine"> {
  let summary = "Lower every dl op to a plain affine.for loop nest";
  let description = [{
    Replaces each `dl` op with `affine.for` nests computing its reference
    semantics, with no tiling or reordering: this lowering is also the
    reference every optimized pipeline is checked against.

    * `dl.matmul`: `C *= beta` (or `C = 0` when `beta = 0`) over `(i, j)`,
      then `C[i][j] += alpha * op(A)[i][k] * op(B)[k][j]` over `(i, j, k)`.
    * `dl.conv2d`: `output = 0`, then the accumulation over
      `(n, k, oh, ow, c, r, s)` (plain; padded borders are skipped with
      `affine.if`) or `(n, k_blk, oh, c_blk, r, s, ow, c, k)` (blocked; the
      bounds of `r` skip the padding rows, from
      `max(0, ceildiv(top - oh * stride, dilation))` to
      `min(R, ceildiv(H + top - oh * stride, dilation))`, so no tap reads a
      padding row, and the input is read from a copy with zero padding
      columns when there are any, so that
      the `(ow, c, k)` band is a GEMM `out[ow][k] += in[ow][c] * w[c][k]`
      and `(c_blk, r, s)` its batch-reduce; an unpadded 1x1 convolution with
      strides reads a dense copy of the pixels it uses, at unit stride, as
      oneDNN's "reduce to unit stride" does). With a `#dl.schedule` (set by
      `dl-rank-variants`), the outer loops `(n, k_blk, oh)` of a blocked
      convolution and the block loops `(i, j, k)` of a `dl.matmul` with
      `pack_blocks` are built in the schedule's order and tiling, and its
      parallel loop is marked `dl.parallel`. Their result is initialized
      (zeroed, or scaled by `beta`) per tile, right before the tile's
      outermost reduction loop (`c_blk` or the K blocks), instead of in a
      separate pass over the whole result: the tile is then in cache when
      its accumulation starts (and `dl-outline-microkernels` turns a fill of
      exactly one kernel's block into the kernel's `beta = 0`). An operand
      marked `pack_a`/`pack_b` is copied into contiguous blocks: with
      `panel_a`/`panel_b` (decided by `dl-decide-panels`), inside the
      schedule's nest, one microkernel batch of blocks at a time into a panel
      scratch, outside the innermost loops over the dimension that does not
      index the operand (j for A, i for B), whose calls re-read it;
      otherwise into a packed copy of the whole operand
      before the nest. A copy inside
      the schedule's parallel loop goes to a scratch each iteration
      allocates and frees.
    * `dl.batch_norm_training`, `dl.batch_norm_inference`: one loop over
      the channel groups (a channel of `NCHW`, a block of `NCHW{c}c`) with
      `(h, w)` collapsed into runs that the sweeps read a vector at a time
      (16 floats of a channel and a scalar tail; a block's channels).
      Training: one statistics sweep carrying the sums of `x - shift` and
      `(x - shift)^2` in `iter_args` (4 independent chains), with the
      group's first element as the shift (the shifted-data algorithm: a
      mean of 100 next to a standard deviation of 1 loses no digits), the
      biased variance `q/m - (s/m)^2` clamped at 0, one `math.rsqrt` per
      channel (stored to `inv_std` when the op has it); then, for both, one
      normalize sweep
      `(x - mean) * gamma * invStd + beta` that applies the op's
      `activation` and writes each element once. A strided activation
      goes through contiguous copies.
    * Element-wise ops, `dl.pack`/`dl.unpack`: one nest over the output.

    Dynamic sizes become `memref.dim` symbols of the loop bounds (the
    pipelines run `dl-insert-size-checks` first, which checks their
    relations at run time). The
    GEMM-shaped innermost bands (the matmul nest without transposes or
    alpha; the `(ow, c, k)` band of a blocked convolution) are tagged with
    the unit attribute `dl.gemm_band` on their outermost loop and left in
    loop form for the analyses that later passes run on them. An op marked
    `dl.sequential` (by `dl-decide-parallelism`: its work does not pay for
    a parallel region) passes the mark on to every top-level loop nest it
    lowers to, its packing and padding copies included, and
    `dl-parallelize-outer-loops` leaves them sequential.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def AnnotateRuntimeAllocator
    : Pass<"dl-annotate-runtime-allocator", "::mlir::ModuleOp"> {
  let summary = "Mark libDLRuntime's allocator as returning memory nothing else aliases";
  let description = [{
    With `use-generic-functions`, `memref.alloc` lowers to calls of
    `_mlir_memref_to_llvm_alloc` (and `memref.dealloc` to
    `_mlir_memref_to_llvm_free`), which libDLRuntime implements with a cache
    of large scratch blocks. LLVM knows that `malloc`'s result aliases no
    other pointer, but not this function's: a copy into a fresh buffer (a
    padded or subsampled input, a packed block) could then overwrite its own
    source, and its fully unrolled inner loops stay scalar loads and stores.
    Run after `finalize-memref-to-llvm`, the pass marks the declared
    allocator's result `noalias`, which holds as for `malloc`: a block the
    runtime returns is reachable through no other live pointer until it is
    freed.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertDLMicrokernelsToRuntime
    : Pass<"convert-dl-microkernels-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower dl.gemm_dispatch / dl.gemm_invoke to libDLRuntime calls";
  let description = [{
    Replaces `dl.gemm_dispatch` with a call to `dl_gemm_dispatch`,
    `dl_brgemm_dispatch` or `dl_brgemm_offs_dispatch`, and
    `dl.gemm_invoke` with a call to the matching `*_invoke` function of
    `libDLRuntime` (C API in `runtime/include/dl-runtime/DLRuntime.h`).
    Buffers are passed as their aligned pointer (an integer) plus the linear
    element offset of the block's first element, computed from the memref's
    strided metadata. Run it after the dispatches were hoisted out of loops:
    calls are not hoisted.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

#endif // DL_CONVERSION_PASSES_TD
