#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// The additive mask [tq, tk] of a cache holding `length` keys (Op.KeyMask): 0 where query q sees
// key j (j < length, and with causal j <= length - tq + q), -inf elsewhere; with B lengths the mask
// [B, 1, tq, tk], batch element b by its own length. One thread per element.
// push: 0 n, 1 tq, 2 tk, 3 length offset, 4 y offset, 5 causal, 6 length stride (0: one length)
layout(std430, binding = 0) readonly buffer L { int len[]; };
layout(std430, binding = 1) buffer Y { uint y[]; };

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    uint tq = pu(1u), tk = pu(2u), r = i / tk;
    int q = int(r % tq), j = int(i % tk);
    int visible = len[pu(3u) + (r / tq) * pu(6u)];
    if (pu(5u) != 0u) visible -= int(tq) - 1 - q;
    y[pu(4u) + i] = floatBitsToUint(j < visible ? 0.0 : -inf_f());
}
