//===- Passes.td - dl loop transformations -----------------*- tablegen -*-===//
//
// Passes that shape the code of dl ops for microkernels: the GEMM blocks and
// packed operands of dl.matmul (on dl ops), and on the affine loop nests the
// lowering produces, default tiling of GEMM bands, the parallel outer loop,
// and outlining of GEMM bands to microkernel calls.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_PASSES_TD
#define DL_DIALECT_DL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def Bufferize : Pass<"dl-bufferize", "::mlir::ModuleOp"> {
  let summary = "Turn a tensor program into the buffer form the dl passes optimize";
  let description = [{
    The dl layer ops take ranked tensors as well as memrefs; the dl passes
    and the lowering run on memrefs. Where the module holds tensors, this
    pass runs MLIR's bufferization on it: `one-shot-bufferize` (across
    function boundaries, identity layouts on the signatures), then
    `drop-equivalent-buffer-results` (a result that is an argument's buffer,
    the `outs` tensor of a dl op, is dropped: the caller's argument holds
    it), `buffer-results-to-out-params` (a result in a new buffer becomes an
    argument the caller passes, appended after the others) and the buffer
    deallocation pipeline. A tensor function therefore becomes a function on
    memrefs without results, the form `dl-compile` runs and emits:

    ```mlir
    func.func @gemm(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>,
                    %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
      %r = dl.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
      return %r : tensor<64x16xf32>
    }
    // becomes
    func.func @gemm(%a: memref<64x32xf32>, %b: memref<32x16xf32>,
                    %c: memref<64x16xf32>) {
      dl.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
                outs(%c : memref<64x16xf32>)
      return
    }
    ```

    A module without tensors is left as it is. Both pipelines start with
    it; every other dl pass rejects dl ops on tensors with an error that
    names this one.
  }];
}

def SetTarget : Pass<"dl-set-target", "::mlir::ModuleOp"> {
  let summary = "Describe the machine dl compiles for, once, on the module";
  let description = [{
    Writes `dl.target = #dl.target<...>` on the module: the width of the
    microkernels' vector registers, the batch-reduce bound, and the cache
    levels and memory (capacities, latencies, bandwidths) the ranking, the
    tile solver and the microkernel calls' shapes use. Every other dl pass
    reads it; a module without one is compiled for this machine. The
    values start from the module's target if it has one, else from this
    machine (its widest vector registers, its cache capacities from sysfs,
    default latencies and bandwidths); a machine file (`dl-probe`) replaces
    the caches and memory, then the options below override single values.
    Both pipelines start with it, from their options of the same names.
  }];
  let dependentDialects = ["::mlir::dl::DLDialect"];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Width of the microkernels' vector registers in bits (0: keep, "
           "or this machine's: 512 with AVX-512F, 256 with AVX2)">,
    Option<"cacheSizes", "cache-sizes", "std::string", /*default=*/"\"\"",
           "Cache capacities, e.g. L1=48K,L2=1M,L3=32M">,
    Option<"machineFile", "machine-file", "std::string", /*default=*/"\"\"",
           "Machine file written by dl-probe (capacities, latencies, "
           "bandwidths)">,
    Option<"maxBatchBytes", "max-batch-bytes", "int64_t",
           /*default=*/"-1",
           "Most bytes of A and B blocks one batch-reduce kernel call reads "
           "(0: no bound; -1: keep, or 256 KiB)">
  ];
}

