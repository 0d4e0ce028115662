#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// conv1d and conv_transpose1d (TRANSPOSED = 1) as direct sums, one thread per output (b, co, t).
// conv1d:   y[b,co,t] = bias[co] + sum_{ci,k} x[b, g*cinPer+ci, t*stride - pad + k*dil] * w[co, ci, k]
// convT:    y[b,co,t] = bias[co] + sum_{ci,k} x[b, g*cinPer+ci, s] * w[g*cinPer+ci, co - g*coutPer, k]
//           where s*stride = t + pad - k*dil
// push: 0 n, 1-3 out dims (B, Cout, Tout), 4 x offset, 5-7 x strides, 8 Cin/groups, 9 input T,
//       10 w offset, 11-13 w strides, 14 K, 15 stride, 16 pad, 17 dilation, 18 Cout/groups,
//       19 bias offset, 20 bias stride, 21 has bias, 22 y offset
layout(constant_id = 1) const uint TRANSPOSED = 0u;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer W { float w[]; };
layout(std430, binding = 2) readonly buffer Bs { float bias[]; };
layout(std430, binding = 3) writeonly buffer Y { float y[]; };

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    uint cout = pu(2u), tout = pu(3u);
    uint t = i % tout, co = (i / tout) % cout, b = i / (tout * cout);
    uint cinPer = pu(8u), T = pu(9u), K = pu(14u), stride = pu(15u), dil = pu(17u), coutPer = pu(18u);
    int pad = int(pu(16u));
    uint g = co / coutPer;
    uint xb = pu(4u) + b * pu(5u);
    float acc = pu(21u) != 0u ? bias[pu(19u) + co * pu(20u)] : 0.0;
    for (uint ci = 0u; ci < cinPer; ci++) {
        uint cx = g * cinPer + ci;
        uint xrow = xb + cx * pu(6u);
        uint wrow = TRANSPOSED == 1u ? pu(10u) + cx * pu(11u) + (co - g * coutPer) * pu(12u) : pu(10u) + co * pu(11u) + ci * pu(12u);
        for (uint k = 0u; k < K; k++) {
            int s;
            if (TRANSPOSED == 1u) {
                int num = int(t) + pad - int(k * dil);
                if (num < 0 || num % int(stride) != 0) continue;
                s = num / int(stride);
            } else {
                s = int(t * stride) - pad + int(k * dil);
            }
            if (s < 0 || s >= int(T)) continue;
            acc += x[xrow + uint(s) * pu(7u)] * w[wrow + k * pu(13u)];
        }
    }
    y[pu(22u) + i] = acc;
}
