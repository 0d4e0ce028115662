package dev.audioengine.backend.cpu.kernels;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.reference.ReferenceEvaluator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One randomized case: a graph built on random inputs (fresh seed, see {@link Seeds}), run on
 * the CPU backend through the engine and by the float64 {@link ReferenceEvaluator}, compared
 * with a tolerance. Inputs can be handed to ops as strided views of bigger inputs, so kernels
 * see the same non-contiguous layouts models give them.
 */
public final class ReferenceCheck implements AutoCloseable {
    /** How a test input reaches the op. */
    public enum Layout {
        /** as it is */
        CONTIGUOUS,
        /** transpose of an input with the last two axes swapped (rank >= 2) */
        TRANSPOSED,
        /** every second element of the last axis of a longer input, starting at 1 */
        STEPPED
    }

    public final GraphBuilder g = new GraphBuilder();
    public final long seed = Seeds.fresh();
    public final RandomTensors random = new RandomTensors(seed);
    private final Map<String, HostTensor> inputs = new LinkedHashMap<>();
    private Graph graph; // built on first use; a check runs one output

    /** Uniform [lo, hi) F32 input shown to the op with {@code shape} through {@code layout}. */
    public Tensor input(String name, Shape shape, Layout layout, float lo, float hi) {
        long[] d = shape.dims();
        int r = d.length;
        return switch (layout) {
            case CONTIGUOUS -> bind(name, random.f32(shape, lo, hi));
            case TRANSPOSED -> {
                if (r < 2) throw new IllegalArgumentException("TRANSPOSED needs rank >= 2, got " + shape);
                long[] s = d.clone();
                s[r - 1] = d[r - 2];
                s[r - 2] = d[r - 1];
                yield g.transpose(bind(name, random.f32(new Shape(s), lo, hi)), -1, -2);
            }
            case STEPPED -> {
                long[] s = d.clone();
                s[r - 1] = 2 * d[r - 1] + 1;
                yield g.slice(bind(name, random.f32(new Shape(s), lo, hi)), -1, 1, s[r - 1], 2);
            }
        };
    }

    public Tensor input(String name, Shape shape, Layout layout) {
        return input(name, shape, layout, -1, 1);
    }

    /** An input with given values (any dtype). */
    public Tensor bind(String name, HostTensor value) {
        inputs.put(name, value);
        return g.input(name, value.dtype(), value.shape());
    }

    public Tensor constant(Shape shape, float lo, float hi) {
        return g.constant(random.f32(shape, lo, hi));
    }

    public Tensor constant(DType dtype, Shape shape, float lo, float hi) {
        return g.constant(random.of(dtype, shape, lo, hi));
    }

    /** Runs {@code out} on the CPU and checks NMSE against the reference (non-finite values must agree). */
    public void assertNmse(AudioEngine engine, String what, Tensor out, double bound) {
        float[] cpu = runOnCpu(engine, out);
        Closeness.assertNmse(what, out.shape(), seed, cpu, reference(out), bound);
    }

    /** Runs {@code out} on the CPU and checks every element against the reference within {@code bound}. */
    public void assertMaxAbs(AudioEngine engine, String what, Tensor out, double bound) {
        float[] cpu = runOnCpu(engine, out);
        Closeness.assertMaxAbs(what, out.shape(), seed, cpu, reference(out), bound);
    }

    private Graph graph(Tensor out) {
        if (graph == null) graph = g.build(out);
        return graph;
    }

    public float[] runOnCpu(AudioEngine engine, Tensor out) {
        try (CompiledGraph cg = engine.compile(graph(out));
                CompiledGraph.Outputs o = cg.run(inputs)) {
            return o.get(0).toFloatArray();
        }
    }

    /** Runs an I32 output on the CPU and returns its ints. */
    public int[] runOnCpuInts(AudioEngine engine, Tensor out) {
        try (CompiledGraph cg = engine.compile(graph(out));
                CompiledGraph.Outputs o = cg.run(inputs)) {
            return o.get(0).toIntArray();
        }
    }

    public double[] reference(Tensor out) {
        return ReferenceEvaluator.evaluate(graph(out), inputs, out);
    }

    @Override
    public void close() {
        inputs.values().forEach(HostTensor::close);
    }
}
