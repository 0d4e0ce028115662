#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// One time step of an LSTM layer (PyTorch gate order i, f, g, o); the backend records one
// dispatch per step, with a barrier between them. A workgroup of 256 threads serves one batch row
// and 8 hidden units: 32 threads per unit walk the four gate rows of W_ih and W_hh along k
// (coalesced reads), a shared-memory tree sums them, and the unit's first thread updates c and h.
// h and c of step t-1 are read back from the output, which holds the hidden sequence then the
// cell sequence: y [2, B, T, H].
// push: 0 B, 1 T, 2 I, 3 H, 4 x offset, 5-7 x strides, 8 w_ih offset, 9-10 strides, 11 w_hh offset,
//       12-13 strides, 14 b_ih offset, 15 stride, 16 b_hh offset, 17 stride, 18 h0 offset,
//       19-20 strides, 21 c0 offset, 22-23 strides, 24 y offset, 25 step t
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Wi { float wih[]; };
layout(std430, binding = 2) readonly buffer Wh { float whh[]; };
layout(std430, binding = 3) readonly buffer Bi { float bih[]; };
layout(std430, binding = 4) readonly buffer Bh { float bhh[]; };
layout(std430, binding = 5) readonly buffer H0 { float h0[]; };
layout(std430, binding = 6) readonly buffer C0 { float c0[]; };
layout(std430, binding = 7) buffer Y { float y[]; };

const uint LANES = 32u, UNITS = 8u; // the workgroup size must be LANES * UNITS = 256
shared float part[4][LANES * UNITS];

float sigmoid(float v) {
    float e = exp(-abs(v));
    return v >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

float tanh_stable(float v) {
    float e = exp(-2.0 * abs(v));
    float r = (1.0 - e) / (1.0 + e);
    return v < 0.0 ? -r : r;
}

void main() {
    uint B = pu(0u), T = pu(1u), I = pu(2u), H = pu(3u), t = pu(25u);
    uint blocks = (H + UNITS - 1u) / UNITS, g = group_index();
    uint b = g / blocks;
    if (b >= B) return; // the same for the whole workgroup
    uint tid = gl_LocalInvocationID.x, lane = tid % LANES;
    uint j = (g % blocks) * UNITS + tid / LANES;
    uint yh = pu(24u) + b * T * H, yc = pu(24u) + (B + b) * T * H;
    float s[4] = float[4](0.0, 0.0, 0.0, 0.0);
    if (j < H) {
        uint xr = pu(4u) + b * pu(5u) + t * pu(6u);
        for (uint q = 0u; q < 4u; q++) {
            uint r = q * H + j;
            uint wr = pu(8u) + r * pu(9u), hr = pu(11u) + r * pu(12u);
            float a = 0.0;
            for (uint i = lane; i < I; i += LANES) a += x[xr + i * pu(7u)] * wih[wr + i * pu(10u)];
            for (uint k = lane; k < H; k += LANES) {
                float hp = t == 0u ? h0[pu(18u) + b * pu(19u) + k * pu(20u)] : y[yh + (t - 1u) * H + k];
                a += hp * whh[hr + k * pu(13u)];
            }
            s[q] = a;
        }
    }
    for (uint q = 0u; q < 4u; q++) part[q][tid] = s[q];
    barrier();
    for (uint w = LANES / 2u; w > 0u; w >>= 1) {
        if (lane < w) for (uint q = 0u; q < 4u; q++) part[q][tid] += part[q][tid + w];
        barrier();
    }
    if (j < H && lane == 0u) {
        float gate[4];
        for (uint q = 0u; q < 4u; q++) {
            uint r = q * H + j;
            gate[q] = part[q][tid] + bih[pu(14u) + r * pu(15u)] + bhh[pu(16u) + r * pu(17u)];
        }
        float cp = t == 0u ? c0[pu(21u) + b * pu(22u) + j * pu(23u)] : y[yc + (t - 1u) * H + j];
        float c = sigmoid(gate[1]) * cp + sigmoid(gate[0]) * tanh_stable(gate[2]);
        y[yc + t * H + j] = c;
        y[yh + t * H + j] = sigmoid(gate[3]) * tanh_stable(c);
    }
}
