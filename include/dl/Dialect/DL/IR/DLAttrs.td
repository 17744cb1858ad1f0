//===- DLAttrs.td - dl dialect attributes ------------------*- tablegen -*-===//
//
// Attributes of the `dl` dialect: the schedule of the loops around a GEMM
// band, as the ranking pass decides it and the lowering applies it, and the
// activation an op applies to its result (fused by dl-fuse-epilogues).
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_IR_DLATTRS_TD
#define DL_DIALECT_DL_IR_DLATTRS_TD

include "dl/Dialect/DL/IR/DLDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def DL_ScheduleAttr : AttrDef<DL_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "Order, tiling and parallel loop of the loops around a GEMM band";
  let description = [{
    The outer loops of a heavy op's nest, outermost first, around its GEMM
    band (which keeps its own loops). Each loop is a named dimension of the
    op: `dl.conv2d` (blocked layout, static sizes) has `n` (images), `kb`
    (output-channel blocks), `oh` (output rows) and `cb` (input-channel
    blocks), around the filter taps and the band over (ow, c, k); `cb` may
    be left out (one loop over all input-channel blocks, innermost) and
    otherwise comes last: its last loop, with the taps, is the batch of the
    batch-reduce microkernel. `dl.matmul` with `pack_blocks` has `i`, `j`
    (row and column blocks of C) and `k` (K blocks); its last loop must be
    over `k` (the batch of the batch-reduce microkernel).

    A dimension appears once (a loop over all of it) or several times,
    one loop per tile level: `kb:8, ..., kb:2, ..., kb` is a loop over
    groups of 8 blocks, further in a loop over the groups of 2 within a
    group of 8, and further in the loop over the 2 blocks. Every loop of a
    dimension but its last is a tile loop; each tile divides the extent or
    the tile of the dimension's enclosing loop.
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
    /// once or tiled at several levels, tiles dividing the enclosing tile,
    /// optional dimensions appended when missing, the `innermost` dimension
    /// last). Emits an error through `emitError` and fails
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

def DL_TargetAttr : AttrDef<DL_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "The machine dl compiles for: vector width, caches, memory";
  let description = [{
    Described once, on the module (`dl.target`), by `dl-set-target` (from
    this machine, a machine file of `dl-probe`, or explicit values); every
    dl pass reads it (`getTarget`), none queries the host. A module without
    one is compiled for this machine.

    `vector_bits` is the width of the microkernels' vector registers (512
    with AVX-512F, 256 with AVX2), which sets the default channel and GEMM
    blocks; `max_batch_bytes` bounds the A and B blocks one batch-reduce
    kernel call reads (0: no bound). `cache_bytes` are the capacities of the
    cache levels, fastest first; `latencies` and `bandwidths` have one entry
    per level and a last one for memory (any one unit each, as the machine
    file gives them). `near_write_line_ns`, where the machine file has it
    (`dl-probe` measures it on a machine it can run two threads on), is the
    time in ns a core loses per cache line it writes next to what another
    core is writing at the same time, which `dl-decide-parallelism` charges
    the threads dividing an output (its `near-line-us`); `fork_join_ns`,
    likewise, the time of an empty OpenMP parallel region of two threads
    (its `fork-join-us` is 1.3 times it).

    ```mlir
    module attributes {dl.target = #dl.target<vector_bits = 512,
        max_batch_bytes = 262144, cache_bytes = [49152, 1048576, 33554432],
        latencies = [4.0, 14.0, 50.0, 300.0],
        bandwidths = [64.0, 32.0, 16.0, 8.0]>} { ... }
    ```
  }];
  let parameters = (ins "int64_t":$vector_bits, "int64_t":$max_batch_bytes,
                        "::mlir::DenseI64ArrayAttr":$cache_bytes,
                        "::mlir::DenseF64ArrayAttr":$latencies,
                        "::mlir::DenseF64ArrayAttr":$bandwidths,
                        OptionalParameter<"::mlir::FloatAttr">:$near_write_line_ns,
                        OptionalParameter<"::mlir::FloatAttr">:$fork_join_ns);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def DL_Activation : I32EnumAttr<"Activation",
    "element-wise activation applied to an op's result as it is written", [
      I32EnumAttrCase<"relu", 0>,
      I32EnumAttrCase<"relu6", 1>
    ]> {
  let cppNamespace = "::mlir::dl";
  let genSpecializedAttr = 0;
}

def DL_ActivationAttr : EnumAttr<DL_Dialect, DL_Activation, "activation"> {
  let summary = "activation fused into the op that produces its input";
  let description = [{
    `#dl.activation<relu>` (`max(x, 0)`) or `#dl.activation<relu6>`
    (`min(max(x, 0), 6)`), with the IEEE maxNum / minNum of `dl.relu` and
    `dl.relu6`: the op writes the activation of each result element instead
    of the element, so no separate sweep over the result is needed.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def DL_PostOp : I32EnumAttr<"PostOp",
    "element-wise op applied to a convolution's output as it is completed", [
      I32EnumAttrCase<"bias_add", 0>,
      I32EnumAttrCase<"add", 1>,
      I32EnumAttrCase<"batch_norm_inference", 2>,
      I32EnumAttrCase<"relu", 3>,
      I32EnumAttrCase<"relu6", 4>
    ]> {
  let cppNamespace = "::mlir::dl";
  let genSpecializedAttr = 0;
}

def DL_PostOpAttr : EnumAttr<DL_Dialect, DL_PostOp, "post_op"> {
  let summary = "one step of a convolution's epilogue";
  let description = [{
    A step of the `epilogue` of `dl.conv2d`, as `dl-fuse-epilogues` folds
    the element-wise op of the same name into it: `bias_add` (operand: the
    per-channel bias), `add` (operand: a buffer of the output's shape, the
    residual), `batch_norm_inference` (operands: gamma, beta, mean,
    variance; the op's `epilogue_epsilon`), `relu`, `relu6` (no operand).
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // DL_DIALECT_DL_IR_DLATTRS_TD
