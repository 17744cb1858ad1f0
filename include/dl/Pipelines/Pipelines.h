//===- Pipelines.h - dl pass pipelines --------------------------*- C++ -*-===//
//
// The registered pipelines that take a module of dl ops to the LLVM dialect:
// `dl-to-llvm` (what dl-compile builds) and `dl-reference-to-llvm` (the plain
// reference lowering that `dl-compile --run` checks results against).
//
//===----------------------------------------------------------------------===//

#ifndef DL_PIPELINES_PIPELINES_H
#define DL_PIPELINES_PIPELINES_H

#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace dl {

/// Help of the `vector-bits` options (both pipelines and dl-compile), which
/// set the target's (dl-set-target).
inline constexpr const char *kVectorBitsDescription =
    "Width of the microkernels' vector registers in bits, which sets the "
    "default channel and GEMM blocks and which register blocking the "
    "microkernel calls are shaped for (0: the module's dl.target, or the "
    "host's widest, 512 with AVX-512F, 256 with AVX2)";
/// Help of the `max-batch-bytes` options.
inline constexpr const char *kMaxBatchBytesDescription =
    "Most bytes of A and B blocks one batch-reduce kernel call reads (0: no "
    "bound; -1: the module's dl.target, or 256 KiB)";

/// Default of the `max-versions` options (the pipeline, dl-compile; the
/// TableGen option of dl-parametric-versioning repeats the number): versions
/// of up to 4096 rows or images.
inline constexpr int64_t kDefaultMaxVersions = 13;

/// Options of the `dl-to-llvm` pipeline.
struct DLPipelineOptions : public PassPipelineOptions<DLPipelineOptions> {
  Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("Threads of the parallel outer loops (for the ops whose "
                     "work pays for them, dl-decide-parallelism); 1 generates "
                     "sequential code without OpenMP"),
      llvm::cl::init(1)};
  Option<bool> microkernels{
      *this, "microkernels",
      llvm::cl::desc("Tile GEMM bands and outline them to LIBXSMM "
                     "microkernels (off: vectorized loops only)"),
      llvm::cl::init(true)};
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Fuse element-wise ops into the "
                                   "convolutions and batch normalizations "
                                   "that write their inputs "
                                   "(dl-fuse-epilogues)"),
                    llvm::cl::init(true)};
  Option<bool> prefetch{
      *this, "prefetch",
      llvm::cl::desc("Prefetch the blocks the next outer iteration's "
                     "microkernel calls read, spread over the current "
                     "iteration's calls (dl-prefetch-next-blocks)"),
      llvm::cl::init(true)};
  Option<bool> versioning{
      *this, "versioning",
      llvm::cl::desc("Run ops with a dynamic batch size as static versions "
                     "of themselves (dl-parametric-versioning)"),
      llvm::cl::init(true)};
  Option<int64_t> maxVersions{
      *this, "max-versions",
      llvm::cl::desc("Most static versions of one dynamic op "
                     "(dl-parametric-versioning)"),
      llvm::cl::init(kDefaultMaxVersions)};
  Option<bool> rank{*this, "rank",
                    llvm::cl::desc("Choose each heavy op's loop schedule with "
                                   "dl-rank-variants (with microkernels)"),
                    llvm::cl::init(true)};
  Option<bool> solveTiles{
      *this, "solve-tiles",
      llvm::cl::desc("Add the tile solver's candidates (MOpt's model, "
                     "Ipopt) to the ranking's variants, which ranks them all; "
                     "with rank=false, the solver's best is the schedule "
                     "(dl-solve-tile-sizes)"),
      llvm::cl::init(false)};
  Option<std::string> tileReport{
      *this, "tile-report",
      llvm::cl::desc("Write dl-solve-tile-sizes' problems and solutions as "
                     "JSON here (with solve-tiles and rank=false; with the "
                     "ranking, its report marks the solver's variants)")};
  Option<std::string> cacheSizes{
      *this, "cache-sizes",
      llvm::cl::desc("Cache capacities of the target (dl-set-target), e.g. "
                     "L1=32K,L2=1M (default: the module's dl.target, or this "
                     "machine's)")};
  Option<std::string> machineFile{
      *this, "machine-file",
      llvm::cl::desc("Machine file (from dl-probe) of the target "
                     "(dl-set-target)")};
  Option<std::string> rankingCost{
      *this, "ranking-cost",
      llvm::cl::desc("Cost dl-rank-variants ranks by: 'traffic' or "
                     "'working-sets' (PolyDL's eq. 1)"),
      llvm::cl::init("traffic")};
  Option<std::string> rankingReport{
      *this, "ranking-report",
      llvm::cl::desc("Write the ranking of every variant as JSON here")};
  Option<int64_t> maxBatchBytes{*this, "max-batch-bytes",
                                llvm::cl::desc(kMaxBatchBytesDescription),
                                llvm::cl::init(-1)};
  Option<int64_t> vectorBits{*this, "vector-bits",
                             llvm::cl::desc(kVectorBitsDescription),
                             llvm::cl::init(0)};
  Option<bool> reportFallbacks{
      *this, "report-fallbacks",
      llvm::cl::desc("Remark on every GEMM band that keeps its loops and on "
                     "every op dl-decide-parallelism runs on one thread or on "
                     "another loop than the outermost long enough for the "
                     "threads (the model passes always remark on their "
                     "fallbacks)"),
      llvm::cl::init(false)};
  Option<std::string> cacheDirectory{
      *this, "cache-dir",
      llvm::cl::desc("Keep the ranking's schedules in this directory and "
                     "take them from there in later compilations "
                     "(dl-rank-variants)")};
  Option<bool> progress{*this, "progress",
                        llvm::cl::desc("Print a line per ranked op to stderr "
                                       "(dl-rank-variants)"),
                        llvm::cl::init(false)};
};

