package dev.audioengine.backend.vulkan.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;
import dev.audioengine.backend.vulkan.pipeline.Push;
import dev.audioengine.backend.vulkan.pipeline.Shader;
import java.util.List;

/**
 * get_rows, rope and key_mask (one thread per output element), fused attention (one workgroup per query row) and
 * lstm (one dispatch per step). key_mask reads the cache length from its I32 input, so one recorded command
 * buffer serves every step; with B lengths it masks each batch element by its own, and attention reads a mask
 * [B, 1, Tq, Tk] per batch element beside the broadcast [Tq, Tk].
 */
final class SequenceKernels {
    private static final int LOCAL = 256;
    private static final int ATTENTION_LOCAL = 64;

    private SequenceKernels() {}

    static boolean supports(Tensor n) {
        return switch (n.op()) {
            case Op.GetRows g ->
                n.dtype() == DType.F32
                        && n.input(1).dtype() == DType.I32
                        && n.input(1).rank() <= 3
                        && tableReadable(n.input(0));
            case Op.Rope r ->
                n.dtype() == DType.F32
                        && n.input(0).dtype() == DType.F32
                        && n.rank() == 4
                        && n.input(1).dtype() == DType.I32
                        && r.dims() % 2 == 0
                        && r.dims() <= n.dim(3);
            case Op.Attention a ->
                n.dtype() == DType.F32
                        && n.rank() == 4
                        && n.input(0).dtype() == DType.F32
                        && floatKv(n.input(1))
                        && n.input(2).dtype() == n.input(1).dtype()
                        && (n.inputs().size() < 4
                                || n.input(3).dtype() == DType.F32
                                        && (n.input(3).rank() == 2 || n.input(3).rank() == 4))
                        && n.dim(3) <= 4 * ATTENTION_LOCAL
                        && n.input(2).dim(3) == n.dim(3);
            case Op.Lstm l ->
                n.dtype() == DType.F32
                        && n.inputs().size() == 7
                        && n.input(0).rank() == 3
                        && n.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
            case Op.KeyMask k -> true;
            default -> false;
        };
    }

    private static boolean floatKv(Tensor t) {
        return t.rank() == 4 && (t.dtype() == DType.F32 || t.dtype() == DType.F16 || t.dtype() == DType.BF16);
    }

    private static boolean tableReadable(Tensor t) {
        return switch (t.dtype()) {
            case F32, F16, BF16, I32 -> true;
            case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K ->
                t.stride(1) == 1
                        && t.stride(0) == t.dim(1)
                        && t.offset() % t.dtype().blockSize() == 0;
            default -> false;
        };
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        return switch (n.op()) {
            case Op.GetRows g -> List.of(getRows(n, o, ctx));
            case Op.Rope r -> List.of(rope(n, r, o, ctx));
            case Op.Attention a -> List.of(attention(n, a, o, ctx));
            case Op.Lstm l -> lstm(n, l, o, ctx);
            case Op.KeyMask k -> List.of(keyMask(n, k, o, ctx));
            default -> throw new IllegalArgumentException("not a sequence op: " + n);
        };
    }

    private static Dispatch getRows(Tensor y, Operands o, VulkanContext ctx) {
        Tensor table = y.input(0), ids = y.input(1);
        long[] shape = Push.dims4(y.shape().dims());
        long[] ist = new long[4];
        int shift = 3 - ids.rank();
        for (int a = shift; a < 3; a++) ist[a] = ids.dim(a - shift) == 1 ? 0 : ids.stride(a - shift);
        Push p = new Push()
                .u(y.elements())
                .u4(shape)
                .u(o.base(ids))
                .u4(ist)
                .u(o.base(table))
                .u(table.stride(0))
                .u(table.stride(1))
                .u(o.base(y));
        Grid g = Grid.covering(y.elements(), LOCAL, ctx);
        return new Dispatch(
                Shader.GETROWS,
                new int[] {LOCAL, table.dtype().ordinal()},
                List.of(o.binding(table), o.binding(ids), o.binding(y)),
                p.words(),
                g.x(),
                g.y());
    }

