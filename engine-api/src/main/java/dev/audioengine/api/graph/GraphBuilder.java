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

    // ---- leaves ----------------------------------------------------------------------------

    public Tensor input(String name, DType dtype, Shape shape) {
        return add(new Op.Input(name), List.of(), dtype, shape).named(name);
    }

    public Tensor input(String name, Shape shape) {
        return input(name, DType.F32, shape);
    }

    /** A weight; the same HostTensor used by several graphs is uploaded once per backend. */
    public Tensor constant(HostTensor value) {
        return add(new Op.Constant(value), List.of(), value.dtype(), value.shape());
    }

    public Tensor constant(String name, HostTensor value) {
        return constant(value).named(name);
    }

    /**
     * A persistent tensor, bound when the graph is compiled to the
     * {@link dev.audioengine.api.exec.PersistentTensor} of this name (see {@link Op.State}).
     * Once a write to it has been added, only that write's result (or views of it) may be read:
     * a node added later that reads the older contents is rejected, so every read of a version
     * comes before the write that replaces it, in graph order and on every backend.
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

    public Tensor state(String name, Shape shape) {
        return state(name, DType.F32, shape);
    }

    /**
     * Writes {@code src} into {@code dst} along {@code axis} from the run-time position
     * {@code start} (I32 [1]); see {@link Op.WriteSlice}. {@code dst} is a state leaf or the
     * result of an earlier write to it; the result is the state's new contents.
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

    /** Replaces the whole contents of {@code dst} with {@code src} (same shape): the form recurrent state uses. */
    public Tensor overwrite(Tensor dst, Tensor src) {
        requireF32("overwrite", dst, src);
        requireWritable(dst, src);
        if (!src.shape().equals(dst.shape())) throw shapeError("overwrite wants src of dst's shape", dst, src);
        return addInPlace(new Op.WriteSlice(0), List.of(dst, src), dst);
    }

    /** A small F32 constant owned by the graph's caller (close it with the model). */
    public Tensor scalar(float v) {
        return constant(HostTensor.ofFloats(Shape.of(new long[0]), v));
    }

    // ---- elementwise -----------------------------------------------------------------------

    public Tensor add(Tensor a, Tensor b) {
        return binary(BinaryKind.ADD, a, b);
    }

    public Tensor sub(Tensor a, Tensor b) {
        return binary(BinaryKind.SUB, a, b);
    }

    public Tensor mul(Tensor a, Tensor b) {
        return binary(BinaryKind.MUL, a, b);
    }

    public Tensor div(Tensor a, Tensor b) {
        return binary(BinaryKind.DIV, a, b);
    }

    public Tensor pow(Tensor a, Tensor b) {
        return binary(BinaryKind.POW, a, b);
    }

    public Tensor binary(BinaryKind kind, Tensor a, Tensor b) {
        requireF32(kind.name(), a, b);
        return add(new Op.Binary(kind), List.of(a, b), DType.F32, Shape.broadcast(a.shape(), b.shape()));
    }

    public Tensor unary(UnaryKind kind, Tensor x) {
        return unary(kind, x, 1f);
    }

    public Tensor unary(UnaryKind kind, Tensor x, float alpha) {
        requireF32(kind.name(), x);
        return add(new Op.Unary(kind, alpha), List.of(x), DType.F32, x.shape());
    }

    public Tensor relu(Tensor x) {
        return unary(UnaryKind.RELU, x);
    }

    public Tensor gelu(Tensor x) {
        return unary(UnaryKind.GELU_ERF, x);
    }

    public Tensor geluTanh(Tensor x) {
        return unary(UnaryKind.GELU_TANH, x);
    }

    public Tensor silu(Tensor x) {
        return unary(UnaryKind.SILU, x);
    }

    public Tensor tanh(Tensor x) {
        return unary(UnaryKind.TANH, x);
    }

    public Tensor sigmoid(Tensor x) {
        return unary(UnaryKind.SIGMOID, x);
    }

    public Tensor elu(Tensor x, float alpha) {
        return unary(UnaryKind.ELU, x, alpha);
    }

    public Tensor exp(Tensor x) {
        return unary(UnaryKind.EXP, x);
    }

    public Tensor log(Tensor x) {
        return unary(UnaryKind.LOG, x);
    }

    public Tensor sqrt(Tensor x) {
        return unary(UnaryKind.SQRT, x);
    }

    public Tensor scale(Tensor x, float scale) {
        return scale(x, scale, 0f);
    }

    public Tensor scale(Tensor x, float scale, float bias) {
        requireF32("scale", x);
        return add(new Op.Scale(scale, bias), List.of(x), DType.F32, x.shape());
    }

    public Tensor snake(Tensor x, Tensor alpha) {
        requireF32("snake", x, alpha);
        if (x.rank() != 3 || alpha.rank() != 1 || alpha.dim(0) != x.dim(1)) {
            throw shapeError("snake wants x [B, C, T] and alpha [C]", x, alpha);
        }
        return add(new Op.Snake(), List.of(x, alpha), DType.F32, x.shape());
    }

    // ---- linear algebra and convolution ------------------------------------------------------

    /** x [..., M, K] · w[..., N, K]ᵀ → [..., M, N]; see {@link Op.MatMul}. */
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

    /** x · wᵀ + bias, PyTorch's Linear with w [out, in]. */
    public Tensor linear(Tensor x, Tensor w, Tensor bias) {
        Tensor y = matmul(x, w);
        return bias == null ? y : add(y, bias);
    }

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

    /** Pads the last axis only. */
    public Tensor pad1d(Tensor x, PadMode mode, long before, long after) {
        long[] b = new long[x.rank()], a = new long[x.rank()];
        b[x.rank() - 1] = before;
        a[x.rank() - 1] = after;
        return pad(x, mode, b, a, 0f);
    }

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

    public Tensor slice(Tensor x, int axis, long start, long end) {
        return slice(x, axis, start, end, 1);
    }

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

    public Tensor transpose(Tensor x, int a, int b) {
        int[] perm = new int[x.rank()];
        for (int i = 0; i < perm.length; i++) perm[i] = i;
        int aa = x.shape().normalizeAxis(a), bb = x.shape().normalizeAxis(b);
        perm[aa] = bb;
        perm[bb] = aa;
        return permute(x, perm);
    }

    /** A view with a new shape; one dimension may be -1. Non-contiguous inputs are copied first. */
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

    public Tensor contiguous(Tensor x) {
        return add(new Op.Contiguous(), List.of(x), x.dtype(), x.shape());
    }

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

    public Tensor layerNorm(Tensor x, Tensor gamma, Tensor beta, float eps) {
        requireF32("layer_norm", x);
        checkPerLast("layer_norm", x, gamma, beta);
        return add(new Op.LayerNorm(eps), optional(x, gamma, beta), DType.F32, x.shape());
    }

    public Tensor rmsNorm(Tensor x, Tensor gamma, float eps) {
        requireF32("rms_norm", x);
        checkPerLast("rms_norm", x, gamma, null);
        return add(new Op.RmsNorm(eps), optional(x, gamma), DType.F32, x.shape());
    }

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

    public Tensor softmax(Tensor x) {
        return softmax(x, null, 1f);
    }

    public Tensor softmax(Tensor x, Tensor mask, float scale) {
        requireF32("softmax", x);
        if (mask != null) {
            requireF32("softmax mask", mask);
            if (!Shape.broadcast(x.shape(), mask.shape()).equals(x.shape()))
                throw shapeError("softmax mask must broadcast to x", x, mask);
        }
        return add(new Op.Softmax(scale), optional(x, mask), DType.F32, x.shape());
    }

    public Tensor sum(Tensor x, int axis, boolean keepDim) {
        return reduce(ReduceKind.SUM, x, axis, keepDim);
    }

    public Tensor mean(Tensor x, int axis, boolean keepDim) {
        return reduce(ReduceKind.MEAN, x, axis, keepDim);
    }

    public Tensor max(Tensor x, int axis, boolean keepDim) {
        return reduce(ReduceKind.MAX, x, axis, keepDim);
    }

    public Tensor reduce(ReduceKind kind, Tensor x, int axis, boolean keepDim) {
        requireF32(kind.name(), x);
        int ax = x.shape().normalizeAxis(axis);
        if (kind == ReduceKind.MAX && x.dim(ax) == 0) throw new IllegalArgumentException("max over an empty axis");
        return add(new Op.Reduce(kind, ax, keepDim), List.of(x), DType.F32, reducedShape(x.shape(), ax, keepDim));
    }

    public Tensor argmax(Tensor x, int axis) {
        requireF32("argmax", x);
        int ax = x.shape().normalizeAxis(axis);
        if (x.dim(ax) == 0) throw new IllegalArgumentException("argmax over an empty axis");
        return add(new Op.Argmax(ax), List.of(x), DType.I32, reducedShape(x.shape(), ax, false));
    }

    // ---- sequence models --------------------------------------------------------------------------

    public Tensor getRows(Tensor table, Tensor ids) {
        if (table.rank() != 2 || ids.dtype() != DType.I32 || ids.rank() > 3) {
            throw shapeError("get_rows wants table [V, D] and I32 ids of rank <= 3", table, ids);
        }
        long[] out = Arrays.copyOf(ids.shape().dims(), ids.rank() + 1);
        out[ids.rank()] = table.dim(1);
        return add(new Op.GetRows(), List.of(table, ids), DType.F32, new Shape(out));
    }

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

    /** Fused attention (one op); see {@link Op.Attention}. */
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
     */
    public Tensor attentionComposite(Tensor q, Tensor k, Tensor v, Tensor mask, float scale) {
        if (k.dim(1) != q.dim(1)) throw shapeError("composite attention needs as many k/v heads as q heads", q, k);
        Tensor scores = matmul(q, k);
        Tensor p = softmax(scores, mask, scale);
        return matmul(p, transpose(v, 2, 3));
    }

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

    public Tensor magnitude(Tensor complex) {
        requireF32("magnitude", complex);
        if (complex.rank() < 1 || complex.dim(-1) != 2)
            throw new IllegalArgumentException("magnitude wants [..., 2], got " + complex.shape());
        long[] d = Arrays.copyOf(complex.shape().dims(), complex.rank() - 1);
        return add(new Op.Magnitude(), List.of(complex), DType.F32, new Shape(d));
    }

    // ---- building -------------------------------------------------------------------------------

    /** Freezes the graph: the nodes the outputs need, in a valid execution order. */
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
