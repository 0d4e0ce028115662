package dev.audioengine.reference;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The float64 reference's persistent tensors: values by state name that {@link
 * ReferenceEvaluator#evaluate(dev.audioengine.api.graph.Graph, Map, ReferenceState)} reads at
 * the start of a run and replaces with each state's final contents at its end, so several runs
 * (a decoder's prefill and steps, a recurrent model's chunks) carry state exactly as a
 * {@link dev.audioengine.api.exec.PersistentTensor} does on a device. Not thread-safe.
 */
public final class ReferenceState {
    private record Entry(DType dtype, Shape shape, double[] values) {}

    private final Map<String, Entry> entries = new LinkedHashMap<>();

    /** A state of {@code shape} holding zeros. */
    public ReferenceState zeros(String name, DType dtype, Shape shape) {
        entries.put(name, new Entry(dtype, shape, new double[Math.toIntExact(shape.elements())]));
        return this;
    }

    /** A state holding {@code value}'s numbers (F16/BF16 widened; I32 exact). */
    public ReferenceState set(String name, HostTensor value) {
        int n = Math.toIntExact(value.elements());
        double[] d = new double[n];
        if (value.dtype() == DType.I32) {
            int[] v = value.toIntArray();
            for (int i = 0; i < n; i++) d[i] = v[i];
        } else {
            float[] v = value.toFloatArray();
            for (int i = 0; i < n; i++) d[i] = v[i];
        }
        entries.put(name, new Entry(value.dtype(), value.shape(), d));
        return this;
    }

    public boolean has(String name) {
        return entries.containsKey(name);
    }

    /** The current values of state {@code name}, row-major (a copy). */
    public double[] values(String name) {
        return entry(name).values().clone();
    }

    DType dtype(String name) {
        return entry(name).dtype();
    }

    Shape shape(String name) {
        return entry(name).shape();
    }

    void replace(String name, double[] values) {
        Entry e = entry(name);
        if (values.length != e.values().length)
            throw new IllegalStateException(
                    "state '" + name + "' holds " + e.values().length + " values, not " + values.length);
        entries.put(name, new Entry(e.dtype(), e.shape(), values.clone()));
    }

    private Entry entry(String name) {
        Entry e = entries.get(name);
        if (e == null)
            throw new IllegalArgumentException(
                    "the reference has no state '" + name + "'; states: " + entries.keySet());
        return e;
    }
}
