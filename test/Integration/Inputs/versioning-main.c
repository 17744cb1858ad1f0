/* Calls the dl-compiled @versioned_gemm (M dynamic) and @versioned_conv (N
 * dynamic) at many sizes and checks every output element against a
 * reference loop: the versions must cover each size's rows exactly once. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MEMREF2 float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t
#define MEMREF4                                                                \
  float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,      \
      int64_t, int64_t, int64_t
void versioned_gemm(MEMREF2, MEMREF2, MEMREF2);
void versioned_conv(MEMREF4, MEMREF4, MEMREF4);
#define PASS2(buf, rows, cols) buf, buf, 0, rows, cols, cols, 1
#define PASS4(buf, n, c, h, w)                                                 \
  buf, buf, 0, n, c, h, w, (c) * (h) * (w), (h) * (w), w, 1

enum { K = 40, N = 96 };
enum { CI = 3, H = 6, W = 5, CO = 8, R = 3, OH = 3, OW = 3 };

static float value(int64_t i) { return (float)((i * 37 + 11) % 19) - 9.0f; }

static int checkGemm(int64_t m) {
  float *a = malloc(sizeof(float) * (m ? m : 1) * K);
  float *b = malloc(sizeof(float) * K * N);
  float *c = malloc(sizeof(float) * (m ? m : 1) * N);
  for (int64_t i = 0; i < m * K; ++i)
    a[i] = value(i);
  for (int64_t i = 0; i < K * N; ++i)
    b[i] = value(i + 5) * 0.5f;
  for (int64_t i = 0; i < m * N; ++i)
    c[i] = 1.0f;
  versioned_gemm(PASS2(a, m, K), PASS2(b, K, N), PASS2(c, m, N));
  int ok = 1;
  for (int64_t i = 0; i < m && ok; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 1.0;
      for (int64_t k = 0; k < K; ++k)
        sum += (double)a[i * K + k] * b[k * N + j];
      if (fabs(sum - c[i * N + j]) > 1e-3 * (1.0 + fabs(sum))) {
        printf("gemm M=%lld: C[%lld][%lld] = %g, expected %g\n", (long long)m,
               (long long)i, (long long)j, c[i * N + j], sum);
        ok = 0;
        break;
      }
    }
  free(a);
  free(b);
  free(c);
  return ok;
}

static int checkConv(int64_t n) {
  int64_t xs = n * CI * H * W, ys = n * CO * OH * OW;
  float *x = malloc(sizeof(float) * (xs ? xs : 1));
  float *w = malloc(sizeof(float) * CO * CI * R * R);
  float *y = malloc(sizeof(float) * (ys ? ys : 1));
  for (int64_t i = 0; i < xs; ++i)
    x[i] = value(i);
  for (int64_t i = 0; i < CO * CI * R * R; ++i)
    w[i] = value(i + 3) * 0.25f;
  for (int64_t i = 0; i < ys; ++i)
    y[i] = NAN;
  versioned_conv(PASS4(x, n, CI, H, W), PASS4(w, CO, CI, R, R),
                 PASS4(y, n, CO, OH, OW));
  int ok = 1;
  for (int64_t i = 0; i < ys && ok; ++i) {
    int64_t ow = i % OW, oh = i / OW % OH, co = i / (OW * OH) % CO,
            img = i / (OW * OH * CO);
    double sum = 0.0;
    for (int64_t ci = 0; ci < CI; ++ci)
      for (int64_t r = 0; r < R; ++r)
        for (int64_t s = 0; s < R; ++s) {
          int64_t ih = oh * 2 - 1 + r, iw = ow * 2 - 1 + s;
          if (ih < 0 || ih >= H || iw < 0 || iw >= W)
            continue;
          sum += (double)x[((img * CI + ci) * H + ih) * W + iw] *
                 w[((co * CI + ci) * R + r) * R + s];
        }
    if (!(fabs(sum - y[i]) <= 1e-3 * (1.0 + fabs(sum)))) {
      printf("conv N=%lld: element %lld = %g, expected %g\n", (long long)n,
             (long long)i, y[i], sum);
      ok = 0;
    }
  }
  free(x);
  free(w);
  free(y);
  return ok;
}

int main(void) {
  /* Every size up to 300 (all remainders of the versions up to 256 rows),
   * then a few large ones. */
  static const int64_t large[] = {4095, 4096, 4097, 8192 + 4096 + 5,
                                  4096 + 255};
  int sizes = 0, ok = 1;
  for (int64_t m = 0; m <= 299; ++m, ++sizes)
    ok &= checkGemm(m);
  for (unsigned i = 0; i < sizeof(large) / sizeof(large[0]); ++i, ++sizes)
    ok &= checkGemm(large[i]);
  printf("gemm: %d sizes %s\n", sizes, ok ? "ok" : "FAILED");
  sizes = 0;
  ok = 1;
  for (int64_t n = 0; n <= 20; ++n, ++sizes)
    ok &= checkConv(n);
  printf("conv: %d sizes %s\n", sizes, ok ? "ok" : "FAILED");
  return 0;
}
