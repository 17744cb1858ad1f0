//===- DLRuntimeTest.cpp - the microkernel runtime --------------*- C++ -*-===//
//
// LIBXSMM kernels dispatched through libDLRuntime against a naive row-major
// reference, on odd and even shapes, sub-matrices (leading dimension larger
// than the width), overwrite and accumulate, and the batch-reduce form;
// the scratch allocator generated code uses.
//
//===----------------------------------------------------------------------===//

#include "dl-runtime/DLRuntime.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

namespace {

bool hasLibxsmm() { return std::strcmp(dl_runtime_target(), "none") != 0; }

std::vector<float> sequence(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = scale * static_cast<float>(static_cast<int>(i * 7 % 13) - 6);
  return v;
}

/// C[m][n] (+)= sum_b A_b[m][k] * B_b[k][n] in double, row-major.
void reference(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
               const float *b, int64_t ldb, float *c, int64_t ldc,
               bool betaZero, int64_t count = 1, int64_t strideA = 0,
               int64_t strideB = 0) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = betaZero ? 0.0 : c[i * ldc + j];
      for (int64_t batch = 0; batch < count; ++batch)
        for (int64_t p = 0; p < k; ++p)
          sum += static_cast<double>(a[batch * strideA + i * lda + p]) *
                 b[batch * strideB + p * ldb + j];
      c[i * ldc + j] = static_cast<float>(sum);
    }
}

void expectNear(const std::vector<float> &got, const std::vector<float> &ref) {
  ASSERT_EQ(got.size(), ref.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], ref[i], 1e-4 * std::max(1.0f, std::fabs(ref[i])))
        << "element " << i;
}

struct GemmShape {
  int64_t m, n, k, lda, ldb, ldc;
};

class Gemm : public ::testing::TestWithParam<GemmShape> {};

