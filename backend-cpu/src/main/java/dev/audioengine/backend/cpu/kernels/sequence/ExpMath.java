package dev.audioengine.backend.cpu.kernels.sequence;

import dev.audioengine.backend.cpu.kernels.linear.LaneSum;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Sigmoid and tanh over float arrays from plain arithmetic (adds, FMAs, one integer shift), for
 * the LSTM's gates, and the exponentials of the fused attention's online softmax. Two things made
 * the obvious forms slow in a streaming graph, where each loop runs a few iterations per graph run:
 * <ul>
 * <li>{@code lanewise(EXP)} goes through the JDK's vector math library, whose per-lane
 *     fallback showed up in profiles even after C2 had compiled the caller;</li>
 * <li>a helper taking and returning a vector was compiled on its own early, then judged too big
 *     to inline, so its vectors were boxed on every call.</li>
 * </ul>
 * So each loop below holds the whole computation inline, and no vector crosses a call. The
 * scalar tail repeats the same operations, so a value does not depend on where it falls.
 * <p>
 * exp(x) = 2^n · e^r with n = round(x·log2 e) (by the 1.5·2^23 rounding trick) and
 * |r| <= ln2/2, e^r by its degree-6 Taylor polynomial: relative error below 2e-7 on [-87, 88],
 * where inputs are clamped (sigmoid and tanh saturate long before). tanh(x) = 2·sigmoid(2x) − 1:
 * absolute error ~1e-7.
 */
final class ExpMath {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final float LOG2E = 1.44269504f, LN2_HI = 0.693359375f, LN2_LO = -2.12194440e-4f;
    private static final float ROUND =
            12582912f; // 1.5 * 2^23: adding it rounds to an integer held in the low mantissa bits
    private static final float LO = -87f, HI = 88f;
    private static final float C2 = 1 / 2f, C3 = 1 / 6f, C4 = 1 / 24f, C5 = 1 / 120f, C6 = 1 / 720f;
    private static final int EXPONENT_BIAS = Float.floatToRawIntBits(ROUND) - 127;

    private ExpMath() {}

    /** a[from, to) = sigmoid(a[from, to)). */
    static void sigmoidInPlace(float[] a, int from, int to) {
        activate(a, from, a, from, to - from, false);
    }

    /** dst[d, d + n) = tanh(src[s, s + n)). */
    static void tanh(float[] src, int s, float[] dst, int d, int n) {
        activate(src, s, dst, d, n, true);
    }

