package dev.audioengine.conformance;

/**
 * The largest normalized mean squared error Σ(a−b)²/Σb² a case accepts, and why that number:
 * each bound is derived from the number format the op is allowed to round through, so that a
 * real bug (wrong index, wrong rounding mode, a dropped term) lands orders of magnitude above it.
 */
public record Bound(double nmse, String why) {

    /** F32 arithmetic against float64: rounding noise is ~1e-14 in NMSE; 1e-7 leaves room for long sums and fast transcendental approximations. */
    public static final Bound F32 =
            new Bound(1e-7, "F32 math vs float64: rounding noise is ~1e-14, 1e-7 allows long sums and fast exp/tanh");

    /** Integer results (argmax, casts to I32, index lookups) must match exactly. */
    public static final Bound EXACT = new Bound(0, "integer result: must match exactly");

    // Matmul and attention may round activations to the weight format before multiplying (tensor cores,
    // ggml's quantized dot products). With unit roundoff u, each product then carries a relative error
    // uniform in ±u, whose variance u²/3 is the expected NMSE of a random dot product; 10x that is the bound.

    /** F16 unit roundoff u = 2^-11: 10·u²/3 ≈ 8e-7. */
    public static final Bound F16_MATH =
            new Bound(1e-6, "activations may round to F16 (u=2^-11): 10*u^2/3 = 8e-7 -> 1e-6");

    /** BF16 unit roundoff u = 2^-8: 10·u²/3 ≈ 5e-5. */
    public static final Bound BF16_MATH = new Bound(5e-5, "activations may round to BF16 (u=2^-8): 10*u^2/3 = 5e-5");

    /**
     * Quantized weights: a backend may also quantize activations to 8-bit blocks (ggml's Q8 dot
     * products). Step = amax/127 with amax ≈ 2.5σ for 32 normal values, so the noise is
     * (2.5/127)²/12 ≈ 3e-5 of the signal; 5e-4 is ggml's bound for quantized matmul and still far below
     * what a wrong nibble order or scale (NMSE ~ 1) gives.
     */
    public static final Bound QUANT_MATH = new Bound(
            5e-4, "activations may be quantized to 8-bit blocks: noise (2.5/127)^2/12 = 3e-5; 5e-4 as in ggml");

    /**
     * Attention with F16 k/v: q·k and the probabilities may round to F16 (two roundings of u = 2^-11),
     * and softmax multiplies a score's relative error by its magnitude (|s| ≲ 3): (3u)²·2/3·10 ≈ 1.4e-5.
     */
    public static final Bound F16_ATTENTION = new Bound(
            2e-5, "q.k and p may round to F16 (u=2^-11), softmax scales score error by |s|<=3: 10*2*(3u)^2/3 = 1.4e-5");

    /** The same for BF16 (u = 2^-8): 64x the F16 figure. */
    public static final Bound BF16_ATTENTION =
            new Bound(1e-3, "q.k and p may round to BF16 (u=2^-8): 64x the F16 bound = 9e-4");

    // Casts to a narrower format are deterministic (round to nearest even, ggml's block quantizers), so
    // backend and reference should agree bit for bit; the bound allows one element in 1000 to land one
    // step away (a tie or a scale computed in another precision) and no more. Truncating instead of
    // rounding moves every element by half a step on average and fails by a wide margin.

    /** One F16 ulp (2^-10 relative) on 1 element in 1000: 1e-3·2^-20 ≈ 1e-9. */
    public static final Bound CAST_F16 =
            new Bound(1e-9, "one F16 ulp (2^-10) on 1 element in 1000: 1e-9; truncation would give 8e-8");

    /** One BF16 ulp (2^-7 relative) on 1 element in 1000: 1e-3·2^-14 ≈ 6e-8. */
    public static final Bound CAST_BF16 =
            new Bound(6e-8, "one BF16 ulp (2^-7) on 1 element in 1000: 6e-8; truncation would give 5e-6");

    /** One Q8_0 step (amax/127 ≈ 0.02σ) on 1 element in 1000: 1e-3·4e-4 = 4e-7. */
    public static final Bound CAST_Q8_0 =
            new Bound(4e-7, "one Q8_0 step (amax/127 = 0.02 sigma) on 1 element in 1000: 4e-7");

    /** One Q4_0 step (amax/8 ≈ 0.31σ) on 1 element in 1000: 1e-3·0.1 = 1e-4. */
    public static final Bound CAST_Q4_0 =
            new Bound(1e-4, "one Q4_0 step (amax/8 = 0.31 sigma) on 1 element in 1000: 1e-4");

    /** One Q5_0 or Q5_1 step (amax/16 or range/31, about 0.16σ) on 1 element in 1000: 1e-3·0.026 = 3e-5. */
    public static final Bound CAST_Q5 =
            new Bound(3e-5, "one Q5_0/Q5_1 step (amax/16 or range/31 = 0.16 sigma) on 1 element in 1000: 3e-5");

    /** One Q4_1 step (range/15 ≈ 0.35σ) on 1 element in 1000: 1e-3·0.12 = 1.2e-4. */
    public static final Bound CAST_Q4_1 =
            new Bound(1.2e-4, "one Q4_1 step (range/15 = 0.35 sigma) on 1 element in 1000: 1.2e-4");

    /** One Q6_K step (a 16-value sub-block's amax/32, about 0.06σ) on 1 element in 1000: 1e-3·0.0036 = 4e-6. */
    public static final Bound CAST_Q6_K =
            new Bound(4e-6, "one Q6_K step (sub-block amax/32 = 0.06 sigma) on 1 element in 1000: 4e-6");

    /** One Q4_K step (a 32-value sub-block's range/15, about 0.3σ) on 1 element in 1000: 1e-3·0.1 = 1e-4. */
    public static final Bound CAST_Q4_K =
            new Bound(1.2e-4, "one Q4_K step (sub-block range/15 = 0.3 sigma) on 1 element in 1000: 1.2e-4");

    /** One Q5_K step (a 32-value sub-block's range/31, about 0.15σ) on 1 element in 1000: 1e-3·0.026 = 3e-5. */
    public static final Bound CAST_Q5_K =
            new Bound(3e-5, "one Q5_K step (sub-block range/31 = 0.15 sigma) on 1 element in 1000: 3e-5");

    /** One Q3_K step (a 16-value sub-block's amax/4, about 0.45σ) on 1 element in 1000: 1e-3·0.2 = 2e-4. */
    public static final Bound CAST_Q3_K =
            new Bound(2e-4, "one Q3_K step (sub-block amax/4 = 0.45 sigma) on 1 element in 1000: 2e-4");

    /** One Q2_K step (a 16-value sub-block's range/3, about 1.2σ) on 1 element in 1000: 1e-3·1.4 = 1.4e-3. */
    public static final Bound CAST_Q2_K =
            new Bound(1.4e-3, "one Q2_K step (sub-block range/3 = 1.2 sigma) on 1 element in 1000: 1.4e-3");

    public Bound {
        if (!(nmse >= 0)) throw new IllegalArgumentException("bound must be >= 0: " + nmse);
        if (why == null || why.isBlank()) throw new IllegalArgumentException("a bound says where it comes from");
    }
}