TEST_P(Gemm, MatchesReference) {
  if (!hasLibxsmm())
    GTEST_SKIP() << "runtime built without LIBXSMM";
  GemmShape s = GetParam();
  std::vector<float> a = sequence(s.m * s.lda, 0.25f);
  std::vector<float> b = sequence(s.k * s.ldb, 0.5f);
  for (int64_t betaZero : {1, 0}) {
    std::vector<float> c = sequence(s.m * s.ldc, 1.0f), ref = c;
    int64_t kernel =
        dl_gemm_dispatch(s.m, s.n, s.k, s.lda, s.ldb, s.ldc, betaZero);
    ASSERT_NE(kernel, 0);
    // Equal descriptors give the cached kernel.
    EXPECT_EQ(kernel,
              dl_gemm_dispatch(s.m, s.n, s.k, s.lda, s.ldb, s.ldc, betaZero));
    dl_gemm_invoke(kernel, reinterpret_cast<intptr_t>(a.data()), 0,
                   reinterpret_cast<intptr_t>(b.data()), 0,
                   reinterpret_cast<intptr_t>(c.data()), 0);
    reference(s.m, s.n, s.k, a.data(), s.lda, b.data(), s.ldb, ref.data(),
              s.ldc, betaZero);
    expectNear(c, ref);
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, Gemm,
                         ::testing::Values(GemmShape{7, 5, 3, 3, 5, 5},
                                           GemmShape{16, 16, 16, 16, 16, 16},
                                           GemmShape{28, 64, 64, 64, 64, 64},
                                           GemmShape{13, 17, 11, 20, 30, 40}));

TEST(Gemm, OffsetsAddressSubMatrices) {
  if (!hasLibxsmm())
    GTEST_SKIP() << "runtime built without LIBXSMM";
  // A 4x4 block at (2, 3) of 10x10 matrices.
  std::vector<float> a = sequence(100, 0.5f), b = sequence(100, 0.25f);
  std::vector<float> c(100, 0.0f), ref(100, 0.0f);
  int64_t kernel = dl_gemm_dispatch(4, 4, 4, 10, 10, 10, 1);
  ASSERT_NE(kernel, 0);
  dl_gemm_invoke(kernel, reinterpret_cast<intptr_t>(a.data()), 23,
                 reinterpret_cast<intptr_t>(b.data()), 23,
                 reinterpret_cast<intptr_t>(c.data()), 23);
  reference(4, 4, 4, a.data() + 23, 10, b.data() + 23, 10, ref.data() + 23, 10,
            true);
  expectNear(c, ref);
}

// The empty remainder of a dynamic size: no kernel, whatever the kind.
TEST(Dispatch, EmptySizesHaveNoKernel) {
  for (auto [m, n, k] : {std::tuple(0, 4, 4), std::tuple(4, 0, 4),
                         std::tuple(4, 4, 0), std::tuple(-1, 4, 4)}) {
    EXPECT_EQ(dl_gemm_dispatch(m, n, k, 4, 4, 4, 1), 0);
    EXPECT_EQ(dl_brgemm_dispatch(m, n, k, 4, 4, 4, 16, 16, 0), 0);
    EXPECT_EQ(dl_brgemm_offs_dispatch(m, n, k, 4, 4, 4, 0), 0);
  }
}

// The per-thread cache in front of LIBXSMM's registry returns, for each of
// more shapes than it holds, asked in any order, the kernel of that shape.
TEST(Dispatch, CacheKeepsShapesApart) {
  if (!hasLibxsmm())
    GTEST_SKIP() << "runtime built without LIBXSMM";
  std::vector<std::pair<int64_t, int64_t>> shapes;
  for (int64_t m = 1; m <= 16; ++m)
    for (int64_t n = 1; n <= 16; n += 3)
      shapes.push_back({m, n});
  std::vector<int64_t> first;
  for (auto [m, n] : shapes) {
    first.push_back(dl_brgemm_dispatch(m, n, 8, 8, 16, 16, 128, 128, 0));
    ASSERT_NE(first.back(), 0);
  }
  for (size_t i = shapes.size(); i-- > 0;) {
    auto [m, n] = shapes[i];
    EXPECT_EQ(dl_brgemm_dispatch(m, n, 8, 8, 16, 16, 128, 128, 0), first[i]);
    // Same sizes, another kind or another beta: another kernel.
    EXPECT_NE(dl_brgemm_dispatch(m, n, 8, 8, 16, 16, 128, 128, 1), first[i]);
    EXPECT_NE(dl_gemm_dispatch(m, n, 8, 8, 16, 16, 0), first[i]);
  }
  for (size_t i = 1; i < first.size(); ++i)
    EXPECT_NE(first[i], first[i - 1]);
}

TEST(BatchReduceGemm, StridedBlocks) {
  if (!hasLibxsmm())
    GTEST_SKIP() << "runtime built without LIBXSMM";
  const int64_t m = 14, n = 16, k = 16, count = 9;
  const int64_t strideA = m * k + 5, strideB = k * n + 3;
  std::vector<float> a = sequence(count * strideA, 0.125f);
  std::vector<float> b = sequence(count * strideB, 0.25f);
  for (int64_t betaZero : {1, 0}) {
    std::vector<float> c = sequence(m * n, 1.0f), ref = c;
    int64_t kernel =
        dl_brgemm_dispatch(m, n, k, k, n, n, strideA, strideB, betaZero);
    ASSERT_NE(kernel, 0);
    dl_brgemm_invoke(kernel, reinterpret_cast<intptr_t>(a.data()), 0,
                     reinterpret_cast<intptr_t>(b.data()), 0,
                     reinterpret_cast<intptr_t>(c.data()), 0, count);
    reference(m, n, k, a.data(), k, b.data(), n, ref.data(), n, betaZero, count,
              strideA, strideB);
    expectNear(c, ref);
  }
}

// DL_RUNTIME_STREAM_C: non-temporal stores where a call's C starts 64-byte
// aligned, plain stores elsewhere (the streaming kernel's aligned moves
// would fault there), for blocks of C at every float offset from an aligned
// base; a masked last vector of C (n = 19) takes plain stores only.
TEST(StreamedC, AnyAlignmentMatchesReference) {
  if (!hasLibxsmm())
    GTEST_SKIP() << "runtime built without LIBXSMM";
  const int64_t ldc = 64, count = 3;
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{9, 32, 12},
                         {1, 16, 1},
                         {28, 48, 5},
                         {5, 64, 16},
                         {9, 19, 12}}) {
    std::vector<float> a = sequence(count * m * k, 0.125f);
    std::vector<float> b = sequence(count * k * n, 0.25f);
    int64_t gemm = dl_gemm_dispatch(m, n, k, k, n, ldc, DL_RUNTIME_STREAM_C);
    int64_t strided = dl_brgemm_dispatch(m, n, k, k, n, ldc, m * k, k * n,
                                         DL_RUNTIME_STREAM_C);
    int64_t offsets =
        dl_brgemm_offs_dispatch(m, n, k, k, n, ldc, DL_RUNTIME_STREAM_C);
    ASSERT_NE(gemm, 0);
    ASSERT_NE(strided, 0);
    ASSERT_NE(offsets, 0);
    std::vector<int64_t> offsetsA = {0, m * k, 2 * m * k};
    std::vector<int64_t> offsetsB = {0, k * n, 2 * k * n};
    // 64-byte aligned storage for C, the block at `shift` floats past it.
    std::vector<float> storage(m * ldc + 32);
    float *base = storage.data();
    while (reinterpret_cast<uintptr_t>(base) % 64 != 0)
      ++base;
    auto at = [](const float *p) { return reinterpret_cast<intptr_t>(p); };
    for (int64_t shift = 0; shift < 16; ++shift) {
      for (int kind = 0; kind < 3; ++kind) {
        std::fill(storage.begin(), storage.end(), 7.0f);
        if (kind == 0)
          dl_gemm_invoke(gemm, at(a.data()), 0, at(b.data()), 0, at(base),
                         shift);
        else if (kind == 1)
          dl_brgemm_invoke(strided, at(a.data()), 0, at(b.data()), 0, at(base),
                           shift, count);
        else
          dl_brgemm_offs_invoke(offsets, at(a.data()), 0, at(b.data()), 0,
                                at(base), shift, count, offsetsA.data(),
                                offsetsB.data());
        std::vector<float> got, ref(m * n, 0.0f);
        for (int64_t i = 0; i < m; ++i)
          got.insert(got.end(), base + shift + i * ldc,
                     base + shift + i * ldc + n);
        reference(m, n, k, a.data(), k, b.data(), n, ref.data(), n,
                  /*betaZero=*/true, kind == 0 ? 1 : count, m * k, k * n);
        expectNear(got, ref);
        // The columns past n in each row are not written.
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = n; j < ldc; ++j)
            EXPECT_EQ(base[shift + i * ldc + j], 7.0f);
      }
    }
  }
}

