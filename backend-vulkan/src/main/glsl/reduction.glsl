// Body of reduction.comp and reduction_subgroup.comp: one workgroup per row of a reduction or row-wise
// normalization. A row is the input's elements along one axis (sum, mean, max, argmax, softmax,
// layer_norm, rms_norm) or one (batch, group) of group_norm. Workgroup sums and maxima use
// subgroup arithmetic when SUBGROUP is 1 (compiled only for devices that report it), else a
// shared-memory tree; the workgroup size must be a power of two.
//
// push, row kinds: 0 rows, 1 row length L, 2-4 the other three axes' sizes, 5 x offset, 6-8 their
//   strides, 9 stride along the row, 10 y offset, 11 eps or softmax scale, 12 mask offset,
//   13-15 mask strides, 16 mask stride along the row, 17 gamma offset, 18 gamma stride,
//   19 beta offset, 20 beta stride, 21 flags (1 mask, 2 gamma, 4 beta)
// push, group_norm: 0 rows (B*G), 1 L (C/G * spatial), 2 G, 3 C/G, 4 spatial, 5 x offset,
//   6-9 x strides [B, C, S2, S3], 10 y offset, 11 eps, 12 S3, 17-21 as above
layout(constant_id = 1) const uint KIND = 0u; // 0 sum 1 mean 2 max 3 argmax 4 softmax 5 layer_norm 6 rms_norm 7 group_norm

layout(std430, binding = 0) readonly buffer X { uint x[]; };
layout(std430, binding = 1) readonly buffer M { uint mask[]; };
layout(std430, binding = 2) readonly buffer G { uint gamma[]; };
layout(std430, binding = 3) readonly buffer Bt { uint beta[]; };
layout(std430, binding = 4) writeonly buffer Y { uint y[]; };

shared float red[gl_WorkGroupSize.x];
shared uint redi[gl_WorkGroupSize.x];

float wg_sum(float v) {
#if SUBGROUP
    v = subgroupAdd(v);
    if (subgroupElect()) red[gl_SubgroupID] = v;
    barrier();
    float r = 0.0;
    for (uint i = 0u; i < gl_NumSubgroups; i++) r += red[i];
    barrier();
    return r;
#else
    uint t = gl_LocalInvocationID.x;
    red[t] = v;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        barrier();
    }
    float r = red[0];
    barrier();
    return r;
#endif
}

float wg_max(float v) {
#if SUBGROUP
    v = subgroupMax(v);
    if (subgroupElect()) red[gl_SubgroupID] = v;
    barrier();
    float r = red[0];
    for (uint i = 1u; i < gl_NumSubgroups; i++) r = max(r, red[i]);
    barrier();
    return r;
#else
    uint t = gl_LocalInvocationID.x;
    red[t] = v;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
        if (t < s) red[t] = max(red[t], red[t + s]);
        barrier();
    }
    float r = red[0];
    barrier();
    return r;
#endif
}

// (value, index) with the first index winning ties.
uint wg_argmax(float v, uint idx) {
    uint t = gl_LocalInvocationID.x;
    red[t] = v;
    redi[t] = idx;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
        if (t < s) {
            float o = red[t + s];
            uint oi = redi[t + s];
            if (o > red[t] || (o == red[t] && oi < redi[t])) { red[t] = o; redi[t] = oi; }
        }
        barrier();
    }
    uint r = redi[0];
    barrier();
    return r;
}

uint row_base;   // x index of the row's first element (row kinds)
uint mask_base;
uint gn_b, gn_g; // group_norm's batch and group

void locate(uint r) {
    if (KIND == 7u) {
        gn_b = r / pu(2u);
        gn_g = r % pu(2u);
        return;
    }
    uvec3 shape = uvec3(pu(2u), pu(3u), pu(4u));
    uvec3 c = uvec3(r / (shape.y * shape.z), (r / shape.z) % shape.y, r % shape.z);
    row_base = pu(5u) + c.x * pu(6u) + c.y * pu(7u) + c.z * pu(8u);
    mask_base = pu(12u) + c.x * pu(13u) + c.y * pu(14u) + c.z * pu(15u);
}

