#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Cast (SRC != DST) and contiguous copy (SRC == DST, bit exact) of a strided tensor into a new
// row-major one. 32-bit outputs take one thread per element; 16-bit and block outputs one thread
// per output word, which it assembles whole (the word past an odd end keeps its other bytes).
// push: 0 n, 1-4 shape, 5 x offset, 6-9 x strides, 10 y offset (elements; bytes for block
//       outputs), 11 work items, 12 output bytes (block outputs)
layout(constant_id = 1) const uint SRC = 0u;
layout(constant_id = 2) const uint DST = 0u;

layout(std430, binding = 0) readonly buffer X { uint x[]; };
layout(std430, binding = 1) buffer Y { uint y[]; };

uint src_index(uint i) { return at(pu(5u), pu4(6u), coords(i, pu4(1u))); }

float value(uint i) { uint e = src_index(i); return LOAD(x, SRC, e); }

uint to_f16(float f) {
    uint v = floatBitsToUint(f);
    uint sign = (v >> 16) & 0x8000u;
    uint e = (v >> 23) & 0xFFu, m = v & 0x7FFFFFu;
    if (e == 255u) return sign | 0x7C00u | (m != 0u ? 0x200u | (m >> 13) : 0u);
    int ee = int(e) - 112; // rebias 127 -> 15
    if (ee >= 31) return sign | 0x7C00u;
    if (ee <= 0) {
        if (ee < -10) return sign;
        m |= 0x800000u;
        uint shift = uint(14 - ee);
        uint h = m >> shift, rem = m & ((1u << shift) - 1u), half_ulp = 1u << (shift - 1u);
        if (rem > half_ulp || (rem == half_ulp && (h & 1u) != 0u)) h++;
        return sign | h;
    }
    uint h = (uint(ee) << 10) | (m >> 13), rem = m & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) != 0u)) h++; // a carry into the exponent is right, up to inf
    return sign | h;
}

uint to_bf16(float f) {
    uint v = floatBitsToUint(f);
    if (isnan(f)) return (v >> 16) | 0x40u;
    return (v + 0x7FFFu + ((v >> 16) & 1u)) >> 16;
}

uint half_out(uint i) {
    if (SRC == DST) { uint e = src_index(i); return HALF_OF(x, e); }
    float f = value(i);
    return DST == DT_F16 ? to_f16(f) : to_bf16(f);
}

// Block formats: the byte at offset b of the output, with the block's scale (and minimum) cached across calls.
// The quantizers are ggml's reference ones, as engine-api's BlockQuantization writes them: Q8_0 d = amax / 127;
// Q4_0 and Q5_0 d = (value of largest magnitude) / -8 or -16; Q5_1 and Q4_1 d = (max - min) / 31 or 15, m = min.
const uint BB = DST == DT_Q8_0 ? 34u : DST == DT_Q4_0 ? 18u : DST == DT_Q5_0 ? 22u : DST == DT_Q5_1 ? 24u
             : DST == DT_Q6_K ? 210u : DST == DT_Q4_K ? 144u : DST == DT_Q5_K ? 176u : DST == DT_Q3_K ? 110u
             : DST == DT_Q2_K ? 84u : 20u;
const bool K_QUANT = DST >= DT_Q6_K;
// values a block: 32, or a k-quant's super-block of 256
const uint BS = K_QUANT ? 256u : 32u;
const bool WITH_MIN = DST == DT_Q5_1 || DST == DT_Q4_1;
// bytes before the fifth bits (5-bit types) and before the nibbles (4- and 5-bit types)
const uint HIGH_AT = WITH_MIN ? 4u : 2u;
const uint NIBBLES_AT = DST == DT_Q5_0 || DST == DT_Q5_1 ? HIGH_AT + 4u : HIGH_AT;
uint cached_block = 0xFFFFFFFFu;
float cached_d = 0.0, cached_id = 0.0, cached_m = 0.0;