TEST(BatchReduceGemm, BlocksAtGivenOffsets) {
  if (!hasLibxsmm())
    GTEST_SKIP() << "runtime built without LIBXSMM";
  // Blocks in a scrambled order inside larger buffers with lda > k: the
  // shape a convolution's (channel block, r, s) reduction has.
  const int64_t m = 7, n = 8, k = 5, lda = 11, count = 6;
  const int64_t blockA = m * lda, blockB = k * n;
  std::vector<float> a = sequence(3 + count * blockA, 0.125f);
  std::vector<float> b = sequence(2 + count * blockB, 0.25f);
  std::vector<int64_t> offsetsA, offsetsB;
  for (int64_t i = 0; i < count; ++i) {
    offsetsA.push_back((count - 1 - i) * blockA);
    offsetsB.push_back((count - 1 - i) * blockB);
  }
  std::vector<float> c = sequence(m * n, 1.0f), ref = c;
  int64_t kernel = dl_brgemm_offs_dispatch(m, n, k, lda, n, n, 0);
  ASSERT_NE(kernel, 0);
  dl_brgemm_offs_invoke(kernel, reinterpret_cast<intptr_t>(a.data()), 3,
                        reinterpret_cast<intptr_t>(b.data()), 2,
                        reinterpret_cast<intptr_t>(c.data()), 0, count,
                        offsetsA.data(), offsetsB.data());
  // The same blocks in forward order, strided: the sum is order-independent.
  reference(m, n, k, a.data() + 3, lda, b.data() + 2, n, ref.data(), n,
            /*betaZero=*/false, count, blockA, blockB);
  expectNear(c, ref);
}

TEST(ScratchMemory, LargeBlocksAreReusedSmallOnesFreed) {
  // A large block comes back for the next request of a size it fits
  // (without wasting more than half), aligned and writable.
  const size_t large = size_t(3) << 20;
  auto *first = static_cast<char *>(_mlir_memref_to_llvm_alloc(large));
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
  std::memset(first, 1, large);
  _mlir_memref_to_llvm_free(first);
  void *again = _mlir_memref_to_llvm_alloc(large - 4096);
  EXPECT_EQ(again, first);
  // Too small a cached block is not reused for a larger request.
  void *larger = _mlir_memref_to_llvm_alloc(2 * large);
  EXPECT_NE(larger, again);
  std::memset(larger, 2, 2 * large);
  _mlir_memref_to_llvm_free(again);
  _mlir_memref_to_llvm_free(larger);
  // Small blocks work as malloc/free do.
  auto *small = static_cast<char *>(_mlir_memref_to_llvm_alloc(100));
  ASSERT_NE(small, nullptr);
  std::memset(small, 3, 100);
  _mlir_memref_to_llvm_free(small);
  _mlir_memref_to_llvm_free(nullptr);
}

} // namespace
