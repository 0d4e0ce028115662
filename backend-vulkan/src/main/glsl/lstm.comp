#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// One LSTM layer, PyTorch gate order (i, f, g, o); one workgroup per batch row, stepping through
// time with a workgroup barrier between steps; the hidden state of step t-1 is read back from
// the output, which holds the hidden sequence then the cell sequence: y [2, B, T, H].
// push: 0 B, 1 T, 2 I, 3 H, 4 x offset, 5-7 x strides, 8 w_ih offset, 9-10 strides, 11 w_hh offset,
//       12-13 strides, 14 b_ih offset, 15 stride, 16 b_hh offset, 17 stride, 18 h0 offset,
//       19-20 strides, 21 c0 offset, 22-23 strides, 24 y offset
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Wi { float wih[]; };
layout(std430, binding = 2) readonly buffer Wh { float whh[]; };
layout(std430, binding = 3) readonly buffer Bi { float bih[]; };
layout(std430, binding = 4) readonly buffer Bh { float bhh[]; };
layout(std430, binding = 5) readonly buffer H0 { float h0[]; };
layout(std430, binding = 6) readonly buffer C0 { float c0[]; };
layout(std430, binding = 7) coherent buffer Y { float y[]; };

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
    uint b = gl_WorkGroupID.x;
    uint B = pu(0u), T = pu(1u), I = pu(2u), H = pu(3u);
    if (b >= B) return;
    uint yh = pu(24u) + b * T * H, yc = pu(24u) + (B + b) * T * H;
    for (uint t = 0u; t < T; t++) {
        for (uint j = gl_LocalInvocationID.x; j < H; j += gl_WorkGroupSize.x) {
            float g[4];
            for (uint q = 0u; q < 4u; q++) {
                uint r = q * H + j;
                float s = bih[pu(14u) + r * pu(15u)] + bhh[pu(16u) + r * pu(17u)];
                uint xr = pu(4u) + b * pu(5u) + t * pu(6u), wr = pu(8u) + r * pu(9u);
                for (uint i = 0u; i < I; i++) s += x[xr + i * pu(7u)] * wih[wr + i * pu(10u)];
                uint hr = pu(11u) + r * pu(12u);
                for (uint k = 0u; k < H; k++) {
                    float hp = t == 0u ? h0[pu(18u) + b * pu(19u) + k * pu(20u)] : y[yh + (t - 1u) * H + k];
                    s += hp * whh[hr + k * pu(13u)];
                }
                g[q] = s;
            }
            float cp = t == 0u ? c0[pu(21u) + b * pu(22u) + j * pu(23u)] : y[yc + (t - 1u) * H + j];
            float c = sigmoid(g[1]) * cp + sigmoid(g[0]) * tanh_stable(g[2]);
            y[yc + t * H + j] = c;
            y[yh + t * H + j] = sigmoid(g[3]) * tanh_stable(c);
        }
        memoryBarrierBuffer();
        barrier();
    }
}
