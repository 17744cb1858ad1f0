//===- Blocking.h - block sizes for microkernel-shaped tiles ----*- C++ -*-===//
//
// The block-size rule the GEMM blocking and tiling passes share: blocks
// divide the extent, so every block is full and one statically sized
// microkernel serves all of them; and the bound on the blocks one
// batch-reduce microkernel call reads (default, bytes, option check); and
// when a GEMM's C is computed in packed blocks.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_BLOCKING_H
#define DL_DIALECT_DL_TRANSFORMS_BLOCKING_H

#include "mlir/IR/Operation.h"

#include <algorithm>
#include <cstdint>

namespace mlir {
namespace dl {

class MatmulOp;

/// The largest divisor of `extent` that is at most `limit` (1 for primes
/// above `limit`).
inline int64_t largestDivisorAtMost(int64_t extent, int64_t limit) {
  for (int64_t size = std::min(extent, limit); size > 1; --size)
    if (extent % size == 0)
      return size;
  return 1;
}

/// The width in bits of the widest f32 vector registers this machine's
/// microkernels use: 512 with AVX-512F, 256 with AVX2, else 128 (LIBXSMM
/// 1.17 JITs for the host's widest of these).
int64_t hostVectorBits();

/// The columns of a microkernel's block of C (its vector dimension): four
/// vector registers per row, 32 floats with AVX2 and 64 with AVX-512. For
/// `vectorBits` 0, the host's.
int64_t microkernelColumns(int64_t vectorBits);

/// The rows of a GEMM's block of C: those that make the block 16 KiB with
/// `columns` columns, 128 with 32 (AVX2) and 64 with 64 (AVX-512).
int64_t gemmBlockRows(int64_t columns);

/// Default of the `max-batch-bytes` options (dl-pack-gemm-operands,
/// dl-outline-microkernels, the dl-to-llvm pipeline, dl-compile; the
/// TableGen pass options repeat the number): half the 512 KiB L2 of the
/// machine the rule was measured on, so a call's A and B blocks stay in the
/// L2 while LIBXSMM re-reads them once per register tile.
constexpr int64_t kDefaultMaxBatchBytes = 256 * 1024;

/// The bytes of the A block (m x k) and the B block (k x n), f32, that one
/// batch element of an m x n x k batch-reduce microkernel call reads: what
/// `max-batch-bytes` bounds, times the batch count.
inline int64_t batchElementBytes(int64_t m, int64_t n, int64_t k) {
  return (m * k + k * n) * int64_t(sizeof(float));
}

/// Fails with "<pass>: max-batch-bytes must be >= 0" on `op` when `bytes`
/// is negative (the passes taking the option share the check).
inline LogicalResult verifyMaxBatchBytes(Operation *op, StringRef pass,
                                         int64_t bytes) {
  if (bytes >= 0)
    return success();
  return op->emitError() << pass << ": max-batch-bytes must be >= 0";
}

/// Whether `op` (with pack_blocks) should compute C in packed blocks
/// (`pack_c`) under its effective schedule: when its bm x bn blocks are not
/// contiguous in C (bn < N) and the schedule reduces each block over more
/// than one microkernel call. Each call loads and stores its block of C;
/// the block's rows are N floats apart, each in another page, where the
/// hardware prefetchers do not follow, whereas a packed block is one
/// contiguous stream. dl-pack-gemm-operands decides it for the default loop
/// order, and `setSchedule` again for the schedule it sets.
bool computesCInPackedBlocks(MatmulOp op);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_TRANSFORMS_BLOCKING_H
