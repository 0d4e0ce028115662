#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Fused attention, one workgroup per query row (b, h, i): keys in chunks of one per thread with
// an online softmax (running max and sum, accumulator rescaled when the max grows), so Tk is
// unbounded and nothing of size Tk is stored. Rows whose every key is masked give zeros.
// The workgroup size must be a power of two W, and D <= 4W.
// push: 0 rows (B*H*Tq), 1 H, 2 Tq, 3 Tk, 4 D, 5 H/Hkv, 6 q offset, 7-10 q strides, 11 k offset,
//       12-15 k strides, 16 v offset, 17-20 v strides, 21 mask offset, 22-23 mask strides (query, key),
//       24 flags (1 mask, 2 causal), 25 scale, 26 y offset, 27 mask batch stride (0: one [Tq, Tk] mask
//       for every batch element; a [B, 1, Tq, Tk] mask gives each its own, shared by its heads)
layout(constant_id = 1) const uint KV = 0u; // dtype of k and v

layout(std430, binding = 0) readonly buffer Q { uint q[]; };
layout(std430, binding = 1) readonly buffer K { uint k[]; };
layout(std430, binding = 2) readonly buffer V { uint v[]; };
layout(std430, binding = 3) readonly buffer M { uint mask[]; };
layout(std430, binding = 4) writeonly buffer Y { float y[]; };

shared float qs[1024];
shared float ps[gl_WorkGroupSize.x];
shared float red[gl_WorkGroupSize.x];

float wg_max(float x) {
    uint t = gl_LocalInvocationID.x;
    red[t] = x;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
        if (t < s) red[t] = max(red[t], red[t + s]);
        barrier();
    }
    float r = red[0];
    barrier();
    return r;
}

void main() {
    uint row = group_index();
    if (row >= pu(0u)) return;
    uint H = pu(1u), Tq = pu(2u), Tk = pu(3u), D = pu(4u), W = gl_WorkGroupSize.x, t = gl_LocalInvocationID.x;
    uint i = row % Tq, h = (row / Tq) % H, b = row / (Tq * H);
    uint hk = h / pu(5u);
    uint flags = pu(24u);
    float scale = pf(25u);
    uint qb = pu(6u) + b * pu(7u) + h * pu(8u) + i * pu(9u);
    uint kb = pu(11u) + b * pu(12u) + hk * pu(13u);
    uint vb = pu(16u) + b * pu(17u) + hk * pu(18u);
    uint mb = pu(21u) + b * pu(27u) + i * pu(22u);
    for (uint d = t; d < D; d += W) qs[d] = uintBitsToFloat(q[qb + d * pu(10u)]);
    barrier();

    float m = -inf_f(), l = 0.0;
    float acc[4] = float[4](0.0, 0.0, 0.0, 0.0);
    int last = int(i) + int(Tk) - int(Tq); // causal: keys after this one are masked
    for (uint c = 0u; c < Tk; c += W) {
        uint j = c + t;
        float s = -inf_f();
        if (j < Tk && ((flags & 2u) == 0u || int(j) <= last)) {
            float dot = 0.0;
            uint kr = kb + j * pu(14u);
            for (uint d = 0u; d < D; d++) { uint e = kr + d * pu(15u); dot += qs[d] * LOAD(k, KV, e); }
            s = dot * scale;
            if ((flags & 1u) != 0u) s += uintBitsToFloat(mask[mb + j * pu(23u)]);
        }
        float m_new = max(m, wg_max(s));
        if (isinf(m_new) && m_new < 0.0) continue; // everything so far masked (same for every thread)
        float p = isinf(s) && s < 0.0 ? 0.0 : exp(s - m_new);
        ps[t] = p;
        barrier();
        float alpha = isinf(m) ? 0.0 : exp(m - m_new);
        uint n = min(W, Tk - c);
        float chunk = 0.0;
        for (uint u = 0u; u < n; u++) chunk += ps[u];
        l = l * alpha + chunk;
        for (uint r = 0u; r < 4u; r++) {
            uint d = t + r * W;
            if (d >= D) break;
            float a = acc[r] * alpha;
            for (uint u = 0u; u < n; u++) {
                float pu_ = ps[u];
                if (pu_ != 0.0) { uint e = vb + (c + u) * pu(19u) + d * pu(20u); a += pu_ * LOAD(v, KV, e); }
            }
            acc[r] = a;
        }
        barrier();
        m = m_new;
    }
    uint yb = pu(26u) + row * D;
    for (uint r = 0u; r < 4u; r++) {
        uint d = t + r * W;
        if (d < D) y[yb + d] = l > 0.0 ? acc[r] / l : 0.0;
    }
}
