//===- DLRuntime.cpp - dl's microkernel runtime over LIBXSMM ----*- C++ -*-===//
//
// Row-major GEMM / batch-reduce GEMM kernels for generated code, dispatched
// from LIBXSMM 1.17. LIBXSMM is column-major, so C = A * B (row-major) is
// computed as C^T = B^T * A^T: the kernel gets (n, m, k), B as its first
// operand and A as its second. LIBXSMM's own code registry is the kernel
// cache: libxsmm_smmdispatch* is thread-safe and returns the same function
// for the same descriptor, so no second cache is kept here.
//
//===----------------------------------------------------------------------===//

#include "dl-runtime/DLRuntime.h"

#include <vector>

#ifdef DL_RUNTIME_HAS_LIBXSMM
#include <libxsmm.h>
#endif

namespace {
/// Base + offset elements, as a float pointer.
inline float *at(intptr_t base, int64_t offset) {
  return reinterpret_cast<float *>(base) + offset;
}
} // namespace

#ifdef DL_RUNTIME_HAS_LIBXSMM

extern "C" int64_t dl_gemm_dispatch(int64_t m, int64_t n, int64_t k,
                                    int64_t lda, int64_t ldb, int64_t ldc,
                                    int64_t beta_zero) {
  const libxsmm_blasint xlda = ldb, xldb = lda, xldc = ldc;
  const float alpha = 1.0f, beta = beta_zero ? 0.0f : 1.0f;
  libxsmm_smmfunction kernel = libxsmm_smmdispatch(
      n, m, k, &xlda, &xldb, &xldc, &alpha, &beta, nullptr, nullptr);
  return reinterpret_cast<int64_t>(kernel);
}

extern "C" void dl_gemm_invoke(int64_t kernel, intptr_t a, int64_t a_offset,
                               intptr_t b, int64_t b_offset, intptr_t c,
                               int64_t c_offset) {
  reinterpret_cast<libxsmm_smmfunction>(kernel)(
      at(b, b_offset), at(a, a_offset), at(c, c_offset));
}

extern "C" int64_t dl_brgemm_dispatch(int64_t m, int64_t n, int64_t k,
                                      int64_t lda, int64_t ldb, int64_t ldc,
                                      int64_t stride_a, int64_t stride_b,
                                      int64_t beta_zero) {
  const libxsmm_blasint xlda = ldb, xldb = lda, xldc = ldc;
  const float alpha = 1.0f, beta = beta_zero ? 0.0f : 1.0f;
  // LIBXSMM 1.17 takes the strides in bytes.
  libxsmm_smmfunction_reducebatch_strd kernel =
      libxsmm_smmdispatch_reducebatch_strd(
          n, m, k, stride_b * sizeof(float), stride_a * sizeof(float), &xlda,
          &xldb, &xldc, &alpha, &beta, nullptr, nullptr);
  return reinterpret_cast<int64_t>(kernel);
}

extern "C" void dl_brgemm_invoke(int64_t kernel, intptr_t a, int64_t a_offset,
                                 intptr_t b, int64_t b_offset, intptr_t c,
                                 int64_t c_offset, int64_t count) {
  unsigned long long batch = count;
  reinterpret_cast<libxsmm_smmfunction_reducebatch_strd>(kernel)(
      at(b, b_offset), at(a, a_offset), at(c, c_offset), &batch);
}

extern "C" int64_t dl_brgemm_offs_dispatch(int64_t m, int64_t n, int64_t k,
                                           int64_t lda, int64_t ldb,
                                           int64_t ldc, int64_t beta_zero) {
  const libxsmm_blasint xlda = ldb, xldb = lda, xldc = ldc;
  const float alpha = 1.0f, beta = beta_zero ? 0.0f : 1.0f;
  libxsmm_smmfunction_reducebatch_offs kernel =
      libxsmm_smmdispatch_reducebatch_offs(n, m, k, &xlda, &xldb, &xldc, &alpha,
                                           &beta, nullptr, nullptr);
  return reinterpret_cast<int64_t>(kernel);
}

extern "C" void dl_brgemm_offs_invoke(int64_t kernel, intptr_t a,
                                      int64_t a_offset, intptr_t b,
                                      int64_t b_offset, intptr_t c,
                                      int64_t c_offset, int64_t count,
                                      const int64_t *offsets_a,
                                      const int64_t *offsets_b) {
  // LIBXSMM 1.17 takes byte offsets; callers give elements. A per-thread
  // buffer keeps the conversion free of allocation after the first call.
  thread_local std::vector<unsigned long long> byteOffsets;
  byteOffsets.resize(2 * count);
  for (int64_t i = 0; i < count; ++i) {
    byteOffsets[i] = offsets_b[i] * sizeof(float);
    byteOffsets[count + i] = offsets_a[i] * sizeof(float);
  }
  unsigned long long batch = count;
  reinterpret_cast<libxsmm_smmfunction_reducebatch_offs>(kernel)(
      at(b, b_offset), at(a, a_offset), at(c, c_offset), &batch,
      byteOffsets.data(), byteOffsets.data() + count);
}

extern "C" const char *dl_runtime_target(void) {
  return libxsmm_get_target_arch();
}

#else // Built without LIBXSMM: no kernel is ever available.

extern "C" int64_t dl_gemm_dispatch(int64_t, int64_t, int64_t, int64_t, int64_t,
                                    int64_t, int64_t) {
  return 0;
}
extern "C" void dl_gemm_invoke(int64_t, intptr_t, int64_t, intptr_t, int64_t,
                               intptr_t, int64_t) {}
extern "C" int64_t dl_brgemm_dispatch(int64_t, int64_t, int64_t, int64_t,
                                      int64_t, int64_t, int64_t, int64_t,
                                      int64_t) {
  return 0;
}
extern "C" void dl_brgemm_invoke(int64_t, intptr_t, int64_t, intptr_t, int64_t,
                                 intptr_t, int64_t, int64_t) {}
extern "C" int64_t dl_brgemm_offs_dispatch(int64_t, int64_t, int64_t, int64_t,
                                           int64_t, int64_t, int64_t) {
  return 0;
}
extern "C" void dl_brgemm_offs_invoke(int64_t, intptr_t, int64_t, intptr_t,
                                      int64_t, intptr_t, int64_t, int64_t,
                                      const int64_t *, const int64_t *) {}
extern "C" const char *dl_runtime_target(void) { return "none"; }

#endif
