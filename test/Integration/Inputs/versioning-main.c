/* Calls the dl-compiled @versioned_gemm (M dynamic), @versioned_conv (N
 * dynamic), @generic_gemm (M, N, K dynamic: occupancy versions) and
 * @generic_conv and @generic_conv_strided (N, H, W dynamic: blocked, output
 * rows in blocks of 128 columns) at many sizes and checks every output
 * element against a reference loop: the versions must cover each size's
 * rows exactly once, and exactly one occupancy version must run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MEMREF2 float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t
#define MEMREF4                                                                \
  float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,      \
      int64_t, int64_t, int64_t
typedef void Gemm(MEMREF2, MEMREF2, MEMREF2);
Gemm versioned_gemm, generic_gemm;
typedef void Conv(MEMREF4, MEMREF4, MEMREF4);
Conv versioned_conv, generic_conv, generic_conv_strided;
#define PASS2(buf, rows, cols) buf, buf, 0, rows, cols, cols, 1
#define PASS4(buf, n, c, h, w)                                                 \
  buf, buf, 0, n, c, h, w, (c) * (h) * (w), (h) * (w), w, 1

enum { K = 40, N = 96 }; /* versioned_gemm's */

static float value(int64_t i) { return (float)((i * 37 + 11) % 19) - 9.0f; }

/* C = 1 + A B (the GEMMs accumulate, beta = 1): a row or column computed
 * twice or never is wrong. */
static int checkGemm(Gemm *gemm, const char *name, int64_t m, int64_t n,
                     int64_t k) {
  float *a = malloc(sizeof(float) * (m * k ? m * k : 1));
  float *b = malloc(sizeof(float) * (k * n ? k * n : 1));
  float *c = malloc(sizeof(float) * (m * n ? m * n : 1));
  for (int64_t i = 0; i < m * k; ++i)
    a[i] = value(i);
  for (int64_t i = 0; i < k * n; ++i)
    b[i] = value(i + 5) * 0.5f;
  for (int64_t i = 0; i < m * n; ++i)
    c[i] = 1.0f;
  gemm(PASS2(a, m, k), PASS2(b, k, n), PASS2(c, m, n));
  int ok = 1;
  for (int64_t i = 0; i < m && ok; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 1.0;
      for (int64_t p = 0; p < k; ++p)
        sum += (double)a[i * k + p] * b[p * n + j];
      if (fabs(sum - c[i * n + j]) > 1e-3 * (1.0 + fabs(sum))) {
        printf("%s M=%lld N=%lld K=%lld: C[%lld][%lld] = %g, expected %g\n",
               name, (long long)m, (long long)n, (long long)k, (long long)i,
               (long long)j, c[i * n + j], sum);
        ok = 0;
        break;
      }
    }
  free(a);
  free(b);
  free(c);
  return ok;
}

/* A convolution from ci to co channels, 3x3, padding 1, at n images of
 * h x w, its output starting as NaN (an element not computed is wrong). */
static int checkConv(Conv *conv, const char *name, int64_t ci, int64_t co,
                     int64_t stride, int64_t n, int64_t h, int64_t w) {
  int64_t oh = (h - 1) / stride + 1, ow = (w - 1) / stride + 1;
  int64_t xs = n * ci * h * w, ys = n * co * oh * ow, ws = co * ci * 9;
  float *x = malloc(sizeof(float) * (xs ? xs : 1));
  float *f = malloc(sizeof(float) * ws);
  float *y = malloc(sizeof(float) * (ys ? ys : 1));
  for (int64_t i = 0; i < xs; ++i)
    x[i] = value(i);
  for (int64_t i = 0; i < ws; ++i)
    f[i] = value(i + 3) * 0.25f;
  for (int64_t i = 0; i < ys; ++i)
    y[i] = NAN;
  conv(PASS4(x, n, ci, h, w), PASS4(f, co, ci, 3, 3), PASS4(y, n, co, oh, ow));
  int ok = 1;
  for (int64_t i = 0; i < ys && ok; ++i) {
    int64_t col = i % ow, row = i / ow % oh, k = i / (ow * oh) % co,
            img = i / (ow * oh * co);
    double sum = 0.0;
    for (int64_t c = 0; c < ci; ++c)
      for (int64_t r = 0; r < 3; ++r)
        for (int64_t s = 0; s < 3; ++s) {
          int64_t ih = row * stride - 1 + r, iw = col * stride - 1 + s;
          if (ih < 0 || ih >= h || iw < 0 || iw >= w)
            continue;
          sum += (double)x[((img * ci + c) * h + ih) * w + iw] *
                 f[((k * ci + c) * 3 + r) * 3 + s];
        }
    if (!(fabs(sum - y[i]) <= 1e-3 * (1.0 + fabs(sum)))) {
      printf("%s N=%lld H=%lld W=%lld: element %lld = %g, expected %g\n", name,
             (long long)n, (long long)h, (long long)w, (long long)i, y[i], sum);
      ok = 0;
    }
  }
  free(x);
  free(f);
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
    ok &= checkGemm(versioned_gemm, "gemm", m, N, K);
  for (unsigned i = 0; i < sizeof(large) / sizeof(large[0]); ++i, ++sizes)
    ok &= checkGemm(versioned_gemm, "gemm", large[i], N, K);
  printf("gemm: %d sizes %s\n", sizes, ok ? "ok" : "FAILED");
  /* Both sides of each occupancy guard (at 2 threads and occupancy 4,
   * M <= 7 and N <= 7), a reduction of 0 included. */
  static const int64_t mn[] = {0, 1, 2, 7, 8, 9, 33};
  static const int64_t ks[] = {0, 1, 17};
  sizes = 0;
  ok = 1;
  for (unsigned i = 0; i < 7; ++i)
    for (unsigned j = 0; j < 7; ++j)
      for (unsigned p = 0; p < 3; ++p, ++sizes)
        ok &= checkGemm(generic_gemm, "generic gemm", mn[i], mn[j], ks[p]);
  printf("generic gemm: %d sizes %s\n", sizes, ok ? "ok" : "FAILED");
  sizes = 0;
  ok = 1;
  for (int64_t n = 0; n <= 20; ++n, ++sizes)
    ok &= checkConv(versioned_conv, "conv", 3, 8, 2, n, 6, 5);
  printf("conv: %d sizes %s\n", sizes, ok ? "ok" : "FAILED");
  /* Output widths on both sides of each block of 128 columns, images and
   * rows below and above the threads. */
  static const int64_t images[] = {0, 1, 3}, heights[] = {1, 4};
  static const int64_t widths[] = {1, 2, 127, 128, 129, 130, 257, 258};
  sizes = 0;
  ok = 1;
  for (unsigned i = 0; i < 3; ++i)
    for (unsigned j = 0; j < 2; ++j)
      for (unsigned k = 0; k < 8; ++k, ++sizes) {
        ok &= checkConv(generic_conv, "generic conv", 19, 33, 1, images[i],
                        heights[j], widths[k]);
        /* Strided: widths * 2 - 1 and * 2 give the same output widths. */
        ok &= checkConv(generic_conv_strided, "generic conv strided", 19, 33, 2,
                        images[i], heights[j], 2 * widths[k] - 1);
        ok &= checkConv(generic_conv_strided, "generic conv strided", 19, 33, 2,
                        images[i], heights[j], 2 * widths[k]);
      }
  printf("generic conv: %d sizes %s\n", sizes, ok ? "ok" : "FAILED");
  return 0;
}
