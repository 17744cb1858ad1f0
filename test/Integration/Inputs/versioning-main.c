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
enum { CI = 3, H = 6, W = 5, CO = 8, R = 3, OH = 3, OW = 3 };

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

/* The generic convolutions: GCI -> GCO channels, 3x3, padding 1, the
 * output starting as NaN (an element not computed is wrong). */
enum { GCI = 19, GCO = 33 };
static int checkGenericConv(Conv *conv, const char *name, int64_t stride,
                            int64_t n, int64_t h, int64_t w) {
  int64_t oh = (h - 1) / stride + 1, ow = (w - 1) / stride + 1;
  int64_t xs = n * GCI * h * w, ys = n * GCO * oh * ow, ws = GCO * GCI * 9;
  float *x = malloc(sizeof(float) * (xs ? xs : 1));
  float *f = malloc(sizeof(float) * ws);
  float *y = malloc(sizeof(float) * (ys ? ys : 1));
  for (int64_t i = 0; i < xs; ++i)
    x[i] = value(i);
  for (int64_t i = 0; i < ws; ++i)
    f[i] = value(i + 3) * 0.25f;
  for (int64_t i = 0; i < ys; ++i)
    y[i] = NAN;
  conv(PASS4(x, n, GCI, h, w), PASS4(f, GCO, GCI, 3, 3),
       PASS4(y, n, GCO, oh, ow));
  int ok = 1;
  for (int64_t i = 0; i < ys && ok; ++i) {
    int64_t col = i % ow, row = i / ow % oh, co = i / (ow * oh) % GCO,
            img = i / (ow * oh * GCO);
    double sum = 0.0;
    for (int64_t ci = 0; ci < GCI; ++ci)
      for (int64_t r = 0; r < 3; ++r)
        for (int64_t s = 0; s < 3; ++s) {
          int64_t ih = row * stride - 1 + r, iw = col * stride - 1 + s;
          if (ih < 0 || ih >= h || iw < 0 || iw >= w)
            continue;
          sum += (double)x[((img * GCI + ci) * h + ih) * w + iw] *
                 f[((co * GCI + ci) * 3 + r) * 3 + s];
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
    ok &= checkConv(n);
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
        ok &= checkGenericConv(generic_conv, "generic conv", 1, images[i],
                               heights[j], widths[k]);
        /* Strided: widths * 2 - 1 and * 2 give the same output widths. */
        ok &= checkGenericConv(generic_conv_strided, "generic conv strided", 2,
                               images[i], heights[j], 2 * widths[k] - 1);
        ok &= checkGenericConv(generic_conv_strided, "generic conv strided", 2,
                               images[i], heights[j], 2 * widths[k]);
      }
  printf("generic conv: %d sizes %s\n", sizes, ok ? "ok" : "FAILED");
  return 0;
}