    private static Dispatch attention(Tensor y, Op.Attention a, Operands o, VulkanContext ctx) {
        Tensor q = y.input(0), k = y.input(1), v = y.input(2), mask = y.inputs().size() > 3 ? y.input(3) : null;
        long h = q.dim(1), tq = q.dim(2), rows = q.dim(0) * h * tq;
        Push p = new Push()
                .u(rows)
                .u(h)
                .u(tq)
                .u(k.dim(2))
                .u(q.dim(3))
                .u(h / k.dim(1))
                .u(o.base(q))
                .u4(q.strides())
                .u(o.base(k))
                .u4(k.strides())
                .u(o.base(v))
                .u4(v.strides())
                .u(mask == null ? 0 : o.base(mask))
                .u(mask == null ? 0 : mask.stride(-2))
                .u(mask == null ? 0 : mask.stride(-1))
                .u((mask != null ? 1 : 0) | (a.causal() ? 2 : 0))
                .f(a.scale())
                .u(o.base(y))
                // [B, 1, Tq, Tk]: each batch element its own mask; [Tq, Tk]: one for all
                .u(mask == null || mask.rank() == 2 || mask.dim(0) == 1 ? 0 : mask.stride(0));
        Grid g = Grid.of(rows, ctx);
        return new Dispatch(
                Shader.ATTENTION,
                new int[] {ATTENTION_LOCAL, k.dtype().ordinal()},
                List.of(
                        o.binding(q),
                        o.binding(k),
                        o.binding(v),
                        mask == null ? o.binding(q) : o.binding(mask),
                        o.binding(y)),
                p.words(),
                g.x(),
                g.y());
    }

    /** One dispatch per time step (barriers between them), each a workgroup per batch row and 8 hidden units. */
    private static List<Dispatch> lstm(Tensor y, Op.Lstm l, Operands o, VulkanContext ctx) {
        Tensor x = y.input(0),
                wih = y.input(1),
                whh = y.input(2),
                bih = y.input(3),
                bhh = y.input(4),
                h0 = y.input(5),
                c0 = y.input(6);
        long[] xs = x.strides();
        long steps = x.dim(1), hidden = l.hidden();
        List<Dispatch.Binding> bindings = List.of(
                o.binding(x),
                o.binding(wih),
                o.binding(whh),
                o.binding(bih),
                o.binding(bhh),
                o.binding(h0),
                o.binding(c0),
                o.binding(y));
        Grid g = Grid.of(x.dim(0) * ((hidden + 7) / 8), ctx);
        List<Dispatch> out = new java.util.ArrayList<>();
        for (long t = 0; t < steps; t++) {
            Push p = new Push()
                    .u(x.dim(0))
                    .u(steps)
                    .u(x.dim(2))
                    .u(hidden)
                    .u(o.base(x))
                    .u(xs[0])
                    .u(xs[1])
                    .u(xs[2])
                    .u(o.base(wih))
                    .u(wih.stride(0))
                    .u(wih.stride(1))
                    .u(o.base(whh))
                    .u(whh.stride(0))
                    .u(whh.stride(1))
                    .u(o.base(bih))
                    .u(bih.stride(0))
                    .u(o.base(bhh))
                    .u(bhh.stride(0))
                    .u(o.base(h0))
                    .u(h0.stride(0))
                    .u(h0.stride(1))
                    .u(o.base(c0))
                    .u(c0.stride(0))
                    .u(c0.stride(1))
                    .u(o.base(y))
                    .u(t);
            out.add(new Dispatch(Shader.LSTM, new int[] {LOCAL}, bindings, p.words(), g.x(), g.y()));
        }
        return out;
    }

    private static Dispatch rope(Tensor y, Op.Rope r, Operands o, VulkanContext ctx) {
        Tensor x = y.input(0), pos = y.input(1);
        long[] shape = y.shape().dims();
        Push p = new Push()
                .u(y.elements())
                .u4(shape)
                .u(o.base(x))
                .u4(x.strides())
                .u(o.base(pos))
                .u(pos.stride(0))
                .u(r.dims())
                .f(r.base())
                .u(o.base(y));
        Grid g = Grid.covering(y.elements(), LOCAL, ctx);
        return new Dispatch(
                Shader.ROPE,
                new int[] {LOCAL, r.mode() == Op.RopeMode.NEOX ? 1 : 0},
                List.of(o.binding(x), o.binding(pos), o.binding(y)),
                p.words(),
                g.x(),
                g.y());
    }

    private static Dispatch keyMask(Tensor y, Op.KeyMask op, Operands o, VulkanContext ctx) {
        Tensor lengths = y.input(0);
        Push p = new Push()
                .u(y.elements())
                .u(y.dim(-2))
                .u(y.dim(-1))
                .u(o.base(lengths))
                .u(o.base(y))
                .u(op.causal() ? 1 : 0)
                // one length per batch element: mask [B, 1, Tq, Tk]
                .u(lengths.dim(0) == 1 ? 0 : lengths.stride(0));
        Grid g = Grid.covering(y.elements(), LOCAL, ctx);
        return new Dispatch(
                Shader.KEY_MASK, new int[] {LOCAL}, List.of(o.binding(lengths), o.binding(y)), p.words(), g.x(), g.y());
    }
}
