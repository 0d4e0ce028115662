// Runs gpu-common's kernel sources (layout.cu and linear.cu with the real gpu_compat.h and ae_tensor.h)
// on the host, for tests on machines without a GPU: the CUDA names gpu_compat.h uses are defined here as host code,
// and a launch runs every thread of a block as a host thread (blocks one after another), with __syncthreads a barrier
// of the block and a warp shuffle an exchange through memory between two barriers of the warp. Built with g++ by
// BlockDecodeHostTest; -DHOST_WARP=64 -D__HIP__ -D__AMDGCN_WAVEFRONT_SIZE=64 builds the wave64 (HIP) variant.
//
//   kernels_on_host decode   DT N            BLOCKS OUT   ae_cast_to_f32 of N values of type DT (its ordinal)
//   kernels_on_host quantize DT N            F32    OUT   ae_quantize of N values into blocks of DT
//   kernels_on_host matvec   DT ROWS N K     W X    OUT   ae_matvec_<type>: y [ROWS, N] = x [ROWS, K] w [N, K]^T
//   kernels_on_host matmul   DT M N K        W X    OUT   ae_matmul or ae_matmul_blocks (tiled), same product
// Files are raw little-endian arrays (floats, blocks). sequence.cu's get_rows reads a table element with the same
// ld_any as the cast (its extern shared arrays do not build as host code).
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#define __device__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __global__
#define __shared__ static
#define __restrict__ __restrict
#define __align__(n) alignas(n)

#ifndef HOST_WARP
#define HOST_WARP 32
#endif

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};
thread_local dim3 threadIdx, blockIdx;
dim3 blockDim, gridDim;

static std::barrier<>* blockBarrier;
static std::vector<std::unique_ptr<std::barrier<>>> warpBarriers;
static float exchange[1024];

inline void __syncthreads() { blockBarrier->arrive_and_wait(); }
inline void __threadfence() {}
inline float shfl_xor_host(float v, int mask) {
    int t = (int) (threadIdx.y * blockDim.x + threadIdx.x), w = t / HOST_WARP;
    exchange[t] = v;
    warpBarriers[w]->arrive_and_wait();
    float o = exchange[w * HOST_WARP + ((t % HOST_WARP) ^ mask)];
    warpBarriers[w]->arrive_and_wait();
    return o;
}
inline float __shfl_xor_sync(unsigned, float v, int mask) { return shfl_xor_host(v, mask); }
inline float __shfl_xor(float v, int mask) { return shfl_xor_host(v, mask); }
inline float __uint_as_float(unsigned u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline unsigned __float_as_uint(float f) {
    unsigned u;
    std::memcpy(&u, &f, 4);
    return u;
}
// built with -ffp-contract=off, so these are separately rounded as on the GPU
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float atomicAdd(float* p, float v) {
    float o = *p;
    *p = o + v;
    return o;
}
inline unsigned atomicAdd(unsigned* p, unsigned v) {
    unsigned o = *p;
    *p = o + v;
    return o;
}
inline void sincospif(float x, float* s, float* c) {
    *s = (float) std::sin(M_PI * x);
    *c = (float) std::cos(M_PI * x);
}
using std::max;
using std::min;

#include "layout.cu"
#include "linear.cu"

/** The mat-vec kernel of block type dt, as LinearOps.matvecKernel names it. */
static void matvec(int dt, float* y, const float* x, TD tx, const u8* w, i64 n, i64 k) {
    switch (dt) {
        case DT_Q8_0: ae_matvec_q8_0(y, x, tx, w, n, k); break;
        case DT_Q4_0: ae_matvec_q4_0(y, x, tx, w, n, k); break;
        case DT_Q5_0: ae_matvec_q5_0(y, x, tx, w, n, k); break;
        case DT_Q5_1: ae_matvec_q5_1(y, x, tx, w, n, k); break;
        case DT_Q4_1: ae_matvec_q4_1(y, x, tx, w, n, k); break;
        case DT_Q6_K: ae_matvec_q6_k(y, x, tx, w, n, k); break;
        case DT_Q4_K: ae_matvec_q4_k(y, x, tx, w, n, k); break;
        case DT_Q5_K: ae_matvec_q5_k(y, x, tx, w, n, k); break;
        case DT_Q3_K: ae_matvec_q3_k(y, x, tx, w, n, k); break;
        case DT_Q2_K: ae_matvec_q2_k(y, x, tx, w, n, k); break;
        default: std::fprintf(stderr, "no mat-vec kernel for dtype %d\n", dt); std::exit(2);
    }
}

/** Runs kernel() for every thread of every block of grid x block, one host thread per GPU thread. */
template <class F>
static void launch(dim3 grid, dim3 block, F kernel) {
    gridDim = grid;
    blockDim = block;
    int threads = (int) (block.x * block.y * block.z);
    std::barrier<> bb(threads);
    blockBarrier = &bb;
    warpBarriers.clear();
    for (int w = 0; w * HOST_WARP < threads; w++)
        warpBarriers.push_back(std::make_unique<std::barrier<>>(std::min(HOST_WARP, threads - w * HOST_WARP)));
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; t++) {
        ts.emplace_back([=, &kernel] {
            threadIdx = dim3{(unsigned) t % block.x, (unsigned) t / block.x % block.y, (unsigned) t / (block.x * block.y)};
            for (unsigned z = 0; z < grid.z; z++)
                for (unsigned y = 0; y < grid.y; y++)
                    for (unsigned x = 0; x < grid.x; x++) {
                        blockIdx = dim3{x, y, z};
                        kernel();
                        blockBarrier->arrive_and_wait(); // shared memory is the next block's only after all left
                    }
        });
    }
    for (auto& t : ts) t.join();
}

