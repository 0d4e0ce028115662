#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// y = f(x) elementwise over F32, both sides strided (concat writes each piece into a slice of its output).
// push: 0 n, 1-4 shape, 5 x offset, 6-9 x strides, 10 y offset, 11-14 y strides, 15 alpha, 16 scale, 17 bias
layout(constant_id = 1) const uint KIND = 0u; // Op.UnaryKind ordinal; 100 = scale, 101 = bit copy

layout(std430, binding = 0) readonly buffer X { uint x[]; };
layout(std430, binding = 1) writeonly buffer Y { uint y[]; };

// 1 + erf(v), without the cancellation 1 + (erfc - 1) would suffer for negative v.
float one_plus_erf(float v) {
    // Numerical Recipes' erfc (Chebyshev fit, relative error < 1.2e-7) of |v|
    float z = abs(v);
    float t = 1.0 / (1.0 + 0.5 * z);
    float r = t * exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
            + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    return v >= 0.0 ? 2.0 - r : r;
}

float safe_tanh(float v) {
    float t = exp(-2.0 * abs(v));
    float r = (1.0 - t) / (1.0 + t);
    return isnan(v) ? v : (v < 0.0 ? -r : r);
}

float sigmoid(float v) {
    float e = exp(-abs(v));
    return v >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
}

float apply(float v) {
    switch (KIND) {
        case 0u: return isnan(v) ? v : max(v, 0.0);
        case 1u: return 0.5 * v * one_plus_erf(v * 0.70710678118654752);
        case 2u: return v * sigmoid(1.5957691216057307 * (v + 0.044715 * v * v * v)); // 0.5(1 + tanh u) = sigmoid(2u), no cancellation
        case 3u: return v * sigmoid(v);
        case 4u: return safe_tanh(v);
        case 5u: return isnan(v) ? v : sigmoid(v);
        case 6u: return v > 0.0 ? v : (isnan(v) ? v : pf(15u) * (exp(v) - 1.0));
        case 7u: return exp(v);
        case 8u: return log(v);
        case 9u: return sqrt(v);
        case 10u: return -v;
        case 11u: return abs(v);
        case 12u: return v * v;
        case 13u: return sin(v);
        case 14u: return cos(v);
        case 15u: return v > 0.0 ? v : pf(15u) * v;
        case 100u: return v * pf(16u) + pf(17u);
    }
    return v;
}

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    uvec4 c = coords(i, pu4(1u));
    uint src = x[at(pu(5u), pu4(6u), c)];
    y[at(pu(10u), pu4(11u), c)] = KIND == 101u ? src : floatBitsToUint(apply(uintBitsToFloat(src)));
}
