#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// get_rows: y[r, d] = table[ids[r], d] for every position r of ids (up to three axes), any table dtype.
// push: 0 n, 1-4 out shape (ids axes right-aligned into the first three, D last), 5 ids offset,
//       6-9 ids strides (last 0), 10 table offset, 11 table row stride, 12 table column stride, 13 y offset
layout(constant_id = 1) const uint TTYPE = 0u;

layout(std430, binding = 0) readonly buffer T { uint table[]; };
layout(std430, binding = 1) readonly buffer I { uint ids[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    uvec4 c = coords(i, pu4(1u));
    uint row = ids[at(pu(5u), pu4(6u), c)];
    uint e = pu(10u) + row * pu(11u) + c.w * pu(12u);
    y[pu(13u) + i] = LOAD(table, TTYPE, e);
}
