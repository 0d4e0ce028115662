package dev.audioengine.backend.cpu.kernels.elementwise;

import dev.audioengine.api.graph.Op.UnaryKind;
import dev.audioengine.backend.cpu.kernels.CpuTensor;
import dev.audioengine.backend.cpu.kernels.FloatMath;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
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
            case GELU_ERF ->
                (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : geluErf(s, sb, d, db, n));
            case GELU_TANH ->
                (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : geluTanh(s, sb, d, db, n));
            case SILU ->
                (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : silu(s, sb, d, db, n));
            case TANH ->
                (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : tanh(s, sb, d, db, n));
            case SIGMOID ->
                (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : sigmoid(s, sb, d, db, n));
            case ELU ->
                (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : elu(alpha, s, sb, d, db, n));
            case EXP -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : exp(s, sb, d, db, n));
            case LOG -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : log(s, sb, d, db, n));
            case SQRT -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, sqrt(s, sb, d, db, n));
            case NEG -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, neg(s, sb, d, db, n));
            case ABS -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, abs(s, sb, d, db, n));
            case SQR -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, sqr(s, sb, d, db, n));
            case SIN -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : sin(s, sb, d, db, n));
            case COS -> (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, cold(kind) ? 0 : cos(s, sb, d, db, n));
            case LEAKY_RELU ->
                (s, sb, d, db, n) -> tail(kind, alpha, s, sb, d, db, n, leakyRelu(alpha, s, sb, d, db, n));
        };
    }

    /**
     * Span calls of each transcendental kind that run the scalar form only, before the vector loop takes over
     * ({@code -Daudioengine.cpu.scalar-first-calls=N}; tests set 0). The transcendental kinds' vector loops are long
     * (an exp is about twenty vector operations, written out so that every JIT tier gives the same bits), and until C2
     * has compiled them they run the Vector API's Java fallback, many times slower than scalar code in C1: the cold
     * README transcription took 0.4 s longer with them from the first call. The cheap kinds (ReLU, abs, ...) taking
     * the scalar form first as well measured no different on a cold VAD run (1.22 s against 1.24 s, 9 rounds), so
     * they start with their vector loops. Scalar and vector forms give the same bits (UnaryMathTest), so where the
     * switch falls changes no result; the count is per kind, shared by every engine of the process, and its races
     * only move the switch by a call or two.
     */
    static final int SCALAR_FIRST_CALLS = Integer.getInteger("audioengine.cpu.scalar-first-calls", 2048);

    private static final int[] calls = new int[UnaryKind.values().length];

    /** Whether this span call of {@code kind} still takes the scalar form (counts it). */
    private static boolean cold(UnaryKind kind) {
        int k = kind.ordinal();
        if (calls[k] >= SCALAR_FIRST_CALLS) return false;
        calls[k]++;
        return true;
    }

    /**
     * The vector loop of {@code kind} over the whole vectors of dst[0, n) = f(src[0, n)), returning where its scalar
     * tail would start (tests: the vector and scalar forms give the same bits).
     */
    static int vectorPart(UnaryKind kind, float alpha, MemorySegment s, long sb, MemorySegment d, long db, int n) {
        return switch (kind) {
            case RELU -> relu(s, sb, d, db, n);
            case GELU_ERF -> geluErf(s, sb, d, db, n);
            case GELU_TANH -> geluTanh(s, sb, d, db, n);
            case SILU -> silu(s, sb, d, db, n);
            case TANH -> tanh(s, sb, d, db, n);
            case SIGMOID -> sigmoid(s, sb, d, db, n);
            case ELU -> elu(alpha, s, sb, d, db, n);
            case EXP -> exp(s, sb, d, db, n);
            case LOG -> log(s, sb, d, db, n);
            case SQRT -> sqrt(s, sb, d, db, n);
            case NEG -> neg(s, sb, d, db, n);
            case ABS -> abs(s, sb, d, db, n);
            case SQR -> sqr(s, sb, d, db, n);
            case SIN -> sin(s, sb, d, db, n);
            case COS -> cos(s, sb, d, db, n);
            case LEAKY_RELU -> leakyRelu(alpha, s, sb, d, db, n);
        };
    }

    /**
     * Elements of {@link #tail}'s scalar form per call of {@link #scalar}. A one-shot job runs without on-stack
     * replacement (the launcher's -XX:-UseOnStackReplacement for asr and vad), so a loop runs to its end in the tier it
     * started in: the whole span of a cold call (every element of a GELU over an encoder's activations, a few hundred
     * thousand) ran in the interpreter, with a MemorySegment access per element. In chunks, the short method that
     * computes them is compiled after a few calls (C1, then C2 at the kernel package's early thresholds) and the rest
     * of the span runs compiled; the segment is read and written by bulk copies.
     */
    private static final int SCALAR_CHUNK = 512;

    /** The values from {@code done} on by the scalar form of the same formula (the vector loop's remainder, or all). */
    private static void tail(
            UnaryKind kind,
            float alpha,
            MemorySegment src,
            long srcByte,
            MemorySegment dst,
            long dstByte,
            int n,
            int done) {
        if (done >= n) return;
        float[] x = new float[Math.min(SCALAR_CHUNK, n - done)];
        for (int i = done; i < n; i += x.length) {
            int m = Math.min(x.length, n - i);
            MemorySegment.copy(src, CpuTensor.F32, srcByte + 4L * i, x, 0, m);
            scalar(kind, alpha, x, m);
            MemorySegment.copy(x, 0, dst, CpuTensor.F32, dstByte + 4L * i, m);
        }
    }

    /** x[0, m) = f(x[0, m)) by {@link #apply}. */
    private static void scalar(UnaryKind kind, float alpha, float[] x, int m) {
        for (int i = 0; i < m; i++) x[i] = apply(kind, alpha, x[i]);
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
            FloatVector ec = p.max(FloatMath.EXP_LO).min(FloatMath.EXP_HI);
            FloatVector et = ec.fma(FloatMath.LOG2E, FloatMath.ROUND);
            FloatVector ek = et.sub(FloatMath.ROUND);
            FloatVector er = ek.fma(FloatVector.broadcast(S, -FloatMath.LN2_HI), ec);
            er = ek.fma(FloatVector.broadcast(S, -FloatMath.LN2_LO), er);
            FloatVector ep = er.fma(FloatMath.E7, FloatMath.E6);
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E5));
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E4));
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E3));
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E2));
            ep = ep.fma(er, FloatVector.broadcast(S, 1f));
            ep = ep.fma(er, FloatVector.broadcast(S, 1f));
            IntVector en = ((IntVector) et.reinterpretAsInts()).sub(FloatMath.ROUND_BITS);
            IntVector en1 = en.lanewise(VectorOperators.ASHR, 1), en2 = en.sub(en1);
            FloatVector e = ep.mul(
                            en1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(en2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
            FloatVector halfErfc = t.mul(0.5f).mul(e);
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
            FloatVector tc = twoU.abs().neg().max(FloatMath.EXP_LO).min(FloatMath.EXP_HI);
            FloatVector tt = tc.fma(FloatMath.LOG2E, FloatMath.ROUND);
            FloatVector tk = tt.sub(FloatMath.ROUND);
            FloatVector tr = tk.fma(FloatVector.broadcast(S, -FloatMath.LN2_HI), tc);
            tr = tk.fma(FloatVector.broadcast(S, -FloatMath.LN2_LO), tr);
            FloatVector tp = tr.fma(FloatMath.E7, FloatMath.E6);
            tp = tp.fma(tr, FloatVector.broadcast(S, FloatMath.E5));
            tp = tp.fma(tr, FloatVector.broadcast(S, FloatMath.E4));
            tp = tp.fma(tr, FloatVector.broadcast(S, FloatMath.E3));
            tp = tp.fma(tr, FloatVector.broadcast(S, FloatMath.E2));
            tp = tp.fma(tr, FloatVector.broadcast(S, 1f));
            tp = tp.fma(tr, FloatVector.broadcast(S, 1f));
            IntVector tn = ((IntVector) tt.reinterpretAsInts()).sub(FloatMath.ROUND_BITS);
            IntVector tn1 = tn.lanewise(VectorOperators.ASHR, 1), tn2 = tn.sub(tn1);
            FloatVector t = tp.mul(
                            tn1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(tn2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
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
            FloatVector tc = x.abs().neg().max(FloatMath.EXP_LO).min(FloatMath.EXP_HI);
            FloatVector tt = tc.fma(FloatMath.LOG2E, FloatMath.ROUND);
            FloatVector tk = tt.sub(FloatMath.ROUND);
            FloatVector tr = tk.fma(FloatVector.broadcast(S, -FloatMath.LN2_HI), tc);
            tr = tk.fma(FloatVector.broadcast(S, -FloatMath.LN2_LO), tr);
            FloatVector tp = tr.fma(FloatMath.E7, FloatMath.E6);
            tp = tp.fma(tr, FloatVector.broadcast(S, FloatMath.E5));
            tp = tp.fma(tr, FloatVector.broadcast(S, FloatMath.E4));
            tp = tp.fma(tr, FloatVector.broadcast(S, FloatMath.E3));
            tp = tp.fma(tr, FloatVector.broadcast(S, FloatMath.E2));
            tp = tp.fma(tr, FloatVector.broadcast(S, 1f));
            tp = tp.fma(tr, FloatVector.broadcast(S, 1f));
            IntVector tn = ((IntVector) tt.reinterpretAsInts()).sub(FloatMath.ROUND_BITS);
            IntVector tn1 = tn.lanewise(VectorOperators.ASHR, 1), tn2 = tn.sub(tn1);
            FloatVector t = tp.mul(
                            tn1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(tn2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
            FloatVector y = x.mul(t).blend(x, x.compare(VectorOperators.GE, 0f)).div(t.add(1f));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int tanh(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector ec = x.abs().mul(-2f).max(FloatMath.EXP_LO).min(FloatMath.EXP_HI);
            FloatVector et = ec.fma(FloatMath.LOG2E, FloatMath.ROUND);
            FloatVector ek = et.sub(FloatMath.ROUND);
            FloatVector er = ek.fma(FloatVector.broadcast(S, -FloatMath.LN2_HI), ec);
            er = ek.fma(FloatVector.broadcast(S, -FloatMath.LN2_LO), er);
            FloatVector ep = er.fma(FloatMath.E7, FloatMath.E6);
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E5));
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E4));
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E3));
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E2));
            ep = ep.fma(er, FloatVector.broadcast(S, 1f));
            ep = ep.fma(er, FloatVector.broadcast(S, 1f));
            IntVector en = ((IntVector) et.reinterpretAsInts()).sub(FloatMath.ROUND_BITS);
            IntVector en1 = en.lanewise(VectorOperators.ASHR, 1), en2 = en.sub(en1);
            FloatVector e = ep.mul(
                            en1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(en2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
            FloatVector m = FloatVector.broadcast(S, 1f).sub(e).div(e.add(1f));
            FloatVector y =
                    m.blend(m.neg(), x.compare(VectorOperators.LT, 0f)).blend(x, x.test(VectorOperators.IS_NAN));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int sigmoid(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector ec = x.neg().max(FloatMath.EXP_LO).min(FloatMath.EXP_HI);
            FloatVector et = ec.fma(FloatMath.LOG2E, FloatMath.ROUND);
            FloatVector ek = et.sub(FloatMath.ROUND);
            FloatVector er = ek.fma(FloatVector.broadcast(S, -FloatMath.LN2_HI), ec);
            er = ek.fma(FloatVector.broadcast(S, -FloatMath.LN2_LO), er);
            FloatVector ep = er.fma(FloatMath.E7, FloatMath.E6);
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E5));
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E4));
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E3));
            ep = ep.fma(er, FloatVector.broadcast(S, FloatMath.E2));
            ep = ep.fma(er, FloatVector.broadcast(S, 1f));
            ep = ep.fma(er, FloatVector.broadcast(S, 1f));
            IntVector en = ((IntVector) et.reinterpretAsInts()).sub(FloatMath.ROUND_BITS);
            IntVector en1 = en.lanewise(VectorOperators.ASHR, 1), en2 = en.sub(en1);
            FloatVector e = ep.mul(
                            en1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(en2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
            FloatVector y = FloatVector.broadcast(S, 1f).div(e.add(1f));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    private static int elu(float alpha, MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            // FloatMath.expm1's two forms lane by lane (not lanewise(EXPM1), whose tiers may differ): the polynomial
            FloatVector q = FloatVector.broadcast(S, FloatMath.M10).fma(x, FloatVector.broadcast(S, FloatMath.M9));
            q = q.fma(x, FloatVector.broadcast(S, FloatMath.M8));
            q = q.fma(x, FloatVector.broadcast(S, FloatMath.M7));
            q = q.fma(x, FloatVector.broadcast(S, FloatMath.M6));
            q = q.fma(x, FloatVector.broadcast(S, FloatMath.M5));
            q = q.fma(x, FloatVector.broadcast(S, FloatMath.M4));
            q = q.fma(x, FloatVector.broadcast(S, FloatMath.M3));
            q = q.fma(x, FloatVector.broadcast(S, FloatMath.M2));
            FloatVector small = q.fma(x.mul(x), x);
            // and exp(x) − 1, exp as FloatMath.exp
            FloatVector yc = x.max(FloatMath.EXP_LO).min(FloatMath.EXP_HI);
            FloatVector yt = yc.fma(FloatMath.LOG2E, FloatMath.ROUND);
            FloatVector yk = yt.sub(FloatMath.ROUND);
            FloatVector yr = yk.fma(FloatVector.broadcast(S, -FloatMath.LN2_HI), yc);
            yr = yk.fma(FloatVector.broadcast(S, -FloatMath.LN2_LO), yr);
            FloatVector yp = yr.fma(FloatMath.E7, FloatMath.E6);
            yp = yp.fma(yr, FloatVector.broadcast(S, FloatMath.E5));
            yp = yp.fma(yr, FloatVector.broadcast(S, FloatMath.E4));
            yp = yp.fma(yr, FloatVector.broadcast(S, FloatMath.E3));
            yp = yp.fma(yr, FloatVector.broadcast(S, FloatMath.E2));
            yp = yp.fma(yr, FloatVector.broadcast(S, 1f));
            yp = yp.fma(yr, FloatVector.broadcast(S, 1f));
            IntVector yn = ((IntVector) yt.reinterpretAsInts()).sub(FloatMath.ROUND_BITS);
            IntVector yn1 = yn.lanewise(VectorOperators.ASHR, 1), yn2 = yn.sub(yn1);
            FloatVector e = yp.mul(
                            yn1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(yn2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
            FloatVector m1 = e.sub(1f).blend(small, x.abs().compare(VectorOperators.LT, FloatMath.EXPM1_SMALL));
            FloatVector y = m1.mul(alpha).blend(x, x.compare(VectorOperators.GT, 0f));
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
            FloatVector yc = x.max(FloatMath.EXP_LO).min(FloatMath.EXP_HI);
            FloatVector yt = yc.fma(FloatMath.LOG2E, FloatMath.ROUND);
            FloatVector yk = yt.sub(FloatMath.ROUND);
            FloatVector yr = yk.fma(FloatVector.broadcast(S, -FloatMath.LN2_HI), yc);
            yr = yk.fma(FloatVector.broadcast(S, -FloatMath.LN2_LO), yr);
            FloatVector yp = yr.fma(FloatMath.E7, FloatMath.E6);
            yp = yp.fma(yr, FloatVector.broadcast(S, FloatMath.E5));
            yp = yp.fma(yr, FloatVector.broadcast(S, FloatMath.E4));
            yp = yp.fma(yr, FloatVector.broadcast(S, FloatMath.E3));
            yp = yp.fma(yr, FloatVector.broadcast(S, FloatMath.E2));
            yp = yp.fma(yr, FloatVector.broadcast(S, 1f));
            yp = yp.fma(yr, FloatVector.broadcast(S, 1f));
            IntVector yn = ((IntVector) yt.reinterpretAsInts()).sub(FloatMath.ROUND_BITS);
            IntVector yn1 = yn.lanewise(VectorOperators.ASHR, 1), yn2 = yn.sub(yn1);
            FloatVector y = yp.mul(
                            yn1.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats())
                    .mul(yn2.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
        }
        return i;
    }

    /** FloatMath.log's steps lane by lane (not lanewise(LOG): its compiled form gives other bits than its fallback). */
    private static int log(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            VectorMask<Float> subnormal = x.compare(VectorOperators.LT, Float.MIN_NORMAL);
            FloatVector xs = x.blend(x.mul(FloatMath.TWO_25), subnormal);
            IntVector bits = (IntVector) xs.reinterpretAsInts();
            FloatVector m = bits.and(0x007fffff).or(0x3f000000).reinterpretAsFloats();
            VectorMask<Float> low = m.compare(VectorOperators.LT, FloatMath.SQRT_HALF);
            FloatVector f = m.blend(m.add(m), low).sub(1f);
            FloatVector k = ((FloatVector)
                            bits.lanewise(VectorOperators.LSHR, 23).sub(126).convert(VectorOperators.I2F, 0))
                    .sub(FloatVector.zero(S).blend(25f, subnormal))
                    .sub(FloatVector.zero(S).blend(1f, low));
            FloatVector z = f.mul(f);
            FloatVector p = FloatVector.broadcast(S, FloatMath.L1).fma(f, FloatVector.broadcast(S, FloatMath.L2));
            p = p.fma(f, FloatVector.broadcast(S, FloatMath.L3));
            p = p.fma(f, FloatVector.broadcast(S, FloatMath.L4));
            p = p.fma(f, FloatVector.broadcast(S, FloatMath.L5));
            p = p.fma(f, FloatVector.broadcast(S, FloatMath.L6));
            p = p.fma(f, FloatVector.broadcast(S, FloatMath.L7));
            p = p.fma(f, FloatVector.broadcast(S, FloatMath.L8));
            p = p.fma(f, FloatVector.broadcast(S, FloatMath.L9));
            FloatVector y = p.mul(f).mul(z);
            y = k.fma(FloatVector.broadcast(S, FloatMath.LN2_LO), y);
            y = z.fma(FloatVector.broadcast(S, -0.5f), y);
            FloatVector r = k.fma(FloatVector.broadcast(S, FloatMath.LN2_HI), f.add(y));
            r = r.blend(Float.NaN, x.compare(VectorOperators.GT, 0f).not());
            r = r.blend(Float.NEGATIVE_INFINITY, x.compare(VectorOperators.EQ, 0f));
            r = r.blend(Float.POSITIVE_INFINITY, x.compare(VectorOperators.EQ, Float.POSITIVE_INFINITY));
            r.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
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
            FloatVector t = x.fma(FloatMath.TWO_OVER_PI, FloatMath.ROUND);
            FloatVector k = t.sub(FloatMath.ROUND);
            FloatVector r = k.fma(FloatVector.broadcast(S, -FloatMath.PIO2_1), x);
            r = k.fma(FloatVector.broadcast(S, -FloatMath.PIO2_2), r);
            r = k.fma(FloatVector.broadcast(S, -FloatMath.PIO2_3), r);
            IntVector q = ((IntVector) t.reinterpretAsInts()).and(3);
            FloatVector z = r.mul(r);
            FloatVector sp = z.fma(FloatMath.SIN3, FloatMath.SIN2)
                    .fma(z, FloatVector.broadcast(S, FloatMath.SIN1))
                    .mul(z)
                    .fma(r, r);
            FloatVector cp = z.fma(FloatMath.COS3, FloatMath.COS2)
                    .fma(z, FloatVector.broadcast(S, FloatMath.COS1))
                    .mul(z)
                    .fma(z, z.fma(-0.5f, 1f));
            VectorMask<Float> odd = q.and(1).compare(VectorOperators.NE, 0).cast(S);
            FloatVector y = sp.blend(cp, odd);
            y = y.blend(y.neg(), q.and(2).compare(VectorOperators.NE, 0).cast(S));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
            if (x.abs().compare(VectorOperators.GT, FloatMath.TRIG_EXACT_LIMIT).anyTrue())
                for (int j = 0; j < S.length(); j++) {
                    float v = x.lane(j); // not src: in place, the vector above has overwritten it
                    if (Math.abs(v) > FloatMath.TRIG_EXACT_LIMIT)
                        dst.set(CpuTensor.F32, dstByte + 4L * (i + j), FloatMath.sin(v));
                }
        }
        return i;
    }

    private static int cos(MemorySegment src, long srcByte, MemorySegment dst, long dstByte, int n) {
        int i = 0;
        for (int upper = S.loopBound(n); i < upper; i += S.length()) {
            FloatVector x = FloatVector.fromMemorySegment(S, src, srcByte + 4L * i, NATIVE);
            FloatVector t = x.fma(FloatMath.TWO_OVER_PI, FloatMath.ROUND);
            FloatVector k = t.sub(FloatMath.ROUND);
            FloatVector r = k.fma(FloatVector.broadcast(S, -FloatMath.PIO2_1), x);
            r = k.fma(FloatVector.broadcast(S, -FloatMath.PIO2_2), r);
            r = k.fma(FloatVector.broadcast(S, -FloatMath.PIO2_3), r);
            IntVector q = ((IntVector) t.reinterpretAsInts()).and(3);
            FloatVector z = r.mul(r);
            FloatVector sp = z.fma(FloatMath.SIN3, FloatMath.SIN2)
                    .fma(z, FloatVector.broadcast(S, FloatMath.SIN1))
                    .mul(z)
                    .fma(r, r);
            FloatVector cp = z.fma(FloatMath.COS3, FloatMath.COS2)
                    .fma(z, FloatVector.broadcast(S, FloatMath.COS1))
                    .mul(z)
                    .fma(z, z.fma(-0.5f, 1f));
            VectorMask<Float> odd = q.and(1).compare(VectorOperators.NE, 0).cast(S);
            FloatVector y = cp.blend(sp, odd);
            y = y.blend(y.neg(), q.add(1).and(2).compare(VectorOperators.NE, 0).cast(S));
            y.intoMemorySegment(dst, dstByte + 4L * i, NATIVE);
            if (x.abs().compare(VectorOperators.GT, FloatMath.TRIG_EXACT_LIMIT).anyTrue())
                for (int j = 0; j < S.length(); j++) {
                    float v = x.lane(j); // not src: in place, the vector above has overwritten it
                    if (Math.abs(v) > FloatMath.TRIG_EXACT_LIMIT)
                        dst.set(CpuTensor.F32, dstByte + 4L * (i + j), FloatMath.cos(v));
                }
        }
        return i;
    }

    /** x·σ(v) with t = e^{−|v|} ≤ 1, so nothing overflows: x/(1 + t) for v ≥ 0, x·t/(1 + t) below. */
    private static float xSigmoid(float x, float v) {
        float t = FloatMath.exp(-Math.abs(v));
        return (v >= 0 ? x : x * t) / (1f + t);
    }

    static float apply(UnaryKind kind, float alpha, float x) {
        return switch (kind) {
            case RELU -> Math.max(x, 0f);
            case GELU_ERF -> geluErf(x);
            case GELU_TANH ->
                xSigmoid(x, (x * x * x * 0.044715f + x) * (2 * SQRT_2_OVER_PI)); // the vector loop's order
            case SILU -> xSigmoid(x, x);
            case TANH -> tanh(x);
            case SIGMOID -> 1f / (1f + FloatMath.exp(-x));
            case ELU -> x > 0 ? x : alpha * FloatMath.expm1(x);
            case EXP -> FloatMath.exp(x);
            case LOG -> FloatMath.log(x);
            case SQRT -> (float) Math.sqrt(x);
            case NEG -> -x;
            case ABS -> Math.abs(x);
            case SQR -> x * x;
            case SIN -> FloatMath.sin(x);
            case COS -> FloatMath.cos(x);
            case LEAKY_RELU -> x > 0 ? x : alpha * x;
        };
    }

    /** sign(x)·(1 − e)/(1 + e) with e = e^{−2|x|}, as the vector loop computes it (absolute error about 1e-7). */
    private static float tanh(float x) {
        if (Float.isNaN(x)) return x;
        float e = FloatMath.exp(-2f * Math.abs(x));
        float m = (1f - e) / (e + 1f);
        return x < 0 ? -m : m;
    }

    private static float geluErf(float x) {
        float z = Math.abs(x) * INV_SQRT2;
        float t = 1f / (1f + 0.5f * z);
        float p = ERFC_P[9];
        for (int i = 8; i >= 1; i--) p = Math.fma(p, t, ERFC_P[i]);
        p = Math.fma(p, t, ERFC_P[0]) - z * z;
        float halfErfc = 0.5f * t * FloatMath.exp(p);
        return x * (x >= 0 ? 1f - halfErfc : halfErfc);
    }
}
