package dev.audioengine.conformance;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A case being written: its graph builder and the distribution of each input. Public so that case
 * catalogues outside this module (the bench module's BenchCases) are written the same way.
 */
public final class CaseDraft {
    public final GraphBuilder g = new GraphBuilder();
    private final Map<String, Values> values = new LinkedHashMap<>();
    private final Map<String, Values> states = new LinkedHashMap<>();

    public Tensor input(String name, DType dtype, Values v, long... dims) {
        values.put(name, v);
        return g.input(name, dtype, Shape.of(dims));
    }

    public Tensor f32(String name, long... dims) {
        return input(name, DType.F32, Values.normal(), dims);
    }

    /** A persistent F32 tensor starting with values drawn from {@code v}. */
    public Tensor state(String name, Values v, long... dims) {
        states.put(name, v);
        return g.state(name, DType.F32, Shape.of(dims));
    }

    public Tensor f32(String name, Values v, long... dims) {
        return input(name, DType.F32, v, dims);
    }

    /**
     * A non-contiguous input of logical shape {@code dims}: stored with its last two axes swapped
     * and viewed through a transpose, so the kernel meets a last-axis stride other than 1.
     */
    public Tensor transposed(String name, DType dtype, Values v, long... dims) {
        long[] stored = dims.clone();
        int r = dims.length;
        stored[r - 1] = dims[r - 2];
        stored[r - 2] = dims[r - 1];
        return g.transpose(input(name, dtype, v, stored), r - 2, r - 1);
    }

    public Tensor transposed(String name, long... dims) {
        return transposed(name, DType.F32, Values.normal(), dims);
    }

    /**
     * A non-contiguous input of logical shape {@code dims} whose storage has the axes in another
     * order: stored as dims permuted by {@code storedOrder} and permuted back. The last axis may
     * stay unit-stride while the outer ones are strided (the layout a [B, T, C] → [B, C, T] model sees).
     */
    public Tensor permuted(String name, DType dtype, Values v, int[] storedOrder, long... dims) {
        long[] stored = new long[dims.length];
        for (int i = 0; i < dims.length; i++) stored[i] = dims[storedOrder[i]];
        int[] back = new int[dims.length];
        for (int i = 0; i < dims.length; i++) back[storedOrder[i]] = i;
        return g.permute(input(name, dtype, v, stored), back);
    }

    public Tensor permuted(String name, int[] storedOrder, long... dims) {
        return permuted(name, DType.F32, Values.normal(), storedOrder, dims);
    }

    public ConformanceCase done(Tensor out, String dtype, String shape, Bound bound) {
        Graph graph = g.build(out);
        return new ConformanceCase(out.op().opName(), dtype, shape, graph, values, bound, graph);
    }

    /** A state case: {@code out} checked after each of {@code runs} runs, the state carried between them. */
    ConformanceCase doneRuns(String op, Tensor out, String shape, Bound bound, int runs) {
        Graph graph = g.build(out);
        return new ConformanceCase(op, "f32", shape, graph, values, bound, graph, states, runs);
    }

    /** A case whose expected values come from {@code reference} (built on its own builder, same input names). */
    public ConformanceCase done(Tensor out, String dtype, String shape, Bound bound, Graph reference) {
        return new ConformanceCase(out.op().opName(), dtype, shape, g.build(out), values, bound, reference);
    }

    public static String dims(long... d) {
        return Arrays.toString(d).replace(" ", "");
    }

    public static String lower(DType t) {
        return t.name().toLowerCase(java.util.Locale.ROOT);
    }
}
