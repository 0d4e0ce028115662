package dev.audioengine.reference;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.HostTensor;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The executable specification of every {@link Op}: naive loops in double precision that share
 * no code with any backend. Backends, the conformance suite and model tests compare against it.
 * <p>
 * Every node's value is its elements in row-major order of its logical shape. Leaves give their
 * stored values as numbers (F16/BF16 widened, block types dequantized); views are read through
 * their strides and offset from their storage root; I32 results (argmax) are exact integers.
 * Ops compute in double from those values, so the only rounding a backend is allowed beyond
 * float32 arithmetic is the one its output dtype demands (casts).
 */
public final class ReferenceEvaluator {
    private ReferenceEvaluator() {}

    /** Values of every node of {@code graph} (leaves and views included), keyed by node identity. */
    public static Map<Tensor, double[]> evaluate(Graph graph, Map<String, HostTensor> inputs) {
        if (!graph.states().isEmpty()) {
            throw new IllegalArgumentException("the graph has persistent tensors "
                    + graph.states().stream().map(Tensor::name).toList() + "; evaluate it with a ReferenceState");
        }
        return evaluate(graph, inputs, new ReferenceState());
    }

    /**
     * One run of a graph with persistent tensors: each {@link Op.State} leaf reads its values
     * from {@code state}, and each state's final contents (its last write) replace them there
     * afterwards, so the next run sees them. A state leaf, a write and views of either give the
     * state's contents at that point of the run.
     */
    public static Map<Tensor, double[]> evaluate(Graph graph, Map<String, HostTensor> inputs, ReferenceState state) {
        for (String name : inputs.keySet()) graph.input(name); // an unknown name fails with the list of inputs
        Map<Tensor, double[]> values = new IdentityHashMap<>();
        for (Tensor t : graph.nodes()) values.put(t, compute(t, values, inputs, state));
        for (Map.Entry<Tensor, Tensor> e : graph.finalStateVersions().entrySet()) {
            state.replace(((Op.State) e.getKey().op()).name(), values.get(e.getValue()));
        }
        return values;
    }

    /** Values of one node of {@code graph}. */
    public static double[] evaluate(Graph graph, Map<String, HostTensor> inputs, Tensor node) {
        double[] v = evaluate(graph, inputs).get(node);
        if (v == null)
            throw new IllegalArgumentException(node + " is not a node of this graph (its outputs do not depend on it)");
        return v;
    }

    /**
     * One node's values: leaves here, every other op in its family's class ({@link Op#family()}).
     * A view reads its storage root (for a persistent tensor, the version it was taken of).
     */
    private static double[] compute(
            Tensor t, Map<Tensor, double[]> values, Map<String, HostTensor> inputs, ReferenceState state) {
        double[][] in = new double[t.inputs().size()][];
        for (int i = 0; i < in.length; i++) in[i] = values.get(t.input(i));
        return switch (t.op()) {
            case Op.Input input -> leaf(t, bound(input, t, inputs));
            case Op.Constant c -> leaf(t, c.value());
            case Op.State s -> state(t, s, state);
            case Op.Binary op -> ElementwiseReference.binary(t, op.kind(), in[0], in[1]);
            case Op.Unary op -> ElementwiseReference.unary(op, in[0]);
            case Op.Scale op -> ElementwiseReference.scale(op, in[0]);
            case Op.Snake op -> ElementwiseReference.snake(t, in[0], in[1]);
            case Op.MatMul op -> LinearReference.matmul(t, in[0], in[1]);
            case Op.Conv1d op -> LinearReference.conv1d(t, op, in[0], in[1], optional(in, 2));
            case Op.ConvTranspose1d op -> LinearReference.convTranspose1d(t, op, in[0], in[1], optional(in, 2));
            case Op.Pad op -> LayoutReference.pad(t, op, in[0]);
            case Op.Concat op -> LayoutReference.concat(t, op, in);
            case Op.Slice op -> LayoutReference.view(t, viewed(t, values));
            case Op.Permute op -> LayoutReference.view(t, viewed(t, values));
            case Op.Reshape op -> LayoutReference.view(t, viewed(t, values));
            case Op.Contiguous op -> LayoutReference.contiguous(in[0]);
            case Op.WriteSlice op -> LayoutReference.writeSlice(t, op, in[0], in[1], optional(in, 2));
            case Op.Cast op -> LayoutReference.cast(op.to(), in[0]);
            case Op.LayerNorm op -> ReductionReference.layerNorm(t, op, in[0], optional(in, 1), optional(in, 2));
            case Op.RmsNorm op -> ReductionReference.rmsNorm(t, op, in[0], optional(in, 1));
            case Op.GroupNorm op -> ReductionReference.groupNorm(t, op, in[0], optional(in, 1), optional(in, 2));
            case Op.Softmax op -> ReductionReference.softmax(t, op, in[0], optional(in, 1));
            case Op.Reduce op -> ReductionReference.reduce(t, op, in[0]);
            case Op.Argmax op -> ReductionReference.argmax(t, op, in[0]);
            case Op.GetRows op -> SequenceReference.getRows(t, in[0], in[1]);
            case Op.Rope op -> SequenceReference.rope(t, op, in[0], in[1]);
            case Op.Attention op -> SequenceReference.attention(t, op, in[0], in[1], in[2], optional(in, 3));
            case Op.KeyMask op -> SequenceReference.keyMask(t, op, in[0]);
            case Op.Lstm op -> SequenceReference.lstm(t, in[0], in[1], in[2], in[3], in[4], in[5], in[6]);
            case Op.Stft op -> SpectralReference.stft(t, op, in[0], in[1]);
            case Op.Istft op -> SpectralReference.istft(t, op, in[0], in[1]);
            case Op.Magnitude op -> SpectralReference.magnitude(in[0]);
        };
    }

    /** The values a view reads through its strides: its storage root's, or the state version it was taken of. */
    private static double[] viewed(Tensor view, Map<Tensor, double[]> values) {
        return values.get(view.isPersistent() ? view.stateVersion() : view.storage());
    }

    private static HostTensor bound(Op.Input input, Tensor t, Map<String, HostTensor> inputs) {
        HostTensor v = inputs.get(input.name());
        if (v == null)
            throw new IllegalArgumentException(
                    "reference evaluation needs input '" + input.name() + "' (" + t.dtype() + " " + t.shape() + ")");
        if (v.dtype() != t.dtype() || !v.shape().equals(t.shape())) {
            throw new IllegalArgumentException("input '" + input.name() + "' must be " + t.dtype() + " " + t.shape()
                    + ", got " + v.dtype() + " " + v.shape());
        }
        return v;
    }

    private static double[] leaf(Tensor t, HostTensor value) {
        float[] f = value.toFloatArray();
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) d[i] = f[i];
        return d;
    }

    private static double[] state(Tensor t, Op.State s, ReferenceState state) {
        if (!state.has(s.name())) {
            throw new IllegalArgumentException(
                    "reference evaluation needs state '" + s.name() + "' (" + t.dtype() + " " + t.shape() + ")");
        }
        if (state.dtype(s.name()) != t.dtype() || !state.shape(s.name()).equals(t.shape())) {
            throw new IllegalArgumentException("state '" + s.name() + "' must be " + t.dtype() + " " + t.shape()
                    + ", the reference holds " + state.dtype(s.name()) + " " + state.shape(s.name()));
        }
        return state.values(s.name());
    }

    private static double[] optional(double[][] in, int i) {
        return i < in.length ? in[i] : null;
    }
}
