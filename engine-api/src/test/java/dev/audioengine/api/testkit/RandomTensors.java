package dev.audioengine.api.testkit;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.SplittableRandom;

/** Reproducible random test data from one seed (see {@link Seeds}). */
public final class RandomTensors {
    private final long seed;
    private final SplittableRandom random;

    public RandomTensors(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    public long seed() {
        return seed;
    }

    /** n floats uniform in [lo, hi). */
    public float[] uniform(int n, float lo, float hi) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) (lo + (hi - lo) * random.nextDouble());
        return v;
    }

    /** n floats from N(mean, std²). */
    public float[] normal(int n, double mean, double std) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) (mean + std * gaussian());
        return v;
    }

    /** n ints uniform in [lo, hiExclusive). */
    public int[] ints(int n, int lo, int hiExclusive) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) v[i] = random.nextInt(lo, hiExclusive);
        return v;
    }

    public int nextInt(int lo, int hiExclusive) {
        return random.nextInt(lo, hiExclusive);
    }

    public double nextDouble() {
        return random.nextDouble();
    }

    /** F32 tensor uniform in [lo, hi). */
    public HostTensor f32(Shape shape, float lo, float hi) {
        return HostTensor.ofFloats(shape, uniform(count(shape), lo, hi));
    }

    /** F32 tensor from N(0, 1). */
    public HostTensor f32(Shape shape) {
        return HostTensor.ofFloats(shape, normal(count(shape), 0, 1));
    }

    /**
     * A tensor of {@code dtype} holding uniform [lo, hi) values converted the way weights are
     * (rounded to F16/BF16, quantized to Q8_0/Q4_0, rounded to I32/I8).
     */
    public HostTensor of(DType dtype, Shape shape, float lo, float hi) {
        return HostTensor.convert(dtype, shape, uniform(count(shape), lo, hi));
    }

    /** I32 tensor uniform in [lo, hiExclusive). */
    public HostTensor i32(Shape shape, int lo, int hiExclusive) {
        return HostTensor.ofInts(shape, ints(count(shape), lo, hiExclusive));
    }

    private double gaussian() {
        // Box-Muller; 1 - u keeps the log argument in (0, 1].
        double u = 1 - random.nextDouble(), v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }

    private static int count(Shape shape) {
        return Math.toIntExact(shape.elements());
    }
}
