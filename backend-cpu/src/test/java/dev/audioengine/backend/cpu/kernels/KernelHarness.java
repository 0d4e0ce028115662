package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.reference.ReferenceEvaluator;
import java.util.Map;
import java.util.Random;

/**
 * Runs one graph on the CPU backend with two workers and compares its output with float64
 * values twice: the shared {@link ReferenceEvaluator} (the reference module's specification) and each
 * test's own loops, written from the PyTorch formulas, so a slip in either reference shows too.
 * Every test class draws a fresh seed (printed in each failure message);
 * {@code -Daudioengine.seed=N} replays it.
 */
public final class KernelHarness implements AutoCloseable {
    final long seed = Seeds.fresh();
    public final Random random = new Random(seed);
    private final AudioEngine engine = AudioEngine.builder()
            .backend("cpu")
            .threads(2)
            .option("cpu.op-threads", "all")
            .build();

    /** Runs the graph, checks output 0 against the shared reference within {@code bound} NMSE, returns it. */
    public float[] run(Graph graph, Map<String, HostTensor> inputs, double bound) {
        float[] got;
        try (CompiledGraph cg = engine.compile(graph);
                CompiledGraph.Outputs out = cg.run(inputs)) {
            got = out.get(0).toFloatArray();
        }
        var output = graph.outputs().get(0);
        double[] want = ReferenceEvaluator.evaluate(graph, inputs, output);
        Closeness.assertNmse(output + " vs ReferenceEvaluator", output.shape(), seed, got, want, bound);
        return got;
    }

    public double[] gaussian(int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = random.nextGaussian();
        return v;
    }

    public static float[] floats(double[] v) {
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) f[i] = (float) v[i];
        return f;
    }

    /** The values a tensor actually holds (after F16/BF16 rounding or block quantization), as doubles. */
    public static double[] stored(HostTensor t) {
        float[] f = t.toFloatArray();
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) d[i] = f[i];
        return d;
    }

    /** Normalized mean squared error Σ(got-want)² / Σ want² (absolute when want is all zero). */
    static double nmse(float[] got, double[] want) {
        if (got.length != want.length) throw new AssertionError("length " + got.length + " != " + want.length);
        double err = 0, ref = 0;
        for (int i = 0; i < got.length; i++) {
            double d = got[i] - want[i];
            if (Double.isNaN(d)) return Double.POSITIVE_INFINITY;
            err += d * d;
            ref += want[i] * want[i];
        }
        return ref == 0 ? err : err / ref;
    }

    /** Fails with the case, the error and the seed when NMSE exceeds {@code bound}. */
    public void assertClose(String what, float[] got, double[] want, double bound) {
        double e = nmse(got, want);
        if (!(e <= bound)) {
            int worst = 0;
            for (int i = 0; i < got.length; i++)
                if (Math.abs(got[i] - want[i]) > Math.abs(got[worst] - want[worst])) worst = i;
            throw new AssertionError(what + ": NMSE " + e + " > " + bound + "; worst element " + worst + " got "
                    + got[worst] + " want " + want[worst] + "; " + Seeds.describe(seed));
        }
    }

    @Override
    public void close() {
        engine.close();
    }
}
