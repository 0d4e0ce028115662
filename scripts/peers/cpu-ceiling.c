/*
 * What one core of this machine can do, for the CPU figures in docs/PERFORMANCE.md (Moonshine, "what bounds it now"):
 * a register-only FMA loop (512- and 256-bit), the GEMM micro-kernel's MR x NR tile in C (12 x 32, 8 x 48, 6 x 64 over
 * L1-resident panels laid out as the engine's Gemm packs them) and a single-thread read of a buffer past the caches.
 *
 *   gcc -O3 -mavx512f -mfma scripts/peers/cpu-ceiling.c -o /tmp/cpu-ceiling && /tmp/cpu-ceiling
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

static void fma_peak(void) {
    __m512 a[12], x = _mm512_set1_ps(1.0000001f), y = _mm512_set1_ps(0.9999999f);
    for (int i = 0; i < 12; i++) a[i] = _mm512_set1_ps((float) i);
    long n = 100000000; double t = now();
    for (long k = 0; k < n; k++) {
#pragma GCC unroll 12
        for (int i = 0; i < 12; i++) a[i] = _mm512_fmadd_ps(a[i], x, y);
    }
    t = now() - t; float s = 0; for (int i = 0; i < 12; i++) s += _mm512_reduce_add_ps(a[i]);
    printf("register-only FMA, 512-bit, 12 chains: %6.1f GFLOP/s (%g)\n", n * 12 * 32.0 / t / 1e9, s);
}

/* tile[r][v] = sum_kk a[kk*MR + r] * b[kk*NV*16 + v*16 ..], as Gemm's microKernel12 does for MR = 12, NV = 2 */
#define KERNEL(MR, NV)                                                                                              \
    __attribute__((noinline, noipa)) static void mk_##MR##x##NV(const float* a, const float* b, int kc, float* tile) { \
        __m512 c[MR][NV];                                                                                           \
        for (int r = 0; r < MR; r++) for (int v = 0; v < NV; v++) c[r][v] = _mm512_setzero_ps();                    \
        for (int kk = 0; kk < kc; kk++) {                                                                           \
            __m512 bv[NV];                                                                                          \
            for (int v = 0; v < NV; v++) bv[v] = _mm512_loadu_ps(b + kk * 16 * NV + 16 * v);                      \
            _Pragma("GCC unroll 12") for (int r = 0; r < MR; r++) {                                                \
                __m512 x = _mm512_set1_ps(a[kk * MR + r]);                                                          \
                for (int v = 0; v < NV; v++) c[r][v] = _mm512_fmadd_ps(x, bv[v], c[r][v]);                          \
            }                                                                                                       \
        }                                                                                                           \
        for (int r = 0; r < MR; r++) for (int v = 0; v < NV; v++) _mm512_storeu_ps(tile + (r * NV + v) * 16, c[r][v]); \
    }
KERNEL(12, 2)
KERNEL(8, 3)
KERNEL(6, 4)

static void time_kernel(const char* name, void (*mk)(const float*, const float*, int, float*), int mr, int nv) {
    int kc = 416;
    float *a = aligned_alloc(64, 64 * kc * 4), *b = aligned_alloc(64, 64 * kc * 4), *tile = aligned_alloc(64, 64 * 64 * 4);
    for (int i = 0; i < 64 * kc; i++) { a[i] = (i % 7) * 0.1f; b[i] = (i % 5) * 0.1f; }
    int it = 100000; double t = now();
    for (int i = 0; i < it; i++) { mk(a, b, kc, tile); __asm__ volatile("" ::: "memory"); }
    t = now() - t;
    printf("micro-kernel %-6s k=%d:                %6.1f GFLOP/s\n", name, kc, 2.0 * mr * 16 * nv * kc * it / t / 1e9);
    free(a); free(b); free(tile);
}

static void read_bandwidth(size_t mb) {
    size_t n = mb << 20; char* p = aligned_alloc(64, n);
    for (size_t i = 0; i < n; i++) p[i] = (char) i;
    for (int r = 0; r < 3; r++) {
        double t = now(); __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
        for (size_t i = 0; i < n; i += 256) {
            a = _mm512_add_epi32(a, _mm512_load_si512(p + i)); b = _mm512_add_epi32(b, _mm512_load_si512(p + i + 64));
            c = _mm512_add_epi32(c, _mm512_load_si512(p + i + 128)); d = _mm512_add_epi32(d, _mm512_load_si512(p + i + 192));
        }
        t = now() - t; a = _mm512_add_epi32(_mm512_add_epi32(a, b), _mm512_add_epi32(c, d));
        printf("single-thread read of %zu MB:              %6.1f GB/s (%d)\n", mb, n / t / 1e9, _mm512_reduce_add_epi32(a));
    }
    free(p);
}

int main(void) {
    fma_peak();
    time_kernel("12x32", mk_12x2, 12, 2);
    time_kernel("8x48", mk_8x3, 8, 3);
    time_kernel("6x64", mk_6x4, 6, 4);
    read_bandwidth(512);
    return 0;
}
