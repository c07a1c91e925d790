// A model, in C, of the tile loop tritium's AMX path emits for a bf16 matmul (1024^3, programs of
// 256x128 C, K summed in runs of 8 tile steps between a C tile's load and store, 2x2 C tiles,
// A read where it lies, B packed per column block), with variants of where the C block lives.
// It measures what a change of the emitted code could gain before anyone builds it; it is not a
// benchmark of tritium (bench_matmul.py is). Every line is measured in the same run, beside the
// core's tdpbf16ps peak (a loop of products on tiles that stay in registers); the last two lines
// run the same tile loop with its operands confined to L2 and to L1, to show what the loop's
// tile loads cost from where its data lives.
//
//   gcc -O2 -mavx512f -mamx-tile -mamx-bf16 bench/amx_c_block_model.c -o /tmp/amx_model && /tmp/amx_model
//
// Linux only, on a host with AMX-BF16 (the process asks the kernel for the tile state first).

#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { S = 1024, BM = 256, BN = 128, STEP_K = 32, RUN = 8, REPS = 100 };
enum { ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA = 18 };

typedef struct {
  uint8_t palette, start_row, reserved[14];
  uint16_t bytes_per_row[16];
  uint8_t rows[16];
} TileConfig;

typedef enum {
  CURRENT,          // C buffer zero-filled per program, copied to the output at the end
  FROM_TILEZERO,    // no fill: the first run starts from tilezero; copy kept
  STREAMING_COPY,   // the copy to the output with non-temporal stores
  IN_THE_OUTPUT,    // C accumulated where it ends up; the first run from tilezero, no copy
  LAST_TO_OUTPUT,   // the first run from tilezero, the last one's tiles stored to the output
  TILE_LOOP_ONLY,   // no fill, no copy (wrong result): what the tile loop alone costs
  L2_OPERANDS,      // the tile loop alone, A and B read within a K window of 256 (L2-resident)
  L1_OPERANDS,      // the tile loop alone, every step reading the same A and B tiles (L1)
} Variant;

static const char *names[] = {"C buffer, zero fill + copy to the output (what tritium emits)",
                              "C buffer, first run from tilezero, copy kept",
                              "C buffer, zero fill + non-temporal copy",
                              "C accumulated in the output, first run from tilezero",
                              "first run from tilezero, last run stored to the output",
                              "tile loop alone (no fill, no copy; an upper bound)",
                              "tile loop alone, A and B within a K window of 256 (L2)",
                              "tile loop alone, the same A and B tiles every step (L1)"};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint16_t *a, *packedB; // A: S x S bf16 rows; B: per column block, [S/2][BN][2]
static float *out, block[BM * BN] __attribute__((aligned(64)));

