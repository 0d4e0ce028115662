package dev.audioengine.backend.cpu.kernels;

/**
 * exp, sin and cos in float from adds, multiplies, FMAs and exponent bits only, one value at a time: the scalar form
 * of the vector loops in the kernels, which repeat these steps lane by lane (written out in each loop: a helper taking
 * and returning a vector that the JIT declines to inline boxes it on every call).
 * <p>
 * Why not the Vector API's {@code lanewise(EXP)}, {@code SIN}, ...: their Java fallback (what runs before C2 has
 * compiled a kernel) calls {@link Math} lane by lane, and C2's compiled form calls a vector library; the two differ in
 * the last bits, so a cold process and a warm one gave other results for the same input, and Kokoro's audio differed
 * between any two runs. Adds, multiplies, FMAs and integer ops round the same in every tier, so these give the same bits
 * interpreted, in C1 and in C2 ({@code CrossTierDeterminismTest}).
 * <p>
 * exp: x clamped to [−104, 89] (beyond, the result is 0 or +inf in float anyway); n = round(x·log2 e) by the 1.5·2^23
 * rounding trick, r = x − n·ln 2 (ln 2 in two parts), e^r by its degree-7 Taylor polynomial (|r| ≤ ln2/2: truncation
 * below 6e-9 relative), scaled by 2^n as two powers of two, so that results down to the subnormals and up to the
 * overflow come out right. sin and cos: n = round(x·2/π) by the same trick, r = x − n·π/2 (π/2 in three parts,
 * Cody–Waite), then Cephes' sinf and cosf polynomials on |r| ≤ π/4 picked and signed by n mod 4; beyond
 * |x| = {@value #TRIG_EXACT_LIMIT} the reduction loses bits, so such values take {@link Math#sin}/{@link Math#cos},
 * which HotSpot computes with the same routine in every tier. log: x = m·2^e with m in [√½, √2) from the exponent
 * bits (subnormals scaled by 2^25 first), f = m − 1, then Cephes' logf: f − f²/2 + f³·P(f) + e·ln 2 (ln 2 in two
 * parts); within 1 ulp of {@code (float) Math.log(x)} on the inputs {@code FloatMathTest} draws. The Vector API's
 * {@code lanewise(LOG)} gave other bits than {@code Math.log} for about 66 of a million inputs once compiled, enough
 * for Whisper's log-mel (240,000 logs a window) to change between a cold and a warm run.
 */
public final class FloatMath {
    private FloatMath() {}

    /** 1.5·2^23: adding it rounds a float of magnitude below 2^22 to an integer held in the low mantissa bits. */
    public static final float ROUND = 12582912f;

    public static final int ROUND_BITS = Float.floatToRawIntBits(ROUND);
    public static final float EXP_LO = -104f, EXP_HI = 89f;
    public static final float LOG2E = 1.44269504f, LN2_HI = 0.693359375f, LN2_LO = -2.12194440e-4f;
    public static final float E2 = 1 / 2f, E3 = 1 / 6f, E4 = 1 / 24f, E5 = 1 / 120f, E6 = 1 / 720f, E7 = 1 / 5040f;

    public static final float TWO_OVER_PI = 0.636619772f;
    /** π/2 = PIO2_1 + PIO2_2 + PIO2_3; PIO2_1 has 8 significant bits, so n·PIO2_1 is exact for |n| < 2^16. */
    public static final float PIO2_1 = 1.5703125f, PIO2_2 = 4.837512969970703125e-4f, PIO2_3 = 7.54978995489188216e-8f;

    public static final float SIN1 = -1.6666654611e-1f, SIN2 = 8.3321608736e-3f, SIN3 = -1.9515295891e-4f;
    public static final float COS1 = 4.166664568298827e-2f, COS2 = -1.388731625493765e-3f, COS3 = 2.443315711809948e-5f;
    /** Past this the reduction above loses bits: such lanes are recomputed with {@link Math#sin}/{@link Math#cos}. */
    public static final float TRIG_EXACT_LIMIT = 65536f;

    /** √½: a mantissa below it is doubled (and the exponent lowered) so that f = m − 1 is within ±0.29. */
    public static final float SQRT_HALF = 0.707106781186547524f;

    /** 2^25, and its exponent: subnormal inputs are scaled by it so that their exponent bits hold their scale. */
    public static final float TWO_25 = 33554432f;

    public static final float L1 = 7.0376836292e-2f, L2 = -1.1514610310e-1f, L3 = 1.1676998740e-1f;
    public static final float L4 = -1.2420140846e-1f, L5 = 1.4249322787e-1f, L6 = -1.6668057665e-1f;
    public static final float L7 = 2.0000714765e-1f, L8 = -2.4999993993e-1f, L9 = 3.3333331174e-1f;

