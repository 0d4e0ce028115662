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
const uint BB = DST == DT_Q8_0 ? 34u : DST == DT_Q4_0 ? 18u : DST == DT_Q5_0 ? 22u : DST == DT_Q5_1 ? 24u : 20u;
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

uint block_byte(uint b) {
    uint blk = b / BB, j = b % BB;
    if (SRC == DST) {
        uint e = src_index(blk * 32u); // the block's first element; rows hold whole blocks
        uint sb = (e >> 5) * BB + j;
        return BYTE_OF(x, sb);
    }
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
