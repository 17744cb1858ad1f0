/* Calls the dl-compiled @dynamic_matmul (memref<?x?xf32> operands) from C,
 * first with consistent sizes (prints "consistent: ok"), then with K of A
 * (16) different from K of B (12): the run-time size check must stop the
 * program (abort) before any out-of-bounds access, printing its message. */
#include <stdint.h>
#include <stdio.h>

#define MEMREF(name)                                                           \
  float *, float *, int64_t, int64_t, int64_t, int64_t, int64_t
void dynamic_matmul(MEMREF(a), MEMREF(b), MEMREF(c));
#define PASS(buf, rows, cols) buf, buf, 0, rows, cols, cols, 1

static float a[8 * 16], b[16 * 4], c[8 * 4];

int main(void) {
  /* cf.assert's message goes to stdout, which abort does not flush. */
  setvbuf(stdout, NULL, _IONBF, 0);
  for (int i = 0; i < 8 * 16; ++i)
    a[i] = 1.0f;
  for (int i = 0; i < 16 * 4; ++i)
    b[i] = 2.0f;
  dynamic_matmul(PASS(a, 8, 16), PASS(b, 16, 4), PASS(c, 8, 4));
  printf("consistent: %s\n", c[0] == 32.0f && c[31] == 32.0f ? "ok" : "FAIL");
  dynamic_matmul(PASS(a, 8, 16), PASS(b, 12, 4), PASS(c, 8, 4));
  printf("inconsistent: returned\n");
  return 0;
}