/// Options of the `dl-layouts` pipeline.
struct DLLayoutPipelineOptions
    : public PassPipelineOptions<DLLayoutPipelineOptions> {
  Option<int64_t> maxBatchBytes{*this, "max-batch-bytes",
                                llvm::cl::desc(kMaxBatchBytesDescription),
                                llvm::cl::init(-1)};
  Option<int64_t> vectorBits{*this, "vector-bits",
                             llvm::cl::desc(kVectorBitsDescription),
                             llvm::cl::init(0)};
};

/// The layout passes that run before a heavy op's schedule is chosen
/// (blocked conv layouts, strides and rows folded into the GEMM band, GEMM
/// blocks and packing, packs of constants kept): the schedule dimensions the
/// ranking orders are theirs. Part of `dl-to-llvm` with microkernels;
/// dl-compile's autotuning runs them before it ranks, and `dl-opt --dl-layouts`
/// alone (what benchmarks/fidelity.py fixes schedules on).
/// `reportFallbacks`: remarks on the refused rewrites.
void buildDLLayoutPipeline(OpPassManager &pm, bool reportFallbacks = false);

/// dl-set-target with these options (0, -1, "": the module's target, or
/// this machine's).
void addSetTarget(OpPassManager &pm, int64_t vectorBits, int64_t maxBatchBytes,
                  StringRef cacheSizes = "", StringRef machineFile = "");

/// dl ops -> ranked schedules, parallel loops decided -> affine loop nests
/// -> microkernel-sized tiles, parallel outer loops, microkernel calls ->
/// LLVM dialect.
void buildDLToLLVMPipeline(OpPassManager &pm, const DLPipelineOptions &options);

/// dl ops -> reference affine loop nests -> LLVM dialect, with no
/// optimization of the loops.
void buildReferenceToLLVMPipeline(OpPassManager &pm);

/// Registers both pipelines under their names for dl-opt and the plugin.
void registerDLPipelines();

} // namespace dl
} // namespace mlir

#endif // DL_PIPELINES_PIPELINES_H
