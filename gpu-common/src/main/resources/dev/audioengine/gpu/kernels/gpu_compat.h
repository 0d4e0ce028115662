// gpu_compat.h: every difference between CUDA (NVRTC) and HIP (hipRTC) that the kernels meet.
// Kernel sources include only this header and ae_tensor.h; they use the gc_* names below and
// never a vendor macro, type or intrinsic directly. Both NVRTC and hipRTC compile this file; the few
// places where the vendors differ are under GC_HIP (hipRTC defines __HIPCC_RTC__, hipcc/clang __HIP__).
#ifndef AE_GPU_COMPAT_H
#define AE_GPU_COMPAT_H

#if defined(__HIPCC_RTC__) || defined(__HIP__)
#define GC_HIP 1
#endif

// Kernels are looked up by name from the host, so they are not C++-mangled.
#define GC_KERNEL extern "C" __global__
#define GC_DEVICE __device__ __forceinline__
#define GC_SHARED __shared__
#define GC_RESTRICT __restrict__
#define GC_ALIGN(n) __align__(n)
// At most `threads` threads a block, and (CUDA) registers capped so that `blocks` blocks fit on one multiprocessor;
// HIP's second argument means waves per execution unit, so only the first is given there.
#ifdef GC_HIP
#define GC_BOUNDS(threads, blocks) __launch_bounds__(threads)
#else
#define GC_BOUNDS(threads, blocks) __launch_bounds__(threads, blocks)
#endif

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned char u8;

GC_DEVICE int gc_tid() { return (int) threadIdx.x; }
GC_DEVICE int gc_tid_y() { return (int) threadIdx.y; }
GC_DEVICE int gc_block_dim() { return (int) blockDim.x; }
GC_DEVICE i64 gc_block() { return (i64) blockIdx.x; }
GC_DEVICE i64 gc_block_y() { return (i64) blockIdx.y; }
GC_DEVICE i64 gc_block_z() { return (i64) blockIdx.z; }
/** First index and stride of a grid-stride loop over a 1-D launch. */
GC_DEVICE i64 gc_global_id() { return (i64) blockIdx.x * blockDim.x + threadIdx.x; }
GC_DEVICE i64 gc_global_stride() { return (i64) gridDim.x * blockDim.x; }
GC_DEVICE i64 gc_grid_dim_y() { return (i64) gridDim.y; }
GC_DEVICE void gc_sync() { __syncthreads(); }

// Lanes per warp: 32 on NVIDIA; on AMD 64 (wave64: gfx9, CDNA) or 32 (wave32: gfx10 and later), fixed at
// compile time for the target. Code that reduces within a warp must use GC_WARP_SIZE, never 32.
#ifdef GC_HIP
#define GC_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE
/** v from lane (this lane ^ mask) of the warp; every lane of the warp must take part. */
GC_DEVICE float gc_shfl_xor(float v, int mask) { return __shfl_xor(v, mask); }
#else
#define GC_WARP_SIZE 32
GC_DEVICE float gc_shfl_xor(float v, int mask) { return __shfl_xor_sync(0xffffffffu, v, mask); }
#endif
/** *p += v atomically in device memory (relaxed; the same name and semantics on both vendors). */
GC_DEVICE float gc_atomic_add(float* p, float v) { return atomicAdd(p, v); }

/** A value another block may have written during this kernel: read from the coherent level, never a stale L1 line. */
GC_DEVICE float gc_load_coherent(const float* p) { return *(const volatile float*) p; }

/**
 * Every block that shares *counter waits here until target arrivals are counted (target = blocks x barriers so far;
 * the counter starts at 0). Writes before the barrier are visible to every block after it. Only for grids whose
 * blocks are all resident at once: a block waiting for one not yet scheduled would wait forever.
 */
GC_DEVICE void gc_grid_barrier(u32* counter, u32 target) {
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        __threadfence();
        atomicAdd(counter, 1u);
        while (*(volatile u32*) counter < target) {}
        __threadfence();
    }
    __syncthreads();
}

GC_DEVICE float gc_as_float(u32 bits) { return __uint_as_float(bits); }
GC_DEVICE u32 gc_as_uint(float v) { return __float_as_uint(v); }
/** Separately rounded multiply and add (never contracted into an FMA), where results must match Java bit for bit. */
#ifdef GC_HIP
// HIP's __fmul_rn/__fadd_rn are plain a*b and a+b, which clang fuses into an FMA once inlined
// (-ffp-contract=fast-honor-pragmas is hipRTC's default); the pragma keeps these two unfused.
GC_DEVICE float gc_mul_rn(float a, float b) {
#pragma clang fp contract(off)
    return a * b;
}
GC_DEVICE float gc_add_rn(float a, float b) {
#pragma clang fp contract(off)
    return a + b;
}
#else
GC_DEVICE float gc_mul_rn(float a, float b) { return __fmul_rn(a, b); }
GC_DEVICE float gc_add_rn(float a, float b) { return __fadd_rn(a, b); }
#endif
GC_DEVICE float gc_inf() { return __uint_as_float(0x7f800000u); }
GC_DEVICE float gc_nan() { return __uint_as_float(0x7fc00000u); }
GC_DEVICE bool gc_isnan(float v) { return v != v; }

/** sin(pi*x) and cos(pi*x) with the argument reduction done exactly on x. */
GC_DEVICE void gc_sincospi(float x, float* s, float* c) { sincospif(x, s, c); }
GC_DEVICE void gc_sincos_d(double x, double* s, double* c) { sincos(x, s, c); }

// Half and bfloat16 are handled as raw 16-bit patterns, converted in software with
// round-to-nearest-even, so neither vendor's half header is needed.
GC_DEVICE float gc_f16_to_f32(u16 h) {
    u32 sign = ((u32) h & 0x8000u) << 16, exp = ((u32) h >> 10) & 0x1fu, mant = (u32) h & 0x3ffu;
    if (exp == 0) {
        float v = (float) mant * 5.9604644775390625e-8f; // 2^-24
        return sign ? -v : v;
    }
    if (exp == 31) return gc_as_float(sign | 0x7f800000u | (mant << 13));
    return gc_as_float(sign | ((exp + 112u) << 23) | (mant << 13));
}

GC_DEVICE u16 gc_f32_to_f16(float f) {
    u32 x = gc_as_uint(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (u16) (sign | 0x7e00u);
    if (ax >= 0x477ff000u) return (u16) (sign | 0x7c00u);        // >= 65520 rounds to infinity
    if (ax < 0x38800000u) {                                      // below 2^-14: half subnormal or zero
        float v = gc_as_float(ax) * 16777216.0f;                 // exact: scales by 2^24
        return (u16) (sign | (u32) rintf(v));                    // rintf rounds half to even
    }
    ax -= 0x38000000u;                                           // rebias the exponent 127 -> 15
    ax = ax + 0x0fffu + ((ax >> 13) & 1u);
    return (u16) (sign | (ax >> 13));
}

GC_DEVICE float gc_bf16_to_f32(u16 h) { return gc_as_float((u32) h << 16); }

GC_DEVICE u16 gc_f32_to_bf16(float f) {
    u32 x = gc_as_uint(f);
    if (gc_isnan(f)) return (u16) ((x >> 16) | 0x40u);
    return (u16) ((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

#endif
