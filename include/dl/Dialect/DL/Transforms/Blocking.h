//===- Blocking.h - block sizes for microkernel-shaped tiles ----*- C++ -*-===//
//
// The block-size rule the GEMM blocking and tiling passes share: blocks
// divide the extent, so every block is full and one statically sized
// microkernel serves all of them.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_BLOCKING_H
#define DL_DIALECT_DL_TRANSFORMS_BLOCKING_H

#include <algorithm>
#include <cstdint>

namespace mlir {
namespace dl {

/// The largest divisor of `extent` that is at most `limit` (1 for primes
/// above `limit`).
inline int64_t largestDivisorAtMost(int64_t extent, int64_t limit) {
  for (int64_t size = std::min(extent, limit); size > 1; --size)
    if (extent % size == 0)
      return size;
  return 1;
}

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_TRANSFORMS_BLOCKING_H