    /** sigmoid(x), or tanh(x) = 2·sigmoid(2x) − 1, lane by lane; the exp is written out inline on purpose (see the class comment). */
    private static void activate(float[] src, int s, float[] dst, int d, int n, boolean tanh) {
        float scale = tanh ? -2f : -1f;
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x =
                    FloatVector.fromArray(S, src, s + i).mul(scale).max(LO).min(HI); // exp of -x (or -2x)
            FloatVector t = x.fma(LOG2E, ROUND);
            FloatVector k = t.sub(ROUND);
            FloatVector r = k.fma(FloatVector.broadcast(S, -LN2_HI), x);
            r = k.fma(FloatVector.broadcast(S, -LN2_LO), r);
            FloatVector p = r.fma(C6, C5);
            p = p.fma(r, FloatVector.broadcast(S, C4));
            p = p.fma(r, FloatVector.broadcast(S, C3));
            p = p.fma(r, FloatVector.broadcast(S, C2));
            p = p.fma(r, FloatVector.broadcast(S, 1f));
            p = p.fma(r, FloatVector.broadcast(S, 1f));
            FloatVector e = p.mul(t.reinterpretAsInts()
                    .sub(EXPONENT_BIAS)
                    .lanewise(VectorOperators.LSHL, 23)
                    .reinterpretAsFloats());
            FloatVector y = FloatVector.broadcast(S, 1f).div(e.add(1f));
            if (tanh) y = y.mul(2f).sub(1f);
            y.intoArray(dst, d + i);
        }
        for (; i < n; i++) {
            float y = 1f / (exp(Math.min(Math.max(src[s + i] * scale, LO), HI)) + 1f);
            dst[d + i] = tanh ? y * 2f - 1f : y;
        }
    }

    /**
     * p[from, from + n) = exp(p − max), returning their sum (vector lanes first, then the tail in order): the fused
     * attention's softmax terms (faster than {@code lanewise(EXP)} in UnarySpeed; with this and eight sums in flight
     * the attention kernel gained, AttentionSpeed). Scores minus their running max are at most
     * 0; below −87 (−inf for a masked key included) a term is exactly 0, as exp gives in float there; NaN stays NaN.
     * The vector loop is written out (the polynomial repeats {@link #activate}'s): no vector crosses a call.
     */
    static float softmaxTerms(float[] p, int from, int n, float max) {
        return softmaxTerms(p, from, n, max, new float[S.length()]);
    }

    /** {@link #softmaxTerms(float[], int, int, float)} with {@code lanes} (at least a vector's length) as scratch. */
    static float softmaxTerms(float[] p, int from, int n, float max, float[] lanes) {
        FloatVector mv = FloatVector.broadcast(S, max), vsum = FloatVector.zero(S), zero = vsum;
        int j = 0;
        for (int upper = S.loopBound(n); j < upper; j += S.length()) {
            FloatVector x = FloatVector.fromArray(S, p, from + j).sub(mv);
            var under = x.compare(VectorOperators.LT, LO);
            x = x.max(LO);
            FloatVector t = x.fma(LOG2E, ROUND);
            FloatVector k = t.sub(ROUND);
            FloatVector r = k.fma(FloatVector.broadcast(S, -LN2_HI), x);
            r = k.fma(FloatVector.broadcast(S, -LN2_LO), r);
            FloatVector q = r.fma(C6, C5);
            q = q.fma(r, FloatVector.broadcast(S, C4));
            q = q.fma(r, FloatVector.broadcast(S, C3));
            q = q.fma(r, FloatVector.broadcast(S, C2));
            q = q.fma(r, FloatVector.broadcast(S, 1f));
            q = q.fma(r, FloatVector.broadcast(S, 1f));
            FloatVector e = q.mul(t.reinterpretAsInts()
                            .sub(EXPONENT_BIAS)
                            .lanewise(VectorOperators.LSHL, 23)
                            .reinterpretAsFloats())
                    .blend(zero, under);
            vsum = vsum.add(e);
            e.intoArray(p, from + j);
        }
        vsum.intoArray(lanes, 0); // summed in LaneSum's fixed order: the same bits in every JIT tier
        float sum = LaneSum.of(lanes, 0);
        for (; j < n; j++) {
            float e = softmaxTerm(p[from + j] - max);
            sum += e;
            p[from + j] = e;
        }
        return sum;
    }

    /** One softmax term exp(x) for x <= 0, exactly as {@link #softmaxTerms} makes it (0 below −87). */
    static float softmaxTerm(float x) {
        return x < LO ? 0f : exp(Math.max(x, LO));
    }

    /** The vector loop's exp, one value at a time (x already clamped). */
    private static float exp(float x) {
        float t = Math.fma(x, LOG2E, ROUND);
        float k = t - ROUND;
        float r = Math.fma(k, -LN2_HI, x);
        r = Math.fma(k, -LN2_LO, r);
        float p = Math.fma(r, C6, C5);
        p = Math.fma(p, r, C4);
        p = Math.fma(p, r, C3);
        p = Math.fma(p, r, C2);
        p = Math.fma(p, r, 1f);
        p = Math.fma(p, r, 1f);
        return p * Float.intBitsToFloat((Float.floatToRawIntBits(t) - EXPONENT_BIAS) << 23);
    }
}
