//===- Passes.h - dl loop transformations -----------------------*- C++ -*-===//
//
// Declarations and registration of the passes that transform the loop nests
// of lowered dl ops.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_PASSES_H
#define DL_DIALECT_DL_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace dl {

#define GEN_PASS_DECL
#include "dl/Dialect/DL/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dl/Dialect/DL/Transforms/Passes.h.inc"

/// The patterns of dl-fold-layout-transposes: a linalg.transpose into a
/// buffer only dl.packs read, or out of one a dl.unpack writes, folded into
/// those copies as a memref.transpose view.
void populateFoldLayoutTransposesPatterns(RewritePatternSet &patterns);

/// The pattern of dl-split-k: a dl.matmul with `split_k` as a parallel loop
/// over chunks of its K blocks, each into its own copy of C, then summed.
void populateSplitKPatterns(RewritePatternSet &patterns);

/// The pattern of dl-im2col-convs: a blocked dl.conv2d with one
/// output-channel block whose microkernel block of C holds fewer than
/// `options.minVectors` vectors of `vectorFloats` floats, as a copy of its
/// input windows and a dl.matmul.
void populateIm2colConvsPatterns(RewritePatternSet &patterns,
                                 const Im2colConvsOptions &options,
                                 int64_t vectorFloats);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_TRANSFORMS_PASSES_H