void block_scale(uint blk) {
    if (blk == cached_block) return;
    cached_block = blk;
    if (WITH_MIN) {
        // strict comparisons from +-FLT_MAX, as ggml: the first of equal extremes stays
        float lo = 3.402823466e38, hi = -3.402823466e38;
        for (uint t = 0u; t < 32u; t++) {
            float v = value(blk * 32u + t);
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
        cached_d = (hi - lo) / (DST == DT_Q5_1 ? 31.0 : 15.0);
        cached_m = lo;
    } else {
        float amax = 0.0, mx = 0.0;
        for (uint t = 0u; t < 32u; t++) {
            float v = value(blk * 32u + t);
            if (abs(v) > amax) { amax = abs(v); mx = v; }
        }
        cached_d = DST == DT_Q8_0 ? amax / 127.0 : DST == DT_Q4_0 ? mx / -8.0 : mx / -16.0;
    }
    cached_id = cached_d != 0.0 ? 1.0 / cached_d : 0.0;
}

// The code of element t of the cached block: Q4_0 min(15, trunc(v/d + 8.5)), Q5_0 min(31, trunc(v/d + 16.5)),
// Q4_1 min(15, trunc((v - m)/d + 0.5)), Q5_1 trunc((v - m)/d + 0.5) (ggml clamps none there; only 5 bits are kept).
uint code(uint blk, uint t) {
    float v = value(blk * 32u + t);
    if (DST == DT_Q4_0) return uint(min(15, int(v * cached_id + 8.5)));
    if (DST == DT_Q5_0) return uint(min(31, int(v * cached_id + 16.5)));
    if (DST == DT_Q4_1) return uint(min(15, int((v - cached_m) * cached_id + 0.5)));
    return uint(int((v - cached_m) * cached_id + 0.5));
}

// The k-quants, as engine-api's KQuants quantizes them (its simple quantizers, not ggml's scale search; the
// arithmetic in the same order, so the bytes are the CPU's but for a rare one-step rounding disagreement): a
// super-block's f16 d (and dmin) and its sub-blocks' integer scales (and minimums) are cached across calls.
uint ksuper = 0xFFFFFFFFu;
uint kd_bits = 0u, kmin_bits = 0u;
float kd = 0.0, kdmin = 0.0;
int kscale[16], kmin[16];

// Q6_K and Q3_K: each 16-value sub-block's value of largest magnitude over -32 or -4; d = the largest magnitude
// of those over 127 or 31. Q6_K's int8 scales round to the nearest multiple of d; Q3_K's 6-bit ones away from zero.
void ksymmetric(uint blk, float top, float levels) {
    float scale[16];
    float amax_scale = 0.0;
    for (uint j = 0u; j < 16u; j++) {
        float amax = 0.0, mx = 0.0;
        for (uint t = 0u; t < 16u; t++) {
            float v = value(blk * 256u + 16u * j + t);
            if (abs(v) > amax) { amax = abs(v); mx = v; }
        }
        scale[j] = mx / -top;
        amax_scale = max(amax_scale, abs(scale[j]));
    }
    kd_bits = to_f16(amax_scale / levels);
    kd = half_bits(kd_bits);
    for (uint j = 0u; j < 16u; j++) {
        if (DST == DT_Q6_K) {
            kscale[j] = kd == 0.0 ? 0 : int(clamp(floor(scale[j] / kd + 0.5), -127.0, 127.0));
        } else {
            int mag = kd == 0.0 ? 0 : int(ceil(abs(scale[j]) / kd));
            kscale[j] = scale[j] < 0.0 ? -min(32, mag) : min(31, mag);
        }
    }
}

// Q4_K, Q5_K (sub-blocks of 32, 6-bit scales and minimums) and Q2_K (of 16, 4-bit): each sub-block spans
// [min(0, lowest), highest]; dmin = the largest -min over the top code, each minimum the multiple of dmin at or
// below the lowest value; d = the largest step over the top code, each scale the multiple of d at or above the step.
void kasymmetric(uint blk, uint width, float levels, float top) {
    uint subs = 256u / width;
    float his[16], mins[16], steps[16];
    float max_min = 0.0;
    for (uint j = 0u; j < subs; j++) {
        float lo = 0.0, hi = -3.402823466e38;
        for (uint t = 0u; t < width; t++) {
            float v = value(blk * 256u + width * j + t);
            lo = min(lo, v);
            hi = max(hi, v);
        }
        his[j] = hi;
        mins[j] = -lo;
        max_min = max(max_min, mins[j]);
    }
    kmin_bits = to_f16(max_min / top);
    kdmin = half_bits(kmin_bits);
    float max_step = 0.0;
    for (uint j = 0u; j < subs; j++) {
        kmin[j] = kdmin == 0.0 ? 0 : int(min(top, ceil(mins[j] / kdmin)));
        precise float reach = his[j] + kdmin * float(kmin[j]); // no fused multiply-add: KQuants rounds twice
        steps[j] = reach / levels;
        max_step = max(max_step, steps[j]);
    }
    kd_bits = to_f16(max_step / top);
    kd = half_bits(kd_bits);
    for (uint j = 0u; j < subs; j++) kscale[j] = kd == 0.0 ? 0 : int(min(top, ceil(steps[j] / kd)));
}

void ksuper_scales(uint blk) {
    if (blk == ksuper) return;
    ksuper = blk;
    if (DST == DT_Q6_K) ksymmetric(blk, 32.0, 127.0);
    else if (DST == DT_Q3_K) ksymmetric(blk, 4.0, 31.0);
    else if (DST == DT_Q4_K) kasymmetric(blk, 32u, 15.0, 63.0);
    else if (DST == DT_Q5_K) kasymmetric(blk, 32u, 31.0, 63.0);
    else kasymmetric(blk, 16u, 3.0, 15.0);
}

// The code of element i (0..255) of the cached super-block: Q6_K 0..63 (value + 32), Q3_K 0..7 (value + 4, or 0
// where the sub-block's step is 0, as KQuants writes it), Q4_K 0..15, Q5_K 0..31, Q2_K 0..3.
uint kcode(uint blk, uint i) {
    float v = value(blk * 256u + i);
    if (DST == DT_Q6_K || DST == DT_Q3_K) {
        float step = kd * float(kscale[i >> 4]);
        if (step == 0.0) return DST == DT_Q6_K ? 32u : 0u;
        float lim = DST == DT_Q6_K ? 32.0 : 4.0;
        return uint(int(clamp(floor(v / step + 0.5), -lim, lim - 1.0)) + int(lim));
    }
    uint j = DST == DT_Q2_K ? i >> 4 : i >> 5;
    float step = kd * float(kscale[j]), mn = kdmin * float(kmin[j]);
    if (step == 0.0) return 0u;
    float levels = DST == DT_Q4_K ? 15.0 : DST == DT_Q5_K ? 31.0 : 3.0;
    precise float shifted = v + mn;
    return uint(clamp(floor(shifted / step + 0.5), 0.0, levels));
}

// Byte t of Q3_K's or Q2_K's qs[64]: bits 2s, 2s + 1 of qs[32n + l] are element 128n + 32s + l's two low bits.
uint k2byte(uint blk, uint t) {
    uint n = t >> 5, l = t & 31u, r = 0u;
    for (uint s = 0u; s < 4u; s++) r |= (kcode(blk, 128u * n + 32u * s + l) & 3u) << (2u * s);
    return r;
}

// Byte j of super-block blk in the layouts of DType's javadoc.
uint kbyte(uint blk, uint j) {
    ksuper_scales(blk);
    if (DST == DT_Q6_K) {
        if (j < 128u) { // ql: low nibbles of elements 128h + 32c + l, c = 0/1 low, c = 2/3 high
            uint h = j >> 6, r = j & 63u;
            uint e = 128u * h + r;
            return (kcode(blk, e) & 15u) | ((kcode(blk, e + 64u) & 15u) << 4);
        }
        if (j < 192u) { // qh: bits 2c, 2c + 1 of qh[32h + l] are element 128h + 32c + l's top two
            uint h = (j - 128u) >> 5, l = (j - 128u) & 31u, r = 0u;
            for (uint c = 0u; c < 4u; c++) r |= (kcode(blk, 128u * h + 32u * c + l) >> 4) << (2u * c);
            return r;
        }
        if (j < 208u) return uint(kscale[j - 192u]) & 0xFFu;
        return (kd_bits >> (8u * (j - 208u))) & 0xFFu;
    }
    if (DST == DT_Q4_K || DST == DT_Q5_K) {
        if (j < 2u) return (kd_bits >> (8u * j)) & 0xFFu;
        if (j < 4u) return (kmin_bits >> (8u * (j - 2u))) & 0xFFu;
        if (j < 16u) { // ggml's get_scale_min_k4 packing
            uint s = j - 4u;
            if (s < 4u) return uint(kscale[s]) | ((uint(kscale[s + 4u]) >> 4) << 6);
            if (s < 8u) return uint(kmin[s - 4u]) | ((uint(kmin[s]) >> 4) << 6);
            return (uint(kscale[s - 4u]) & 15u) | ((uint(kmin[s - 4u]) & 15u) << 4);
        }
        uint qs = DST == DT_Q5_K ? 48u : 16u;
        if (j < qs) { // Q5_K's qh: bit k of qh[l] is the fifth bit of element 32k + l
            uint l = j - 16u, r = 0u;
            for (uint k = 0u; k < 8u; k++) r |= (kcode(blk, 32u * k + l) >> 4) << k;
            return r;
        }
        uint t = j - qs, e = 64u * (t >> 5) + (t & 31u);
        return (kcode(blk, e) & 15u) | ((kcode(blk, e + 32u) & 15u) << 4);
    }
    if (DST == DT_Q3_K) {
        if (j < 32u) { // hmask: bit k of hmask[l] set where element 32k + l's code is 4 or more
            uint r = 0u;
            for (uint k = 0u; k < 8u; k++) r |= (kcode(blk, 32u * k + j) >= 4u ? 1u : 0u) << k;
            return r;
        }
        if (j < 96u) return k2byte(blk, j - 32u);
        if (j < 108u) {
            uint s = j - 96u;
            if (s < 8u) return (uint(kscale[s] + 32) & 15u) | ((uint(kscale[s + 8u] + 32) & 15u) << 4);
            uint t = s - 8u, r = 0u;
            for (uint q = 0u; q < 4u; q++) r |= (uint(kscale[t + 4u * q] + 32) >> 4) << (2u * q);
            return r;
        }
        return (kd_bits >> (8u * (j - 108u))) & 0xFFu;
    }
    // Q2_K
    if (j < 16u) return uint(kscale[j]) | (uint(kmin[j]) << 4);
    if (j < 80u) return k2byte(blk, j - 16u);
    if (j < 82u) return (kd_bits >> (8u * (j - 80u))) & 0xFFu;
    return (kmin_bits >> (8u * (j - 82u))) & 0xFFu;
}

uint block_byte(uint b) {
    uint blk = b / BB, j = b % BB;
    if (SRC == DST) {
        uint e = src_index(blk * BS); // the block's first element; rows hold whole blocks
        uint sb = (e / BS) * BB + j;
        return BYTE_OF(x, sb);
    }
    if (K_QUANT) return kbyte(blk, j);
    block_scale(blk);
    if (j < 2u) return (to_f16(cached_d) >> (8u * j)) & 0xFFu;
    if (DST == DT_Q8_0) {
        float v = value(blk * 32u + j - 2u) * cached_id;
        return uint(int(floor(v + 0.5))) & 0xFFu;
    }
    if (WITH_MIN && j < 4u) return (to_f16(cached_m) >> (8u * (j - 2u))) & 0xFFu;
    if (j < NIBBLES_AT) { // a byte of the fifth bits: bit k of byte h is element 8h + k's
        uint h = j - HIGH_AT, r = 0u;
        for (uint k = 0u; k < 8u; k++) r |= ((code(blk, 8u * h + k) >> 4) & 1u) << k;
        return r;
    }
    uint t = j - NIBBLES_AT;
    return (code(blk, t) & 15u) | ((code(blk, t + 16u) & 15u) << 4);
}

void main() {
    uint i = invocation();
    if (i >= pu(11u)) return;
    uint n = pu(0u);
    if (DST == DT_F32 || DST == DT_I32) {
        uint r;
        if (SRC == DST) {
            r = x[src_index(i)];
        } else if (DST == DT_F32) {
            r = floatBitsToUint(value(i));
        } else {
            float f = value(i);
            r = isnan(f) ? 0u : uint(int(clamp(floor(f + 0.5), -2147483648.0, 2147483520.0)));
            if (f >= 2147483648.0) r = 0x7FFFFFFFu;
        }
        y[pu(10u) + i] = r;
    } else if (DST == DT_F16 || DST == DT_BF16) {
        uint word = (pu(10u) >> 1) + i;
        uint lo = half_out(2u * i);
        uint hi = 2u * i + 1u < n ? half_out(2u * i + 1u) : (y[word] >> 16);
        y[word] = lo | (hi << 16);
    } else {
        uint bytes = pu(12u);
        uint word = (pu(10u) >> 2) + i;
        uint old = y[word], r = 0u;
        for (uint k = 0u; k < 4u; k++) {
            uint b = 4u * i + k;
            uint v = b < bytes ? block_byte(b) : (old >> (8u * k)) & 0xFFu;
            r |= v << (8u * k);
        }
        y[word] = r;
    }
}
