#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Rotary embedding on x [B, H, T, D] (strided) with positions I32 [T]; y contiguous.
// push: 0 n, 1-4 shape, 5 x offset, 6-9 x strides, 10 pos offset, 11 pos stride, 12 dims, 13 base, 14 y offset
layout(constant_id = 1) const uint NEOX = 0u;

layout(std430, binding = 0) readonly buffer X { uint x[]; };
layout(std430, binding = 1) readonly buffer P { uint pos[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };

float xv(uvec4 c) { return uintBitsToFloat(x[at(pu(5u), pu4(6u), c)]); }

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    uvec4 c = coords(i, pu4(1u));
    uint dims = pu(12u), half_dims = dims / 2u, d = c.w;
    float r;
    if (d >= dims) {
        r = xv(c);
    } else {
        uint k = NEOX == 1u ? d % half_dims : d / 2u;
        bool first = NEOX == 1u ? d < half_dims : (d & 1u) == 0u;
        uint a = NEOX == 1u ? k : 2u * k, b = NEOX == 1u ? k + half_dims : 2u * k + 1u;
        float p = float(int(pos[pu(10u) + c.z * pu(11u)]));
        float theta = p * pow(pf(13u), -2.0 * float(k) / float(dims));
        float cs = cos(theta), sn = sin(theta);
        float xa = xv(uvec4(c.xyz, a)), xb = xv(uvec4(c.xyz, b));
        r = first ? xa * cs - xb * sn : xa * sn + xb * cs;
    }
    y[pu(14u) + i] = r;
}
