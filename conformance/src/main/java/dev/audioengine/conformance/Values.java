package dev.audioengine.conformance;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.SplittableRandom;

/**
 * How one input of a case is filled: normal or uniform floats, integers in a range (ids,
 * positions, I32 sources), or normal floats with NaN and ±Inf sprinkled in. Values are drawn
 * as F32 and then converted to the input's dtype, so F16/BF16/quantized inputs hold exactly the
 * numbers both the backend and the reference read.
 */
public sealed interface Values {

    /** Normal with standard deviation {@code sigma}. */
    record Normal(double sigma) implements Values {}

    /** Uniform in [lo, hi). */
    record Uniform(double lo, double hi) implements Values {}

    /** Integers uniform in [lo, hi] (inclusive). */
    record Ints(int lo, int hi) implements Values {}

    /** Standard normal with about one value in eight replaced by NaN, +Inf, -Inf or 0. */
    record WithSpecials() implements Values {}

    /** An additive mask: -Inf (masked) with probability 1/4, otherwise 0. */
    record NegInfOrZero() implements Values {}

    /**
     * An additive key mask over the last axis: 0 for its first {@code length} positions, -Inf
     * after, in every row: what key_mask gives a cache holding {@code length} keys, as an input.
     */
    record KeyPrefix(int length) implements Values {}

    /**
     * One given integer per run of a multi-run case (write positions, lengths), every element
     * equal to it; a case with more runs than values is a programming error.
     */
    record PerRun(int[] values) implements Values {
        public PerRun {
            values = values.clone();
        }

        int at(int run) {
            if (run >= values.length)
                throw new IllegalArgumentException("PerRun has " + values.length + " values, run " + run + " asked");
            return values[run];
        }
    }

    /** Run r's tensor is {@code values[r]}, element by element (a batch of starts or lengths that changes per run). */
    record PerRunRows(int[][] values) implements Values {
        public PerRunRows {
            values = values.clone();
        }

        int at(int run, int i) {
            if (run >= values.length)
                throw new IllegalArgumentException("PerRunRows has " + values.length + " runs, run " + run + " asked");
            return values[run][i];
        }
    }

    /** An additive mask [B, 1, Tq, Tk]: 0 on the first {@code lengths[b]} keys of batch element b, -inf after. */
    record KeyPrefixes(int[] lengths) implements Values {
        public KeyPrefixes {
            lengths = lengths.clone();
        }
    }

    static Values normal() {
        return new Normal(1);
    }

    static Values uniform(double lo, double hi) {
        return new Uniform(lo, hi);
    }

    static Values ints(int lo, int hi) {
        return new Ints(lo, hi);
    }

    static Values perRun(int... values) {
        return new PerRun(values);
    }

    /** Draws a tensor of {@code dtype} and {@code shape}; the caller owns (closes) it. */
    default HostTensor draw(DType dtype, Shape shape, SplittableRandom rnd) {
        return draw(dtype, shape, rnd, 0);
    }

    /** Draws the tensor for run {@code run} of a multi-run case ({@link PerRun} picks its value; the others ignore it). */
    default HostTensor draw(DType dtype, Shape shape, SplittableRandom rnd, int run) {
        int n = Math.toIntExact(shape.elements());
        float[] v = new float[n];
        long last = shape.rank() == 0 ? 1 : shape.dim(-1);
        for (int i = 0; i < n; i++) {
            v[i] = switch (this) {
                case Normal(double sigma) -> (float) (gaussian(rnd) * sigma);
                case Uniform(double lo, double hi) -> (float) (lo + (hi - lo) * rnd.nextDouble());
                case Ints(int lo, int hi) -> rnd.nextInt(lo, hi + 1);
                case WithSpecials() ->
                    switch (rnd.nextInt(32)) {
                        case 0 -> Float.NaN;
                        case 1 -> Float.POSITIVE_INFINITY;
                        case 2 -> Float.NEGATIVE_INFINITY;
                        case 3 -> 0f;
                        default -> (float) gaussian(rnd);
                    };
                case NegInfOrZero() -> rnd.nextInt(4) == 0 ? Float.NEGATIVE_INFINITY : 0f;
                case KeyPrefix(int length) -> i % last < length ? 0f : Float.NEGATIVE_INFINITY;
                case PerRun p -> p.at(run);
                case PerRunRows p -> p.at(run, i);
                case KeyPrefixes(int[] lengths) ->
                    i % last < lengths[(int) (i / (n / shape.dim(0)))] ? 0f : Float.NEGATIVE_INFINITY;
            };
        }
        if (dtype == DType.I32) {
            int[] ints = new int[n];
            for (int i = 0; i < n; i++) ints[i] = (int) v[i];
            return HostTensor.ofInts(shape, ints);
        }
        return HostTensor.convert(dtype, shape, v);
    }

    private static double gaussian(SplittableRandom rnd) {
        // Box-Muller: SplittableRandom has no nextGaussian that is stable across JDKs.
        double u1 = 1 - rnd.nextDouble(), u2 = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
