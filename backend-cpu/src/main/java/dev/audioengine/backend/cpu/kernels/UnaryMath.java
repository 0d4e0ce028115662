package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.graph.Op.UnaryKind;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * The activation functions in float, once as vector lanes and once as a scalar for loop tails;
 * both follow the same formulas so a value does not depend on where it falls in a row.
 * <p>
 * Both GELUs keep their relative accuracy in the negative tail, where 1 + erf or 1 + tanh would
 * cancel: GELU (erf) uses Numerical Recipes' Chebyshev fit for erfc, t·exp(−z² + P(t)) with
 * t = 1/(1 + z/2), whose relative error is below 1.2e-7 for every z; GELU (tanh) uses the identity
 * ½(1 + tanh u) = 1/(1 + e^{−2u}).
 */
final class UnaryMath {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final float INV_SQRT2 = (float) (1 / Math.sqrt(2));
    private static final float SQRT_2_OVER_PI = (float) Math.sqrt(2 / Math.PI);
    private static final float[] ERFC_P = {
            -1.26551223f, 1.00002368f, 0.37409196f, 0.09678418f, -0.18628806f,
            0.27886807f, -1.13520398f, 1.48851587f, -0.82215223f, 0.17087277f};

    private UnaryMath() {}

    /**
     * dst[i] = f(src[i]) for n contiguous floats (the two may be the same memory). The switch sits
     * inside the loop on purpose: C2 hoists it, and no vector crosses a call boundary. A vector
     * returned from a method that was not inlined is boxed, and one shared {@code apply(kind, x)}
     * stopped being inlined once a graph used three kinds: ReLU, sqrt and sigmoid in one graph
     * ran 10x slower than each alone.
     */
    static void map(UnaryKind kind, float alpha, MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector y = switch (kind) {
                case RELU -> x.lanewise(VectorOperators.MAX, 0f);
                case GELU_ERF -> {
                    // written out here, not called: geluErf(FloatVector) was not inlined into this large method, so
                    // its vectors were boxed and ran the Vector API's Java fallback (lanewiseTemplate), 3 % of
                    // Moonshine tiny's one-thread time in steady state
                    FloatVector z = x.abs().mul(INV_SQRT2);
                    FloatVector t = FloatVector.broadcast(S, 1f).div(z.mul(0.5f).add(1f));
                    FloatVector p = FloatVector.broadcast(S, ERFC_P[9]);
                    for (int c = 8; c >= 1; c--) p = p.fma(t, FloatVector.broadcast(S, ERFC_P[c]));
                    p = p.fma(t, FloatVector.broadcast(S, ERFC_P[0])).sub(z.mul(z));
                    FloatVector halfErfc = t.mul(p.lanewise(VectorOperators.EXP)).mul(0.5f);
                    yield x.mul(halfErfc.blend(halfErfc.neg().add(1f), x.compare(VectorOperators.GE, 0f)));
                }
                case GELU_TANH -> {
                    FloatVector minusTwoU = x.mul(x).mul(x).mul(0.044715f).add(x).mul(-2 * SQRT_2_OVER_PI);
                    yield x.div(minusTwoU.lanewise(VectorOperators.EXP).add(1f));
                }
                case SILU -> x.div(x.neg().lanewise(VectorOperators.EXP).add(1f));
                case TANH -> x.lanewise(VectorOperators.TANH);
                case SIGMOID -> FloatVector.broadcast(S, 1f).div(x.neg().lanewise(VectorOperators.EXP).add(1f));
                case ELU -> x.lanewise(VectorOperators.EXPM1).mul(alpha).blend(x, x.compare(VectorOperators.GT, 0f));
                case EXP -> x.lanewise(VectorOperators.EXP);
                case LOG -> x.lanewise(VectorOperators.LOG);
                case SQRT -> x.sqrt();
                case NEG -> x.neg();
                case ABS -> x.abs();
                case SQR -> x.mul(x);
                case SIN -> x.lanewise(VectorOperators.SIN);
                case COS -> x.lanewise(VectorOperators.COS);
            };
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        for (; i < n; i++) dst.set(CpuTensor.F32, dstByte + 4L * i, apply(kind, alpha, src.get(CpuTensor.F32, srcByte + 4L * i)));
    }

    static float apply(UnaryKind kind, float alpha, float x) {
        return switch (kind) {
            case RELU -> Math.max(x, 0f);
            case GELU_ERF -> geluErf(x);
            case GELU_TANH -> x / (1f + (float) Math.exp(-2 * SQRT_2_OVER_PI * (x + 0.044715f * x * x * x)));
            case SILU -> x / (1f + (float) Math.exp(-x));
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
