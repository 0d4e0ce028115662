// Runs sequence.cu's attention kernels (with the real gpu_compat.h and ae_tensor.h) on the host through
// gpu_on_host.h, for AttentionHostTest on machines without a GPU. sequence.cu's `extern GC_SHARED float smem[];`
// declarations must have been rewritten to `float* smem = gc_host_shared;` in the text this file includes.
//
//   attention_on_host attention ARGS Q K V MASK OUT   ae_attention
//   attention_on_host split     ARGS Q K V MASK OUT   ae_attention_split, then ae_attention_merge
// ARGS is a text file of integers, the launch as SequenceOps binds it:
//   GRID SHARED tq[8] tk[8] tv[8] KVT MASKED tm[8] SCALE_BITS CAUSAL Y_ELEMENTS, then for split: S MERGE_GRID MERGE_SHARED
// (a TD as n[4] then s[4]; SCALE_BITS the float's bits; MASKED 0 passes a null mask). Q, MASK and OUT are raw
// little-endian floats, K and V raw elements of KVT (F32 floats, F16/BF16 16-bit patterns); MASK is read only when
// MASKED. Blocks of 256 threads, as Binding.THREADS.
#include "gpu_on_host.h"

#include "sequence.cu"

static std::vector<char> slurpOrEmpty(const char* path, bool want) { return want ? slurp(path) : std::vector<char>(); }

int main(int argc, char** argv) {
    if (argc != 8) { std::fprintf(stderr, "usage: see the header of attention_on_host.cpp\n"); return 2; }
    std::string mode = argv[1];
    FILE* f = std::fopen(argv[2], "r");
    if (!f) { std::perror(argv[2]); return 2; }
    auto next = [&] {
        long long v;
        if (std::fscanf(f, "%lld", &v) != 1) { std::fprintf(stderr, "%s: too few values\n", argv[2]); std::exit(2); }
        return (i64) v;
    };
    auto td = [&] {
        TD t;
        for (i64& n : t.n) n = next();
        for (i64& s : t.s) s = next();
        return t;
    };
    i64 grid = next(), shared = next();
    TD tq = td(), tk = td(), tv = td();
    int kvt = (int) next(), masked = (int) next();
    TD tm = td();
    unsigned bits = (unsigned) next();
    float scale;
    std::memcpy(&scale, &bits, 4);
    int causal = (int) next();
    i64 ny = next();
    std::vector<char> q = slurp(argv[3]), k = slurp(argv[4]), v = slurp(argv[5]), mask = slurpOrEmpty(argv[6], masked);
    const float* qp = (const float*) q.data();
    const float* mp = masked ? (const float*) mask.data() : nullptr;
    std::vector<float> y(ny, std::nanf("")); // every element must be written
    if (mode == "attention") {
        launch(dim3{(unsigned) grid}, dim3{256},
               [&] { ae_attention(y.data(), qp, tq, k.data(), tk, v.data(), tv, kvt, mp, tm, scale, causal); },
               (size_t) shared);
    } else if (mode == "split") {
        i64 S = next(), mergeGrid = next(), mergeShared = next();
        std::vector<float> part(mergeGrid * S * (tq.n[3] + 2), std::nanf(""));
        launch(dim3{(unsigned) grid}, dim3{256},
               [&] { ae_attention_split(qp, tq, k.data(), tk, v.data(), tv, kvt, mp, tm, scale, causal, part.data(), S); },
               (size_t) shared);
        launch(dim3{(unsigned) mergeGrid}, dim3{256}, [&] { ae_attention_merge(y.data(), part.data(), S, tq.n[3]); },
               (size_t) mergeShared);
    } else {
        std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
        return 2;
    }
    std::fclose(f);
    spit(argv[7], y.data(), 4 * y.size());
    return 0;
}
