#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// In-place write into a persistent tensor (Op.WriteSlice): src element c goes to y at c shifted by
// the run-time start along one axis. One thread per source element. Elements that would land
// outside the axis' capacity are dropped: a shader cannot fail the run, and every byte outside
// the persistent tensor stays untouched.
// push: 0 n (source elements), 1-4 source shape, 5 src offset, 6-9 src strides, 10 y offset,
//       11-14 y strides, 15 axis (of the four), 16 capacity, 17 start offset, 18 has start (0: start 0)
layout(std430, binding = 0) readonly buffer S { int start[]; };
layout(std430, binding = 1) readonly buffer X { uint x[]; };
layout(std430, binding = 2) buffer Y { uint y[]; };

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    uvec4 c = coords(i, pu4(1u));
    uint src = at(pu(5u), pu4(6u), c);
    int shift = pu(18u) != 0u ? start[pu(17u)] : 0;
    uint axis = pu(15u);
    int pos = int(c[axis]) + shift;
    if (pos < 0 || pos >= int(pu(16u))) return;
    c[axis] = uint(pos);
    y[at(pu(10u), pu4(11u), c)] = x[src];
}
