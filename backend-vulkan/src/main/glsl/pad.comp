#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Pad: each output coordinate maps axis by axis to a source coordinate (ZERO reads the fill
// value outside, REFLECT mirrors without repeating the edge, REPLICATE clamps).
// push: 0 n, 1-4 out shape, 5 x offset, 6-9 x strides, 10-13 x dims, 14-17 before (signed), 18 value, 19 y offset
layout(constant_id = 1) const uint MODE = 0u; // Op.PadMode ordinal

layout(std430, binding = 0) readonly buffer X { uint x[]; };
layout(std430, binding = 1) writeonly buffer Y { uint y[]; };

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    uvec4 c = coords(i, pu4(1u));
    uvec4 dims = pu4(10u);
    ivec4 j = ivec4(c) - ivec4(pu4(14u));
    bool outside = false;
    for (int a = 0; a < 4; a++) {
        int n = int(dims[a]);
        if (j[a] < 0 || j[a] >= n) {
            if (MODE == 0u) outside = true;
            else if (MODE == 1u) j[a] = j[a] < 0 ? -j[a] : 2 * (n - 1) - j[a];
            else j[a] = j[a] < 0 ? 0 : n - 1;
        }
    }
    y[pu(19u) + i] = outside ? pu(18u) : x[at(pu(5u), pu4(6u), uvec4(j))];
}
