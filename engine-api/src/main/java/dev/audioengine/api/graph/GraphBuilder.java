package dev.audioengine.api.graph;

import dev.audioengine.api.graph.Op.BinaryKind;
import dev.audioengine.api.graph.Op.PadMode;
import dev.audioengine.api.graph.Op.ReduceKind;
import dev.audioengine.api.graph.Op.UnaryKind;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Builds a graph op by op, checking shapes and dtypes as it goes so that a model bug fails
 * here, with both shapes in the message, rather than inside a kernel. One builder per input
 * shape; {@link #build} freezes it.
 */
public final class GraphBuilder {
    private final List<Tensor> nodes = new ArrayList<>();
    /** Per state leaf, the node holding its latest contents (the leaf until a write replaces it). */
    private final java.util.Map<Tensor, Tensor> currentVersion = new java.util.IdentityHashMap<>();

    private boolean built;

    /** An empty builder; add leaves, then ops, then call {@link #build} once. */
    public GraphBuilder() {}

    // ---- leaves ----------------------------------------------------------------------------

    /**
     * A value the caller passes to every run, by name.
     *
     * @param name the key of the run's input map; keep it unique (two inputs of one name would both receive the same
     *     value)
     * @param dtype the type the run's value must have (F32 for audio and features, I32 for token ids and lengths)
     * @param shape the exact shape the run's value must have; a graph serves one shape, so build one per input
     *     length (or pad to a fixed one)
     * @return the input leaf, named {@code name}
     * @throws IllegalStateException if {@link #build} was already called
     */
    public Tensor input(String name, DType dtype, Shape shape) {
        return add(new Op.Input(name), List.of(), dtype, shape).named(name);
    }

    /**
     * An F32 input: {@link #input(String, DType, Shape)} with {@link DType#F32}.
     *
     * @param name the key of the run's input map
     * @param shape the exact shape of the run's value
     * @return the input leaf, named {@code name}
     */
    public Tensor input(String name, Shape shape) {
        return input(name, DType.F32, shape);
    }

    /**
     * A weight; the same HostTensor used by several graphs is uploaded once per backend.
     *
     * @param value the data, in any dtype (quantized weights stay quantized on the device); the graph does not own
     *     it: keep it open while any graph compiled from this one may run, and close it with the model
     * @return the constant leaf, of {@code value}'s dtype and shape
     */
    public Tensor constant(HostTensor value) {
        return add(new Op.Constant(value), List.of(), value.dtype(), value.shape());
    }

    /**
     * {@link #constant(HostTensor)} with a name for messages and diagnostics (the weight's name in its file, say).
     *
     * @param name the node's label; not a lookup key
     * @param value the data, owned by the caller
     * @return the constant leaf, named {@code name}
     */
    public Tensor constant(String name, HostTensor value) {
        return constant(value).named(name);
    }

    /**
     * A persistent tensor, bound when the graph is compiled to the
     * {@link dev.audioengine.api.exec.PersistentTensor} of this name (see {@link Op.State}).
     * Once a write to it has been added, only that write's result (or views of it) may be read:
     * a node added later that reads the older contents is rejected, so every read of a version
     * comes before the write that replaces it, in graph order and on every backend.
     *
     * @param name the name of the persistent tensor to bind; unique in this graph
     * @param dtype a plain (not block-quantized) dtype; the writes take F32, so states are F32 in practice
     * @param shape the persistent tensor's shape, which binding checks
     * @return the state leaf, showing the contents the run starts with
     * @throws IllegalArgumentException if the dtype is quantized or the graph already has a state of that name (use
     *     the node it returned)
     */
    public Tensor state(String name, DType dtype, Shape shape) {
        Objects.requireNonNull(name, "state name");
        if (dtype.isQuantized())
            throw new IllegalArgumentException(
                    "state '" + name + "' of " + dtype + ": persistent tensors hold plain dtypes");
        for (Tensor t : nodes) {
            if (t.op() instanceof Op.State s && s.name().equals(name)) {
                throw new IllegalArgumentException(
                        "this graph already has a state named '" + name + "' (" + t + "); use that node");
            }
        }
        return add(new Op.State(name), List.of(), dtype, shape).named(name);
    }

    /**
     * An F32 state: {@link #state(String, DType, Shape)} with {@link DType#F32}.
     *
     * @param name the name of the persistent tensor to bind; unique in this graph
     * @param shape the persistent tensor's shape
     * @return the state leaf
     */
    public Tensor state(String name, Shape shape) {
        return state(name, DType.F32, shape);
    }

    /**
     * Writes {@code src} into {@code dst} along {@code axis} from the run-time position
     * {@code start} (I32 [1]); see {@link Op.WriteSlice}. {@code dst} is a state leaf or the
     * result of an earlier write to it; the result is the state's new contents.
     *
     * @param dst the state's current version, F32, whole (not a view)
     * @param src the values written, F32: dst's shape except along {@code axis}, where it may be shorter; not a view of
     *     dst (copy it with {@link #contiguous} first)
     * @param axis the axis the start indexes; negative counts from the innermost
     * @param start I32 [1], or I32 [B] with one start per batch element when {@code axis} is not the first (a
     *     negative start skips that element)
     * @return the state's new version; later reads of the state must use it (or its views)
     * @throws IllegalArgumentException if the shapes or dtypes do not fit, dst is not a whole current version, or src
     *     aliases dst
     */
    public Tensor writeSlice(Tensor dst, Tensor src, int axis, Tensor start) {
        requireF32("write_slice", dst, src);
        requireWritable(dst, src);
        int ax = dst.shape().normalizeAxis(axis);
        boolean fits = src.rank() == dst.rank();
        for (int i = 0; fits && i < dst.rank(); i++)
            fits = i == ax ? src.dim(i) <= dst.dim(i) : src.dim(i) == dst.dim(i);
        if (!fits)
            throw shapeError(
                    "write_slice along axis " + ax + " wants src of dst's shape except that axis, no longer than it",
                    dst,
                    src);
        Objects.requireNonNull(start, "write_slice start");
        boolean perBatch = start.rank() == 1 && start.dim(0) == dst.dim(0) && ax > 0;
        if (start.dtype() != DType.I32 || start.rank() != 1 || (start.elements() != 1 && !perBatch)) {
            throw new IllegalArgumentException("write_slice start must be I32 [1], or I32 [" + dst.dim(0)
                    + "] (one start per batch element) when the axis is not the first; got " + start + " for "
                    + dst + " along axis " + ax);
        }
        return addInPlace(new Op.WriteSlice(ax), List.of(dst, src, start), dst);
    }

    /**
     * Replaces the whole contents of {@code dst} with {@code src} (same shape): the form recurrent state uses.
     *
     * @param dst the state's current version, F32, whole (not a view)
     * @param src the new contents, F32 of dst's shape; not a view of dst
     * @return the state's new version; later reads of the state must use it
     * @throws IllegalArgumentException if the shapes differ, dst is not a whole current version, or src aliases dst
     */
    public Tensor overwrite(Tensor dst, Tensor src) {
        requireF32("overwrite", dst, src);
        requireWritable(dst, src);
        if (!src.shape().equals(dst.shape())) throw shapeError("overwrite wants src of dst's shape", dst, src);
        return addInPlace(new Op.WriteSlice(0), List.of(dst, src), dst);
    }

    /**
     * A small F32 constant owned by the graph's caller (close it with the model).
     *
     * @param v the value, a rank-0 tensor that broadcasts against any shape
     * @return the constant leaf. Its host tensor is allocated here in native memory that only closing it frees; the
     *     caller reaches it through {@code ((Op.Constant) t.op()).value()}
     */
    public Tensor scalar(float v) {
        return constant(HostTensor.ofFloats(Shape.of(new long[0]), v));
    }

    // ---- elementwise -----------------------------------------------------------------------

    /**
     * a + b, elementwise with NumPy broadcasting.
     *
     * @param a F32, any shape
     * @param b F32, a shape that broadcasts with {@code a}'s (a scalar, a per-channel vector ...)
     * @return F32 of the broadcast shape
     * @throws IllegalArgumentException if an operand is not F32 or the shapes do not broadcast
     */
    public Tensor add(Tensor a, Tensor b) {
        return binary(BinaryKind.ADD, a, b);
    }

    /**
     * a - b, elementwise with NumPy broadcasting.
     *
     * @param a F32, any shape
     * @param b F32, a shape that broadcasts with {@code a}'s (a scalar, a per-channel vector ...)
     * @return F32 of the broadcast shape
     * @throws IllegalArgumentException if an operand is not F32 or the shapes do not broadcast
     */
    public Tensor sub(Tensor a, Tensor b) {
        return binary(BinaryKind.SUB, a, b);
    }

    /**
     * a · b, elementwise with NumPy broadcasting.
     *
     * @param a F32, any shape
     * @param b F32, a shape that broadcasts with {@code a}'s (a scalar, a per-channel vector ...)
     * @return F32 of the broadcast shape
     * @throws IllegalArgumentException if an operand is not F32 or the shapes do not broadcast
     */
    public Tensor mul(Tensor a, Tensor b) {
        return binary(BinaryKind.MUL, a, b);
    }

    /**
     * a / b (IEEE: dividing by 0 gives ±inf or NaN, no error), elementwise with NumPy broadcasting.
     *
     * @param a F32, any shape
     * @param b F32, a shape that broadcasts with {@code a}'s (a scalar, a per-channel vector ...)
     * @return F32 of the broadcast shape
     * @throws IllegalArgumentException if an operand is not F32 or the shapes do not broadcast
     */
    public Tensor div(Tensor a, Tensor b) {
        return binary(BinaryKind.DIV, a, b);
    }

    /**
     * a to the power b, as {@link Math#pow} (a negative base with a fractional exponent gives NaN), elementwise with
     * NumPy broadcasting.
     *
     * @param a F32, any shape
     * @param b F32, a shape that broadcasts with {@code a}'s (a scalar, a per-channel vector ...)
     * @return F32 of the broadcast shape
     * @throws IllegalArgumentException if an operand is not F32 or the shapes do not broadcast
     */
    public Tensor pow(Tensor a, Tensor b) {
        return binary(BinaryKind.POW, a, b);
    }

    /**
     * The larger of a and b (NaN if either is NaN), elementwise with NumPy broadcasting; with a one-element b, a
     * clamp from below in one pass. Not to be confused with {@link #max(Tensor, int, boolean)}, the reduction.
     *
     * @param a F32, any shape
     * @param b F32, a shape that broadcasts with {@code a}'s (a scalar, a per-channel vector ...)
     * @return F32 of the broadcast shape
     * @throws IllegalArgumentException if an operand is not F32 or the shapes do not broadcast
     */
    public Tensor maximum(Tensor a, Tensor b) {
        return binary(BinaryKind.MAX, a, b);
    }

    /**
     * Any {@link BinaryKind}, elementwise with NumPy broadcasting; {@link #add} and the others are shorthands.
     *
     * @param kind the arithmetic; the op is named after it in run summaries
     * @param a F32, any shape
     * @param b F32, a shape that broadcasts with {@code a}'s
     * @return F32 of the broadcast shape
     * @throws IllegalArgumentException if an operand is not F32 or the shapes do not broadcast
     */
    public Tensor binary(BinaryKind kind, Tensor a, Tensor b) {
        requireF32(kind.name(), a, b);
        return add(new Op.Binary(kind), List.of(a, b), DType.F32, Shape.broadcast(a.shape(), b.shape()));
    }

    /**
     * Any {@link UnaryKind}, elementwise, with alpha 1 (which only ELU and LEAKY_RELU read).
     *
     * @param kind the function; the op is named after it in run summaries
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor unary(UnaryKind kind, Tensor x) {
        return unary(kind, x, 1f);
    }

    /**
     * Any {@link UnaryKind}, elementwise; {@link #relu} and the others are shorthands.
     *
     * @param kind the function; the op is named after it in run summaries
     * @param x F32, any shape
     * @param alpha ELU's alpha or LEAKY_RELU's slope; ignored by every other kind
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor unary(UnaryKind kind, Tensor x, float alpha) {
        requireF32(kind.name(), x);
        return add(new Op.Unary(kind, alpha), List.of(x), DType.F32, x.shape());
    }

    /**
     * max(0, x), elementwise.
     *
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor relu(Tensor x) {
        return unary(UnaryKind.RELU, x);
    }

    /**
     * The exact (erf) GELU, PyTorch's default {@code gelu}; see {@link #geluTanh} for the approximation.
     *
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor gelu(Tensor x) {
        return unary(UnaryKind.GELU_ERF, x);
    }

    /**
     * GELU's tanh approximation, PyTorch's {@code gelu(approximate="tanh")}; use the one the model was trained with.
     *
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor geluTanh(Tensor x) {
        return unary(UnaryKind.GELU_TANH, x);
    }

    /**
     * x · σ(x) (swish), elementwise.
     *
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor silu(Tensor x) {
        return unary(UnaryKind.SILU, x);
    }

    /**
     * tanh(x), elementwise.
     *
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor tanh(Tensor x) {
        return unary(UnaryKind.TANH, x);
    }

    /**
     * σ(x) = 1 / (1 + e^-x), elementwise.
     *
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor sigmoid(Tensor x) {
        return unary(UnaryKind.SIGMOID, x);
    }

    /**
     * ELU: x for x &gt; 0, else alpha · (e^x - 1).
     *
     * @param x F32, any shape
     * @param alpha the negative saturation value, usually 1
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor elu(Tensor x, float alpha) {
        return unary(UnaryKind.ELU, x, alpha);
    }

    /**
     * Leaky ReLU: x for x &gt; 0, else slope · x.
     *
     * @param x F32, any shape
     * @param slope the factor on negative values (ONNX's alpha, PyTorch's {@code negative_slope}, often 0.01 or 0.2)
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor leakyRelu(Tensor x, float slope) {
        return unary(UnaryKind.LEAKY_RELU, x, slope);
    }

    /**
     * e^x, elementwise; overflows to +inf above about 88.
     *
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor exp(Tensor x) {
        return unary(UnaryKind.EXP, x);
    }

    /**
     * The natural logarithm, elementwise: -inf at 0 and NaN below, so clamp or add a floor first where values can
     * reach 0 (log-mel features).
     *
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor log(Tensor x) {
        return unary(UnaryKind.LOG, x);
    }

    /**
     * √x, elementwise; NaN below 0.
     *
     * @param x F32, any shape
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor sqrt(Tensor x) {
        return unary(UnaryKind.SQRT, x);
    }

    /**
     * x · scale, one op (cheaper than a {@link #mul} by a constant, which needs a tensor).
     *
     * @param x F32, any shape
     * @param scale the factor; -1 negates, 1/√D is attention's
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor scale(Tensor x, float scale) {
        return scale(x, scale, 0f);
    }

    /**
     * x · scale + bias, one op.
     *
     * @param x F32, any shape
     * @param scale the factor, applied first
     * @param bias added after scaling
     * @return F32 of {@code x}'s shape
     * @throws IllegalArgumentException if {@code x} is not F32
     */
    public Tensor scale(Tensor x, float scale, float bias) {
        requireF32("scale", x);
        return add(new Op.Scale(scale, bias), List.of(x), DType.F32, x.shape());
    }

    /**
     * The Snake activation of BigVGAN-style vocoders: x + sin²(alpha·x) / (alpha + 1e-9), alpha per channel.
     *
     * @param x F32 [B, C, T]
     * @param alpha F32 [C], the learned per-channel frequency (not its logarithm: exponentiate log-scale weights
     *     first)
     * @return F32 [B, C, T]
     * @throws IllegalArgumentException if the dtypes or shapes differ from these
     */
    public Tensor snake(Tensor x, Tensor alpha) {
        requireF32("snake", x, alpha);
        if (x.rank() != 3 || alpha.rank() != 1 || alpha.dim(0) != x.dim(1)) {
            throw shapeError("snake wants x [B, C, T] and alpha [C]", x, alpha);
        }
        return add(new Op.Snake(), List.of(x, alpha), DType.F32, x.shape());
    }

    // ---- linear algebra and convolution ------------------------------------------------------

    /**
     * x [..., M, K] · w[..., N, K]ᵀ → [..., M, N]; see {@link Op.MatMul}.
     *
     * @param x F32 [..., M, K], rank 2 to 4; may be a view
     * @param w [..., N, K] in F32, F16, BF16 or a block type (Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K; weights as PyTorch stores
     *     them, [out, in]); a quantized
     *     w must be contiguous. To multiply by a matrix stored [K, N], pass {@link #transpose} of it
     * @return F32 [..., M, N], the batch dimensions broadcast
     * @throws IllegalArgumentException if x is not F32, w is an integer type, a quantized w is a view, or the inner
     *     dimensions differ
     */
    public Tensor matmul(Tensor x, Tensor w) {
        requireF32("matmul x", x);
        if (x.rank() < 2 || w.rank() < 2 || x.dim(-1) != w.dim(-1)) {
            throw shapeError("matmul wants x [..., M, K] and w [..., N, K]", x, w);
        }
        if (w.dtype() == DType.I32 || w.dtype() == DType.I8)
            throw new IllegalArgumentException("matmul weights of " + w.dtype());
        if (w.dtype().isQuantized() && !w.isContiguous()) {
            throw new IllegalArgumentException("quantized matmul weights must be contiguous: " + w);
        }
        long[] xb = Arrays.copyOf(x.shape().dims(), x.rank() - 2);
        long[] wb = Arrays.copyOf(w.shape().dims(), w.rank() - 2);
        long[] batch = Shape.broadcast(new Shape(xb), new Shape(wb)).dims();
        long[] out = Arrays.copyOf(batch, batch.length + 2);
        out[batch.length] = x.dim(-2);
        out[batch.length + 1] = w.dim(-2);
        return add(new Op.MatMul(), List.of(x, w), DType.F32, new Shape(out));
    }

    /**
     * x · wᵀ + bias, PyTorch's Linear with w [out, in].
     *
     * @param x F32 [..., in]
     * @param w [out, in], in any dtype {@link #matmul} takes
     * @param bias F32 [out], or null for none
     * @return F32 [..., out]
     * @throws IllegalArgumentException if the shapes or dtypes do not fit
     */
    public Tensor linear(Tensor x, Tensor w, Tensor bias) {
        Tensor y = matmul(x, w);
        return bias == null ? y : add(y, bias);
    }

    /**
     * PyTorch's Conv1d with zero padding; see {@link Op.Conv1d}.
     *
     * @param x F32 [B, Cin, T]
     * @param w F32 [Cout, Cin/groups, K]
     * @param bias F32 [Cout], or null for none
     * @param stride frames between outputs, {@code >= 1}
     * @param padding zeros at each end of the time axis, {@code >= 0} (for other padding, {@link #pad} first and pass
     *     0)
     * @param dilation spacing between kernel taps, {@code >= 1}
     * @param groups {@code >= 1}, dividing Cin and Cout
     * @return F32 [B, Cout, Tout], Tout = (T + 2·padding - dilation·(K - 1) - 1) / stride + 1
     * @throws IllegalArgumentException if the shapes, dtypes or parameters do not fit, or Tout would be below 1
     */
    public Tensor conv1d(Tensor x, Tensor w, Tensor bias, int stride, int padding, int dilation, int groups) {
        requireF32("conv1d", x, w);
        if (x.rank() != 3 || w.rank() != 3)
            throw shapeError("conv1d wants x [B, Cin, T] and w [Cout, Cin/groups, K]", x, w);
        long cin = x.dim(1), cout = w.dim(0), k = w.dim(2);
        if (stride < 1
                || dilation < 1
                || padding < 0
                || groups < 1
                || cin % groups != 0
                || cout % groups != 0
                || w.dim(1) != cin / groups) {
            throw shapeError(
                    "conv1d stride=" + stride + " padding=" + padding + " dilation=" + dilation + " groups=" + groups
                            + " does not fit",
                    x,
                    w);
        }
        checkBias(bias, cout, x, w);
        long tout = (x.dim(2) + 2L * padding - dilation * (k - 1) - 1) / stride + 1;
        if (tout < 1) throw shapeError("conv1d input too short for the kernel", x, w);
        List<Tensor> in = bias == null ? List.of(x, w) : List.of(x, w, bias);
        return add(new Op.Conv1d(stride, padding, dilation, groups), in, DType.F32, Shape.of(x.dim(0), cout, tout));
    }

    /**
     * PyTorch's ConvTranspose1d (the upsampling of vocoders); see {@link Op.ConvTranspose1d}.
     *
     * @param x F32 [B, Cin, T]
     * @param w F32 [Cin, Cout/groups, K] (PyTorch's layout for transposed convolutions, in and out swapped)
     * @param bias F32 [Cout], or null for none
     * @param stride the upsampling factor, {@code >= 1}
     * @param padding frames cut from each end of the full output, {@code >= 0}
     * @param outputPadding frames added at the end, {@code >= 0}, smaller than stride or dilation
     * @param dilation spacing between kernel taps, {@code >= 1}
     * @param groups {@code >= 1}, dividing Cin
     * @return F32 [B, Cout, Tout], Tout = (T - 1)·stride - 2·padding + dilation·(K - 1) + outputPadding + 1
     * @throws IllegalArgumentException if the shapes, dtypes or parameters do not fit, or the output would be empty
     */
    public Tensor convTranspose1d(
            Tensor x, Tensor w, Tensor bias, int stride, int padding, int outputPadding, int dilation, int groups) {
        requireF32("conv_transpose1d", x, w);
        if (x.rank() != 3 || w.rank() != 3)
            throw shapeError("conv_transpose1d wants x [B, Cin, T] and w [Cin, Cout/groups, K]", x, w);
        long cin = x.dim(1), k = w.dim(2);
        if (stride < 1
                || dilation < 1
                || padding < 0
                || groups < 1
                || w.dim(0) != cin
                || cin % groups != 0
                || outputPadding < 0
                || (outputPadding >= stride && outputPadding >= dilation)) {
            throw shapeError(
                    "conv_transpose1d stride=" + stride + " padding=" + padding + " output_padding=" + outputPadding
                            + " dilation=" + dilation + " groups=" + groups + " does not fit",
                    x,
                    w);
        }
        long cout = w.dim(1) * groups;
        checkBias(bias, cout, x, w);
        long tout = (x.dim(2) - 1) * stride - 2L * padding + dilation * (k - 1) + outputPadding + 1;
        if (tout < 1) throw shapeError("conv_transpose1d output would be empty", x, w);
        List<Tensor> in = bias == null ? List.of(x, w) : List.of(x, w, bias);
        return add(
                new Op.ConvTranspose1d(stride, padding, outputPadding, dilation, groups),
                in,
                DType.F32,
                Shape.of(x.dim(0), cout, tout));
    }

    // ---- layout --------------------------------------------------------------------------------

    /**
     * Pads any axes; see {@link Op.Pad}.
     *
     * @param x F32, any shape
     * @param mode how the new elements are filled; see {@link PadMode} for each mode's fill and limits
     * @param before elements to add before each axis, one entry per axis of x, each {@code >= 0} (for REFLECT, smaller
     *     than the axis)
     * @param after elements to add after each axis, likewise
     * @param value the fill for {@link PadMode#ZERO}; ignored by the other modes
     * @return F32, each axis longer by before[i] + after[i]
     * @throws IllegalArgumentException if the arrays do not have one entry per axis, an entry is negative, reflect
     *     padding reaches the axis' length, or an empty axis is replicate-padded
     */
    public Tensor pad(Tensor x, PadMode mode, long[] before, long[] after, float value) {
        requireF32("pad", x);
        if (before.length != x.rank() || after.length != x.rank()) {
            throw new IllegalArgumentException("pad needs one before/after per axis of " + x.shape());
        }
        long[] out = x.shape().dims();
        for (int i = 0; i < out.length; i++) {
            if (before[i] < 0 || after[i] < 0)
                throw new IllegalArgumentException(
                        "negative padding " + Arrays.toString(before) + Arrays.toString(after));
            if (mode == PadMode.REFLECT && (before[i] >= x.dim(i) || after[i] >= x.dim(i))) {
                throw new IllegalArgumentException(
                        "reflect padding must be smaller than the axis: axis " + i + " of " + x.shape());
            }
            if (mode == PadMode.REPLICATE && x.dim(i) == 0 && before[i] + after[i] > 0) {
                throw new IllegalArgumentException("cannot replicate-pad an empty axis");
            }
            out[i] += before[i] + after[i];
        }
        return add(new Op.Pad(mode, before, after, value), List.of(x), DType.F32, new Shape(out));
    }

    /**
     * Pads the last axis only.
     *
     * @param x F32 of rank {@code >= 1}, usually [B, C, T]
     * @param mode how the new elements are filled; ZERO fills with 0
     * @param before elements added before the start, {@code >= 0}
     * @param after elements added after the end, {@code >= 0}
     * @return F32 with the last axis longer by before + after
     * @throws IllegalArgumentException as {@link #pad} does
     */
    public Tensor pad1d(Tensor x, PadMode mode, long before, long after) {
        long[] b = new long[x.rank()], a = new long[x.rank()];
        b[x.rank() - 1] = before;
        a[x.rank() - 1] = after;
        return pad(x, mode, b, a, 0f);
    }

    /**
     * Joins tensors end to end along one axis (torch.cat).
     *
     * @param axis the joined axis; negative counts from the innermost
     * @param xs one or more F32 tensors of one rank that agree on every other axis; views are fine
     * @return a new F32 tensor whose {@code axis} is the sum of theirs
     * @throws IllegalArgumentException if xs is empty, a tensor is not F32, or the ranks or other axes differ
     */
    public Tensor concat(int axis, Tensor... xs) {
        if (xs.length == 0) throw new IllegalArgumentException("concat of nothing");
        int ax = xs[0].shape().normalizeAxis(axis);
        long total = 0;
        for (Tensor t : xs) {
            requireF32("concat", t);
            if (t.rank() != xs[0].rank()) throw shapeError("concat ranks differ", xs[0], t);
            for (int i = 0; i < t.rank(); i++) {
                if (i != ax && t.dim(i) != xs[0].dim(i))
                    throw shapeError("concat on axis " + ax + ": other axes differ", xs[0], t);
            }
            total += t.dim(ax);
        }
        return add(new Op.Concat(ax), List.of(xs), DType.F32, xs[0].shape().with(ax, total));
    }

    /**
     * The view {@code x[..., start:end, ...]} along one axis; no copy.
     *
     * @param x any dtype (a quantized tensor not along its last axis)
     * @param axis the sliced axis; negative counts from the innermost
     * @param start the first element, {@code >= 0}
     * @param end one past the last, {@code start <= end <= size}; unlike Python, no negative or clamped bounds
     * @return a view sharing x's storage
     * @throws IllegalArgumentException if the range is outside the axis
     */
    public Tensor slice(Tensor x, int axis, long start, long end) {
        return slice(x, axis, start, end, 1);
    }

    /**
     * The view {@code x[..., start:end:step, ...]} along one axis; no copy.
     *
     * @param x any dtype (a quantized tensor not along its last axis)
     * @param axis the sliced axis; negative counts from the innermost
     * @param start the first element, {@code >= 0}
     * @param end one past the last element that may be taken, {@code start <= end <= size}
     * @param step the distance between taken elements, {@code >= 1}
     * @return a view of ceil((end - start) / step) elements along the axis, sharing x's storage
     * @throws IllegalArgumentException if the range is outside the axis, the step is below 1, or a quantized tensor
     *     is sliced inside its blocks
     */
    public Tensor slice(Tensor x, int axis, long start, long end, long step) {
        int ax = x.shape().normalizeAxis(axis);
        long n = x.dim(ax);
        if (start < 0 || end > n || start > end || step < 1) {
            throw new IllegalArgumentException(
                    "slice [" + start + ":" + end + ":" + step + "] out of range for axis " + ax + " of " + x.shape());
        }
        if (x.dtype().isQuantized() && ax == x.rank() - 1) {
            throw new IllegalArgumentException("slicing inside quantized blocks is not supported: " + x);
        }
        long len = (end - start + step - 1) / step;
        long[] strides = x.strides();
        long offset = x.offset() + start * strides[ax];
        strides[ax] *= step;
        return view(new Op.Slice(ax, start, end, step), x, x.shape().with(ax, len), strides, offset);
    }

    /**
     * The view with axes reordered (torch.permute): output axis i is x's axis perm[i]; no copy.
     *
     * @param x any dtype; a quantized tensor must keep its last axis last
     * @param perm a permutation of {@code 0 .. rank-1}, one entry per axis (no negative axes here)
     * @return a strided view sharing x's storage; {@link #contiguous} copies it when a row-major layout is needed
     * @throws IllegalArgumentException if perm is not a permutation of x's axes or moves a quantized block axis
     */
    public Tensor permute(Tensor x, int... perm) {
        if (perm.length != x.rank())
            throw new IllegalArgumentException("permute " + Arrays.toString(perm) + " for rank " + x.rank());
        boolean[] seen = new boolean[perm.length];
        long[] dims = new long[perm.length], strides = new long[perm.length];
        for (int i = 0; i < perm.length; i++) {
            int p = perm[i];
            if (p < 0 || p >= perm.length || seen[p])
                throw new IllegalArgumentException("not a permutation: " + Arrays.toString(perm));
            seen[p] = true;
            dims[i] = x.dim(p);
            strides[i] = x.stride(p);
        }
        if (x.dtype().isQuantized() && perm[perm.length - 1] != perm.length - 1) {
            throw new IllegalArgumentException("cannot move the block axis of a quantized tensor: " + x);
        }
        return view(new Op.Permute(perm), x, new Shape(dims), strides, x.offset());
    }

    /**
     * The view with two axes swapped (torch.transpose); no copy.
     *
     * @param x any dtype
     * @param a one axis; negative counts from the innermost
     * @param b the other axis; equal to a gives x's layout unchanged
     * @return a strided view sharing x's storage
     * @throws IllegalArgumentException if an axis is out of range, or the swap moves a quantized block axis
     */
    public Tensor transpose(Tensor x, int a, int b) {
        int[] perm = new int[x.rank()];
        for (int i = 0; i < perm.length; i++) perm[i] = i;
        int aa = x.shape().normalizeAxis(a), bb = x.shape().normalizeAxis(b);
        perm[aa] = bb;
        perm[bb] = aa;
        return permute(x, perm);
    }

    /**
     * A view with a new shape; one dimension may be -1. Non-contiguous inputs are copied first.
     *
     * @param x any dtype and layout
     * @param dims the new shape, outermost first, with at most one -1 for the size that makes the element count match
     * @return a view of the new shape (of a contiguous copy when x was strided)
     * @throws IllegalArgumentException if there are two -1s or the element counts differ
     */
    public Tensor reshape(Tensor x, long... dims) {
        long[] d = dims.clone();
        int infer = -1;
        long known = 1;
        for (int i = 0; i < d.length; i++) {
            if (d[i] == -1) {
                if (infer >= 0) throw new IllegalArgumentException("more than one -1 in " + Arrays.toString(dims));
                infer = i;
            } else {
                known *= d[i];
            }
        }
        if (infer >= 0) d[infer] = known == 0 ? 0 : x.elements() / known;
        Shape shape = new Shape(d);
        if (shape.elements() != x.elements()) {
            throw new IllegalArgumentException("cannot reshape " + x.shape() + " to " + Arrays.toString(dims));
        }
        Tensor src = x.isContiguous() ? x : contiguous(x);
        return view(new Op.Reshape(shape), src, shape, shape.contiguousStrides(), src.offset());
    }

    /**
     * A row-major copy of a strided view (after permute, transpose or a stepped slice), for ops or writes that need
     * one; on a tensor that is already contiguous it still copies.
     *
     * @param x any dtype and layout
     * @return a new tensor of x's dtype and shape with contiguous strides
     */
    public Tensor contiguous(Tensor x) {
        return add(new Op.Contiguous(), List.of(x), x.dtype(), x.shape());
    }

    /**
     * Converts element types; see {@link Op.Cast} for the rounding.
     *
     * @param x the values; F32, or (when {@code to} is F32) any dtype but I8
     * @param to the result type; F32, or (when x is F32) any dtype but I8. A block-quantized target needs the last
     *     axis to be a multiple of 32
     * @return a new tensor of dtype {@code to}, x's shape
     * @throws IllegalArgumentException if neither side is F32, either is I8, or quantized rows are not whole blocks
     */
    public Tensor cast(Tensor x, DType to) {
        boolean ok = (x.dtype() == DType.F32 && to != DType.I8) || (to == DType.F32 && x.dtype() != DType.I8);
        if (!ok)
            throw new IllegalArgumentException(
                    "cast " + x.dtype() + " -> " + to + " is not supported (one side must be F32)");
        if (to.isQuantized() && (x.rank() == 0 || x.dim(-1) % to.blockSize() != 0)) {
            throw new IllegalArgumentException(
                    "cast to " + to + " needs rows that are a multiple of " + to.blockSize() + ": " + x.shape());
        }
        return add(new Op.Cast(to), List.of(x), to, x.shape());
    }

    // ---- normalization and reductions -----------------------------------------------------------

    /**
     * PyTorch's LayerNorm over the last axis; see {@link Op.LayerNorm}.
     *
     * @param x F32 [..., N], rank {@code >= 1}
     * @param gamma F32 [N] scale, or null for none (1)
     * @param beta F32 [N] shift, or null for none (0). Give it only with a gamma: inputs are positional, so a beta
     *     without gamma would be read as the scale
     * @param eps added to the variance, e.g. 1e-5 (use the model's own)
     * @return F32 of x's shape
     * @throws IllegalArgumentException if x is not F32 or a scalar, or gamma or beta is not F32 [N]
     */
    public Tensor layerNorm(Tensor x, Tensor gamma, Tensor beta, float eps) {
        requireF32("layer_norm", x);
        checkPerLast("layer_norm", x, gamma, beta);
        return add(new Op.LayerNorm(eps), optional(x, gamma, beta), DType.F32, x.shape());
    }

    /**
     * RMSNorm over the last axis: x / sqrt(mean(x²) + eps) · gamma.
     *
     * @param x F32 [..., N], rank {@code >= 1}
     * @param gamma F32 [N] scale, or null for none
     * @param eps added to the mean square, e.g. 1e-6 (use the model's own)
     * @return F32 of x's shape
     * @throws IllegalArgumentException if x is not F32 or a scalar, or gamma is not F32 [N]
     */
    public Tensor rmsNorm(Tensor x, Tensor gamma, float eps) {
        requireF32("rms_norm", x);
        checkPerLast("rms_norm", x, gamma, null);
        return add(new Op.RmsNorm(eps), optional(x, gamma), DType.F32, x.shape());
    }

    /**
     * PyTorch's GroupNorm; see {@link Op.GroupNorm}.
     *
     * @param x F32 [B, C, ...], rank {@code >= 2}
     * @param groups {@code >= 1}, dividing C
     * @param gamma [C] scale, or null; given together with beta or not at all
     * @param beta [C] shift, or null
     * @param eps added to the variance
     * @return F32 of x's shape
     * @throws IllegalArgumentException if x is not F32 or of rank below 2, groups does not divide C, the affine
     *     parameters are not [C], or only one of them is given
     */
    public Tensor groupNorm(Tensor x, int groups, Tensor gamma, Tensor beta, float eps) {
        requireF32("group_norm", x);
        if (x.rank() < 2 || groups < 1 || x.dim(1) % groups != 0) {
            throw new IllegalArgumentException("group_norm with " + groups + " groups on " + x.shape());
        }
        for (Tensor p : new Tensor[] {gamma, beta}) {
            if (p != null && (p.rank() != 1 || p.dim(0) != x.dim(1)))
                throw shapeError("group_norm affine must be [C]", x, p);
        }
        if ((gamma == null) != (beta == null))
            throw new IllegalArgumentException("group_norm needs both gamma and beta or neither");
        return add(new Op.GroupNorm(groups, eps), optional(x, gamma, beta), DType.F32, x.shape());
    }

    /**
     * Softmax over the last axis.
     *
     * @param x F32, any rank {@code >= 1}
     * @return F32 of x's shape, each row summing to 1
     * @throws IllegalArgumentException if x is not F32
     */
    public Tensor softmax(Tensor x) {
        return softmax(x, null, 1f);
    }

    /**
     * softmax(x·scale + mask) over the last axis, one op (attention's scores without a separate scale and add).
     *
     * @param x F32, any rank {@code >= 1}
     * @param mask F32 additive mask that broadcasts to x's shape (0 to keep, -inf to hide), or null for none
     * @param scale multiplies x before the mask is added; 1 for none
     * @return F32 of x's shape; a row hidden entirely gives zeros, not NaN
     * @throws IllegalArgumentException if x or the mask is not F32, or the mask does not broadcast to x
     */
    public Tensor softmax(Tensor x, Tensor mask, float scale) {
        requireF32("softmax", x);
        if (mask != null) {
            requireF32("softmax mask", mask);
            if (!Shape.broadcast(x.shape(), mask.shape()).equals(x.shape()))
                throw shapeError("softmax mask must broadcast to x", x, mask);
        }
        return add(new Op.Softmax(scale), optional(x, mask), DType.F32, x.shape());
    }

    /**
     * The sum along one axis; 0 over an empty axis.
     *
     * @param x F32, any shape
     * @param axis the reduced axis; negative counts from the innermost
     * @param keepDim true to keep the axis with size 1 (the result then broadcasts against x), false to drop it
     * @return F32, the axis dropped or kept as size 1
     * @throws IllegalArgumentException if x is not F32 or the axis is out of range
     */
    public Tensor sum(Tensor x, int axis, boolean keepDim) {
        return reduce(ReduceKind.SUM, x, axis, keepDim);
    }

    /**
     * The mean along one axis; NaN over an empty axis.
     *
     * @param x F32, any shape
     * @param axis the reduced axis; negative counts from the innermost
     * @param keepDim true to keep the axis with size 1 (the result then broadcasts against x), false to drop it
     * @return F32, the axis dropped or kept as size 1
     * @throws IllegalArgumentException if x is not F32 or the axis is out of range
     */
    public Tensor mean(Tensor x, int axis, boolean keepDim) {
        return reduce(ReduceKind.MEAN, x, axis, keepDim);
    }

    /**
     * The largest value along one axis; NaN if any value is NaN.
     *
     * @param x F32, any shape
     * @param axis the reduced axis, not empty; negative counts from the innermost
     * @param keepDim true to keep the axis with size 1, false to drop it
     * @return F32, the axis dropped or kept as size 1
     * @throws IllegalArgumentException if x is not F32, or the axis is out of range or empty
     */
    public Tensor max(Tensor x, int axis, boolean keepDim) {
        return reduce(ReduceKind.MAX, x, axis, keepDim);
    }

    /**
     * Any {@link ReduceKind} along one axis; {@link #sum}, {@link #mean} and {@link #max} are shorthands.
     *
     * @param kind what is computed
     * @param x F32, any shape
     * @param axis the reduced axis; negative counts from the innermost
     * @param keepDim true to keep the axis with size 1, false to drop it
     * @return F32, the axis dropped or kept as size 1
     * @throws IllegalArgumentException if x is not F32, the axis is out of range, or MAX is asked of an empty axis
     */
    public Tensor reduce(ReduceKind kind, Tensor x, int axis, boolean keepDim) {
        requireF32(kind.name(), x);
        int ax = x.shape().normalizeAxis(axis);
        if (kind == ReduceKind.MAX && x.dim(ax) == 0) throw new IllegalArgumentException("max over an empty axis");
        return add(new Op.Reduce(kind, ax, keepDim), List.of(x), DType.F32, reducedShape(x.shape(), ax, keepDim));
    }

    /**
     * The index of the largest value along one axis: greedy decoding's next token.
     *
     * @param x F32, any shape
     * @param axis the searched axis, not empty; negative counts from the innermost
     * @return I32 with the axis removed; the first index on ties, a NaN counting as largest
     * @throws IllegalArgumentException if x is not F32, or the axis is out of range or empty
     */
    public Tensor argmax(Tensor x, int axis) {
        requireF32("argmax", x);
        int ax = x.shape().normalizeAxis(axis);
        if (x.dim(ax) == 0) throw new IllegalArgumentException("argmax over an empty axis");
        return add(new Op.Argmax(ax), List.of(x), DType.I32, reducedShape(x.shape(), ax, false));
    }

    // ---- sequence models --------------------------------------------------------------------------

    /**
     * Embedding lookup: out[..., :] = table[ids[...], :].
     *
     * @param table [V, D] in any dtype (a quantized table is dequantized row by row)
     * @param ids I32 of rank 0 to 3, each in {@code [0, V)}. An id outside is an error on the CPU backend; a GPU kernel
     *     cannot throw (CUDA and HIP give that row as NaN), so check ids that come from outside the model on the host
     * @return F32 [..., D]: ids' shape with D appended
     * @throws IllegalArgumentException if table is not rank 2, or ids are not I32 of rank at most 3
     */
    public Tensor getRows(Tensor table, Tensor ids) {
        if (table.rank() != 2 || ids.dtype() != DType.I32 || ids.rank() > 3) {
            throw shapeError("get_rows wants table [V, D] and I32 ids of rank <= 3", table, ids);
        }
        long[] out = Arrays.copyOf(ids.shape().dims(), ids.rank() + 1);
        out[ids.rank()] = table.dim(1);
        return add(new Op.GetRows(), List.of(table, ids), DType.F32, new Shape(out));
    }

    /**
     * Rotary position embedding; see {@link Op.Rope}.
     *
     * @param x F32 [B, H, T, D], queries or keys
     * @param positions I32 [T], each token's absolute position (a decoder step passes its offset in the cache)
     * @param dims how many leading values of each head rotate: even, {@code 2 <= dims <= D}
     * @param base the frequency base, usually 10000 (use the model's own)
     * @param mode which values pair up; a checkpoint converted from Hugging Face usually needs NEOX
     * @return F32 of x's shape
     * @throws IllegalArgumentException if the shapes, dtypes or dims do not fit
     */
    public Tensor rope(Tensor x, Tensor positions, int dims, float base, Op.RopeMode mode) {
        requireF32("rope", x);
        if (x.rank() != 4
                || positions.dtype() != DType.I32
                || positions.rank() != 1
                || positions.dim(0) != x.dim(2)
                || dims < 2
                || dims % 2 != 0
                || dims > x.dim(3)) {
            throw shapeError(
                    "rope wants x [B, H, T, D], I32 positions [T] and even dims <= D (dims=" + dims + ")",
                    x,
                    positions);
        }
        return add(new Op.Rope(dims, base, mode), List.of(x, positions), DType.F32, x.shape());
    }

    /**
     * Fused attention (one op); see {@link Op.Attention}.
     *
     * @param q F32 [B, H, Tq, D]
     * @param k [B, Hkv, Tk, D], F32, F16 or BF16 (a half-precision KV cache), H a multiple of Hkv
     * @param v [B, Hkv, Tk, D], of k's dtype
     * @param mask F32 additive mask [Tq, Tk] or [B, 1, Tq, Tk] (0 to keep, -inf to hide; {@link #keyMask} makes one),
     *     or null for none
     * @param scale multiplies q·kᵀ, usually 1/√D
     * @param causal true to hide keys after each query's position, counting the queries as the last Tq positions
     * @return F32 [B, H, Tq, D]; a query that sees no key gets zeros
     * @throws IllegalArgumentException if the shapes, head counts, dtypes or mask do not fit
     */
    public Tensor attention(Tensor q, Tensor k, Tensor v, Tensor mask, float scale, boolean causal) {
        requireF32("attention q", q);
        if (q.rank() != 4
                || k.rank() != 4
                || v.rank() != 4
                || k.dim(0) != q.dim(0)
                || v.dim(0) != q.dim(0)
                || k.dim(3) != q.dim(3)
                || v.dim(3) != q.dim(3)
                || k.dim(1) != v.dim(1)
                || k.dim(2) != v.dim(2)
                || q.dim(1) % k.dim(1) != 0
                || k.dtype() != v.dtype()
                || !k.dtype().isFloat()) {
            throw new IllegalArgumentException(
                    "attention wants q [B, H, Tq, D], k and v [B, Hkv, Tk, D] of one float dtype, H % Hkv == 0; got "
                            + q + ", " + k + ", " + v);
        }
        if (mask != null
                && !(mask.rank() == 2 && mask.dim(0) == q.dim(2) && mask.dim(1) == k.dim(2))
                && !(mask.rank() == 4
                        && mask.dim(0) == q.dim(0)
                        && mask.dim(1) == 1
                        && mask.dim(2) == q.dim(2)
                        && mask.dim(3) == k.dim(2))) {
            throw shapeError("attention mask must be [Tq, Tk] or [B, 1, Tq, Tk]", q, mask);
        }
        return add(new Op.Attention(scale, causal), optional(q, k, v, mask), DType.F32, q.shape());
    }

    /**
     * The mask [queries, capacity] for attention over the first {@code length} (I32 [1]) keys of
     * a cache of {@code capacity}; with lengths I32 [B], B &gt; 1, the mask [B, 1, queries, capacity]
     * of a batch of such caches. See {@link Op.KeyMask}.
     *
     * @param length I32 [1], or I32 [B] for a batch: how many keys each cache holds, read at run time
     * @param queries Tq, the query positions of this step (1 for a decoding step), {@code >= 1}
     * @param capacity Tk, the cache's size in positions, {@code >= 1}
     * @param causal true when the queries are the last Tq positions written and must not see one another's future
     * @return F32 [Tq, Tk], or [B, 1, Tq, Tk] for B &gt; 1 lengths: 0 where visible, -inf elsewhere
     * @throws IllegalArgumentException if length is not I32 [1] or [B], or queries or capacity is below 1
     */
    public Tensor keyMask(Tensor length, long queries, long capacity, boolean causal) {
        if (length.dtype() != DType.I32 || length.rank() != 1 || length.dim(0) < 1) {
            throw new IllegalArgumentException("key_mask length must be I32 [1] or I32 [B], got " + length);
        }
        if (queries < 1 || capacity < 1)
            throw new IllegalArgumentException("key_mask of " + queries + " queries over " + capacity + " keys");
        Shape shape = length.dim(0) == 1 ? Shape.of(queries, capacity) : Shape.of(length.dim(0), 1, queries, capacity);
        return add(new Op.KeyMask(causal), List.of(length), DType.F32, shape);
    }

    /**
     * The same attention from basic ops (matmul, softmax, matmul), for backends or models that
     * do not use the fused path. Needs H == Hkv and F32 k and v.
     *
     * @param q F32 [B, H, Tq, D]
     * @param k F32 [B, H, Tk, D]
     * @param v F32 [B, H, Tk, D]
     * @param mask F32 additive mask that broadcasts to [B, H, Tq, Tk], or null; there is no causal flag here, so pass a
     *     causal mask
     * @param scale multiplies q·kᵀ, usually 1/√D
     * @return F32 [B, H, Tq, D]
     * @throws IllegalArgumentException if the head counts differ or the shapes do not fit
     */
    public Tensor attentionComposite(Tensor q, Tensor k, Tensor v, Tensor mask, float scale) {
        if (k.dim(1) != q.dim(1)) throw shapeError("composite attention needs as many k/v heads as q heads", q, k);
        Tensor scores = matmul(q, k);
        Tensor p = softmax(scores, mask, scale);
        return matmul(p, transpose(v, 2, 3));
    }

    /**
     * One unidirectional LSTM layer over a whole sequence, PyTorch's weights and gate order; see {@link Op.Lstm}.
     * A bidirectional layer is two calls, the second on the time-reversed input.
     *
     * @param x F32 [B, T, I] (batch first)
     * @param wIh F32 [4H, I], PyTorch's {@code weight_ih_l0}
     * @param wHh F32 [4H, H], {@code weight_hh_l0}
     * @param bIh F32 [4H], {@code bias_ih_l0}; pass zeros if the layer has no bias
     * @param bHh F32 [4H], {@code bias_hh_l0}
     * @param h0 F32 [B, H], the initial hidden state (a state leaf when streaming)
     * @param c0 F32 [B, H], the initial cell state
     * @return F32 [2, B, T, H]: index 0 the hidden states, 1 the cell states, of every step; slice t = T-1 for the
     *     final state
     * @throws IllegalArgumentException if an input is not F32 or the shapes do not fit
     */
    public Tensor lstm(Tensor x, Tensor wIh, Tensor wHh, Tensor bIh, Tensor bHh, Tensor h0, Tensor c0) {
        requireF32("lstm", x, wIh, wHh, bIh, bHh, h0, c0);
        if (x.rank() != 3) throw new IllegalArgumentException("lstm wants x [B, T, I], got " + x.shape());
        long b = x.dim(0), t = x.dim(1), in = x.dim(2), h = wHh.dim(1);
        boolean ok = wIh.shape().equals(Shape.of(4 * h, in))
                && wHh.shape().equals(Shape.of(4 * h, h))
                && bIh.shape().equals(Shape.of(4 * h))
                && bHh.shape().equals(Shape.of(4 * h))
                && h0.shape().equals(Shape.of(b, h))
                && c0.shape().equals(Shape.of(b, h));
        if (!ok) {
            throw new IllegalArgumentException("lstm shapes do not fit: x " + x.shape() + ", w_ih " + wIh.shape()
                    + ", w_hh " + wHh.shape() + ", b_ih " + bIh.shape() + ", b_hh " + bHh.shape() + ", h0 " + h0.shape()
                    + ", c0 " + c0.shape());
        }
        return add(new Op.Lstm((int) h), List.of(x, wIh, wHh, bIh, bHh, h0, c0), DType.F32, Shape.of(2, b, t, h));
    }

    // ---- spectral ---------------------------------------------------------------------------------

    /**
     * torch.stft with {@code return_complex}, as real pairs; see {@link Op.Stft}.
     *
     * @param x F32 [B, T] samples
     * @param window F32 [nFft] (shorter windows must be zero-padded to nFft, as torch does, before they are passed)
     * @param nFft the frame and DFT length in samples, {@code >= 2}
     * @param hop samples between frames, {@code >= 1}
     * @param center true to reflect-pad by nFft/2 at both ends (torch's default); T must then exceed nFft/2
     * @return F32 [B, nFft/2+1, frames, 2], real and imaginary parts last, unnormalized
     * @throws IllegalArgumentException if the shapes do not fit or the input is too short
     */
    public Tensor stft(Tensor x, Tensor window, int nFft, int hop, boolean center) {
        requireF32("stft", x, window);
        if (x.rank() != 2 || window.rank() != 1 || window.dim(0) != nFft || hop < 1 || nFft < 2) {
            throw shapeError("stft wants x [B, T] and window [nFft=" + nFft + "], hop >= 1", x, window);
        }
        long t = x.dim(1) + (center ? 2L * (nFft / 2) : 0);
        if (center && x.dim(1) <= nFft / 2)
            throw new IllegalArgumentException(
                    "stft center reflect-pads by " + nFft / 2 + ": input of " + x.dim(1) + " is too short");
        if (t < nFft)
            throw new IllegalArgumentException("stft input of " + x.dim(1) + " samples is shorter than n_fft " + nFft);
        long frames = 1 + (t - nFft) / hop;
        return add(
                new Op.Stft(nFft, hop, center),
                List.of(x, window),
                DType.F32,
                Shape.of(x.dim(0), nFft / 2 + 1, frames, 2));
    }

    /**
     * torch.istft; see {@link Op.Istft}.
     *
     * @param spec F32 [B, nFft/2+1, frames, 2], real and imaginary parts last
     * @param window F32 [nFft], the analysis window; it and hop must overlap-add to a non-zero envelope (NOLA)
     * @param nFft the frame length in samples
     * @param hop samples between frames
     * @param center true if the spectrum came from a centered STFT
     * @param length the samples wanted, from 1 to what the frames cover
     * @return F32 [B, length]
     * @throws IllegalArgumentException if the shapes do not fit or length is out of range
     */
    public Tensor istft(Tensor spec, Tensor window, int nFft, int hop, boolean center, long length) {
        requireF32("istft", spec, window);
        if (spec.rank() != 4
                || spec.dim(1) != nFft / 2 + 1
                || spec.dim(3) != 2
                || window.rank() != 1
                || window.dim(0) != nFft) {
            throw shapeError("istft wants spec [B, nFft/2+1, frames, 2] and window [nFft=" + nFft + "]", spec, window);
        }
        long full = nFft + hop * (spec.dim(2) - 1) - (center ? 2L * (nFft / 2) : 0);
        if (length < 1 || length > full)
            throw new IllegalArgumentException("istft length " + length + " outside 1.." + full);
        return add(
                new Op.Istft(nFft, hop, center, length),
                List.of(spec, window),
                DType.F32,
                Shape.of(spec.dim(0), length));
    }

    /**
     * |z| of complex values stored as real pairs: sqrt(re² + im²).
     *
     * @param complex F32 [..., 2], real then imaginary, as {@link #stft} returns
     * @return F32 with the last axis removed
     * @throws IllegalArgumentException if the input is not F32 or its last axis is not 2
     */
    public Tensor magnitude(Tensor complex) {
        requireF32("magnitude", complex);
        if (complex.rank() < 1 || complex.dim(-1) != 2)
            throw new IllegalArgumentException("magnitude wants [..., 2], got " + complex.shape());
        long[] d = Arrays.copyOf(complex.shape().dims(), complex.rank() - 1);
        return add(new Op.Magnitude(), List.of(complex), DType.F32, new Shape(d));
    }

    // ---- building -------------------------------------------------------------------------------

    /**
     * Freezes the graph: the nodes the outputs need, in a valid execution order.
     *
     * @param outputs one or more nodes of this builder, in the order a run returns them; an output read from a state
     *     must be its latest version
     * @return the graph, which keeps every state write even when no output needs it
     * @throws IllegalStateException if this builder already built its graph (a builder builds one)
     * @throws IllegalArgumentException if there are no outputs, or an output belongs to another builder or is an
     *     outdated version of a state
     */
    public Graph build(Tensor... outputs) {
        if (built) throw new IllegalStateException("this builder already built its graph");
        if (outputs.length == 0) throw new IllegalArgumentException("a graph needs at least one output");
        checkInputs(List.of(
                outputs)); // an output of a state shows its final contents, so it must be the state's latest version
        built = true;
        return Graph.of(List.copyOf(nodes), List.of(outputs));
    }

    // ---- internals ------------------------------------------------------------------------------

    private Tensor add(Op op, List<Tensor> inputs, DType dtype, Shape shape) {
        checkInputs(inputs);
        Tensor t = new Tensor(nodes.size(), op, inputs, dtype, shape, shape.contiguousStrides(), 0, null, null);
        nodes.add(t);
        return t;
    }

    /** A write whose result lives in dst's persistent storage and becomes the state's current version. */
    private Tensor addInPlace(Op op, List<Tensor> inputs, Tensor dst) {
        checkInputs(inputs);
        Tensor t =
                new Tensor(nodes.size(), op, inputs, dst.dtype(), dst.shape(), dst.strides(), 0, dst.storage(), null);
        nodes.add(t);
        currentVersion.put(dst.storage(), t);
        return t;
    }

    private Tensor view(Op op, Tensor x, Shape shape, long[] strides, long offset) {
        checkInputs(List.of(x));
        Tensor t = new Tensor(
                nodes.size(), op, List.of(x), x.dtype(), shape, strides, offset, x.storage(), x.stateVersion());
        nodes.add(t);
        return t;
    }

    private void checkInputs(List<Tensor> inputs) {
        if (built) throw new IllegalStateException("graph already built");
        for (Tensor t : inputs) {
            if (t.id() >= nodes.size() || nodes.get(t.id()) != t) {
                throw new IllegalArgumentException("tensor " + t + " belongs to another graph builder");
            }
            if (t.isPersistent()) {
                Tensor now = currentVersion.getOrDefault(t.storage(), t.storage());
                if (t.stateVersion() != now) {
                    throw new IllegalArgumentException(
                            "state '" + ((Op.State) t.storage().op()).name() + "' was written by " + now
                                    + " after " + t
                                    + " was taken from it; read the write's result instead (a node added after a write must"
                                    + " not see the contents the write replaced)");
                }
            }
        }
    }

    private void requireWritable(Tensor dst, Tensor src) {
        if (!dst.isPersistent() || dst.isView() || dst.stateVersion() != dst) {
            throw new IllegalArgumentException(
                    "only a whole persistent tensor (a state leaf or a write's result) can be written in place, got "
                            + dst);
        }
        if (src.storage() == dst.storage()) {
            // kernels copy element by element in parallel: a source that overlaps its destination would race
            throw new IllegalArgumentException(
                    "the source " + src + " of a write into state '"
                            + dst.storage().name()
                            + "' is a view of that state; copy it first (contiguous) so the write does not read what it overwrites");
        }
    }

    private static List<Tensor> optional(Tensor... ts) {
        List<Tensor> out = new ArrayList<>();
        for (Tensor t : ts) if (t != null) out.add(t);
        return out;
    }

    private static Shape reducedShape(Shape s, int ax, boolean keepDim) {
        if (keepDim) return s.with(ax, 1);
        long[] d = new long[s.rank() - 1];
        for (int i = 0, j = 0; i < s.rank(); i++) if (i != ax) d[j++] = s.dim(i);
        return new Shape(d);
    }

    private static void checkPerLast(String op, Tensor x, Tensor gamma, Tensor beta) {
        if (x.rank() < 1) throw new IllegalArgumentException(op + " of a scalar");
        for (Tensor p : new Tensor[] {gamma, beta}) {
            if (p != null && (p.rank() != 1 || p.dim(0) != x.dim(-1) || p.dtype() != DType.F32)) {
                throw shapeError(op + " affine parameters must be F32 [" + x.dim(-1) + "]", x, p);
            }
        }
    }

    private static void checkBias(Tensor bias, long cout, Tensor x, Tensor w) {
        if (bias != null && (bias.rank() != 1 || bias.dim(0) != cout || bias.dtype() != DType.F32)) {
            throw new IllegalArgumentException(
                    "bias must be F32 [" + cout + "], got " + bias + " (x " + x.shape() + ", w " + w.shape() + ")");
        }
    }

    private static void requireF32(String op, Tensor... ts) {
        for (Tensor t : ts) {
            Objects.requireNonNull(t, op + ": missing input");
            if (t.dtype() != DType.F32) throw new IllegalArgumentException(op + " takes F32, got " + t);
        }
    }

    private static IllegalArgumentException shapeError(String what, Tensor a, Tensor b) {
        return new IllegalArgumentException(what + ": got " + a.shape() + " and " + (b == null ? "null" : b.shape()));
    }
}
