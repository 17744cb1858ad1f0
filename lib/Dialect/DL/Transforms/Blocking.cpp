//===- Blocking.cpp - block sizes from the host's vector width ------------===//
//
// The default blocks of the layout passes follow the vector registers of the
// machine: LIBXSMM's kernels vectorize a block's columns, four registers per
// row, so the width that keeps them busy doubles from AVX2 to AVX-512.
// Measured on the two machines this project ran on (LIBXSMM 1.17, one core):
// the AVX2 machine ran GEMM blocks fastest at 128 x 32; the AVX-512 one
// (Zen 5, 48 KiB L1, 1 MiB L2) at 64 x 64, where 128 x 32 ran square_2k at
// 196 GFLOPS and 64 x 64 at 240, and convolutions 1-5% faster with 64-wide
// channel blocks than with 32.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/Transforms/Blocking.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>

using namespace mlir;

int64_t dl::hostVectorBits() {
  static const int64_t bits = [] {
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    if (features.lookup("avx512f"))
      return 512;
    if (features.lookup("avx2"))
      return 256;
    return 128;
  }();
  return bits;
}

int64_t dl::microkernelColumns(int64_t vectorBits) {
  if (vectorBits <= 0)
    vectorBits = hostVectorBits();
  // At least one column, whatever width an option gives.
  return std::max<int64_t>(1, 4 * vectorBits / 32);
}

int64_t dl::gemmBlockRows(int64_t columns) {
  return std::max<int64_t>(1, (16 << 10) / (columns * 4));
}
