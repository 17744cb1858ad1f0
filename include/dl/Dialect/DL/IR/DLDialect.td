//===- DLDialect.td - the dl dialect definition ------------*- tablegen -*-===//
//
// The `dl` dialect: deep-learning layers (convolution, GEMM, batch
// normalization, activations, layout changes) on memrefs, destination-passing.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_IR_DLDIALECT_TD
#define DL_DIALECT_DL_IR_DLDIALECT_TD

include "mlir/IR/OpBase.td"

def DL_Dialect : Dialect {
  let name = "dl";
  let cppNamespace = "::mlir::dl";
  let summary = "Deep-learning layers on buffers, compiled to native CPU code";
  let description = [{
    The `dl` dialect holds the layers of a convolutional network in fp32 in
    destination-passing style: every op reads its `ins` operands and writes
    its `outs` operands. On buffers (memrefs) no op returns a value; the
    layer ops also take ranked tensors (all operands tensors), and then
    return one tensor per `outs` tensor, as `linalg` does:

    ```mlir
    %r = dl.relu ins(%x : tensor<16xf32>) outs(%y : tensor<16xf32>)
           -> tensor<16xf32>
    ```

    `dl-bufferize` (MLIR's one-shot bufferization, which the pipelines run
    first) turns a tensor program into the buffer form the other passes
    optimize; they reject layer ops on tensors.

    Two layouts are supported for activations and filters:
    * plain: activations `NCHW` (`memref<N x C x H x W>`), filters `KCRS`;
    * blocked, as in PolyDL: activations `NCHW{c}c`
      (`memref<N x C/c x H x W x c>`, element `[n][c_blk][h][w][c]`) and
      filters `KCRS{c}c{k}k` (`memref<K/k x C/c x R x S x c x k>`).
    The layout of an op is given by the ranks of its operands; `dl.pack` and
    `dl.unpack` convert between the two.

    Sizes may be dynamic (`?`); verifiers check every relation between sizes
    that are known statically.
  }];
  // Verifies `dl.run_shape`, the sizes dl-compile --run/--bench use for a
  // function argument with dynamic sizes, and `dl.constant` (a unit
  // attribute: see getConstantAttrName).
  let hasRegionArgAttrVerify = 1;
  // Verifies `dl.target` (a #dl.target on a module).
  let hasOperationAttrVerify = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Adds the attributes of DLAttrs.td.
    void registerAttributes();

    /// Marks the outermost loop of a band computing a small GEMM
    /// `C[m][n] += A[m][k] * B[k][n]` (up to layout). Set by the lowering,
    /// kept by the loop transformations, consumed by
    /// dl-outline-microkernels.
    /// On a function argument: its contents stay the same from call to
    /// call as long as its address does (a model's weights), so the packed
    /// copies of it are made once and kept (dl-keep-constant-packs).
    static constexpr ::llvm::StringLiteral getConstantAttrName() {
      return ::llvm::StringLiteral("dl.constant");
    }
    /// The module's #dl.target (dl-set-target).
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("dl.target");
    }
    static constexpr ::llvm::StringLiteral getGemmBandAttrName() {
      return ::llvm::StringLiteral("dl.gemm_band");
    }
    /// On a GEMM band's outermost loop: the most K blocks one microkernel
    /// call may take as its batch (the dl.matmul's `batch_blocks`). Set by
    /// the lowering; dl-tile-gemm-bands folds the loops around a tiled band
    /// into its calls' batch only within it.
    static constexpr ::llvm::StringLiteral getMaxBatchAttrName() {
      return ::llvm::StringLiteral("dl.max_batch");
    }
    /// Marks the loop a schedule runs in parallel. Set by the lowering,
    /// consumed by dl-parallelize-outer-loops.
    static constexpr ::llvm::StringLiteral getParallelLoopAttrName() {
      return ::llvm::StringLiteral("dl.parallel");
    }
    /// Marks a dl op that runs on one thread (dl-decide-parallelism: its
    /// work does not pay for a parallel region), and every top-level loop
    /// nest convert-dl-to-affine lowers it to; dl-parallelize-outer-loops
    /// leaves those nests sequential.
    static constexpr ::llvm::StringLiteral getSequentialAttrName() {
      return ::llvm::StringLiteral("dl.sequential");
    }
    /// Marks a dl op whose generic nests (convert-dl-to-affine's reference
    /// loops, for dynamic sizes) run the loop at this depth in parallel, on
    /// the top-level nests it lowers to: their loops at that depth get
    /// `dl.parallel`. Set by dl-parametric-versioning's occupancy versions.
    static constexpr ::llvm::StringLiteral getParallelDepthAttrName() {
      return ::llvm::StringLiteral("dl.parallel_depth");
    }
    /// Marks a dl.matmul whose plain nest (no blocks: the generic version of
    /// a dynamic GEMM) loops over (i, k, j) instead of (i, j, k): j, unit
    /// stride in B and C, innermost, so LLVM vectorizes it; each element of C
    /// still sums its products in k order. Set by dl-parametric-versioning,
    /// applied by convert-dl-to-affine.
    static constexpr ::llvm::StringLiteral getColumnsInnermostAttrName() {
      return ::llvm::StringLiteral("dl.columns_innermost");
    }
    /// Mark a static version of a dynamic op (its parameter and size), the
    /// loop over its whole chunks, the guards that select versions, the
    /// guard of the versions that share a packed B (its blocks), and the
    /// context (an integer set on the op's dynamic output sizes) in which an
    /// occupancy version of a generic op was decided. Set by
    /// dl-parametric-versioning; the loops of each version are nests of
    /// their own for dl-parallelize-outer-loops.
    static constexpr ::llvm::StringLiteral getVersionAttrName() {
      return ::llvm::StringLiteral("dl.version");
    }
    static constexpr ::llvm::StringLiteral getVersionChunksAttrName() {
      return ::llvm::StringLiteral("dl.version_chunks");
    }
    static constexpr ::llvm::StringLiteral getVersionGuardAttrName() {
      return ::llvm::StringLiteral("dl.version_guard");
    }
    static constexpr ::llvm::StringLiteral getVersionSharedPackAttrName() {
      return ::llvm::StringLiteral("dl.version_shared_pack");
    }
    static constexpr ::llvm::StringLiteral getVersionContextAttrName() {
      return ::llvm::StringLiteral("dl.version_context");
    }
  }];
}

class DL_Op<string mnemonic, list<Trait> traits = []>
    : Op<DL_Dialect, mnemonic, traits>;

#endif // DL_DIALECT_DL_IR_DLDIALECT_TD