static double run(Variant variant) {
  double start = now();
  for (int rep = 0; rep < REPS; ++rep)
    for (int pn = 0; pn < S / BN; ++pn)
      for (int pm = 0; pm < S / BM; ++pm) {
        float *c = variant == IN_THE_OUTPUT ? out + (size_t)pm * BM * S + pn * BN : block;
        size_t cStride = (variant == IN_THE_OUTPUT ? S : BN) * sizeof(float);
        size_t cRow = cStride / sizeof(float);
        if (variant == CURRENT || variant == STREAMING_COPY)
          memset(block, 0, sizeof block);
        for (int k0 = 0; k0 < S; k0 += RUN * STEP_K)
          for (int m = 0; m < BM; m += 32)
            for (int n = 0; n < BN; n += 32) {
              float *t = c + (size_t)m * cRow + n;
              if (k0 == 0 && variant != CURRENT && variant != STREAMING_COPY) {
                _tile_zero(0); _tile_zero(1); _tile_zero(2); _tile_zero(3);
              } else {
                _tile_loadd(0, t, cStride); _tile_loadd(1, t + 16, cStride);
                _tile_loadd(2, t + 16 * cRow, cStride); _tile_loadd(3, t + 16 * cRow + 16, cStride);
              }
              for (int k = k0; k < k0 + RUN * STEP_K; k += STEP_K) {
                // Where the operands come from: the whole K (the emitted loop), a window of K that
                // stays in L2, or one step's tiles that stay in L1.
                int kk = variant == L2_OPERANDS ? k % 256 : variant == L1_OPERANDS ? 0 : k;
                int mm = variant == L1_OPERANDS ? 0 : m, nn = variant == L1_OPERANDS ? 0 : n;
                const uint16_t *rowA = a + (size_t)(pm * BM + mm) * S + kk;
                _tile_loadd(4, rowA, S * 2); _tile_loadd(5, rowA + 16 * S, S * 2);
                const uint16_t *rowB = packedB + (size_t)pn * S * BN + (size_t)(kk / 2) * BN * 2 + nn * 2;
                _tile_loadd(6, rowB, BN * 4); _tile_loadd(7, rowB + 32, BN * 4);
                _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
                _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
              }
              if (variant == LAST_TO_OUTPUT && k0 + RUN * STEP_K == S) {
                t = out + (size_t)(pm * BM + m) * S + pn * BN + n;
                _tile_stored(0, t, S * 4); _tile_stored(1, t + 16, S * 4);
                _tile_stored(2, t + 16 * S, S * 4); _tile_stored(3, t + 16 * S + 16, S * 4);
                continue;
              }
              _tile_stored(0, t, cStride); _tile_stored(1, t + 16, cStride);
              _tile_stored(2, t + 16 * cRow, cStride); _tile_stored(3, t + 16 * cRow + 16, cStride);
            }
        float *o = out + (size_t)pm * BM * S + pn * BN;
        if (variant == CURRENT || variant == FROM_TILEZERO)
          for (int i = 0; i < BM; ++i)
            memcpy(o + (size_t)i * S, block + i * BN, BN * sizeof(float));
        else if (variant == STREAMING_COPY)
          for (int i = 0; i < BM; ++i)
            for (int j = 0; j < BN; j += 16)
              _mm512_stream_ps(o + (size_t)i * S + j, _mm512_load_ps(block + i * BN + j));
      }
  _mm_sfence();
  return 2.0 * S * S * S * REPS / (now() - start) / 1e9;
}

static double peak(void) {
  enum { N = 2000000 };
  double start = now();
  _tile_zero(0); _tile_zero(1); _tile_zero(2); _tile_zero(3);
  _tile_loadd(4, a, 64); _tile_loadd(5, a, 64); _tile_loadd(6, a, 64); _tile_loadd(7, a, 64);
  for (long i = 0; i < N; ++i) {
    _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
  }
  _tile_stored(0, block, 64);
  return 4.0 * N * 16 * 16 * 32 * 2 / (now() - start) / 1e9;
}

int main(void) {
  if (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) != 0) {
    fprintf(stderr, "this host gives no AMX tile state (no AMX, or not Linux)\n");
    return 1;
  }
  TileConfig config = {.palette = 1};
  for (int i = 0; i < 8; ++i) {
    config.rows[i] = 16;
    config.bytes_per_row[i] = 64;
  }
  _tile_loadconfig(&config);
  a = aligned_alloc(64, (size_t)S * S * 2);
  packedB = aligned_alloc(64, (size_t)S * S * 2);
  out = aligned_alloc(64, (size_t)S * S * sizeof(float));
  memset(a, 0, (size_t)S * S * 2);
  memset(packedB, 0, (size_t)S * S * 2);
  memset(out, 0, (size_t)S * S * sizeof(float));
  printf("tdpbf16ps peak of this core: %.0f GFLOP/s\n", peak());
  for (int round = 0; round < 2; ++round)
    for (Variant v = CURRENT; v <= L1_OPERANDS; ++v)
      printf("%-62s %6.0f GFLOP/s\n", names[v], run(v));
  _tile_release();
  return 0;
}
