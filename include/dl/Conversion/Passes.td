//===- Passes.td - dl conversion passes --------------------*- tablegen -*-===//
//
// Passes that lower the `dl` dialect.
//
//===----------------------------------------------------------------------===//

#ifndef DL_CONVERSION_PASSES_TD
#define DL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertDLToAffine : Pass<"convert-dl-to-affine"> {
  let summary = "Lower every dl op to a plain affine.for loop nest";
  let description = [{
    Replaces each `dl` op with `affine.for` nests computing its reference
    semantics, with no tiling or reordering: this lowering is also the
    reference every optimized pipeline is checked against.

    * `dl.matmul`: `C *= beta` (or `C = 0` when `beta = 0`) over `(i, j)`,
      then `C[i][j] += alpha * op(A)[i][k] * op(B)[k][j]` over `(i, j, k)`.
    * `dl.conv2d`: `output = 0`, then the accumulation over
      `(n, k, oh, ow, c, r, s)` (plain) or
      `(n, k_blk, c_blk, oh, r, s, ow, c, k)` (blocked, innermost `k`
      contiguous); padded borders are skipped with `affine.if`.
    * `dl.batch_norm_training`: per channel, a mean sweep and a variance
      sweep carried in `iter_args`, then the normalization sweep.
    * `dl.batch_norm_inference`, element-wise ops, `dl.pack`/`dl.unpack`:
      one nest over the output.

    Dynamic sizes become `memref.dim` symbols of the loop bounds. The
    GEMM-shaped innermost bands are left in their loop form for the analyses
    that later passes run on them.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

#endif // DL_CONVERSION_PASSES_TD