def InsertSizeChecks : Pass<"dl-insert-size-checks", "::mlir::func::FuncOp"> {
  let summary = "Check the dynamic size relations of each dl op at run time";
  let description = [{
    Every size relation of a dl op (`SizeRelations.h`: K of A equals K of
    B, the output size a convolution implies, a per-channel vector's length,
    ...) that involves a dynamic size becomes a run-time check right before
    the op: a `cf.assert` whose message names the op's location and the
    relation, so that inconsistent sizes stop the program before its loops
    read or write out of bounds. The verifier has checked the static
    relations; a relation of a size with itself (an in-place op) needs no
    check. Both pipelines run it before `convert-dl-to-affine`; a fully
    static function is left unchanged.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def ParametricVersioning
    : Pass<"dl-parametric-versioning", "::mlir::func::FuncOp"> {
  let summary = "Run ops with a dynamic batch size as static versions of themselves";
  let description = [{
    Every schedule decision of `dl-to-llvm` (layouts, blocks and
    remainders, ranking and tile sizes, panels, parallelism, microkernels)
    needs static sizes, so an op with dynamic sizes runs as plain loops,
    two orders of magnitude slower than the static op. This pass versions each `dl.matmul` and `dl.conv2d` whose only
    dynamic sizes are the outermost dimension of its operands (M of a GEMM
    with A not transposed, N, the images, of a convolution) on that size S,
    a parameter: the op becomes static copies of itself on subviews, of
    power-of-two sizes, each scheduled for exactly its own size by the rest
    of the pipeline.

    ```mlir
    affine.for %i = 0 to affine_map<()[s0] -> (s0 floordiv T)>()[%S]
      // the version of T rows at %i * T  {dl.version = {size = T}}
    affine.if affine_set<()[s0] : (s0 mod T - T/2 >= 0)>()[%S]
      // the version of T/2 rows at S - S mod T
    ...
    affine.if affine_set<()[s0] : (s0 mod 2 - 1 >= 0)>()[%S]
      // the version of 1 row at S - 1
    ```

    Every S >= 0 runs `S floordiv T` chunk versions and one version per set
    bit of `S mod T`, which cover its rows exactly once; the guards are
    symbol-only `affine.if`s, each testing one constraint (one bit of S), so
    none is tested twice on a path. Each version carries `dl.version`
    (parameter, size); the chunk loop `dl.version_chunks`. The chunk T is
    the smallest power of two whose version does 2^27 floating-point
    operations (about a millisecond on one core; what a version repeats, a
    packing of B or of the filter and a parallel region, stays a few
    percent of it), and at most 2^(max-versions - 1): `max-versions` caps
    the number of distinct versions (static shapes) of one op.

    A GEMM's versions would each pack B for themselves (a 509-row GEMM has
    8 versions). Where its chunk version would pack B (B not transposed,
    with more than one block of columns, N and K with good blocks, not a
    narrow GEMM), the versions for S >= 64 (a block of rows) share one copy
    of B packed into the blocked layout (`dl.pack`, blocks as
    `dl-pack-gemm-operands` would choose them) and read it in place; the
    guard carries `dl.version_shared_pack = array<i64: bn, bk>`. Below 64
    rows, where the static GEMM reads B in place (one
    block of rows reads each block of B once), the versions read it in
    place too: versions of 32, 16 and 8 rows, then one version of exactly
    `S mod 8` rows (a chain of guards over 7 to 1), so a batch below 8 is
    one version, as fast as its static build. With
    the shared B and `threads` > 1, a remainder of 3 to 7 rows (`S mod 8`) runs
    as one version of
    8 rows (`dl.version = {padded, ...}`) on zero-padded copies of its rows of
    A and C (C's only when the GEMM accumulates), copied back after it: one
    read of B and one parallel region instead of up to three; 2 rows stay
    one version (padded, 4x the work). On one thread the versions of each
    bit stay (no parallel region to save).

    Ops with other dynamic sizes keep the generic version, with a remark
    under `report-fallbacks` saying why: a dynamic inner size is a leading
    dimension of the rows above it, and the static versions' microkernels
    take static leading dimensions; a dynamic K is a reduction. A GEMM's
    generic version is blocked: `pack_blocks` of the microkernel's rows and
    columns (64 x 64 at 512-bit vectors) and 128 along K, each bounded by a
    static size, with `pad_blocks`, `pack_a`, `pack_b`, `pack_c` and
    `batch_blocks` (`max-batch-bytes` of A and B blocks per call):
    `convert-dl-to-affine` copies the operands into blocks whose last ones
    are partial, and `dl-outline-microkernels` dispatches the kernels of
    the partial blocks with their run-time sizes, so every block runs a
    microkernel whatever the sizes. Where every size
    may be at most 128, a plain copy of the GEMM runs instead, on one thread,
    under a guard of its own (`dl.version_guard`; the copy carries
    `dl.version_context`): its nest is one GEMM band, which
    `dl-outline-microkernels` turns into one kernel call on the operands in
    place, with run-time sizes and leading dimensions, as the static build
    runs these sizes (the blocked version's copies cost more than the
    product). With a
    transposed operand or `alpha` (no GEMM band), the bound is 12 and the
    copy's loops run with its columns innermost. A convolution is blocked by
    `dl-block-conv-layouts` (dynamic channels padded to whole blocks, its
    output rows in blocks of 128 columns, the last one's kernels dispatched
    with its run-time rows). Other generic ops (a convolution fused with an
    epilogue) are lowered to plain loops. Static ops are left unchanged.
    Run the size checks (`dl-insert-size-checks`) before it: the versions
    are static.

    With `threads` > 1, the generic version is versioned on occupancy (R-Stream's
    placement test, ../shared/docs/papers/002-parametric-versioning.md
    §2.2): its nests loop over the output's dimensions, outermost first, and
    the first whose trip count t keeps the threads busy (`t >= c * threads`,
    `c` = `occupancy` = a/b iterations per thread) runs in parallel
    (`dl.parallel_depth`). A static t decides the test; a dynamic one is
    assumed to pass, and a version for the context where it fails
    (`a * threads - b * t - 1 >= 0`) tries the next dimension; the last is
    sequential (`dl.sequential`). A blocked GEMM's loops run over blocks of
    C (t = ceil(S / block)), a blocked convolution's over images, blocks of
    output channels and rows; a block is microkernels' work: two per
    thread are enough (c = 2, whatever `occupancy`; a partial last block
    then idles a thread for less of the run), and the context where the
    test fails is `(2 * threads - 1) * block - S >= 0`; a GEMM's copies
    into and out of the packed blocks run on one thread (a parallel region
    each cost more than they saved). Each version carries its context
    (`dl.version_context`, an integer set on the dynamic output sizes); the
    guards selecting the most specialized version that holds are built as
    a tree that never tests a constraint twice on a path, or as a chain
    (`guards`).

    ```mlir
    // GEMM, M, N and K dynamic, 2 threads, occupancy 4
    affine.if affine_set<()[s0, s1] : (-s0 + 7 >= 0)>()[%M, %N] {
      affine.if affine_set<()[s0, s1] : (-s1 + 7 >= 0)>()[%M, %N] {
        dl.matmul ... {dl.sequential, dl.version_context = ...}
      } else {
        dl.matmul ... {dl.parallel_depth = 1, dl.version_context = ...}
      }
    } else {
      dl.matmul ... {dl.parallel_depth = 0, dl.version_context = ...}
    }
    ```
  }];
  let options = [
    Option<"maxVersions", "max-versions", "int64_t", "13",
           "Most distinct versions (static sizes) of one op: chunks of at "
           "most 2^(max-versions - 1)">,
    Option<"reportFallbacks", "report-fallbacks", "bool", "false",
           "Remark on each dynamic op left to the generic version, and why">,
    Option<"threads", "threads", "int64_t", "0",
           "Threads the generic versions' parallel loop is sized for (0 or 1: "
           "no occupancy versions)">,
    Option<"occupancy", "occupancy", "std::string", "\"4\"",
           "Iterations per thread a parallel loop needs, a or a/b">,
    Option<"guards", "guards", "std::string", "\"auto\"",
           "How the occupancy versions' guards are arranged: tree, chain, or "
           "auto (the tree unless its longest path evaluates more constraints "
           "than the chain's or it has over 64 tests)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def BlockConvLayouts : Pass<"dl-block-conv-layouts", "::mlir::func::FuncOp"> {
  let summary = "Run plain-layout convolutions in the blocked layout";
  let description = [{
    Rewrites every `dl.conv2d` in the plain layout (`NCHW` input, `KCRS`
    filter) into `dl.pack` of its input and filter into
    fresh buffers in the blocked layouts (`NCHW{c}c`, `KCRS{c}c{k}k`), the
    same convolution on them, and `dl.unpack` of its result into the
    original output. Only the blocked form has the batch-reduce GEMM band
    (a `c x k` block of the filter times `c`-vectors of the input, summed
    over input-channel blocks and filter taps) that
    `dl-outline-microkernels` calls LIBXSMM for; the plain form stays a
    loop nest, tens of times slower on ResNet-50 layers. The copies cost one
    read and one write of each tensor, small next to the convolution's
    `2 * R * S * C` flops per output element.

    The blocks are the largest divisors of `C` and `K` not above `block-c`
    and `block-k`; `block-k` is the microkernel's vector dimension. Both
    default (0) to four vector registers of `vector-bits` per row (0: the
    host's widest), as `block-n` of `dl-pack-gemm-operands`: 32 channels
    with AVX2 and 64 with AVX-512. A channel count
    above the limit whose largest divisor is below half of it (a prime,
    twice a prime) is padded instead: the packs zero the last block's
    padding channels (`dl.pack`), the unpack drops the padding output
    channels. `C` then takes the fewest blocks of equal size (67: 2 of
    34); `K` the block with the fewest blocks among those within 10% of the
    fewest vector registers per row (67: 5 blocks of one vector, not 2 of
    34, which take 6). A kernel call's
    register tile is the output row's columns times the block's vectors,
    and one of fewer than 8 accumulators waits on the FMAs' latency: with
    short rows a block counts as 8 / columns registers per row at least
    (112 channels with 3-column rows: 2 blocks of 56, not 7 of 16).
    Each batch element of a call (an input-channel block and a tap) has a
    fixed cost of about 2 vector FMAs per row against its input-channel
    block's FMAs per vector, which favours fewer, wider blocks for a few
    input channels (71 output channels from one: 2 blocks of 48). The
    measurements behind these choices are in `docs/heuristics.md`,
    *Convolution blocks*.

    A grouped convolution (`groups`) takes blocks that hold whole groups:
    blocks of one group (the divisor of its output channels up to `block-k`
    that fills the most lanes), or vectors of `block-k / 4` output channels
    holding several whole groups, with the input channels of their groups
    as input blocks and a block-diagonal filter (`dl.pack`'s `groups`),
    when their lanes do at least as much useful work; the blocked
    convolution's `groups` are then groups of channel blocks; blocks of
    several groups of as many input as output channels (static sizes) get
    `group_lanes`, lowered in register tiles with permuted input vectors
    instead of a GEMM band on the block-diagonal filter. The dense
    convolution producing a grouped one's input writes its input blocks
    when they are whole vectors of at most `block-k` channels
    (`docs/heuristics.md`, *Grouped convolutions*).

    A convolution with a few output channels (under half of a vector's
    lanes, `block-k / 4`; with masked partial vectors and a unit column
    stride, under a whole vector's) whose output rows fill more of their
    vectors than its channels would stays plain, marked `pixel_vectors`: it
    is lowered
    with the output pixels of a row as the vector dimension (see
    `dl.conv2d`; `docs/heuristics.md`, *Shapes outside the lists*).
    Otherwise (a
    row of one column, or rows of a dynamic width) it is blocked, with a
    remark; without one where its rows are shorter than what
    `dl-im2col-convs` runs as a GEMM on the input windows (fewer than 5
    pixels, or 5-7 of deep windows whose copy fits the L2; a copy of at
    most 64 MiB: `runsAsWindowGemm`), rows too short
    for pixel vectors as well (88 -> 2 channels in rows of 3 pixels: 45 us
    as pixel vectors, 12.6 as that GEMM).

    Any size may be dynamic (`dl-parametric-versioning` leaves such a
    convolution as its generic version): the blocked copies are allocated
    at the plain buffers' sizes, dynamic channels take blocks of the limit
    (`ceil(C / block)` of them, the last one padded), and
    `convert-dl-to-affine` runs an output row of a dynamic width in blocks
    of 128 columns whose last one's kernels take their rows at run time. A
    version's occupancy decision (`dl.parallel_depth`, `dl.sequential`)
    goes to the copies of its activations too.

    Between convolutions the activations stay blocked. Along each block's
    ops, the pass tracks which plain buffers have an up-to-date blocked copy
    (made by a pack or an unpack, until either is written otherwise; a
    write of a buffer that is not allocated in the function also ends the
    copies of all such buffers, since arguments may alias). An op that
    treats each channel alike (`relu`, `relu6`, `add`, `bias_add`,
    `batch_norm_inference`, `max_pool2d`, `avg_pool2d`,
    `depthwise_conv2d`, whose filter is the same in both layouts) whose
    activation operands all have copies runs on the copies instead (in
    place when the op is; not batch norm on padded copies, whose padding
    channels its per-channel vectors do not cover; a `bias_add` of a
    static bias reads a copy of it with zeros for the padding channels)
    and its result is unpacked into its destination;
    a convolution's pack of a buffer with a copy reads the copy instead (a
    filter used twice is packed once). Then unpacks overwritten before
    anything may read their destination, and writes of local buffers that
    nothing reads afterwards, are erased, so a bottleneck block
    conv -> BN -> ReLU -> conv -> ... -> add -> ReLU written in the plain
    layout runs blocked from one pack of its input to one unpack of its
    result. Scratch buffers are freed after their last use.

    ```mlir
    dl.conv2d ins(%in, %f : memref<1x64x56x56xf32>, memref<64x64x3x3xf32>)
              outs(%out : memref<1x64x56x56xf32>) {padding = ...}
    // becomes
    %in_blocked = memref.alloc() : memref<1x2x56x56x32xf32>
    dl.pack ins(%in : ...) outs(%in_blocked : ...)
    %f_blocked = memref.alloc() : memref<2x2x3x3x32x32xf32>
    dl.pack ins(%f : ...) outs(%f_blocked : ...)
    %out_blocked = memref.alloc() : memref<1x2x56x56x32xf32>
    dl.conv2d ins(%in_blocked, %f_blocked : ...) outs(%out_blocked : ...)
    dl.unpack ins(%out_blocked : ...) outs(%out : ...)
    memref.dealloc ...
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"blockC", "block-c", "int64_t", /*default=*/"0",
           "Largest block of input channels (the microkernel's reduction; "
           "0: four vector registers)">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"0",
           "Largest block of output channels (the vector dimension; 0: four "
           "vector registers)">
  ];
}

def KeepConstantPacks : Pass<"dl-keep-constant-packs", "::mlir::ModuleOp"> {
  let summary = "Pack weights once, not on every call";
  let description = [{
    A `dl.pack` of a function argument marked `dl.constant` (a model's
    weights: its contents stay the same as long as its address does) into
    a local buffer of static shape packs into a private `memref.global`
    instead, and only when the argument's address differs from the one it
    was last packed from (kept in a second global): the first call packs,
    the next ones read the packed copy. A network's filters are then read
    once per call, by the convolutions, instead of three times (pack read,
    pack write, convolution). Packs of other buffers, and of dynamic shapes,
    are left as they are. Calls of one function that run at the same time
    must pass the same constants.

    ```mlir
    func.func @f(%w: memref<64x64x3x3xf32> {dl.constant}, ...) {
      %p = memref.alloc() : memref<1x1x3x3x64x64xf32>
      dl.pack ins(%w : memref<64x64x3x3xf32>) outs(%p : memref<1x1x3x3x64x64xf32>)
    // becomes
    memref.global "private" @__dl_packed_f_0 : memref<1x1x3x3x64x64xf32>
    memref.global "private" @__dl_packed_f_0_source : memref<1xindex> = dense<0>
    func.func @f(...) {
      %p = memref.get_global @__dl_packed_f_0 : memref<1x1x3x3x64x64xf32>
      scf.if <the address of %w differs from @__dl_packed_f_0_source[0]> {
        dl.pack ins(%w : ...) outs(%p : ...)
        <store the address of %w in @__dl_packed_f_0_source[0]>
      }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def FoldLayoutTransposes
    : Pass<"dl-fold-layout-transposes", "::mlir::func::FuncOp"> {
  let summary = "Read and write layout copies through transposed views, not "
                "transposed copies";
  let description = [{
    A convolution raised from an NHWC `linalg` convolution
    (`convert-linalg-to-dl`) reads a `linalg.transpose` of its input and
    filter into NCHW / KCRS buffers, and its result is transposed back to
    NHWC. Once `dl-block-conv-layouts` has run it in the blocked layout,
    those buffers are only read by a `dl.pack` and written by a `dl.unpack`,
    which read and write any strided layout. The pass folds each such
    transpose into the layout copy next to it: the `dl.pack` reads a
    `memref.transpose` view of the transpose's source, the `dl.unpack`
    writes a `memref.transpose` view of its destination, and the transposed
    buffer and its copy are gone. An NHWC activation then goes to and from
    the blocked layout in one copy each way, its channels read and written
    contiguously.

    ```mlir
    linalg.transpose ins(%x : memref<1x28x28x128xf32>) outs(%t : memref<1x128x28x28xf32>) permutation = [0, 3, 1, 2]
    dl.pack ins(%t : memref<1x128x28x28xf32>) outs(%p : memref<1x2x28x28x64xf32>)
    // becomes
    %v = memref.transpose %x (d0, d1, d2, d3) -> (d0, d3, d1, d2) : memref<1x28x28x128xf32> to memref<1x128x28x28xf32, strided<[100352, 1, 3584, 128]>>
    dl.pack ins(%v : ...) outs(%p : memref<1x2x28x28x64xf32>)
    ```

    A transpose is folded only where that is the same computation: its
    buffer is a local allocation that nothing else reads or writes (the
    layout copies and deallocations aside), and between the transpose and
    the copies nothing writes memory other than local allocations (which
    cannot alias the transposed operand), nor reads it on the output side.
    Every other transpose is left as it is (it lowers to loops).
  }];
}

def FoldFilterColumns : Pass<"dl-fold-filter-columns", "::mlir::func::FuncOp"> {
  let summary = "Fold a few-channel convolution's filter columns into its channels";
  let description = [{
    A blocked `dl.conv2d` whose input channels are one block of `c` runs
    microkernel calls whose batch elements are its `R x S` filter taps, each
    `c` multiply-adds deep per output pixel and channel. With a few input
    channels and a narrow output-channel block `k` (`c` times the 16-float
    vectors of `k` under 8 vector FMAs per pixel), or short output rows
    (those FMAs times the output columns, a call's rows, under 64), the
    elements' fixed cost (offsets, pointers, loop) outweighs their work,
    unless the copy below would not fit the target's L2, where writing it
    and reading it again costs more than the elements save. The pass then
    folds the filter's
    `S` columns into the channels: a copy of the input holds, at each output
    column, the `S` pixels its filter row covers,
    `copy[n][0][h][ow][s * c + ch] = input[n][0][h][ow * stride_w + s *
    dilation_w - pad_left][ch]` (zero outside the image; an affine nest into
    a 64-byte aligned buffer, freed after the convolution), the filter is
    viewed as one column of `S * c` channels (`memref.collapse_shape` and
    `expand_shape`: the same memory), and the convolution runs on them with
    unit column stride and dilation and no column padding: `S` times fewer
    batch elements, each `S` times deeper. The copy is `S / stride_w` times
    the input, small against the work of the convolutions it applies to
    (`2 K R` multiply-adds per copied float).

    The threshold's evidence: `docs/heuristics.md`, *Folded filter
    columns*.

    It runs after `dl-block-conv-layouts` and before the other layout passes
    and the ranking, which see the folded convolution. Only static sizes
    with identity layouts, without a schedule or `skip_padding_columns`.

    ```mlir
    dl.conv2d ins(%in, %f : memref<1x1x9x9x2xf32>, memref<1x1x3x3x2x16xf32>)
              outs(%out : memref<1x1x7x7x16xf32>)
    // 2 x 16 = 32 multiply-adds per tap and pixel: it becomes
    %copy = memref.alloc() {alignment = 64 : i64} : memref<1x1x9x7x6xf32>
    affine.for %n = 0 to 1 { ... affine.for %ch = 0 to 2 {
      %x = affine.load %in[%n, 0, %h, %ow + %s, %ch] : memref<1x1x9x9x2xf32>
      affine.store %x, %copy[%n, 0, %h, %ow, %s * 2 + %ch] : memref<1x1x9x7x6xf32>
    } ... }
    %j = memref.collapse_shape %f [[0], [1], [2], [3, 4], [5]] : ...
    %f1 = memref.expand_shape %j [[0], [1], [2], [3, 4], [5]] ...
        : memref<1x1x3x6x16xf32> into memref<1x1x3x1x6x16xf32>
    dl.conv2d ins(%copy, %f1 : memref<1x1x9x7x6xf32>, memref<1x1x3x1x6x16xf32>)
              outs(%out : memref<1x1x7x7x16xf32>)
    memref.dealloc %copy : memref<1x1x9x7x6xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ReduceConvStrides : Pass<"dl-reduce-conv-strides", "::mlir::func::FuncOp"> {
  let summary = "Run blocked strided 1x1 convolutions at unit stride on a dense copy where strided reads waste cache lines";
  let description = [{
    A blocked pointwise `dl.conv2d` (1x1 filter, no padding) with strides
    reads one pixel in `stride_h * stride_w`, and each of its `K / k`
    output-channel blocks re-reads those pixels. The microkernels read them
    in place (`lda = stride_w * c`) at no loss when a pixel's channel block,
    `c` elements, fills whole cache lines: the lines of the skipped pixels
    and rows are never fetched. A narrower block shares its lines with the
    skipped pixels, so each re-read fetches `F = min(line, stride_w * P)`
    bytes per pixel it uses `P = c * element size` of. The pass then weighs
    the re-reads' waste, `(K / k) * (F - P)`, against a copy's own traffic,
    `F + P` (reading the strided pixels once, writing them dense), and where
    the waste is more gives the convolution a dense copy of the pixels it
    reads, `copy[n][cb][oh][ow][c] = input[n][cb][oh * stride_h][ow *
    stride_w][c]` (an affine copy nest into a 64-byte aligned buffer, freed
    after the convolution), and sets its strides to 1, as oneDNN's "reduce to
    unit stride". A dynamic count of output-channel blocks is taken as many
    (the copy when `F > P`). The copy has `(H - 1) / stride_h + 1` rows (and
    likewise columns), so it reads in bounds whatever the run-time sizes of
    a dynamic convolution; the output's sizes are checked against the
    copy's when the convolution is lowered.

    It runs on the dl op, before `dl-merge-conv-rows` and the ranking, so
    both see the unit-stride convolution (whose short rows the former then
    merges). Evidence: `docs/heuristics.md`, *Reduced strides*.

    A plain `pixel_vectors` pointwise convolution (a few output channels,
    vectorized along output columns) with strides gets the same dense copy
    (`copy[n][c][oh][ow]`) where its output rows are shorter than the
    strided vectors that read them, `(max(OW, 16) - 1) * stride_w >= W`:
    its lowering would otherwise copy a zero-padded window of whole input
    rows per row tile, and the copy at unit stride lets its rows join into
    one.

    Either copy runs on one thread (its outer loop `dl.sequential`) unless
    the convolution's work pays for a parallel region (the time model of
    `dl-decide-parallelism`), as `dl-fold-filter-columns`'s.

    ```mlir
    dl.conv2d ins(%in, %f : memref<1x8x14x14x8xf32>, memref<4x8x1x1x8x8xf32>)
              outs(%out : memref<1x4x7x7x8xf32>) {strides = array<i64: 2, 2>}
    // 32-byte pixels, 4 re-reads: 4 * (64 - 32) > 64 + 32, so it becomes
    %copy = memref.alloc() {alignment = 64 : i64} : memref<1x8x7x7x8xf32>
    affine.for %n = 0 to 1 { ... affine.for %c = 0 to 8 {
      %x = affine.load %in[%n, %cb, %oh * 2, %ow * 2, %c] : memref<1x8x14x14x8xf32>
      affine.store %x, %copy[%n, %cb, %oh, %ow, %c] : memref<1x8x7x7x8xf32>
    } ... }
    dl.conv2d ins(%copy, %f : memref<1x8x7x7x8xf32>, memref<4x8x1x1x8x8xf32>)
              outs(%out : memref<1x4x7x7x8xf32>) {strides = array<i64: 1, 1>}
    memref.dealloc %copy : memref<1x8x7x7x8xf32>
    ```
  }];
  let options = [
    Option<"cacheLineBytes", "cache-line-bytes", "int64_t", /*default=*/"64",
           "Bytes of a cache line">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def FuseEpilogues : Pass<"dl-fuse-epilogues", "::mlir::func::FuncOp"> {
  let summary = "Fuse element-wise ops into the convolution, GEMM or batch "
                "normalization that writes their input";
  let description = [{
    Reduction-aware fusion (PolyDL's Algorithm 3 on buffers): an element-wise
    op may run on each element of a producer's output as the producer
    completes it only where that computes what running it afterwards does.
    For each `dl.conv2d`, `dl.matmul`, `dl.batch_norm_inference` and
    `dl.batch_norm_training`, the pass looks at the next op of the block
    that uses the producer's output buffer and fuses it when

    * it is `dl.bias_add`, `dl.add`, `dl.batch_norm_inference` (after a
      convolution), `dl.relu` or `dl.relu6`, reading the whole buffer the
      producer writes whole (the same value, or, for a convolution that
      runs on a view of its output as `dl-merge-conv-rows` leaves it, the
      buffer under that view; its residual then gets the same view) — the
      producer writes every element once and last, so each element the
      consumer reads is complete when the epilogue sees it: a reduction is
      never fused before it is complete;
    * it writes that buffer in place, or a buffer of the same shape that
      the producer can write instead: the producer's buffer is then a
      `memref.alloc` of the function that nothing else reads (its dealloc
      aside);
    * nothing between the two ops reads or writes the buffer or the
      consumer's output, writes the consumer's other operands, or has
      effects the pass cannot see (a call); the other operands are defined
      before the producer.

    The fused ops are erased and recorded on the producer: a convolution's
    or GEMM's `epilogue` steps and `epilogue_operands` (applied per output
    tile or block of C after its last reduction step; a GEMM's channels are
    its columns), a batch normalization's `activation`
    (`dl.relu`/`dl.relu6` only: its statistics need the whole input before
    any output, so nothing else fuses into it). Chains fuse step by step.
    A `dl.batch_norm_training` that reads a blocked convolution's output
    (static sizes) keeps its normalization but takes its statistics from
    the convolution: the pass allocates a `row_statistics` buffer that the
    convolution writes per output tile and the batch normalization merges,
    so the output is read once after it is written instead of twice.
    With `report-fallbacks`, every such consumer left unfused gets a remark
    saying why.

    ```mlir
    dl.conv2d ins(%in, %f : ...) outs(%out : memref<1x2x56x56x32xf32>)
    dl.bias_add ins(%out, %bias : ...) outs(%out : ...)
    dl.relu ins(%out : ...) outs(%out : ...)
    // becomes
    dl.conv2d ins(%in, %f : ...) outs(%out : memref<1x2x56x56x32xf32>)
        epilogue(%bias : memref<64xf32>)
        {epilogue = [#dl.post_op<bias_add>, #dl.post_op<relu>]}
    ```
  }];
  let options = [
    Option<"reportFallbacks", "report-fallbacks", "bool", "false",
           "Remark on every element-wise consumer of a convolution or batch "
           "normalization left unfused, with the reason">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MergeConvRows : Pass<"dl-merge-conv-rows", "::mlir::func::FuncOp"> {
  let summary = "Merge the short output rows of blocked 1x1 convolutions";
  let description = [{
    A blocked pointwise `dl.conv2d` (1x1 filter, stride 1, no padding)
    reads and writes whole rows of its activations, so `g` consecutive
    output rows of a channel block form one contiguous `(g * OW) x k`
    matrix, and so do the input rows they read. The microkernel of a
    convolution computes one output row per call (`M = OW`): for the 7- and
    14-pixel rows of ResNet-50's last stages, its register tiles are left
    mostly idle and each call re-reads its filter blocks for 7 rows only.
    For such a convolution without a `schedule`, the pass merges `g` rows
    into one: the convolution runs on views of its input and output
    (`memref.collapse_shape` of H and W, then `memref.expand_shape` into
    `H/g x (W*g)`; no copy), so each call computes `g * OW` rows. `g` is the
    smallest divisor of the output height whose merged rows are at least
    `min-rows` pixels long (all rows when none is; the default's evidence:
    `docs/heuristics.md`, *Merged rows*).
    Activations with a strided layout (views whose rows need not be
    contiguous) are left as they are.

    ```mlir
    dl.conv2d ins(%in, %f : memref<1x64x7x7x32xf32>, memref<16x64x1x1x32x32xf32>)
              outs(%out : memref<1x16x7x7x32xf32>)
    // becomes
    %0 = memref.collapse_shape %in [[0], [1], [2, 3], [4]] : ... into memref<1x64x49x32xf32>
    %1 = memref.expand_shape %0 [[0], [1], [2, 3], [4]] output_shape [1, 64, 1, 49, 32] : ...
    %2 = memref.collapse_shape %out ...
    %3 = memref.expand_shape %2 ... into memref<1x16x1x49x32xf32>
    dl.conv2d ins(%1, %f : memref<1x64x1x49x32xf32>, ...) outs(%3 : memref<1x16x1x49x32xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let options = [
    Option<"minRows", "min-rows", "int64_t", /*default=*/"32",
           "Output rows shorter than this many pixels are merged">
  ];
}

def Im2colConvs : Pass<"dl-im2col-convs", "::mlir::func::FuncOp"> {
  let summary = "Run convolutions whose output rows are too short for the microkernels as one GEMM on a copy of their input windows";
  let description = [{
    The microkernel of a blocked `dl.conv2d` computes one output row per
    call: a block of C of `OW` rows of `ceil(kb / lanes)` vectors (`kb` the
    output-channel block, `lanes` the target's floats per vector), each
    vector an FMA chain. With fewer than `min-vectors` chains the FMA
    latency is not hidden, and each call does little work for its
    overhead: a 2-image 464 -> 7-channel 5x5 convolution of stride 2 whose
    output rows are 2 pixels ran at 3.9 GFLOPS on one core, its GEMM of
    72 x 7 x 11600 at 45. For such a convolution with one output-channel
    block, the filter (`1 x CB x R x S x cb x kb`) is already a row-major
    `(CB * R * S * cb) x kb` matrix and the output (`N x 1 x OH x OW x kb`)
    a row-major `(N * OH * OW) x kb` one. The pass copies the input windows
    each output pixel reads into a `(N * OH * OW) x (CB * R * S * cb)`
    buffer, zeros where they read padding (im2col: an affine nest whose
    inner loop copies `cb` consecutive floats), and replaces the
    convolution with a `dl.matmul` of the copy and views of the filter and
    output (`memref.collapse_shape`, no copy), which the GEMM passes then
    block, pack and run in parallel as any GEMM.

    A convolution whose rows hold 5 to 7 vectors of at most half a vector's
    lanes of output channels each (a pixel vector or a row of its kernels
    then fills 5-7 of the lanes) runs so as well where its windows are deep,
    at least 256 floats (input channels times filter taps), and their copy
    fits the target's L2 (`runsDeepWindowsAsGemm`; a 176 -> 3-channel 3x3
    convolution of stride 2 on a 9x9 image, rows of 5: 16 -> 11 us on one
    Zen 5 core, oneDNN 8.9; docs/heuristics.md, *Shapes outside the lists*).

    Only blocked convolutions with static sizes, one output-channel block,
    one group, an identity layout of filter and output and no epilogue,
    schedule or `skip_padding_columns` are considered, and not unpadded
    pointwise ones at unit stride (`dl-merge-conv-rows` joins their rows
    without a copy). A copy of more than `max-copy-bytes` is refused (with
    `report-fallbacks`, a remark says so). The copy's nest is marked
    `dl.sequential` where the convolution's work does not pay for a
    parallel region (`copiesInParallel`, as for the copies of
    `dl-fold-filter-columns` and `dl-reduce-conv-strides`), which
    `dl-parallelize-outer-loops` leaves as it is. Run after `dl-merge-conv-rows`,
    before the GEMM passes (`dl-split-gemm-remainders`).

    ```mlir
    dl.conv2d ins(%in, %f : memref<2x8x40x7x58xf32>, memref<1x8x5x5x58x7xf32>)
              outs(%out : memref<2x1x18x2x7xf32>) {strides = array<i64: 2, 2>}
    // becomes
    %windows = memref.alloc() : memref<72x11600xf32>
    affine.for %n = 0 to 2 { ... affine.for %c = 0 to 58 { ... } }
    %filter = memref.collapse_shape %f [[0, 1, 2, 3, 4], [5]] : ... into memref<11600x7xf32>
    %pixels = memref.collapse_shape %out [[0, 1, 2, 3], [4]] : ... into memref<72x7xf32>
    dl.matmul ins(%windows, %filter : memref<72x11600xf32>, memref<11600x7xf32>)
              outs(%pixels : memref<72x7xf32>)
    memref.dealloc %windows : memref<72x11600xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"minVectors", "min-vectors", "int64_t", /*default=*/"5",
           "Convolutions whose microkernel block of C holds fewer vectors "
           "than this run as a GEMM (5: rows of 1-4 pixels of one "
           "vector; with 5-9 the copy cost as much as it gained or more, "
           "docs/heuristics.md)">,
    Option<"maxCopyBytes", "max-copy-bytes", "int64_t",
           /*default=*/"67108864",
           "Largest copy of the input windows made (bytes)">,
    Option<"reportFallbacks", "report-fallbacks", "bool", /*default=*/"false",
           "Emit a remark on each convolution with short rows refused">
  ];
}

def SkipPaddingColumns : Pass<"dl-skip-padding-columns", "::mlir::func::FuncOp"> {
  let summary = "Decide which padded convolutions skip their padding columns";
  let description = [{
    A blocked `dl.conv2d` with left or right padding reads, by default, a
    copy of its input with zero columns beside each row, and its
    microkernels multiply those zeros: with a 3x3 filter and padding 1, 2 of
    the `3 * OW` column products of an output row, 9.5% of the work on a
    7x7 output. With `skip_padding_columns` (which this pass sets) the
    lowering splits the filter columns into runs whose taps read the input
    at the same output columns and gives each run a nest over those columns
    only: nothing is multiplied by padding and the copy is gone, but each
    run beyond the first is one more microkernel call per output row, which
    loads and stores that row's accumulators again.

    The pass weighs the two per output row, output-channel vector and filter
    row (the smallest batch a call may have) of an image and input-channel
    block: skipped products, `c * (S * OW - sum over runs of taps *
    columns)` with `c` the input-channel block, plus the skipped copy, whose
    `H * (W + left + right) * c / V` vectors (`V` floats each) are loaded and
    stored once and shared by the `OH * R * KV` output rows, filter rows and
    output-channel vectors that read it, `c-pass-cost * H * (W + left +
    right) * c / V / (OH * R * KV) / share`, against the extra accumulator
    passes, `c-pass-cost * (sum over runs of columns - OW)`, and sets the
    attribute where the skipped work is more. A pass loads and stores one
    vector in the L1 (one 512-bit store per cycle on the machines measured,
    where two FMAs issue per cycle: `c-pass-cost` 2 FMAs; `docs/heuristics.md`,
    *Skipped padding columns*); the copy sweeps the whole input and writes
    the whole copy, at `share` of the L1's bandwidth: that of the fastest
    level of the target (`dl-set-target`) that holds both, else memory's.
    The copy matters where few output channels share it (16 or
    17 of them: a 162 -> 17 channel 179x179 3x3 convolution at stride 2 ran
    53.7 ms with the copy, 35.1 without, oneDNN 32.3); with 64 output
    channels a 56x56 3x3 convolution keeps it. Only convolutions with
    static sizes qualify.

    ```mlir
    dl.conv2d ins(%in, %f : memref<1x8x7x7x64xf32>, memref<8x8x3x3x64x64xf32>)
              outs(%out : memref<1x8x7x7x64xf32>)
              {padding = array<i64: 1, 1, 1, 1>}
    // becomes
    dl.conv2d ins(%in, %f : ...) outs(%out : ...)
              {padding = array<i64: 1, 1, 1, 1>, skip_padding_columns}
    ```
  }];
  let options = [
    Option<"cPassCost", "c-pass-cost", "double", /*default=*/"2.0",
           "FMAs one load and store of an accumulator vector costs">
  ];
}

def SplitGemmRemainders
    : Pass<"dl-split-gemm-remainders", "::mlir::func::FuncOp"> {
  let summary = "Split GEMMs whose sizes have no good block into full blocks and remainders";
  let description = [{
    `dl-pack-gemm-operands` computes C in blocks that divide M, N and K, so
    that one statically sized microkernel serves every block. A size whose
    largest divisor up to the block limit is small (a prime: 1) would make
    every block that small (`docs/heuristics.md`, *Shapes outside the
    lists*). This pass splits each
    static `dl.matmul` along every dimension whose largest divisor up to its
    limit is below half the limit into a main part of whole blocks of the
    limit and one remainder below it, and rewrites the op as one
    `dl.matmul` per combination of parts on `memref.subview`s of its
    operands: up to 8 GEMMs, each with full blocks (the remainder's block is
    the remainder itself; LIBXSMM dispatches kernels for any m, n, k). A
    split along K accumulates: the parts after the first take `beta = 1`.
    Sizes up to the limit, and sizes with a divisor of at least half the
    limit (300 = 5 x 60 for 64), are not split; K, whose block only sets
    the step of a batch-reduce call while a K part is another pass over C,
    already with a divisor of a quarter of the limit (141 = 3 x 47). With a blocked B only M is
    split (B's blocks fix N's and K's). A narrow GEMM (N up to 16, not
    streamed, B's K x N within half a 1 MiB L2) is not split along K, which
    `dl-pack-gemm-operands` makes one block of whole rows of A, and its M
    limit is that of those blocks: 32 rows, 8 when A's rows are a multiple
    of 1 KiB apart. So is a narrow remainder of a wider N's split: its M
    parts are split again by that limit (47 x 77 x 93: 47 x 64, 32 x 13
    and 15 x 13; in one part of 47 rows, whose only divisor up to 32 is 1,
    the 13 columns took blocks of one row and the GEMM ran 18 us, against
    5.4 split, oneDNN 6.1, one Emerald Rapids core).

    On a target without masked partial vectors (AVX2,
    `Target::masksPartialVectors`), N beyond one block is split into whole
    vectors (split as above in units of vectors) and the rest of a vector,
    which `dl-pack-gemm-operands` pads to one (2047 columns: 2040 in blocks
    of 24 and 7), for GEMMs of at least 2^16 FLOPs: LIBXSMM's AVX2 kernels
    compute a partial vector in 4-, 2- and 1-float pieces (23-column blocks
    ran at a third of the speed of 24-column ones). On such a target, a
    GEMM whose N within one block does not fill whole vectors, whose B is
    larger than its C (K >= M) and whose microkernel passes over B in at
    most 4 register tiles reads B in place instead of a zero-padded copy:
    a `memref.reinterpret_cast` views B as rows of whole vectors, each read
    on into the next row, over all rows but the last few (whose vectors
    would read past B's last element); that GEMM writes a padded scratch C
    (`beta = 0`), the last rows are a GEMM of their own into C (with
    `beta`), and a `dl.add` adds the scratch's first N columns to C
    (3x11x4095 on a Zen 3 core: 9 us against 29 with B copied). With
    masked partial vectors (AVX-512), a GEMM or part of one row of C whose
    N is a partial vector (not a power of two) with at least 96 rows of B
    is read the same way: LIBXSMM's kernels of one row and one masked
    vector run at a quarter of a whole vector's speed (1x11x983 on a Zen 5
    core: 4.3 us, 1.4 in whole vectors; `readsOneRowInWholeVectors`).

    With `pad`, an op that would be split (but for a blocked B or a narrow
    GEMM, whose operands are read in place) stays whole instead: it gets
    `pad_blocks` and `pack_blocks` of one block per limit along each split
    dimension, rounded up (167 = 3 x 56 - 1), and the divisor along the
    others; A and B are packed, zero-padded to whole blocks, and C is
    computed in a packed buffer when bm or bn does not divide M or N. One
    op then means one kernel shape, one packing and one parallel region,
    against up to 8 of each; but it packs operands the parts would read in
    place and copies C in and out. Measured on the Zen 5 (median of 5
    interleaved runs, ms, split against padded): 167x359x577 0.50 / 0.60
    at one thread, 0.45 / 0.48 at two; 1409x174x519 1.99 / 2.80 and 1.33 /
    1.63; 30x2049x793 0.93 / 1.56 and 0.71 / 1.59 (it packs the 6.5 MB B
    that the parts read in place); 65x4095x270 1.67 / 1.68 and 1.18 / 1.31.
    Splitting is the default.

    The limits are those of `dl-pack-gemm-operands` by default: four vector
    registers of `vector-bits` along N (64 with AVX-512), a 16 KiB block of
    C along M (64 rows), and `block-k` (128) along K. Parts are written
    M-major, then N, then K, so every part of C is complete before the next
    is started.

    ```mlir
    dl.matmul ins(%a, %b : memref<67x20xf32>, memref<20x64xf32>)
              outs(%c : memref<67x64xf32>)
    // becomes, M = 67 = 64 + 3:
    %a0 = memref.subview %a[0, 0] [64, 20] [1, 1] : ...
    %c0 = memref.subview %c[0, 0] [64, 64] [1, 1] : ...
    dl.matmul ins(%a0, %b : ...) outs(%c0 : ...)
    %a1 = memref.subview %a[64, 0] [3, 20] [1, 1] : ...
    %c1 = memref.subview %c[64, 0] [3, 64] [1, 1] : ...
    dl.matmul ins(%a1, %b : ...) outs(%c1 : ...)
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let options = [
    Option<"blockM", "block-m", "int64_t", /*default=*/"0",
           "Block limit along M (0: a 16 KiB block of C)">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"0",
           "Block limit along N (0: four vector registers)">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"128",
           "Block limit along K">,
    Option<"pad", "pad", "bool", /*default=*/"false",
           "Pad the blocks instead of splitting, where the operands can be "
           "packed (see the description)">
  ];
}

def PackGemmOperands : Pass<"dl-pack-gemm-operands", "::mlir::func::FuncOp"> {
  let summary = "Choose GEMM blocks and which operands to copy into packed blocks";
  let description = [{
    For every `dl.matmul` with static sizes, sets `pack_blocks` (bm, bn, bk:
    the largest divisors of M, N, K not above `block-m`, `block-n`,
    `block-k`; a blocked B, packed ahead of time, gives bn and bk and is
    read in place) and decides which operands the lowering copies into
    contiguous blocks (`pack_a`, `pack_b`). A microkernel reading a block of
    a large row-major operand touches one cache line per row, rows a leading
    dimension apart: with power-of-two leading dimensions these lines fall
    into a few L1 sets and evict each other, and every row is another TLB
    page. Packing costs one read and one write of the operand, and pays off
    when the kernel reads each block many times: A's blocks are read N/bn
    times, B's M/bm times. `block-n` is the microkernel's vector dimension:
    it defaults (0) to four vector registers of `vector-bits` per row (0:
    the host's widest), 32 columns with AVX2 and 64 with AVX-512, and
    `block-m` (0) to the rows that make a 16 KiB block of C, 128 and 64
    (`docs/heuristics.md`, *GEMM blocks and packing*). On a target without
    masked partial vectors (AVX2), `bn` is a whole number of vectors: the
    largest multiple of a vector dividing N, or, for an N within one block
    that does not fill its last vector (dl-split-gemm-remainders' rest of
    a vector, a narrow GEMM), N padded to whole vectors with `pad_blocks`
    (B and C copied into zero-padded blocks, A read in place), for GEMMs of
    at least 2^16 FLOPs. An operand whose blocks are not already
    contiguous is packed when it is read at least `min-reuse` times, or more
    than once with a row stride that is a multiple of 1 KiB (rows then share
    a few L1 sets, and the kernel calls after the first read the block from
    the L2). A block that one kernel call reads stays in place whatever its
    stride where the call's register tiles are long (AVX-512: they re-read
    it from the L2 at worst, which costs less than a copy of the operand,
    done before the calls on one thread); with short tiles (AVX2: 3-4 rows
    of C), a B block whose rows put more lines into an L1 set than it has
    ways (`conflictsInL1`) and that is read 4 times or more is packed, as
    is, with any tiles, a B block read 4 times or more whose rows of one or
    two 64-byte lines lie a number of floats apart that is not a whole
    number of lines (`straddlesLines`: each row touches a line more). With
    long tiles, a B block read in place whose fullest L1 set holds more
    than twice the ways of its lines (`l1SetOverload`: N = 2047 gives rows
    4 bytes short of 8 KiB apart) is two vectors wide where that takes
    fewer register tiles to cover its rows of C (15 rows a tile against 7
    at four vectors with AVX-512) and leaves B in place. An
    A larger than the L2 read in place in blocks of part rows whose M has
    no good block up to `prefetch-streams` (a prime) is packed rather than
    blocked by single rows; with blocks of C two AVX-512 vectors wide (two FMAs a
    vector per element of A, too few to hide a stream's misses) such an A
    takes at most 12 rows a block where M has a divisor from 8 up
    (23409x32x180 on a Zen 5 core: 74-78 GFLOPS in blocks of 27 rows, 145
    in blocks of 9). The stride is that of the operand a part belongs to
    (dl-split-gemm-remainders' subviews). Operands are always packed when
    transposed (the microkernel reads row-major operands) or, for A, when
    `alpha` is not 1 (the copy applies it). A B that is a whole function
    argument marked `dl.constant` (a model's weights), not transposed, whose
    blocks would not be contiguous in place (bn < N), is instead copied into
    blocks by a `dl.pack` before the GEMM, which then reads the blocked B:
    `dl-keep-constant-packs` makes that copy once, on the first call
    (`docs/heuristics.md`, *Constant weights of a GEMM*).

    An A read in place whose blocks take part of each row (bk < K) is read
    as bm memory streams at once, one per row, a leading dimension apart.
    The hardware's stream prefetchers track a bounded number of streams (32
    in Intel's L2 streamer), and rows past that are fetched at memory
    latency: for an A larger than the L2, bm is then at most
    `prefetch-streams`; an A within the L2 is read in blocks of any rows.

    A B in place larger than the L2 that one block of rows of C reads once
    (bm = M, not re-read enough to pack), of fewer than 8 rows (from 8 on
    the kernels' register tiles matter more than the order B is read in)
    unless B's rows conflict in the L1 or N was kept whole, is read in
    blocks of whole rows (bk, for a B of more than 16 L2s: the largest
    divisor of K up to 16 rows, at least 4, one K block a call
    (`batch_blocks` = 1); for a nearer B: the largest divisor of K up to
    512 / M rows, that limit kept within 32 to 128, and at least 32) as wide as C's block
    keeps in half the L1, up to half of N, when that is at least 128
    columns or all of an N kept whole (`dl-split-gemm-remainders`): the
    calls then read B's rows
    in long runs, as the prefetchers stream them, instead of walking down K
    in 128-byte pieces of rows kilobytes apart (8x1024x2048 on a Zen 3
    core: 0.6-1.1 ms against 2.8-3.7). Shallower blocks cost a batch-reduce
    step per few FMAs, deeper ones run more row streams than the
    prefetchers follow, which costs where B comes from memory (2x4095x2825
    on a Zen 5 core: 1.56-1.74 ms in blocks of 5 rows, 2.57 of 113; oneDNN
    2.3-2.6) and not from nearer (1x892x1698: 0.073 ms with 66 rows, 0.087
    with 6).

    A GEMV-like GEMM (not transposed; N up to a quarter of a vector's
    lanes, or up to half of them with K of at least 128: 4 and 8 with
    AVX-512, where 6 to 8 columns also need at least 2 N rows of A, 4 N
    once B's transposed copy exceeds half the L1, but for 6-7 columns of one
    or two rows; without masked partial vectors, up to all but one lane, 7
    with AVX2, where 8 fill the kernels' vectors) gets `stream_a` instead
    of blocks: the
    lowering reads A once in 16-float vectors along K (see `dl.matmul`).
    A narrow GEMM (N up to 16, one AVX-512 register per row of C, and B's
    K x N block within half a 1 MiB L2) that does not stream A takes one
    block over all of K (bk = K), A read in place: its blocks are then whole
    rows of A, contiguous, each read once (there is one block column), so
    packing A or splitting K would only add passes over A and C. Its rows
    per block are at most 32 (the streams the prefetchers track) and 8 when
    A's rows are a multiple of 1 KiB apart (they would share a few L1 sets).
    A is packed only for `alpha`, B only when transposed.

    It also sets `batch_blocks` when one kernel call of the default loop
    order, which reduces over all K/bk blocks, would read more than
    `max-batch-bytes` of A and B blocks: the largest divisor of K/bk whose
    blocks fit (at least 1). LIBXSMM's batch-reduce kernel runs the whole
    batch inside each of its register tiles, so a batch larger than the L2
    is fetched from memory once per register tile (the default 256 KiB is
    half a 512 KiB L2).

    With more than one call per block of C (`batch_blocks` below K/bk) and
    blocks narrower than C (bn < N), it sets `pack_c`: the lowering computes
    C in contiguous bm x bn blocks, copied in right before each tile's K
    loops and back right after them. Every call loads and stores its block
    of C, whose rows in place are N floats apart, each in another 4 KiB
    page, where the hardware prefetchers do not run ahead; a packed block is
    one sequential stream. `dl-rank-variants` decides `pack_c` again for
    the schedule it picks. The measurements behind each of these rules are
    in `docs/heuristics.md`, *GEMM blocks and packing*.
  }];
  let options = [
    Option<"blockM", "block-m", "int64_t", /*default=*/"0",
           "Largest block along M (rows of C; 0: a 16 KiB block of C)">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"0",
           "Largest block along N (columns of C, the vector dimension; 0: "
           "four vector registers)">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"128",
           "Largest block along K (the reduction)">,
    Option<"minReuse", "min-reuse", "int64_t", /*default=*/"2",
           "Pack an operand whose blocks are read at least this many times">,
    Option<"prefetchStreams", "prefetch-streams", "int64_t",
           /*default=*/"32",
           "Most rows of an A block read in place when its blocks take part "
           "of each row (0: no bound)">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def RankVariants : Pass<"dl-rank-variants", "::mlir::ModuleOp"> {
  let summary = "Choose each heavy op's loop schedule by a polyhedral working-set ranking";
  let description = [{
    For every `dl.conv2d` (blocked, static sizes) and `dl.matmul` (with
    `pack_blocks`) that has no `schedule` yet, generates the variants of its
    outer loops: every order of its dimensions, every tiling of one
    dimension by divisor tiles (the tile loop outermost, the point loop
    innermost; a GEMM's K blocks, the microkernel's batch, by at most its
    `batch_blocks` when C is computed in packed blocks, `pack_c`), each of
    these with a convolution's input-channel blocks
    tiled just inside its outermost loop (so the loops inside reuse a slice
    of the filter or of the input that a cache level can hold; only when one
    microkernel call over all of them would read more than `max-batch-bytes`
    of blocks: splitting the batch adds calls, each reloading its block of
    the output, which the costs below do not see), and with
    `threads` > 1 the parallel loop (the outermost
    non-reduction loop with at least `threads` iterations;
    `dl-decide-parallelism` weighs the picked schedule's loops again, and
    whether it pays to run in parallel at all; `docs/heuristics.md`,
    *Variant ranking: evidence*).
    Each variant is
    lowered in a scratch module and analyzed with isl on its loops, GEMM
    band included (`WorkingSetAnalysis`). The cheapest becomes the op's
    `#dl.schedule`, which `convert-dl-to-affine` applies; a GEMM's
    `pack_c` is decided again for it (as in `dl-pack-gemm-operands`: C in
    packed blocks when a block of C takes more than one microkernel call).

    Two costs (`cost`):
    - `traffic` (default): the reuse profile. Every access is classified by
      the loop that carries the next use of its element; for each array and
      carrying loop the analysis counts the accesses and measures the reuse
      distance (distinct bytes touched in between, as in PolyDL's
      Algorithm 1, from the class's first access to its next use). Each
      class is served by the fastest level whose capacity holds its distance
      (the last level's capacity divided among `threads`), first touches by
      memory, and the cost is the sum of bytes / bandwidth per level. It
      counts how often a working set is re-read: a panel streamed 64 times
      costs 64 times as much. The last level's share is a probe of a cache
      other cores use, which varies by 2x between runs: each variant is
      also costed at half of it, and its cost is the worse of the two.
    - `working-sets`: PolyDL as published. The working sets of every
      dependence (Algorithm 1: WS_min, WS_max, or WS_par across the
      parallel loop) are assigned to the levels by Algorithm 2 and eq. 1
      sums WS * latency / bandwidth. Each working set counts once, however
      often it is re-read; on GEMMs whose whole-problem working sets
      dominate, orders that stream a panel 16 or 64 times cost almost alike.

    Costs within 1% of the cheapest are ties. At `threads` > 1, when a
    GEMM's cheapest variant runs fewer than two iterations per thread in
    parallel (both threads then read all of B, packed before the loop), the
    cheapest tied variant whose parallel loop has two per thread goes
    first. Convolutions keep the cheapest: their images in parallel, one per
    thread, share only the filter. The measurements behind these rules are
    in `docs/heuristics.md`, *Variant ranking: evidence*.

    Cache capacities are this machine's (sysfs), or a `machine-file`'s
    (written by `dl-probe`, with latencies and bandwidths), with
    `cache-sizes` on top (for cross-compiling). Defaults: latencies 4 / 14 /
    50 / 300 cycles and bandwidths 64 / 32 / 16 / 8 bytes per cycle for L1 /
    L2 / L3 / memory. `report` writes every variant with its reuse classes
    (or working sets), bytes per level and cost as JSON. Variants are analyzed in parallel on
    the context's threads. A count that exceeds isl's operation bound
    (`isl-max-operations`) becomes the bounding box's count: the ranking
    still completes, and the op gets a remark saying how many variants were
    approximated.

    With `solver-candidates`, the solver proposes and the ranking decides:
    MOpt's data-movement model is solved by Ipopt as in
    `dl-solve-tile-sizes` and its rounded candidates (`solver-candidates`
    of them, best first) join the generated variants, analyzed and costed
    like them; the cheapest of all becomes the schedule. The report marks
    each variant's `source` (`ranking` or `solver`).

    Ops alike (same attributes, operand types and epilogue) are ranked once
    per run. With `cache-dir`, each decision is also kept on disk
    (`DiskCache`), keyed by the op as text, the target, these options and
    the build of dl and host CPU, and a later run takes it from there
    instead of ranking again (not with `report`, which needs every
    variant). `progress` prints a line per op to stderr: its place, its
    location and whether it was ranked (with the time), like an op before
    it, or taken from the cache.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads of the generated code (above 1, variants choose a "
           "parallel loop)">,
    Option<"solverCandidates", "solver-candidates", "unsigned",
           /*default=*/"0",
           "Rounded candidates of the tile solver (MOpt's model, Ipopt) that "
           "join the variants (0: none)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the ranking of every op as JSON to this file">,
    Option<"tilesPerDim", "tiles-per-dim", "unsigned", /*default=*/"2",
           "Divisor tiles tried per dimension">,
    Option<"islMaxOperations", "isl-max-operations", "unsigned long",
           /*default=*/"2000000",
           "isl operations allowed per working-set count; past it the count "
           "is the bounding box's (with a remark); 0 never enumerates">,
    Option<"cost", "cost", "std::string", /*default=*/"\"traffic\"",
           "Variant cost: 'traffic' (bytes each level supplies over the run, "
           "from the reuse profile) or 'working-sets' (PolyDL's eq. 1)">,
    Option<"cacheDirectory", "cache-dir", "std::string", /*default=*/"\"\"",
           "Keep each op's schedule in this directory and take it from there "
           "in later runs (empty: no disk cache)">,
    Option<"progress", "progress", "bool", /*default=*/"false",
           "Print a line per ranked op to stderr">
  ];
  // The dialects of the scratch lowering of each variant.
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SolveTileSizes : Pass<"dl-solve-tile-sizes", "::mlir::ModuleOp"> {
  let summary = "Choose multi-level tiles and loop orders with MOpt's model, solved by Ipopt";
  let description = [{
    For every `dl.conv2d` (blocked, static sizes) and `dl.matmul` (with
    `pack_blocks`) that has no `schedule` yet, builds the analytical
    data-movement model of its loop nest (MOpt: per-tensor reuse, expand
    and spill across tile loops, stride and dilation included) over the
    levels registers (the microkernel's 6 x 16 block), L1 (one batch
    element of the batch-reduce microkernel: the op's channel or GEMM
    blocks, fixed), and every further cache level (free tiles of n, k, c, h
    for a convolution, i, j, k for a GEMM, multiples of the blocks), with
    memory outermost. Ipopt minimizes the bandwidth-scaled bottleneck
    `max_l DV^l / BW^l` under the capacities, for every combination of
    non-dominated loop orders (see `TileSolver.h` for the epigraph and
    lexicographic formulation); the tiles are rounded to nested divisors
    and the best rounding becomes the op's `#dl.schedule` (the loops of
    each level outermost-first in the level's order; with `threads` > 1
    the outermost level's tile of one non-reduction dimension is split
    over the threads and that loop is the parallel one).
    `dl.tile_bottleneck` records the modeled bottleneck level.

    Capacities and bandwidths come from the machine (sysfs and the default
    bandwidths) or a `machine-file` (from `dl-probe`), with `cache-sizes`
    on top. If Ipopt does not converge (or `max-iterations=0`), a greedy
    heuristic grows the tiles from the blocks instead, with a remark.
    `report` writes each op's problem, relaxed optimum, rounded candidates
    with their per-level volumes, and solve time as JSON.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads of the generated code (above 1, the outermost tile of "
           "one dimension is split over them)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write each op's tile problem and solution as JSON to this file">,
    Option<"maxIterations", "max-iterations", "unsigned", /*default=*/"200",
           "Ipopt iterations per solve (0 forces the heuristic fallback)">,
    Option<"candidates", "candidates", "unsigned", /*default=*/"4",
           "Rounded candidates kept per op (in the report)">
  ];
}

def DecidePanels : Pass<"dl-decide-panels", "::mlir::func::FuncOp"> {
  let summary = "Decide which packed GEMM operands are copied in the nest, a batch at a time";
  let description = [{
    Sets `panel_a` / `panel_b` on each scheduled `dl.matmul` with `pack_a` /
    `pack_b` (and no `pad_blocks`) whose operand `convert-dl-to-affine` can
    copy inside the nest, one microkernel batch of blocks at a time, into a
    panel scratch (`dl::choosePanels`): where the loops outside the copy
    that do not index the operand (j for A, i for B) run once, so each block
    is still copied once; where some call re-reads the scratch (a loop over
    that dimension runs between the copy and the calls; a panel copied right
    before the one call that reads it gains nothing over the packed copy,
    whose reads stream whole rows: per-call copies of B's 128-byte row
    pieces made a 128x2048x4096 GEMM 16% slower at 2 threads); and where
    one batch's blocks hold at most 1 MiB, so they stay in a core's caches.
    The calls then re-read the panel from cache and the packed blocks never
    go to memory (6-8% faster on an 8192x1024x1024 GEMM at 1 and 2 threads,
    whose A panels of 4 blocks of 128 x 128 32 calls re-read). Other
    operands are left to the packed copy of the whole operand before the
    nest. Run after the schedule is chosen (`dl-rank-variants` or
    `dl-solve-tile-sizes`); a panel inside the schedule's parallel loop is
    private to each iteration. `dl-decide-parallelism`, which knows the
    threads, adds private panels whose copy runs inside a parallel loop
    that does not index the operand, once per thread.
  }];
}

def DecideParallelism : Pass<"dl-decide-parallelism", "::mlir::ModuleOp"> {
  let summary = "Decide which loop of each dl op runs in parallel, or whether it runs on one thread";
  let description = [{
    With `threads` > 1, decides for every dl op with static sizes whether
    its work keeps the threads busy enough to pay for parallel regions,
    and for a heavy op with a `#dl.schedule` which of its loops runs in
    parallel. A parallel region costs a fork and a join (`fork-join-us`),
    and a loop whose iterations do not divide among the threads leaves
    some idle (R-Stream's occupation test, `trip(loop) >= c * threads`,
    made a comparison of times; the cost of a region is 1.3 times the
    target's `fork_join_ns`, an empty region's time that `dl-probe`
    measures, where the machine file has it):

    - `t1`, the op's time on one thread: its FLOPs (`getFlops`, as
      `dl-compile --bench` counts them) at `core-gflops` (by default the
      target's: 200 GFLOPS per 512 bits of vector width), or its operands'
      bytes at `core-bandwidth`, whichever is longer. Operands of more
      bytes than the target's L2 come from memory, at `core-bandwidth`
      times the target's memory bandwidth over its L1's (12.5 GB/s with
      the defaults, 64 and 8 bytes/cycle). A blocked GEMM runs
      at the share of `core-gflops` its calls reach: the lanes of its `bn`
      columns filled, times `bk / (bk + 7)` (each call loads and stores its
      block of C, about 7 steps' worth); a streamed GEMM (`stream_a`) at
      0.4 of it; a blocked convolution on the lanes its output-channel
      block fills; a `pixel_vectors` convolution at half of it on the lanes
      its rows fill;
    - a scheduled op's loop of trip count `T` over a non-reduction
      dimension, below loops making `O` iterations, in an op whose lowering
      has `E` more top-level nests (packing and padding copies, each a
      region of its own; so is an input copy an earlier pass made for it,
      unless it runs on one thread): `t1 * ceil(T / threads) / T + (O + E) *
      fork-join-us`. The loop with the least time is taken, the outermost
      of equals, so a loop too short to occupy the threads (1 or 3
      iterations at 2 threads) gives way to an inner one;
    - an op without a schedule, whose `E` nests each run their outer loops
      in parallel (`dl-parallelize-outer-loops` coalesces enough of them to
      keep the threads evenly busy): `t1 / threads + E * fork-join-us`.

    - a GEMM with `pack_blocks` (static sizes, a plain B, no padding, no
      epilogue) may instead divide its `B` K blocks among the threads
      (`split_k`, which `dl-split-k` applies): `t1 * (floor(B / threads)
      + B mod threads) / B + fork-join-us` plus, per thread but the first,
      its copy of C handed over at `handoff-bandwidth` and added to C (C
      read and written, the copy read, at `core-bandwidth`). It is taken
      at `margin` times the best loop's time or less (of `t1` when no loop
      is taken): GEMMs of one block of rows and columns over a long K, or
      whose few column blocks leave a thread idle.
    - a GEMM whose schedule (the ranking's order, by one thread's traffic)
      runs its loop over M (`i`, not tiled) inside another, where no loop
      is taken or the best one forks once per iteration of the loops
      outside it, gets that loop moved outermost and in parallel (its
      panels decided again for the new order) where that is modeled at
      most 0.97 times the time of the best loop (`margin` times `t1` when
      none is taken): each thread then writes whole rows of C in one region, where
      a loop over N in parallel divides every row of C and an inner loop
      forks once per outer iteration (368x1066x6 at 2 threads: 0.080 ->
      0.050 ms, oneDNN 0.041).
    - a GEMM whose rows are fewer blocks than threads (`dl-pack-gemm-operands`
      chooses blocks for one thread: often one block of all of M, as in
      the parts of a GEMM split along N) gets its block of rows divided:
      the largest divisor of M up to M / threads, of at least 8 rows, its
      loop over them outermost and in parallel, where that is modeled at
      most 0.97 times the best loop's time or, for a GEMM of at least 32
      FLOPs per element of C, `margin` times `t1`. Every thread then reads
      all of B; a B larger than the L2 costs each thread its bytes at the
      memory's bandwidth (64x190x219 at 2 threads, parts of 128 and 62
      columns: 40 -> 25-29 us, oneDNN 27; docs/heuristics.md, *Parallelism
      model*).
    - a GEMM whose parallel loop leaves a packed operand read whole by
      every thread gets its panels decided again for the threads: where
      each thread runs one iteration of the loop, the operand's blocks are
      copied by each thread for itself inside it (private `panel_a` /
      `panel_b`) instead of once for all before the nest, whose copy the
      threads would read from each other's cores. A point loop over M of
      `threads` x c iterations whose B is read so is tiled to one tile per
      thread, its point loop moved right outside the batch's K loop
      ([i, j, k] becomes [i:c, j, i, k]), where B's handed-over copy is at
      least 8% of the loop's modeled time (120x300x900 at 2 threads: 0.28
      -> 0.20 ms, oneDNN 0.17; docs/heuristics.md, *Private panels*).
    - a GEMM that packs A only to re-read it (not transposed, `alpha` 1,
      rows not a multiple of 1 KiB apart, A within the L2, no padded
      blocks) reads A in place (`pack_a` and `panel_a` dropped, with a
      remark) where its loop over N then runs in parallel and that is
      modeled faster than its best loop with A packed: every thread reads
      all of A, from the copy one thread made or from lines both cores keep
      (37x94x344 at 2 threads: 120 -> 310 GFLOPS, oneDNN 180;
      docs/heuristics.md, *Private panels*).

    When the best time is above `margin` times `t1`, the op runs on one
    thread: it gets the unit attribute `dl.sequential` (and its schedule no
    parallel loop), which `convert-dl-to-affine` carries onto every nest it
    lowers the op to, and `dl-parallelize-outer-loops` leaves those nests
    sequential; so are the copies made for it (a convolution's input copy,
    a GEMM's im2col A), which it would otherwise read from the other
    cores' caches (a 36x2600x3 im2col GEMM took 64 us at 2 threads with its
    copy in parallel, 29 with it on one thread). Otherwise a scheduled op's `parallel` is the chosen loop,
    and a convolution's input copy made by an earlier pass, where that loop
    is over the images or the output rows, runs in parallel over the same
    dimension (its loop over it moved outermost and marked `dl.parallel`),
    so each thread copies about what it then reads; such a copy hands
    nothing over in the model.
    `E` is counted on a scratch lowering of the op. Ops with dynamic sizes
    and ops already marked `dl.sequential` are left as they are. With
    `report-fallbacks`, a remark on each op made sequential or run in
    parallel on another loop than the outermost one with at least
    `threads` iterations gives the modeled times.

    A thread reads a buffer whole unless the loop's iterations divide its
    reads (then its share of the iterations), and the bytes handed between
    threads are moved at `handoff-bandwidth`. A GEMM's loop over N divides
    every row of C between the threads: each row whose boundary falls
    inside a cache line shares that line, at `shared-line-us` a line.
    Each thread but the first writes its part of the output right after
    the previous thread's part: its lines within 256 KiB of that boundary
    cost `near-line-us` each as both write them, weighted by `1 - f / 128`
    for `f` FLOPs per output element (none from 128 on: the work hides the
    writes). The cost is the target's `near_write_line_ns`, which `dl-probe`
    measures, where the machine file has it: on the 2-core Zen 5 VM it is
    about 3 ns in some hours, where a GEMM of a few K steps whose C is a few
    hundred KB is faster on one thread (1879x32x3: 2.3 us on one thread,
    8.0 on two), and under 0.5 ns in others, where such GEMMs run 1.5-2x
    faster on two. With a loop over N, the pieces of each row but the first
    thread's count where they are shorter than a page (the prefetchers run
    ahead into the next thread's piece), `piece-line-us` each, weighted by
    `1 - f / 32` (743x128x3: 22 us at 2 threads divided so, 7-10 on one
    thread).
    Where B is read in place, row-major and from memory (larger than the
    threads' L2s together), and each thread's
    columns of a row are less than a 4096-byte page, the prefetchers
    (which stop at page boundaries) restart on every piece: the loop takes
    at least B's bytes at the memory bandwidth however many threads read
    them (a 9x664x3534 GEMM took 2.2-2.4 ms at 2 threads, 1.3 on one,
    0.73 with `split_k`, whose threads read whole rows). A
    GEMM part made sequential (`dl-split-gemm-remainders`' columns of the
    same rows of C as another part) whose neighbour runs its outermost row
    loop in parallel runs its own row loop in parallel too where that gives
    each thread the same rows, so that each thread writes the rows whose
    cache lines it holds. The defaults and the
    measurements they come from are in `docs/heuristics.md`, *Parallelism
    model*.

    ```mlir
    dl.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>)
              outs(%c : memref<64x64xf32>)
              {pack_blocks = array<i64: 64, 64, 64>,
               schedule = #dl.schedule<[i, j, k]>}
    // t1 = 2.6 us; no loop has 2 iterations: at 2 threads it becomes
    dl.matmul ins(%a, %b : ...) outs(%c : ...)
              {dl.sequential, pack_blocks = array<i64: 64, 64, 64>,
               schedule = #dl.schedule<[i, j, k]>}
    ```
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads of the generated code (1: nothing runs in parallel, the "
           "pass does nothing)">,
    Option<"coreGflops", "core-gflops", "double", /*default=*/"0.0",
           "GFLOPS one core runs a GEMM or a convolution at (0: the "
           "target's, 200 per 512 bits of vector width)">,
    Option<"coreBandwidth", "core-bandwidth", "double", /*default=*/"100.0",
           "GB/s one core moves an element-wise op's operands at">,
    Option<"forkJoinMicros", "fork-join-us", "double", /*default=*/"-1.0",
           "Microseconds one parallel region costs (fork and join); -1: "
           "1.3 times the target's fork_join_ns (dl-probe's measurement of an "
           "empty region), or 1.5 where it has none">,
    Option<"handoffBandwidth", "handoff-bandwidth", "double",
           /*default=*/"10.0",
           "GB/s a thread reads data at that another thread wrote before">,
    Option<"sharedLineMicros", "shared-line-us", "double", /*default=*/"0.01",
           "Microseconds a cache line costs that two threads write in one "
           "region (a row of C divided between them off a line boundary)">,
    Option<"nearLineMicros", "near-line-us", "double", /*default=*/"-1.0",
           "Microseconds a line of an op's output costs that a thread writes "
           "within 256 KiB of another thread's part in one region, at no "
           "work per element (less with more work: none from 128 FLOPs an "
           "element); -1: the target's near_write_line_ns (dl-probe's "
           "measurement), or 0.003 where it has none">,
    Option<"pieceLineMicros", "piece-line-us", "double", /*default=*/"0.003",
           "Microseconds a line costs of a thread's piece of a GEMM's row of "
           "C shorter than a page, where a loop over N divides every row, at "
           "no work per element (none from 32 FLOPs an element)">,
    Option<"margin", "margin", "double", /*default=*/"0.9",
           "Run in parallel only when the modeled time is at most this "
           "fraction of the time on one thread">,
    Option<"reportFallbacks", "report-fallbacks", "bool", /*default=*/"false",
           "Emit a remark for each op run on one thread or on another "
           "parallel loop than the outermost long enough for the threads">
  ];
  // The dialects of the scratch lowering (convert-dl-to-affine's).
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SplitK : Pass<"dl-split-k", "::mlir::func::FuncOp"> {
  let summary = "Divide the K blocks of GEMMs marked split_k among the threads";
  let description = [{
    Applies the `split_k = t` that `dl-decide-parallelism` records on a
    `dl.matmul` whose loops over M and N cannot keep the threads busy: the
    GEMM becomes an `affine.parallel` over t equal chunks of its K blocks
    (`floor(K/bk / t)` each), each chunk a `dl.matmul` on subviews of A and
    B at its offset, chunk 0 into C with the GEMM's beta, chunk i > 0 into
    copy i - 1 of a scratch `(t - 1) x M x N` buffer with beta 0. After
    the loop, a `dl.add` per copy adds it to C, and a last `dl.matmul`
    (beta 1) computes the K blocks the equal chunks leave over into C. The
    parts keep the GEMM's blocks, packing and schedule order (the tiles of
    `k` reduced to divide a chunk, `batch_blocks` to its largest divisor of
    a chunk's blocks) and carry `dl.sequential`: each runs on the thread
    its iteration runs on. `dl-to-llvm` runs it right after
    `dl-decide-parallelism`.

    ```mlir
    dl.matmul ins(%a, %b : memref<49x4096xf32>, memref<4096x38xf32>)
              outs(%c : memref<49x38xf32>)
              {pack_blocks = array<i64: 49, 38, 128>, split_k = 2 : i64, ...}
    // becomes
    %s = memref.alloc() : memref<1x49x38xf32>
    affine.parallel (%t) = (0) to (2) {
      // A[:, 2048 t : 2048 t + 2048], B[2048 t : 2048 t + 2048, :]
      affine.if (%t == 0) { dl.matmul ... outs(%c ...) {dl.sequential, ...} }
      else { dl.matmul ... outs(%s[t - 1] ...) {dl.sequential, ...} }
    }
    dl.add ins(%c, %s[0] ...) outs(%c ...) {dl.sequential}
    memref.dealloc %s : memref<1x49x38xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TileGemmBands : Pass<"dl-tile-gemm-bands", "::mlir::func::FuncOp"> {
  let summary = "Tile GEMM bands to microkernel size in the default loop order";
  let description = [{
    Tiles every loop band tagged `dl.gemm_band` whose loops run more than
    `max-block` iterations, with `affine` tiling
    (`tilePerfectlyNested`), as in PolyDL's *Microkernel* baseline (later
    passes choose better schedules). Each tile size is the
    largest divisor of the loop's trip count not above `max-block`, so every
    tile is full and one microkernel of static sizes covers all of them.
    The tag moves to the outermost intra-tile loop, and a band's
    `dl.sequential` (its op runs on one thread) to the outermost tile loop.
    The tile loops over C's rows and columns go first (`permuteLoops`):
    above the perfectly nested loops around the band that do not index C (a
    convolution's input-channel blocks and filter taps) and above the tile
    loop of the reduction, so that those loops enclose the band directly
    and `dl-outline-microkernels` makes them the call's batch-reduce (a tile
    of C stays in registers over its whole reduction). The zero fill of C
    right before the band, when it covers exactly what the band writes,
    moves into the tile loops over C, one block per tile, so that each call
    may skip reading C (beta = 0); an index of C the fill and the band
    compute alike from loops outside both (a merged convolution's row
    `2 * oh + r`) matches as well. A GEMM's bound on its calls' batch (its
    `batch_blocks`, put on the band as `dl.max_batch` by the lowering)
    limits the loops around taken into the batch to the innermost ones whose
    iterations stay within it: the others stay outside the tile loops over
    C, which then walk the columns of one K block after another (B's rows in
    memory order), and the fill stays before them (`docs/heuristics.md`,
    *GEMM blocks and packing*, "How many rows").
    A trip count whose largest such divisor is below half of `max-block` (a
    prime output width would give kernels of one row) is first split: the
    perfect nest that ends in the band (its outer loops are the
    microkernel's batch) is copied, the first copy runs whole tiles of
    `max-block`, the second the remainder (`docs/heuristics.md`, *Shapes
    outside the lists*); a split over C splits the fill. Bands with dynamic
    trip counts are left
    untouched.
  }];
  let options = [
    Option<"maxBlock", "max-block", "int64_t", /*default=*/"128",
           "Largest tile size along each GEMM dimension (the bands "
           "dl-pack-gemm-operands blocks are left whole with the defaults)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def ParallelizeOuterLoops
    : Pass<"dl-parallelize-outer-loops", "::mlir::func::FuncOp"> {
  let summary = "Run the outer parallel loops of each nest as one parallel loop";
  let description = [{
    For each loop nest at the top of a function: the perfectly nested outer
    loops that carry no dependence (`affine::isLoopParallel`), have
    constant bounds and no `iter_args` are coalesced into one loop
    (`affine::coalesceLoops`), which becomes an `affine.parallel`
    (`affine::affineParallelize`), outermost first and only until they make
    `min-iterations` iterations together: the loops inside stay sequential,
    so an inner iteration does not pay for recovering its indices from the
    coalesced one, and contiguous inner loops stay whole for vectorization.
    With `threads` set, they also stop as soon as their iterations are a
    multiple of `threads`, so every thread runs as many, or at least 8 per
    thread, so the last thread idles for at most one in 8
    (`docs/heuristics.md`, *Parallel loops*). The
    innermost loop of a nest is never taken. A nest that carries
    `dl.sequential` (set by `convert-dl-to-affine` on the nests of an op
    that `dl-decide-parallelism` runs on one thread) stays sequential. In a
    nest where the
    lowering marked the loop a `#dl.schedule` chose (`dl.parallel`), that
    loop alone becomes parallel (if it carries no dependence; a buffer its
    body allocates and frees, such as a GEMM panel scratch, is private to
    the iteration, which MLIR's check does not see past the dealloc).
    `affine.parallel` lowers to `scf.parallel` and then to OpenMP
    (`convert-scf-to-openmp`).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t", /*default=*/"256",
           "Outer loops are coalesced until they make this many iterations">,
    Option<"threads", "threads", "int64_t", /*default=*/"0",
           "Threads of the generated code: outer loops are coalesced only "
           "until their iterations are a multiple of it or 8 times it (0: "
           "until min-iterations)">
  ];
}

def ChunkOpenMPLoops : Pass<"dl-chunk-openmp-loops", "::mlir::ModuleOp"> {
  let summary = "Run each thread's chunk of a parallel loop without worksharing calls";
  let description = [{
    An `omp.parallel` region holding only an `omp.wsloop` over one loop
    without clauses (what `convert-scf-to-openmp` makes of the coalesced
    parallel loops of `dl-parallelize-outer-loops`) becomes the region with
    an `scf.for` over the calling thread's iterations: the contiguous chunks
    of ceil(n / threads) iterations that OpenMP's static schedule gives,
    from libomp's `__kmpc_bound_thread_num` and `__kmpc_bound_num_threads`
    (`omp_get_thread_num` may bind to another OpenMP runtime loaded in the
    process, such as PyTorch's libgomp). The
    worksharing loop's runtime calls go (`__kmpc_for_static_init`, `_fini`
    and the barrier after the loop, which the region's join repeats); with
    Debian's libomp, whose `__kmpc_for_static_init` formats its debug trace
    strings on every call, they took 0.5-0.6 us of a 1.3 us region at two
    threads (docs/heuristics.md, "Parallel regions"). Regions with other
    contents, several loops, reductions, private variables or a schedule
    are left to the worksharing loop. `dl-to-llvm` runs it right after
    `convert-scf-to-openmp`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def ApproximateMath : Pass<"dl-approximate-math"> {
  let summary = "Expand math.exp into a polynomial approximation that vectorizes";
  let description = [{
    Rewrites `math.exp` on f32 (what `dl.sigmoid` and `dl.silu` lower to)
    into MLIR's polynomial approximation (`populateMathPolynomialApproximationPatterns`:
    range reduction by ln 2, a polynomial, the exponent set by bit
    operations; 1 ulp-level accuracy over f32, overflow to +inf and
    underflow to 0), plain arith ops that LLVM vectorizes with the loop
    around them. LLVM lowers its exp intrinsic to a call to the C library's
    `expf` per element, even in a vectorized loop, where no vector math
    library is configured. `dl-to-llvm` runs it after the lowering to
    affine.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def PrefetchNextBlocks
    : Pass<"dl-prefetch-next-blocks", "::mlir::func::FuncOp"> {
  let summary = "Prefetch the blocks the next outer iteration's microkernel "
                "calls read, spread over the current iteration's calls";
  let description = [{
    A `dl.gemm_invoke` whose block of `A` (or of `B`) does not move along
    the `affine.for` right around it (through the `scf.if` of a dispatched
    kernel) and moves along the loop around that one (`affine.for` or a
    one-dimensional `affine.parallel`, constant bounds) reads the block
    from memory in the first call of the inner loop and from the caches in
    the others: a convolution's input rows, re-read for each block of
    output channels; a GEMM's block of rows of `A`, re-read for each block
    of columns. The first call then waits on memory (the hardware
    prefetchers follow one call's streams, which ask for data faster than
    memory supplies it) and the others compute, without overlap. Before
    each call of the inner loop, the pass prefetches into the L2
    (`memref.prefetch ... read, locality<2>`) that call's share of the rows
    of the next outer iteration's block (the batch's blocks, `stride_a` or
    `stride_b` apart, each of `m` rows of `k` elements, `lda` apart, for
    `A`; `k` rows of `n` for `B`), every cache line a row touches once; the
    outer loop's last iteration prefetches its own block. It applies where
    the operand is larger than the target's L2 (its blocks come from
    farther) and the next block takes at most a quarter of it, with static
    shapes, strides, kernel sizes and batch counts; calls with offset tables
    are left (`docs/heuristics.md`, *Prefetched blocks*).

    ```mlir
    affine.for %oh = 0 to 70 {
      affine.for %kb = 0 to 7 {
        // %next = min(%oh + 1, 69); rows [%kb * 80, min(%kb * 80 + 80, 560))
        // of the 8 x 70 rows of 60 floats at %in[%n, 0, 2 * %next, 0, 0]
        affine.for %row = ... { affine.for %probe = 0 to 5 {
          memref.prefetch %flat[...], read, locality<2>, data } }
        dl.gemm_invoke %kernel(%in[%n, %c0, %2, %c0, %c0], ...) batch(%c8)
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def VectorizeCopies : Pass<"dl-vectorize-copies", "::mlir::func::FuncOp"> {
  let summary = "Copy contiguous or subsampled elements with vector loads and stores";
  let description = [{
    An innermost `affine.for` whose body is an `affine.load` and an
    `affine.store` of the loaded value, the store moving along the
    unit-stride last dimension of its memref one element per iteration and
    the load along its own one to 4 elements per iteration (the copies into
    padded, subsampled and packed buffers), is rewritten to step by `width`
    (0, the default: the target's vector, 16 floats with AVX-512, 8 with
    AVX2) and to copy a `vector<width x T>` per iteration:
    `affine.vector_load` / `affine.vector_store` when the load is
    contiguous; a load of stride `s` reads the `s * width` elements its
    lanes span (`vector.maskedload`, the elements after the last one it
    needs masked off) and keeps every `s`-th (`vector.shuffle`). A constant
    trip count that is not a multiple of `width` ends in one masked vector
    (`vector.maskedstore`) in a loop of its own; fewer iterations than
    `width` take the power of two that holds them. A loop from 0 to a
    single-result bound `u` known only at run time (the rest of a dynamic K
    in the packed operands of a blocked GEMM) copies the first
    `floor(u / width) * width` elements by vectors and the rest in a scalar
    loop after it.
    LLVM leaves these copies scalar: it fully unrolls their short loops (a
    32-channel block), and its SLP vectorizer may not move the loads above
    stores it cannot prove independent; in an OpenMP region, whose outlined
    body receives all buffers through one struct, it can prove none. The
    rewrite keeps the copy's order, so there is nothing to prove, except
    within one buffer (a shift by one element would read what a vector
    store already wrote): such copies are left; distinct memrefs are taken
    not to overlap, as in MLIR's affine dependence analysis
    (`docs/heuristics.md`, *Vectorized copies*).

    ```mlir
    affine.for %c = 0 to 32 {
      %x = affine.load %in[%n, %cb, %h * 2, %w * 2, %c] : memref<1x8x56x56x32xf32>
      affine.store %x, %copy[%n, %cb, %h, %w, %c] : memref<1x8x28x28x32xf32>
    }
    // becomes, with width = 8
    affine.for %c = 0 to 32 step 8 {
      %x = affine.vector_load %in[%n, %cb, %h * 2, %w * 2, %c] : memref<1x8x56x56x32xf32>, vector<8xf32>
      affine.vector_store %x, %copy[%n, %cb, %h, %w, %c] : memref<1x8x28x28x32xf32>, vector<8xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"width", "width", "int64_t", /*default=*/"0",
           "Elements per vector load and store (0: the target's vector width)">
  ];
}

def OutlineMicrokernels
    : Pass<"dl-outline-microkernels", "::mlir::ModuleOp"> {
  let summary = "Replace GEMM bands with LIBXSMM microkernel calls";
  let description = [{
    Each band tagged `dl.gemm_band` that computes
    `C[m][n] += A[m][k] * B[k][n]` (its three loops in any order, any
    layout whose linearized index has unit stride along `n` for `B`, `C`
    and along `k` for `A`) is outlined, together with the loops directly
    around it that move only `A` and `B` (the batch-reduce: channel blocks
    and filter taps of a blocked convolution, K tiles of a tiled GEMM):

    ```mlir
    %kernel = dl.gemm_dispatch {m = .., n = .., k = .., lda = .., ...}
    %ok = arith.cmpi ne, %kernel, %c0_i64
    scf.if %ok {
      dl.gemm_invoke %kernel(%A[...], %B[...], %C[...]) ...
    } else {
      <the original loops>
    }
    ```

    One batch loop gives the strided batch-reduce kernel; several give the
    offsets form with a constant table of block offsets (`memref.global`).
    A `B` whose rows lie closer than its row length (an overlapping view
    that reads whole vectors past each row, `dl-split-gemm-remainders`),
    which LIBXSMM takes no leading dimension for, runs one row of `K` per
    batch element (`k = 1`, the batch strides one column of `A` and one
    row of `B`), with the batch loop around it when that continues the
    rows (K tiles of `B` in place); other batch loops stay around the call.
    One batch loop may have bounds that vary with the loops outside the call
    (max/min maps with a constant result, unit step: the filter rows of a
    padded convolution): each call then starts at its lower bound and takes
    `(upper - lower) x` (blocks per iteration) blocks, its iterations lead
    the offset table, and the loops run where the count is 0.
    A band loop whose trip count is known only at run time (a constant
    lower bound and an upper bound that is a min with a constant, or a
    remainder `e mod c`: the partial blocks of a GEMM with dynamic sizes,
    which `convert-dl-to-affine` builds for `pad_blocks`) gives a kernel
    dispatched with run-time sizes (`dl.gemm_dispatch sizes(%m, %n, %k)`,
    the attributes their bounds), computed right before the call; a size of
    0 gets no kernel, and the loops run no iteration. So does a loop up to a
    size that the `affine.if` ops around the band bound (a constraint
    `c - size >= 0` of a guard whose then region holds it: the small
    version of a GEMM with dynamic sizes), its bound the least such `c`.
    A leading dimension that is a dynamic stride of its memref (an operand
    of dynamic sizes, in place) is read from the memref at run time
    (`leading_dims(%lda, %ldb, %ldc)`).
    The kernel runs its whole batch inside each of its register tiles, so
    the batch's A and B blocks should stay in cache between tiles: while
    one call would read more than `max-batch-bytes` of them, the outermost
    batch loop stays around the call instead (a single batch loop is never
    split; `batch_blocks` and schedules tile it beforehand). So does a
    batch loop that moves a block by a dynamic stride (the filter rows of a
    convolution whose input width is dynamic), with the batch loops outside
    it: the kernel's batch strides and offsets are static.
    When the op right before the outlined loops is a nest storing `0.0`
    into exactly the block of `C` the kernel computes (the per-tile
    initialization of `convert-dl-to-affine`; checked on the linearized
    offsets, not trusted; with run-time sizes, its two loops must run the
    band's M and N iterations and store at C's index), the kernel is
    dispatched with `beta_zero` (it
    writes `C` without reading it) and the fill moves into the fallback
    branch. Such a call also gets `stream_c` (non-temporal stores of `C`,
    past the caches, where the runtime finds a call's `C` 64-byte aligned)
    when `C` is at least as large as the last cache level and 32 L2s of the
    target, so its blocks leave the caches before anything reads them, and
    nothing else in the loop nest around the band reads `C` (an epilogue on
    each block): a write of `C` then costs its bytes once, not a read for
    ownership and a write (`docs/heuristics.md`, *Streamed C*).
    LIBXSMM's AVX-512 kernels keep a row of up to 4 vector registers of `C`
    and compute `C`'s rows in register passes of 6 (one pass for exactly 7
    rows; 14 rows per pass with rows of 2 vectors), each running the whole
    batch, so each pass re-reads all of the call's `B` blocks. Where a row of
    `C` is 4 vectors and computing it as two halves loads fewer elements
    (`passes x B` plus `A` per half) while `A`'s blocks fit the L1
    (`cache-sizes`/`machine-file`, else this machine's) for the second half,
    the kernel is dispatched with `n` halved and invoked once per half:
    the 14- and 28-pixel rows of the padded 3x3 convolutions (3 passes
    become 1 and 5 become 2 per half). `vector-bits` other than 512 keep
    `n` whole.
    The tag is removed from outlined bands. `dl.gemm_dispatch` is `Pure`,
    so loop-invariant code motion hoists it
    out of the loops and the hot loop only calls the kernel. A band that
    has no such form (dynamic sizes, non-unit inner strides, a dynamic
    stride that the kernel would need) keeps its loops; with
    `report-fallbacks` a remark says why.
  }];
  let options = [
    Option<"reportFallbacks", "report-fallbacks", "bool", /*default=*/"false",
           "Emit a remark for each tagged band that stays in loop form">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // DL_DIALECT_DL_TRANSFORMS_PASSES_TD
