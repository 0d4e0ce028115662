#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Matmul for few rows (M <= 8): y[b, m, n] = sum_k x[b, m, k] * w[b, n, k] with 32 threads per
// output column n walking its weight row along k (coalesced, every weight read once) and a
// shared-memory tree summing their partial dot products; 8 columns per 256-thread workgroup.
// Same push constants as matmul.comp: 0 M, 1 N, 2 K, 3 inner batch count, 4 x offset,
// 5-6 x batch strides, 7 x row stride, 8 x k stride, 9 w offset, 10-11 w batch strides,
// 12 w row stride, 13 w k stride, 14 y offset. Workgroup z is the batch.
layout(constant_id = 1) const uint WTYPE = 0u;

layout(std430, binding = 0) readonly buffer X { uint x[]; };
layout(std430, binding = 1) readonly buffer W { uint w[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };

const uint LANES = 32u, COLUMNS = 8u, MAX_M = 8u; // workgroup size LANES * COLUMNS = 256
shared float part[MAX_M][LANES * COLUMNS];

void main() {
    uint M = pu(0u), N = pu(1u), K = pu(2u), inner = pu(3u);
    uint b0 = gl_WorkGroupID.z / inner, b1 = gl_WorkGroupID.z % inner;
    uint xbase = pu(4u) + b0 * pu(5u) + b1 * pu(6u);
    uint wbase = pu(9u) + b0 * pu(10u) + b1 * pu(11u);
    uint tid = gl_LocalInvocationID.x, lane = tid % LANES;
    uint n = group_index() * COLUMNS + tid / LANES;
    float acc[MAX_M];
    for (uint m = 0u; m < MAX_M; m++) acc[m] = 0.0;
    if (n < N) {
        uint wr = wbase + n * pu(12u);
        for (uint k = lane; k < K; k += LANES) {
            uint e = wr + k * pu(13u);
            float wv = LOAD(w, WTYPE, e);
            for (uint m = 0u; m < M; m++) acc[m] += uintBitsToFloat(x[xbase + m * pu(7u) + k * pu(8u)]) * wv;
        }
    }
    for (uint m = 0u; m < MAX_M; m++) part[m][tid] = acc[m];
    barrier();
    for (uint s = LANES / 2u; s > 0u; s >>= 1) {
        if (lane < s) for (uint m = 0u; m < MAX_M; m++) part[m][tid] += part[m][tid + s];
        barrier();
    }
    if (n < N && lane == 0u) {
        uint ybase = pu(14u) + gl_WorkGroupID.z * M * N;
        for (uint m = 0u; m < M; m++) y[ybase + m * N + n] = part[m][tid];
    }
}
