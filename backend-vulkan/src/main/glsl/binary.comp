#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// y = a (op) b over F32 with broadcasting (stride 0 on broadcast axes); y is contiguous.
// push: 0 n, 1-4 shape, 5 a offset, 6-9 a strides, 10 b offset, 11-14 b strides, 15 y offset
layout(constant_id = 1) const uint KIND = 0u; // Op.BinaryKind ordinal; 100 = snake (b is alpha, broadcast over B and T), 101 = magnitude

layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) readonly buffer B { uint b[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    uvec4 c = coords(i, pu4(1u));
    float u = uintBitsToFloat(a[at(pu(5u), pu4(6u), c)]);
    float v = uintBitsToFloat(b[at(pu(10u), pu4(11u), c)]);
    float r;
    switch (KIND) {
        case 0u: r = u + v; break;
        case 1u: r = u - v; break;
        case 2u: r = u * v; break;
        case 3u: r = u / v; break;
        case 4u: r = pow(u, v); break;
        case 5u: r = isnan(u) || isnan(v) ? u + v : max(u, v); break; // Math.max: NaN if either is (GLSL's max is not)
        case 100u: { float s = sin(v * u); r = u + s * s / (v + 1e-9); break; }
        default: {
            // hypot without overflow or underflow in the squares
            float big = max(abs(u), abs(v)), small = min(abs(u), abs(v));
            float q = big == 0.0 || isinf(big) ? 0.0 : small / big;
            r = isnan(u) || isnan(v) ? u + v : big * sqrt(1.0 + q * q);
        }
    }
    y[pu(15u) + i] = r;
}
