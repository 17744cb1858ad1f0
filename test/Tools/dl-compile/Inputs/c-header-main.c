/* Calls a library built with dl-compile --emit=shared --emit-header
 * (c-header.mlir) through its header: a GEMM checked against a loop, then
 * calls with wrong sizes, each returning an error status with a message,
 * the process running on. */
#include "model.h"

#include <math.h>
#include <stdio.h>

enum { M = 64, N = 48, K = 40 };
static float a[M * K], b[K * N], c[M * N], x[12], y[16];

int main(void) {
  for (int i = 0; i < M * K; ++i)
    a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (int i = 0; i < K * N; ++i)
    b[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
  int status = model_gemm(a, M, K, b, K, N, c, M, N);
  double maxErr = 0.0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double expected = 0.0;
      for (int k = 0; k < K; ++k)
        expected += (double)a[i * K + k] * b[k * N + j];
      double err = fabs(expected - c[i * N + j]);
      maxErr = err > maxErr ? err : maxErr;
    }
  printf("gemm: status=%d max_err=%.2e %s\n", status, maxErr,
         maxErr < 1e-4 ? "ok" : "MISMATCH");
  status = model_gemm(a, M, K, b, K + 1, N, c, M, N);
  printf("gemm, wrong K: status=%d error=\"%s\"\n", status,
         model_last_error());
  status = model_relu_dynamic(x, 3, 4, y, 4, 4);
  printf("relu, rows 3 and 4: status=%d error=\"%s\"\n", status,
         model_last_error());
  x[0] = -1.0f;
  x[1] = 2.0f;
  status = model_relu_dynamic(x, 3, 4, y, 3, 4);
  printf("relu, rows 3 and 3: status=%d error=\"%s\" y=%g,%g\n", status,
         model_last_error(), y[0], y[1]);
  return 0;
}
