/*===- DLRuntime.h - dl's microkernel runtime (C API) ------------*- C -*-===*\
|*                                                                            *|
|* The functions generated code calls for GEMM-shaped loop bands. Matrices   *|
|* are row-major single precision; leading dimensions and strides are in     *|
|* elements. A kernel handle of 0 means "no microkernel for this shape": the *|
|* caller keeps its loops. This is the only code that knows LIBXSMM's API.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DL_RUNTIME_DLRUNTIME_H
#define DL_RUNTIME_DLRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Dispatches C[m][n] (=|+=) A[m][k] * B[k][n]: beta_zero 0 accumulates into
 * C, 1 overwrites it, DL_RUNTIME_STREAM_C overwrites it with non-temporal
 * stores (C bypasses the caches; for a C written once and read by nothing
 * soon) where n and ldc are multiples of 16, wherever a call's C starts
 * 64-byte aligned (the kernel's aligned moves need it), and with plain stores
 * elsewhere, chosen per call. Pure: equal arguments give equal handles, so
 * calls can be hoisted out of loops. Thread-safe; kernels are cached. The same
 * values of beta_zero apply to the batch-reduce dispatches below. */
#define DL_RUNTIME_STREAM_C 2
int64_t dl_gemm_dispatch(int64_t m, int64_t n, int64_t k, int64_t lda,
                         int64_t ldb, int64_t ldc, int64_t beta_zero);

/* Runs a kernel from dl_gemm_dispatch on base + offset (in elements). */
void dl_gemm_invoke(int64_t kernel, intptr_t a, int64_t a_offset, intptr_t b,
                    int64_t b_offset, intptr_t c, int64_t c_offset);

/* Dispatches the batch-reduce form C (=|+=) sum_i A_i * B_i where
 * A_i = A + i * stride_a and B_i = B + i * stride_b (strides in elements). */
int64_t dl_brgemm_dispatch(int64_t m, int64_t n, int64_t k, int64_t lda,
                           int64_t ldb, int64_t ldc, int64_t stride_a,
                           int64_t stride_b, int64_t beta_zero);

/* Runs a kernel from dl_brgemm_dispatch over `count` pairs of blocks. */
void dl_brgemm_invoke(int64_t kernel, intptr_t a, int64_t a_offset, intptr_t b,
                      int64_t b_offset, intptr_t c, int64_t c_offset,
                      int64_t count);

/* Dispatches the batch-reduce form whose blocks are A + offsets_a[i] and
 * B + offsets_b[i], the offsets given at each call. */
int64_t dl_brgemm_offs_dispatch(int64_t m, int64_t n, int64_t k, int64_t lda,
                                int64_t ldb, int64_t ldc, int64_t beta_zero);

/* Runs a kernel from dl_brgemm_offs_dispatch over `count` pairs of blocks;
 * offsets_a/offsets_b (in elements) are relative to a + a_offset and
 * b + b_offset. */
void dl_brgemm_offs_invoke(int64_t kernel, intptr_t a, int64_t a_offset,
                           intptr_t b, int64_t b_offset, intptr_t c,
                           int64_t c_offset, int64_t count,
                           const int64_t *offsets_a, const int64_t *offsets_b);

/* The instruction set LIBXSMM generates code for ("hsw", "cpx", ...), or
 * "none" when the runtime was built without LIBXSMM. */
const char *dl_runtime_target(void);

/* Checked calls: the C interface dl-compile --emit-header writes runs each
 * function through dl_checked_call, which returns 0, or 1 when the code
 * stopped at a failed run-time size check or allocation on the calling
 * thread (generated code calls dl_check_message and dl_check_failed where it
 * would call puts and abort); dl_last_error then holds the message. Outside
 * a checked call, or on another thread, a failed check prints its message
 * and aborts, as before. */
int dl_checked_call(void (*body)(void *), void *context);
const char *dl_last_error(void);
void dl_set_error(const char *message);
int dl_check_message(const char *message);
void dl_check_failed(void);

/* Scratch memory of generated code (memref.alloc/dealloc in the dl-to-llvm
 * pipeline): blocks of 1 MiB and more are kept per thread after free and
 * reused. A failed allocation stops a checked call (above); elsewhere it
 * returns NULL. */
void *_mlir_memref_to_llvm_alloc(size_t size);
void _mlir_memref_to_llvm_free(void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* DL_RUNTIME_DLRUNTIME_H */
