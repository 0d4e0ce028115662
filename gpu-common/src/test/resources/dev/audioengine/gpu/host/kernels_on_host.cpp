// Runs gpu-common's kernel sources (layout.cu and linear.cu with the real gpu_compat.h and ae_tensor.h)
// on the host, for tests on machines without a GPU: gpu_on_host.h defines the CUDA names gpu_compat.h uses as host
// code and runs every thread of a block as a host thread. Built with g++ by BlockDecodeHostTest; -DHOST_WARP=64 -D__HIP__ -D__AMDGCN_WAVEFRONT_SIZE=64 builds the wave64 (HIP) variant.
//
//   kernels_on_host decode   DT N            BLOCKS OUT   ae_cast_to_f32 of N values of type DT (its ordinal)
//   kernels_on_host quantize DT N            F32    OUT   ae_quantize of N values into blocks of DT
//   kernels_on_host matvec   DT ROWS N K     W X    OUT   ae_matvec_<type>: y [ROWS, N] = x [ROWS, K] w [N, K]^T
//                                                         (a block type, or F16 and BF16: ae_matvec_f16, _bf16)
//   kernels_on_host matmul   DT M N K        W X    OUT   ae_matmul or ae_matmul_blocks (tiled), same product
// Files are raw little-endian arrays (floats, blocks). sequence.cu's get_rows reads a table element with the same
// ld_any as the cast; sequence.cu's attention kernels run on the host in attention_on_host.cpp.
#include "gpu_on_host.h"

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
        case DT_F16: ae_matvec_f16(y, x, tx, (const u16*) w, n, k); break;
        case DT_BF16: ae_matvec_bf16(y, x, tx, (const u16*) w, n, k); break;
        default: std::fprintf(stderr, "no mat-vec kernel for dtype %d\n", dt); std::exit(2);
    }
}

static TD rows(i64 r, i64 k) { return TD{{1, 1, r, k}, {0, 0, k, 1}}; }

int main(int argc, char** argv) {
    if (argc < 3) { std::fprintf(stderr, "usage: see the header of kernels_on_host.cpp\n"); return 2; }
    std::string mode = argv[1];
    int dt = std::atoi(argv[2]);
    int values = is_kquant(dt) ? 256 : 32, bb = dt == DT_F16 || dt == DT_BF16 ? 2 : blk_bytes(dt);
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
