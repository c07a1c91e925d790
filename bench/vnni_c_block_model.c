// A model, in C, of the register-block loop tritium's dot-product path emits for an int8 matmul
// (tritium-cpu-matmuls-to-dot-product-instructions: C blocks of 8 rows x 32 columns, 16 int32
// accumulators summed with vpdpbusd, A packed into words of 4 K neighbours and broadcast, B
// packed into rows of such words), for a program's C tile of 256x128 int32 (128 KB, in L2).
// Each line sums a given number of K groups (4 int8 each) into every C block between the
// block's load and its store: 16 is a kernel's `acc = tl.dot(a, b, acc)` at BLOCK_K = 64; a
// chain of several such products (the K loop unrolled, each product's operands packed apart)
// sums more per round trip. It measures what a change of the emitted loop could gain before
// anyone builds it; it is not a benchmark of tritium (bench_matmul.py is). The first line is the
// core's vpdpbusd peak (products on registers only), measured in the same run.
//
//   gcc -O3 -march=native bench/vnni_c_block_model.c -o /tmp/vnni_model && /tmp/vnni_model
//
// Needs AVX512-VNNI.

#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { BM = 256, BN = 128, STEP_GROUPS = 16, WORK = 1 << 16 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/// C [BM x BN] += the chain of `products` products A_p [BM x 16 groups] x B_p [16 groups x BN],
/// C blocks of 8 x 32 kept in registers over the whole chain.
static void chain(int32_t *c, int32_t *const *a, int32_t *const *b, int products) {
  for (int m = 0; m < BM; m += 8)
    for (int n = 0; n < BN; n += 32) {
      __m512i acc[8][2];
#pragma GCC unroll 8
      for (int i = 0; i < 8; i++) {
        acc[i][0] = _mm512_load_si512(c + (m + i) * BN + n);
        acc[i][1] = _mm512_load_si512(c + (m + i) * BN + n + 16);
      }
      for (int p = 0; p < products; p++)
        for (int k = 0; k < STEP_GROUPS; k++) {
          __m512i b0 = _mm512_load_si512(b[p] + k * BN + n);
          __m512i b1 = _mm512_load_si512(b[p] + k * BN + n + 16);
#pragma GCC unroll 8
          for (int i = 0; i < 8; i++) {
            __m512i word = _mm512_set1_epi32(a[p][(m + i) * STEP_GROUPS + k]);
            acc[i][0] = _mm512_dpbusd_epi32(acc[i][0], word, b0);
            acc[i][1] = _mm512_dpbusd_epi32(acc[i][1], word, b1);
          }
        }
#pragma GCC unroll 8
      for (int i = 0; i < 8; i++) {
        _mm512_store_si512(c + (m + i) * BN + n, acc[i][0]);
        _mm512_store_si512(c + (m + i) * BN + n + 16, acc[i][1]);
      }
    }
}

/// Products on registers only: 16 independent accumulators.
static double peak(void) {
  __m512i acc[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; i++)
    acc[i] = _mm512_set1_epi32(i);
  __m512i x = _mm512_set1_epi32(0x01010101);
  long rounds = 50000000;
  double t = now();
  for (long r = 0; r < rounds; r++) {
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
      acc[i] = _mm512_dpbusd_epi32(acc[i], x, x);
    __asm__ volatile("" : "+v"(x));
  }
  t = now() - t;
  int sum = 0;
  for (int i = 0; i < 16; i++)
    sum += _mm512_reduce_add_epi32(acc[i]);
  if (sum == 42)
    puts("");
  return rounds * 16 * 128.0 / t / 1e9;
}

int main(void) {
  printf("vpdpbusd peak (registers only): %.0f GOP/s\n", peak());
  int32_t *c = aligned_alloc(64, BM * BN * 4), *a[8], *b[8];
  for (int i = 0; i < BM * BN; i++)
    c[i] = 0;
  for (int p = 0; p < 8; p++) {
    a[p] = aligned_alloc(64, BM * STEP_GROUPS * 4);
    b[p] = aligned_alloc(64, STEP_GROUPS * BN * 4);
    for (int i = 0; i < BM * STEP_GROUPS; i++)
      a[p][i] = 0x01010101;
    for (int i = 0; i < STEP_GROUPS * BN; i++)
      b[p][i] = 0x01010101;
  }
  for (int products = 1; products <= 8; products *= 2) {
    long calls = WORK / products;
    double best = 0;
    for (int trial = 0; trial < 3; trial++) {
      double t = now();
      for (long r = 0; r < calls; r++)
        chain(c, a, b, products);
      t = now() - t;
      double rate = 2.0 * BM * BN * STEP_GROUPS * 4 * products * calls / t / 1e9;
      best = rate > best ? rate : best;
    }
    printf("%3d K groups per C round trip (%d product%s): %.0f GOP/s\n", STEP_GROUPS * products,
           products, products > 1 ? "s" : "", best);
  }
  return c[5] == 42;
}
