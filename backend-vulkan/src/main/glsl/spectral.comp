#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// stft (INVERSE = 0): one thread per (b, bin, frame), a direct windowed DFT sum over n_fft
// samples of the (reflect-padded when centred) signal. istft (INVERSE = 1): one thread per output
// sample, summing each covering frame's inverse real DFT times the window (irfft ignores the
// imaginary parts of DC and Nyquist), divided by the overlap-added squared window.
// Angles use (f*j) mod n so they stay in [0, 2pi).
// stft push:  0 items, 1 bins, 2 frames, 3 n_fft, 4 hop, 5 pad, 6 T, 7 x offset, 8-9 x strides,
//             10 window offset, 11 window stride, 12 y offset
// istft push: 0 items, 1 bins, 2 frames, 3 n_fft, 4 hop, 5 start, 6 length, 7 spec offset,
//             8-11 spec strides, 12 window offset, 13 window stride, 14 y offset
layout(constant_id = 1) const uint INVERSE = 0u;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Wn { float win[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };

const float TWO_PI = 6.283185307179586;

void stft(uint i) {
    uint bins = pu(1u), frames = pu(2u), n = pu(3u), hop = pu(4u), T = pu(6u);
    uint m = i % frames, f = (i / frames) % bins, b = i / (frames * bins);
    int pad = int(pu(5u));
    uint xb = pu(7u) + b * pu(8u);
    float re = 0.0, im = 0.0;
    for (uint j = 0u; j < n; j++) {
        int src = int(m * hop + j) - pad;
        if (src < 0) src = -src;
        if (src >= int(T)) src = 2 * (int(T) - 1) - src;
        float v = x[xb + uint(src) * pu(9u)] * win[pu(10u) + j * pu(11u)];
        float angle = TWO_PI * float((f * j) % n) / float(n);
        re += v * cos(angle);
        im -= v * sin(angle);
    }
    uint o = pu(12u) + 2u * i;
    y[o] = re;
    y[o + 1u] = im;
}

void istft(uint i) {
    uint bins = pu(1u), frames = pu(2u), n = pu(3u), hop = pu(4u), length = pu(6u);
    uint s = i % length, b = i / length;
    uint p = pu(5u) + s;
    uint first = p >= n ? (p - n) / hop + 1u : 0u;
    float acc = 0.0, env = 0.0;
    for (uint m = first; m < frames && m * hop <= p; m++) {
        uint j = p - m * hop;
        if (j >= n) continue;
        float w = win[pu(12u) + j * pu(13u)];
        env += w * w;
        float sum = 0.0;
        for (uint f = 0u; f < bins; f++) {
            uint o = pu(7u) + b * pu(8u) + f * pu(9u) + m * pu(10u);
            float angle = TWO_PI * float((f * j) % n) / float(n);
            bool self_conjugate = f == 0u || ((n & 1u) == 0u && f == n / 2u);
            float term = x[o] * cos(angle) - (self_conjugate ? 0.0 : x[o + pu(11u)] * sin(angle));
            sum += self_conjugate ? term : 2.0 * term;
        }
        acc += sum / float(n) * w;
    }
    y[pu(14u) + i] = acc / env;
}

void main() {
    uint i = invocation();
    if (i >= pu(0u)) return;
    if (INVERSE == 1u) istft(i); else stft(i);
}
