package dev.audioengine.backend.cpu.kernels.elementwise;

import dev.audioengine.api.graph.Op.UnaryKind;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The activation functions in float, once as vector lanes and once as a scalar for loop tails;
 * both follow the same formulas so a value does not depend on where it falls in a row.
 * <p>
 * Both GELUs keep their relative accuracy in the negative tail, where 1 + erf or 1 + tanh would
 * cancel: GELU (erf) uses Numerical Recipes' Chebyshev fit for erfc, t·exp(−z² + P(t)) with
 * t = 1/(1 + z/2), whose relative error is below 1.2e-7 for every z; GELU (tanh) uses the identity
 * ½(1 + tanh u) = σ(2u). GELU (tanh) and SiLU take σ from t = e^{−|v|}, as x/(1 + t) or x·t/(1 + t):
 * the form x/(1 + e^{−v}) overflows e^{−v} past v = −88.7, where the true value is still a normal float
 * (GELU (tanh) near x = −10.1 returned 0 for ~3e-38, a CI seed's one-element case).
 */
final class UnaryMath {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final float INV_SQRT2 = (float) (1 / Math.sqrt(2));
    private static final float SQRT_2_OVER_PI = (float) Math.sqrt(2 / Math.PI);
    private static final float[] ERFC_P = {
        -1.26551223f,
        1.00002368f,
        0.37409196f,
        0.09678418f,
        -0.18628806f,
        0.27886807f,
        -1.13520398f,
        1.48851587f,
        -0.82215223f,
        0.17087277f
    };

    private UnaryMath() {}

    /**
     * dst[i] = f(src[i]) over n contiguous floats (the two may be the same memory), as a span function of its own for
     * each kind: the driver's call to it stays a virtual call, so C2 compiles each kind's loop by itself with the
     * Vector API inlined and no vector crossing a call. Both earlier shapes lost some of that once a process used
     * several kinds: a per-vector {@code apply(kind, x)} stopped being inlined, and one loop switching over every kind
     * ran ReLU several times slower than alone and the others slower too ({@code UnarySpeed}, docs/PERFORMANCE-cpu.md).
     */
    static ElementwiseDriver.Span span(UnaryKind kind, float alpha) {
        return switch (kind) {
            case RELU -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, relu(s, sb, d, db, n));
            case GELU_ERF -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, geluErf(s, sb, d, db, n));
            case GELU_TANH -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, geluTanh(s, sb, d, db, n));
            case SILU -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, silu(s, sb, d, db, n));
            case TANH -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, tanh(s, sb, d, db, n));
            case SIGMOID -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, sigmoid(s, sb, d, db, n));
            case ELU -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, elu(alpha, s, sb, d, db, n));
            case EXP -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, exp(s, sb, d, db, n));
            case LOG -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, log(s, sb, d, db, n));
            case SQRT -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, sqrt(s, sb, d, db, n));
            case NEG -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, neg(s, sb, d, db, n));
            case ABS -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, abs(s, sb, d, db, n));
            case SQR -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, sqr(s, sb, d, db, n));
            case SIN -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, sin(s, sb, d, db, n));
            case COS -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cos(s, sb, d, db, n));
            case LEAKY_RELU ->
                (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, leakyRelu(alpha, s, sb, d, db, n));
        };
    }

    /** The values from {@code done} on (fewer than a vector) by the scalar form of the same formula. */
    private static void tail(
            UnaryKind kind,
            float alpha,
            MemorySegment src,
            long srcByte,
            MemorySegment dst,
            long dstByte,
            int n,
            int done) {
        for (int i = done; i < n; i++)
            dst.set(CpuTensor.F32, dstByte + 4L * i, apply(kind, alpha, src.get(CpuTensor.F32, srcByte + 4L * i)));
    }

    // One loop per kind, each returning where its scalar tail starts; the load is written out in each (no helper
    // returning a vector). Written out rather than shared: a loop taking the library op (TANH, EXP, ...) as a
    // parameter does not make it a constant for C2 (exp ran an order of magnitude slower in a first try).
    private static int relu(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.lanewise(VectorOperators.MAX, 0f);
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int geluErf(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector z = x.abs().mul(INV_SQRT2);
            FloatVector t = FloatVector.broadcast(S, 1f).div(z.mul(0.5f).add(1f));
            FloatVector p = FloatVector.broadcast(S, ERFC_P[9]);
            for (int c = 8; c >= 1; c--) p = p.fma(t, FloatVector.broadcast(S, ERFC_P[c]));
            p = p.fma(t, FloatVector.broadcast(S, ERFC_P[0])).sub(z.mul(z));
            FloatVector halfErfc = t.mul(p.lanewise(VectorOperators.EXP)).mul(0.5f);
            FloatVector y = x.mul(halfErfc.blend(halfErfc.neg().add(1f), x.compare(VectorOperators.GE, 0f)));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int geluTanh(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector twoU = x.mul(x).mul(x).mul(0.044715f).add(x).mul(2 * SQRT_2_OVER_PI);
            FloatVector t = twoU.abs().neg().lanewise(VectorOperators.EXP);
            FloatVector y =
                    x.mul(t).blend(x, twoU.compare(VectorOperators.GE, 0f)).div(t.add(1f));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int silu(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector t = x.abs().neg().lanewise(VectorOperators.EXP);
            FloatVector y = x.mul(t).blend(x, x.compare(VectorOperators.GE, 0f)).div(t.add(1f));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int tanh(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.lanewise(VectorOperators.TANH);
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int sigmoid(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = FloatVector.broadcast(S, 1f)
                    .div(x.neg().lanewise(VectorOperators.EXP).add(1f));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int elu(float alpha, MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.lanewise(VectorOperators.EXPM1).mul(alpha).blend(x, x.compare(VectorOperators.GT, 0f));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int leakyRelu(float alpha, MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.mul(alpha).blend(x, x.compare(VectorOperators.GT, 0f));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int exp(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.lanewise(VectorOperators.EXP);
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int log(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.lanewise(VectorOperators.LOG);
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int sqrt(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.sqrt();
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int neg(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.neg();
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int abs(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.abs();
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int sqr(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.mul(x);
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int sin(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.lanewise(VectorOperators.SIN);
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int cos(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = x.lanewise(VectorOperators.COS);
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    /** x·σ(v) with t = e^{−|v|} ≤ 1, so nothing overflows: x/(1 + t) for v ≥ 0, x·t/(1 + t) below. */
    private static float xSigmoid(float x, float v) {
        float t = (float) Math.exp(-Math.abs(v));
        return (v >= 0 ? x : x * t) / (1f + t);
    }

    static float apply(UnaryKind kind, float alpha, float x) {
        return switch (kind) {
            case RELU -> Math.max(x, 0f);
            case GELU_ERF -> geluErf(x);
            case GELU_TANH -> xSigmoid(x, 2 * SQRT_2_OVER_PI * (x + 0.044715f * x * x * x));
            case SILU -> xSigmoid(x, x);
            case TANH -> (float) Math.tanh(x);
            case SIGMOID -> 1f / (1f + (float) Math.exp(-x));
            case ELU -> x > 0 ? x : alpha * (float) Math.expm1(x);
            case EXP -> (float) Math.exp(x);
            case LOG -> (float) Math.log(x);
            case SQRT -> (float) Math.sqrt(x);
            case NEG -> -x;
            case ABS -> Math.abs(x);
            case SQR -> x * x;
            case SIN -> (float) Math.sin(x);
            case COS -> (float) Math.cos(x);
            case LEAKY_RELU -> x > 0 ? x : alpha * x;
        };
    }

    private static float geluErf(float x) {
        float z = Math.abs(x) * INV_SQRT2;
        float t = 1f / (1f + 0.5f * z);
        float p = ERFC_P[9];
        for (int i = 8; i >= 1; i--) p = Math.fma(p, t, ERFC_P[i]);
        p = Math.fma(p, t, ERFC_P[0]) - z * z;
        float halfErfc = 0.5f * t * (float) Math.exp(p);
        return x * (x >= 0 ? 1f - halfErfc : halfErfc);
    }
}
