// Binary ops with broadcasting, unary activations (and scale), snake.
#include "ae_tensor.h"

// Op.BinaryKind ordinals
#define BIN_ADD 0
#define BIN_SUB 1
#define BIN_MUL 2
#define BIN_DIV 3
#define BIN_POW 4
#define BIN_MAX 5

GC_DEVICE float binary_op(int kind, float a, float b) {
    switch (kind) {
        case BIN_ADD: return a + b;
        case BIN_SUB: return a - b;
        case BIN_MUL: return a * b;
        case BIN_DIV: return a / b;
        case BIN_POW: return powf(a, b);
        // as Math.max: NaN if either is (fmaxf alone would return the other)
        case BIN_MAX: return gc_isnan(a) || gc_isnan(b) ? a + b : fmaxf(a, b);
    }
    return gc_nan();
}

// Op.UnaryKind ordinals; UN_SCALE is Op.Scale (x * scale + bias).
#define UN_RELU 0
#define UN_GELU_ERF 1
#define UN_GELU_TANH 2
#define UN_SILU 3
#define UN_TANH 4
#define UN_SIGMOID 5
#define UN_ELU 6
#define UN_EXP 7
#define UN_LOG 8
#define UN_SQRT 9
#define UN_NEG 10
#define UN_ABS 11
#define UN_SQR 12
#define UN_SIN 13
#define UN_COS 14
#define UN_LEAKY_RELU 15
#define UN_SCALE 100

GC_DEVICE float unary_op(int kind, float alpha, float scale, float bias, float x) {
    switch (kind) {
        case UN_RELU: return gc_isnan(x) ? x : fmaxf(0.0f, x);
        // 1 + erf(z) = erfc(-z) and (1 + tanh(u)) / 2 = sigmoid(2u): no cancellation for large negative x
        case UN_GELU_ERF: return 0.5f * x * erfcf(-x * 0.70710678118654752f);
        case UN_GELU_TANH: return x * sigmoid_f(2.0f * (0.79788456080286536f * (x + 0.044715f * x * x * x)));
        case UN_SILU: return x * sigmoid_f(x);
        case UN_TANH: return tanhf(x);
        case UN_SIGMOID: return sigmoid_f(x);
        case UN_ELU: return x > 0 ? x : (gc_isnan(x) ? x : alpha * expm1f(x));
        case UN_EXP: return expf(x);
        case UN_LOG: return logf(x);
        case UN_SQRT: return sqrtf(x);
        case UN_NEG: return -x;
        case UN_ABS: return fabsf(x);
        case UN_SQR: return x * x;
        case UN_SIN: return sinf(x);
        case UN_COS: return cosf(x);
        case UN_LEAKY_RELU: return x > 0 ? x : alpha * x;
        case UN_SCALE: return x * scale + bias;
    }
    return gc_nan();
}

/** y (contiguous) = a op b; ta and tb carry the output's dims with a's and b's strides (0 where broadcast). */
GC_KERNEL void ae_binary_strided(int kind, i64 n, float* GC_RESTRICT y, const float* GC_RESTRICT a, TD ta,
                                 const float* GC_RESTRICT b, TD tb) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        y[i] = binary_op(kind, a[td_off(ta, i)], b[td_off(tb, i)]);
    }
}

/** All three contiguous with the same shape: no index arithmetic beyond i. */
GC_KERNEL void ae_binary_contig(int kind, i64 n, float* GC_RESTRICT y, const float* GC_RESTRICT a, const float* GC_RESTRICT b) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) y[i] = binary_op(kind, a[i], b[i]);
}

GC_KERNEL void ae_unary_strided(int kind, float alpha, float scale, float bias, i64 n, float* GC_RESTRICT y,
                                const float* GC_RESTRICT x, TD tx) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) y[i] = unary_op(kind, alpha, scale, bias, x[td_off(tx, i)]);
}

GC_KERNEL void ae_unary_contig(int kind, float alpha, float scale, float bias, i64 n, float* GC_RESTRICT y,
                               const float* GC_RESTRICT x) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) y[i] = unary_op(kind, alpha, scale, bias, x[i]);
}

/** Snake on x [B, C, T] (tx padded to [1, B, C, T]): x + sin^2(alpha_c x) / (alpha_c + 1e-9). */
GC_KERNEL void ae_snake(i64 n, float* GC_RESTRICT y, const float* GC_RESTRICT x, TD tx, const float* GC_RESTRICT alpha,
                        i64 alphaStride) {
    for (i64 i = gc_global_id(); i < n; i += gc_global_stride()) {
        i64 c = (i / tx.n[3]) % tx.n[2];
        float a = alpha[c * alphaStride];
        float v = x[td_off(tx, i)];
        float s = sinf(a * v);
        y[i] = v + s * s / (a + 1e-9f);
    }
}

// 16-byte vectors for the contiguous paths: one 128-bit load or store moves four values.
struct GC_ALIGN(16) f4 { float x, y, z, w; };

/** Contiguous unary over n4 groups of four (pointers 16-byte aligned; the host handles a tail). */
GC_KERNEL void ae_unary_vec4(int kind, float alpha, float scale, float bias, i64 n4, f4* GC_RESTRICT y, const f4* GC_RESTRICT x) {
    for (i64 i = gc_global_id(); i < n4; i += gc_global_stride()) {
        f4 v = x[i];
        v.x = unary_op(kind, alpha, scale, bias, v.x);
        v.y = unary_op(kind, alpha, scale, bias, v.y);
        v.z = unary_op(kind, alpha, scale, bias, v.z);
        v.w = unary_op(kind, alpha, scale, bias, v.w);
        y[i] = v;
    }
}

GC_KERNEL void ae_binary_vec4(int kind, i64 n4, f4* GC_RESTRICT y, const f4* GC_RESTRICT a, const f4* GC_RESTRICT b) {
    for (i64 i = gc_global_id(); i < n4; i += gc_global_stride()) {
        f4 u = a[i], v = b[i], r;
        r.x = binary_op(kind, u.x, v.x);
        r.y = binary_op(kind, u.y, v.y);
        r.z = binary_op(kind, u.z, v.z);
        r.w = binary_op(kind, u.w, v.w);
        y[i] = r;
    }
}
