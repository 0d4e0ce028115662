#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// In-place write into a persistent tensor (Op.WriteSlice): src element c goes to y at c shifted by
// the run-time start along one axis. One thread per source element. Elements that would land
// outside the axis' capacity are dropped: a shader cannot fail the run, and every byte outside
// the persistent tensor stays untouched. With one start per batch element (a batched decoder
// step) element c reads start[c's batch coordinate], and a negative one skips that batch element.
// push: 0 n (source elements), 1-4 source shape, 5 src offset, 6-9 src strides, 10 y offset,
//       11-14 y strides, 15 axis (of the four), 16 capacity, 17 start offset,
//       18 start mode (0 none: start 0, 1 one start, 2 one per batch element),
//       19 start stride (per batch coordinate; 0 with one start), 20 batch axis (of the four)
layout(std430, binding = 0) readonly buffer S { int start[]; };
layout(std430, binding = 1) readonly buffer X { uint x[]; };
layout(std430, binding = 2) buffer Y { uint y[]; };

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    uvec4 c = coords(i, pu4(1u));
    uint src = at(pu(5u), pu4(6u), c);
    uint mode = pu(18u);
    int shift = mode != 0u ? start[pu(17u) + c[pu(20u)] * pu(19u)] : 0;
    if (mode == 2u && shift < 0) return; // an empty slot of the batch writes nothing
    uint axis = pu(15u);
    int pos = int(c[axis]) + shift;
    if (pos < 0 || pos >= int(pu(16u))) return;
    c[axis] = uint(pos);
    y[at(pu(10u), pu4(11u), c)] = x[src];
}
