//===- DLAttrs.td - dl dialect attributes ------------------*- tablegen -*-===//
//
// Attributes of the `dl` dialect: the schedule of the loops around a GEMM
// band, as the ranking pass decides it and the lowering applies it.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_IR_DLATTRS_TD
#define DL_DIALECT_DL_IR_DLATTRS_TD

include "dl/Dialect/DL/IR/DLDialect.td"
include "mlir/IR/AttrTypeBase.td"

def DL_ScheduleAttr : AttrDef<DL_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "Order, tiling and parallel loop of the loops around a GEMM band";
  let description = [{
    The outer loops of a heavy op's nest, outermost first, around its GEMM
    band (which keeps its own loops). Each loop is a named dimension of the
    op: `dl.conv2d` (blocked layout, static sizes) has `n` (images), `kb`
    (output-channel blocks) and `oh` (output rows), around the batch-reduce
    over input-channel blocks and filter taps and the band over (ow, c, k);
    `dl.matmul` with `pack_blocks` has `i`, `j` (row and column blocks of
    C) and `k` (K blocks), around the band over (bm, bn, bk); its last loop
    must be over `k` (the batch of the batch-reduce microkernel).

    A dimension appears once (a loop over all of it) or twice: `kb:4, ...,
    kb` is a tile loop over groups of 4 blocks and, further in, the loop
    over the 4 blocks of the group. Tiles must divide the dimension.
    `parallel = i` runs loop `i` (0 = outermost) in parallel when the
    pipeline has more than one thread; without it the parallelization pass
    picks the outer parallel loops.

    ```mlir
    dl.conv2d ins(...) outs(...) {schedule = #dl.schedule<[kb:4, oh, kb, n], parallel = 0>}
    ```
  }];
  let parameters = (ins
      ArrayRefParameter<"::mlir::StringAttr", "dimension of each loop">:$dims,
      ArrayRefParameter<"int64_t", "tile of a tile loop, 0 otherwise">:$tiles,
      "int64_t":$parallel);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The loops of this schedule over `dims` (checked: every dimension
    /// once or tiled twice, tiles dividing the extents, the `innermost`
    /// dimension last). Emits an error through `emitError` and fails
    /// otherwise.
    ::mlir::FailureOr<::llvm::SmallVector<ScheduledLoop>>
    getLoops(::llvm::ArrayRef<ScheduleDim> dims,
             ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// The loop running in parallel, if any.
    std::optional<unsigned> getParallelLoop() const {
      if (getParallel() < 0)
        return std::nullopt;
      return static_cast<unsigned>(getParallel());
    }
  }];
}

#endif // DL_DIALECT_DL_IR_DLATTRS_TD
