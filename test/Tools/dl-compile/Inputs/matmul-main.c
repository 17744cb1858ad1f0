/* Calls the dl-compiled @matmul_96 (C = A * B, 96 x 96 x 128, outlined to
 * LIBXSMM through libDLRuntime) from C, and checks it against a naive loop.
 * A memref<MxN> argument is passed as (allocated, aligned, offset, sizes[2],
 * strides[2]). Prints "max_err=<e> ok" or "... FAIL". */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define M 96
#define N 96
#define K 128

#define MEMREF(name)                                                           \
  float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t
void matmul_96(MEMREF(a), MEMREF(b), MEMREF(c));
#define PASS(buf, rows, cols) buf, buf, 0, rows, cols, cols, 1

static float a[M * K], b[K * N], c[M * N];

int main(void) {
  for (int i = 0; i < M * K; ++i)
    a[i] = (float)((i * 7) % 13 - 6) / 8.0f;
  for (int i = 0; i < K * N; ++i)
    b[i] = (float)((i * 5) % 11 - 5) / 4.0f;
  for (int i = 0; i < M * N; ++i)
    c[i] = NAN; /* beta = 0: every element must be written */
  matmul_96(PASS(a, M, K), PASS(b, K, N), PASS(c, M, N));
  double maxErr = 0.0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0.0;
      for (int p = 0; p < K; ++p)
        ref += (double)a[i * K + p] * b[p * N + j];
      double err = fabs(c[i * N + j] - ref);
      if (!(err <= maxErr))
        maxErr = err; /* NaN propagates */
    }
  int ok = maxErr <= 1e-3;
  printf("max_err=%g %s\n", maxErr, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