    /** ln x (NaN below 0 and for NaN, −∞ at ±0, +∞ at +∞). */
    public static float log(float x) {
        if (!(x > 0)) return x == 0 ? Float.NEGATIVE_INFINITY : Float.NaN;
        if (x == Float.POSITIVE_INFINITY) return x;
        boolean subnormal = x < Float.MIN_NORMAL;
        float xs = subnormal ? x * TWO_25 : x;
        int bits = Float.floatToRawIntBits(xs);
        float m = Float.intBitsToFloat((bits & 0x007fffff) | 0x3f000000); // [0.5, 1)
        boolean low = m < SQRT_HALF;
        float f = (low ? m + m : m) - 1f;
        // the exponent, less 25 for a scaled subnormal and 1 for a doubled mantissa (small integers: exact in float)
        float k = (float) ((bits >>> 23) - 126) - (subnormal ? 25f : 0f) - (low ? 1f : 0f);
        float z = f * f;
        float p = Math.fma(L1, f, L2);
        p = Math.fma(p, f, L3);
        p = Math.fma(p, f, L4);
        p = Math.fma(p, f, L5);
        p = Math.fma(p, f, L6);
        p = Math.fma(p, f, L7);
        p = Math.fma(p, f, L8);
        p = Math.fma(p, f, L9);
        float y = p * f * z;
        y = Math.fma(k, LN2_LO, y);
        y = Math.fma(z, -0.5f, y);
        float r = f + y;
        return Math.fma(k, LN2_HI, r);
    }

    /** ln 2: below it in magnitude expm1 takes its polynomial, where exp(x) − 1 would cancel. */
    public static final float EXPM1_SMALL = 0.6931472f;

    public static final float M2 = 1 / 2f, M3 = 1 / 6f, M4 = 1 / 24f, M5 = 1 / 120f, M6 = 1 / 720f, M7 = 1 / 5040f;
    public static final float M8 = 1 / 40320f, M9 = 1 / 362880f, M10 = 1 / 3628800f;

    /** e^x − 1. */
    public static float expm1(float x) {
        if (!(Math.abs(x) < EXPM1_SMALL)) return exp(x) - 1f;
        float q = Math.fma(M10, x, M9);
        q = Math.fma(q, x, M8);
        q = Math.fma(q, x, M7);
        q = Math.fma(q, x, M6);
        q = Math.fma(q, x, M5);
        q = Math.fma(q, x, M4);
        q = Math.fma(q, x, M3);
        q = Math.fma(q, x, M2);
        return Math.fma(q, x * x, x);
    }

    /** e^x. */
    public static float exp(float x) {
        float xc = Math.min(Math.max(x, EXP_LO), EXP_HI);
        float t = Math.fma(xc, LOG2E, ROUND);
        float k = t - ROUND;
        float r = Math.fma(k, -LN2_HI, xc);
        r = Math.fma(k, -LN2_LO, r);
        float p = Math.fma(r, E7, E6);
        p = Math.fma(p, r, E5);
        p = Math.fma(p, r, E4);
        p = Math.fma(p, r, E3);
        p = Math.fma(p, r, E2);
        p = Math.fma(p, r, 1f);
        p = Math.fma(p, r, 1f);
        int n = Float.floatToRawIntBits(t) - ROUND_BITS, n1 = n >> 1, n2 = n - n1;
        return p * Float.intBitsToFloat((n1 + 127) << 23) * Float.intBitsToFloat((n2 + 127) << 23);
    }

    /** sin x. */
    public static float sin(float x) {
        if (Math.abs(x) > TRIG_EXACT_LIMIT) return (float) Math.sin(x);
        return quadrant(x, 0);
    }

    /** cos x. */
    public static float cos(float x) {
        if (Math.abs(x) > TRIG_EXACT_LIMIT) return (float) Math.cos(x);
        return quadrant(x, 1);
    }

    /**
     * sin x (shift 0) or cos x = sin(x + π/2) (shift 1): x reduced by n·π/2, then the polynomial and sign that
     * (n + shift) mod 4 picks.
     */
    private static float quadrant(float x, int shift) {
        float t = Math.fma(x, TWO_OVER_PI, ROUND);
        float k = t - ROUND;
        float r = Math.fma(k, -PIO2_1, x);
        r = Math.fma(k, -PIO2_2, r);
        r = Math.fma(k, -PIO2_3, r);
        return switch ((Float.floatToRawIntBits(t) + shift) & 3) {
            case 0 -> sinPoly(r);
            case 1 -> cosPoly(r);
            case 2 -> -sinPoly(r);
            default -> -cosPoly(r);
        };
    }

    /** r + r·z·(SIN1 + z·(SIN2 + z·SIN3)), z = r². */
    static float sinPoly(float r) {
        float z = r * r;
        float p = Math.fma(z, SIN3, SIN2);
        p = Math.fma(p, z, SIN1);
        return Math.fma(p * z, r, r);
    }

    /** 1 − z/2 + z²·(COS1 + z·(COS2 + z·COS3)), z = r². */
    static float cosPoly(float r) {
        float z = r * r;
        float p = Math.fma(z, COS3, COS2);
        p = Math.fma(p, z, COS1);
        return Math.fma(p * z, z, Math.fma(z, -0.5f, 1f));
    }
}
