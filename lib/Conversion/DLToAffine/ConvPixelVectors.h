//===- ConvPixelVectors.h - convolutions vectorized along pixels -*- C++
//-*-===//
//
// The lowering of a plain dl.conv2d marked `pixel_vectors`, for
// convert-dl-to-affine.
//
//===----------------------------------------------------------------------===//

#ifndef DL_LIB_CONVERSION_DLTOAFFINE_CONVPIXELVECTORS_H
#define DL_LIB_CONVERSION_DLTOAFFINE_CONVPIXELVECTORS_H

#include "dl/Dialect/DL/IR/DLOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace dl {

/// Replaces nothing: builds, before `op` (plain layout, static sizes), the
/// affine nests of the convolution with vectors of output pixels (a padded,
/// phase-split copy of the input where it needs one, then the tiles); the
/// caller erases `op`.
void lowerPixelVectorConv(PatternRewriter &rewriter, Conv2DOp op);

} // namespace dl
} // namespace mlir

#endif // DL_LIB_CONVERSION_DLTOAFFINE_CONVPIXELVECTORS_H