// Channel (for gamma and beta) of element j of the row.
uint channel(uint j) { return KIND == 7u ? gn_g * pu(3u) + j / pu(4u) : j; }

float xv(uint j) {
    if (KIND == 7u) {
        uint ch = channel(j), s = j % pu(4u), s3 = pu(12u);
        return uintBitsToFloat(x[pu(5u) + gn_b * pu(6u) + ch * pu(7u) + (s / s3) * pu(8u) + (s % s3) * pu(9u)]);
    }
    return uintBitsToFloat(x[row_base + j * pu(9u)]);
}

float affine(float v, uint j) {
    uint flags = pu(21u), ch = channel(j);
    if ((flags & 2u) != 0u) v *= uintBitsToFloat(gamma[pu(17u) + ch * pu(18u)]);
    if ((flags & 4u) != 0u) v += uintBitsToFloat(beta[pu(19u) + ch * pu(20u)]);
    return v;
}

float score(uint j) {
    float s = xv(j) * pf(11u);
    if ((pu(21u) & 1u) != 0u) s += uintBitsToFloat(mask[mask_base + j * pu(16u)]);
    return s;
}

void main() {
    uint r = group_index();
    if (r >= pu(0u)) return;
    locate(r);
    uint L = pu(1u), t = gl_LocalInvocationID.x, W = gl_WorkGroupSize.x;
    uint out_row = pu(10u) + r * L;
    if (KIND <= 1u) {
        float s = 0.0;
        for (uint j = t; j < L; j += W) s += xv(j);
        s = wg_sum(s);
        if (t == 0u) y[pu(10u) + r] = floatBitsToUint(KIND == 1u ? s / float(L) : s);
    } else if (KIND == 2u) {
        float m = -inf_f();
        for (uint j = t; j < L; j += W) m = max(m, xv(j));
        m = wg_max(m);
        if (t == 0u) y[pu(10u) + r] = floatBitsToUint(m);
    } else if (KIND == 3u) {
        float m = -inf_f();
        uint mi = 0xFFFFFFFFu;
        for (uint j = t; j < L; j += W) {
            float v = xv(j);
            if (v > m || mi == 0xFFFFFFFFu) { m = v; mi = j; }
        }
        uint best = wg_argmax(m, mi);
        if (t == 0u) y[pu(10u) + r] = best;
    } else if (KIND == 4u) {
        float m = -inf_f();
        for (uint j = t; j < L; j += W) m = max(m, score(j));
        m = wg_max(m);
        if (isinf(m) && m < 0.0) {
            for (uint j = t; j < L; j += W) y[out_row + j] = 0u; // every key masked: attend to nothing
            return;
        }
        float s = 0.0;
        for (uint j = t; j < L; j += W) s += exp(score(j) - m);
        s = wg_sum(s);
        for (uint j = t; j < L; j += W) y[out_row + j] = floatBitsToUint(exp(score(j) - m) / s);
    } else if (KIND == 6u) {
        float s = 0.0;
        for (uint j = t; j < L; j += W) { float v = xv(j); s += v * v; }
        float inv = 1.0 / sqrt(wg_sum(s) / float(L) + pf(11u));
        for (uint j = t; j < L; j += W) y[out_row + j] = floatBitsToUint(affine(xv(j) * inv, j));
    } else { // layer_norm, group_norm: mean first, then the variance of the centred values
        float s = 0.0;
        for (uint j = t; j < L; j += W) s += xv(j);
        float mean = wg_sum(s) / float(L);
        float q = 0.0;
        for (uint j = t; j < L; j += W) { float d = xv(j) - mean; q += d * d; }
        float inv = 1.0 / sqrt(wg_sum(q) / float(L) + pf(11u));
        for (uint j = t; j < L; j += W) y[out_row + j] = floatBitsToUint(affine((xv(j) - mean) * inv, j));
    }
}
