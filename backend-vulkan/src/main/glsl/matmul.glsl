// Body of matmul.comp (T = 4) and matmul_large.comp (T = 8):
// y[b, m, n] = sum_k x[b, m, k] * w[b, n, k]: (16T)x(16T) output tiles through shared memory, K in
// steps of 16, 256 threads with a TxT block of outputs each (rows and columns 16 apart, so shared
// reads are conflict-free broadcasts). x is F32; w is any dtype LOAD reads
// (F32, F16, BF16 strided; Q8_0, Q4_0, Q5_0, Q5_1, Q4_1 and the k-quants with contiguous rows). Workgroup z is
// the batch.
// push: 0 M, 1 N, 2 K, 3 inner batch count, 4 x offset, 5-6 x batch strides, 7 x row stride,
//       8 x k stride, 9 w offset, 10-11 w batch strides, 12 w row stride, 13 w k stride, 14 y offset
layout(constant_id = 1) const uint WTYPE = 0u;

layout(std430, binding = 0) readonly buffer X { uint x[]; };
layout(std430, binding = 1) readonly buffer W { uint w[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };

const uint BM = 16u * T, BN = 16u * T, BK = 16u;
shared float As[BK][BM + 1u];
shared float Bs[BK][BN + 1u];

void main() {
    uint M = pu(0u), N = pu(1u), K = pu(2u), inner = pu(3u);
    uint b0 = gl_WorkGroupID.z / inner, b1 = gl_WorkGroupID.z % inner;
    uint xbase = pu(4u) + b0 * pu(5u) + b1 * pu(6u);
    uint wbase = pu(9u) + b0 * pu(10u) + b1 * pu(11u);
    uint xsm = pu(7u), xsk = pu(8u), wsn = pu(12u), wsk = pu(13u);
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    uint tid = gl_LocalInvocationID.x;
    uint tr = tid / 16u, tc = tid % 16u;

    float acc[T][T];
    for (uint i = 0u; i < T; i++) for (uint j = 0u; j < T; j++) acc[i][j] = 0.0;

    for (uint k0 = 0u; k0 < K; k0 += BK) {
        for (uint l = tid; l < BM * BK; l += 256u) {
            uint r = l / BK, kk = l % BK;
            uint m = m0 + r, k = k0 + kk;
            As[kk][r] = (m < M && k < K) ? uintBitsToFloat(x[xbase + m * xsm + k * xsk]) : 0.0;
            uint n = n0 + r;
            uint e = wbase + n * wsn + k * wsk;
            Bs[kk][r] = (n < N && k < K) ? LOAD(w, WTYPE, e) : 0.0;
        }
        barrier();
        for (uint kk = 0u; kk < BK; kk++) {
            float a[T], b[T];
            for (uint i = 0u; i < T; i++) a[i] = As[kk][tr + 16u * i];
            for (uint j = 0u; j < T; j++) b[j] = Bs[kk][tc + 16u * j];
            for (uint i = 0u; i < T; i++) for (uint j = 0u; j < T; j++) acc[i][j] += a[i] * b[j];
        }
        barrier();
    }
    uint ybase = pu(14u) + gl_WorkGroupID.z * M * N;
    for (uint i = 0u; i < T; i++) {
        uint m = m0 + tr + 16u * i;
        if (m >= M) continue;
        for (uint j = 0u; j < T; j++) {
            uint n = n0 + tc + 16u * j;
            if (n < N) y[ybase + m * N + n] = acc[i][j];
        }
    }
}
