//===- DLToAffine.h - dl ops to affine loop nests ---------------*- C++ -*-===//
//
// The lowering of convert-dl-to-affine as a function, for code that lowers a
// scratch copy of an op to analyze its loops (the variant ranking, the
// parallel-loop decision), and the questions about the nests it builds that
// decision passes ask.
//
//===----------------------------------------------------------------------===//

#ifndef DL_CONVERSION_DLTOAFFINE_H
#define DL_CONVERSION_DLTOAFFINE_H

#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace dl {

struct DLToAffineOptions {
  /// Initialize the result of a blocked convolution or packed GEMM per tile,
  /// right before the tile's reduction loops (what convert-dl-to-affine
  /// does); otherwise in one pass over the whole result before the nest.
  bool initializePerTile = true;
};

/// Which packed operands of a scheduled GEMM the lowering can copy inside
/// its nest, one microkernel batch at a time into a panel scratch (the
/// `panel_a` / `panel_b` decision of dl-decide-panels): where each block is
/// still copied once (the loops outside the copy that do not index the
/// operand run once), some call re-reads the scratch, and one batch's blocks
/// fit in 1 MiB. With `threads` > 1 (dl-decide-parallelism), also where the
/// schedule's parallel loop is outside the copy and does not index the
/// operand but runs at most one iteration per thread: each thread then
/// copies once the blocks it reads (private panels), where a packed copy
/// made before the nest would be read whole by every thread, most of it
/// written by the others' cores (docs/heuristics.md, "Private panels").
/// Both false without a schedule or with pad_blocks.
struct PanelChoice {
  bool a = false;
  bool b = false;
};
PanelChoice choosePanels(MatmulOp op, int64_t threads = 1);

/// Adds the patterns that lower each dl op (but the microkernel ops) to its
/// affine loop nests, as convert-dl-to-affine applies them (after the
/// run-time size checks of lowerDLToAffine).
void populateDLToAffinePatterns(RewritePatternSet &patterns,
                                const DLToAffineOptions &options = {});

/// Replaces every dl op under `root` (but the microkernel ops) with its
/// affine loop nest, as convert-dl-to-affine does.
LogicalResult lowerDLToAffine(Operation *root,
                              const DLToAffineOptions &options = {});

/// A scratch module with one function whose arguments are `op`'s operands
/// and whose body is a clone of `op` (which `prepare`, when given, adjusts),
/// lowered with `options`: the loop nests the op alone lowers to. Fails when
/// the lowering does.
FailureOr<OwningOpRef<ModuleOp>>
lowerScratchCopy(Operation *op, const DLToAffineOptions &options = {},
                 function_ref<void(Operation *)> prepare = nullptr);

} // namespace dl
} // namespace mlir

#endif // DL_CONVERSION_DLTOAFFINE_H
