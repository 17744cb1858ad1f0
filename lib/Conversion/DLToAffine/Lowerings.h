//===- Lowerings.h - the dl op families' lowerings ------------ -*- C++ -*-===//
//
// The patterns of convert-dl-to-affine, one function per op family (each in
// its own file); populateDLToAffinePatterns adds them all.
//
//===----------------------------------------------------------------------===//

#ifndef DL_LIB_CONVERSION_DLTOAFFINE_LOWERINGS_H
#define DL_LIB_CONVERSION_DLTOAFFINE_LOWERINGS_H

#include "dl/Conversion/DLToAffine.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace dl {

/// dl.matmul.
void populateMatmulLoweringPatterns(RewritePatternSet &patterns,
                                    const DLToAffineOptions &options);
/// dl.conv2d.
void populateConvLoweringPatterns(RewritePatternSet &patterns,
                                  const DLToAffineOptions &options);
/// dl.batch_norm_inference, dl.batch_norm_training.
void populateBatchNormLoweringPatterns(RewritePatternSet &patterns);
/// dl.relu, dl.relu6, dl.add, dl.bias_add.
void populateElementwiseLoweringPatterns(RewritePatternSet &patterns);
/// dl.max_pool2d, dl.avg_pool2d, dl.depthwise_conv2d.
void populateWindowLoweringPatterns(RewritePatternSet &patterns);
/// dl.pack, dl.unpack.
void populateLayoutLoweringPatterns(RewritePatternSet &patterns);

} // namespace dl
} // namespace mlir

#endif // DL_LIB_CONVERSION_DLTOAFFINE_LOWERINGS_H