static std::vector<char> slurp(const char* path) {
    FILE* f = std::fopen(path, "rb");
    if (!f) { std::perror(path); std::exit(2); }
    std::vector<char> b;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
    std::fclose(f);
    return b;
}

static void spit(const char* path, const void* p, size_t n) {
    FILE* f = std::fopen(path, "wb");
    if (!f || std::fwrite(p, 1, n, f) != n) { std::perror(path); std::exit(2); }
    std::fclose(f);
}

static TD rows(i64 r, i64 k) { return TD{{1, 1, r, k}, {0, 0, k, 1}}; }

int main(int argc, char** argv) {
    if (argc < 3) { std::fprintf(stderr, "usage: see the header of kernels_on_host.cpp\n"); return 2; }
    std::string mode = argv[1];
    int dt = std::atoi(argv[2]);
    int values = is_kquant(dt) ? 256 : 32, bb = blk_bytes(dt);
    if (mode == "decode") {
        i64 n = std::atoll(argv[3]);
        std::vector<char> w = slurp(argv[4]);
        std::vector<float> y(n);
        launch(dim3{1}, dim3{1}, [&] { ae_cast_to_f32(dt, n, y.data(), w.data(), rows(1, n)); });
        spit(argv[5], y.data(), 4 * n);
    } else if (mode == "quantize") {
        i64 n = std::atoll(argv[3]);
        std::vector<char> x = slurp(argv[4]);
        std::vector<u8> y(n / values * bb);
        launch(dim3{1}, dim3{1}, [&] { ae_quantize(dt, n / values, y.data(), (const float*) x.data(), rows(1, n)); });
        spit(argv[5], y.data(), y.size());
    } else if (mode == "matvec" || mode == "matmul") {
        i64 m = std::atoll(argv[3]), n = std::atoll(argv[4]), k = std::atoll(argv[5]);
        std::vector<char> w = slurp(argv[6]), x = slurp(argv[7]);
        std::vector<float> y(m * n);
        const float* xp = (const float*) x.data();
        if (mode == "matvec")
            launch(dim3{(unsigned) ((n + MV_ROWS - 1) / MV_ROWS), (unsigned) m}, dim3{256},
                   [&] { matvec(dt, y.data(), xp, rows(m, k), (const u8*) w.data(), n, k); });
        else
            launch(dim3{(unsigned) ((n + MM_TILE - 1) / MM_TILE), (unsigned) ((m + MM_TILE - 1) / MM_TILE)},
                   dim3{MM_TILE, MM_TILE}, [&] {
                       // as LinearOps.basicWeight picks the kernel
                       if (dt == DT_Q8_0 || dt == DT_Q4_0) ae_matmul(y.data(), xp, rows(m, k), w.data(), dt, rows(n, k), m, n, k, 1);
                       else ae_matmul_blocks(y.data(), xp, rows(m, k), w.data(), dt, rows(n, k), m, n, k, 1);
                   });
        spit(argv[8], y.data(), 4 * y.size());
    } else {
        std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
        return 2;
    }
    return 0;
}
