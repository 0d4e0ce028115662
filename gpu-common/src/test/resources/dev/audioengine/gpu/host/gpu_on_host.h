// The CUDA names gpu_compat.h uses, defined as host code, and a launch that runs every thread of a block as a host
// thread (blocks one after another): __syncthreads is a barrier of the block, a warp shuffle an exchange through
// memory between two barriers of the warp, __shared__ variables are statics (one block runs at a time) and a
// launch's dynamic shared memory is one host buffer, gc_host_shared, filled with NaN before every block so a read of
// shared memory no thread wrote shows. Included by kernels_on_host.cpp and attention_on_host.cpp; -DHOST_WARP=64
// -D__HIP__ -D__AMDGCN_WAVEFRONT_SIZE=64 builds the wave64 (HIP) variant. A kernel source's
// `extern GC_SHARED float name[];` does not build as host code: the test hands the compiler the source with that
// declaration rewritten to `float* name = gc_host_shared;`.
#ifndef AE_GPU_ON_HOST_H
#define AE_GPU_ON_HOST_H
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
#define __launch_bounds__(...)

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
/** The running launch's dynamic shared memory. */
static float* gc_host_shared;

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


/**
 * Runs kernel() for every thread of every block of grid x block, one host thread per GPU thread, with shared bytes of
 * dynamic shared memory.
 */
template <class F>
static void launch(dim3 grid, dim3 block, F kernel, size_t shared = 0) {
    // exactly the launch's size (a build with -fsanitize=address reports an access past it)
    std::unique_ptr<float[]> dynamic(new float[(shared + 3) / 4]);
    gc_host_shared = dynamic.get();
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
        ts.emplace_back([=, &kernel, &dynamic] {
            threadIdx = dim3{(unsigned) t % block.x, (unsigned) t / block.x % block.y, (unsigned) t / (block.x * block.y)};
            for (unsigned z = 0; z < grid.z; z++)
                for (unsigned y = 0; y < grid.y; y++)
                    for (unsigned x = 0; x < grid.x; x++) {
                        blockIdx = dim3{x, y, z};
                        if (t == 0) std::fill(dynamic.get(), dynamic.get() + shared / 4, std::nanf(""));
                        blockBarrier->arrive_and_wait();
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

#endif
