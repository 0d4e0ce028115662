package dev.audioengine.backend.vulkan.kernels;

import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.backend.vulkan.device.VulkanContext;
import dev.audioengine.backend.vulkan.pipeline.Dispatch;
import dev.audioengine.backend.vulkan.pipeline.Push;
import dev.audioengine.backend.vulkan.pipeline.Shader;
import java.util.List;

/** matmul (gemv for up to 8 rows, else 64x64 or 128x128 shared-memory tiles; any weight dtype), conv1d and conv_transpose1d (direct sums). */
public final class LinearKernels {
    /** Output tile edges of matmul.comp and matmul_large.comp. */
    private static final int TILE = 64, LARGE_TILE = 128;

    /**
     * Large tiles only when they still make this many workgroups: on the H200 (132 SMs) 64 large
     * tiles (1024^3) were slower than 256 small ones, while 256 large tiles (2048^3) beat small ones
     * (docs/PERFORMANCE-vulkan.md, the matmul rows).
     */
    private static final long LARGE_TILE_MIN_GROUPS = 256;

    /** Outputs of at most this many rows take gemv.comp (8 columns per workgroup, 32 threads per column). */
    static final long GEMV_MAX_ROWS = 8;

    private static final long GEMV_COLUMNS = 8;

    private LinearKernels() {}

    static boolean supports(Tensor n) {
        return switch (n.op()) {
            case Op.MatMul m ->
                n.dtype() == DType.F32
                        && n.input(0).dtype() == DType.F32
                        && n.rank() >= 2
                        && n.input(0).rank() >= 2
                        && n.input(1).rank() >= 2
                        && weightReadable(n.input(1));
            case Op.Conv1d c -> convF32(n);
            case Op.ConvTranspose1d c -> convF32(n);
            default -> false;
        };
    }

    private static boolean convF32(Tensor n) {
        return n.rank() == 3 && n.dtype() == DType.F32 && n.inputs().stream().allMatch(t -> t.dtype() == DType.F32);
    }

    /** Float weights in any layout; block formats (k-quants too) only with rows of whole contiguous blocks. */
    private static boolean weightReadable(Tensor w) {
        return switch (w.dtype()) {
            case F32, F16, BF16 -> true;
            case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K ->
                w.stride(-1) == 1
                        && w.dim(-1) % w.dtype().blockSize() == 0
                        && w.stride(-2) == w.dim(-1)
                        && w.offset() % w.dtype().blockSize() == 0;
            default -> false;
        };
    }

    static List<Dispatch> plan(Tensor n, Operands o, VulkanContext ctx) {
        return switch (n.op()) {
            case Op.MatMul m -> List.of(matmul(n, o, ctx));
            case Op.Conv1d c -> List.of(conv(n, false, c.stride(), c.padding(), c.dilation(), c.groups(), o, ctx));
            case Op.ConvTranspose1d c ->
                List.of(conv(n, true, c.stride(), c.padding(), c.dilation(), c.groups(), o, ctx));
            default -> throw new IllegalArgumentException("not linear: " + n);
        };
    }

    private static Dispatch conv(
            Tensor y, boolean transposed, int stride, int pad, int dil, int groups, Operands o, VulkanContext ctx) {
        Tensor x = y.input(0), w = y.input(1), bias = y.inputs().size() > 2 ? y.input(2) : null;
        long[] xs = x.strides(), ws = w.strides();
        Push p = new Push()
                .u(y.elements())
                .u(y.dim(0))
                .u(y.dim(1))
                .u(y.dim(2))
                .u(o.base(x))
                .u(xs[0])
                .u(xs[1])
                .u(xs[2])
                .u(x.dim(1) / groups)
                .u(x.dim(2))
                .u(o.base(w))
                .u(ws[0])
                .u(ws[1])
                .u(ws[2])
                .u(w.dim(2))
                .u(stride)
                .u(pad)
                .u(dil)
                .u(y.dim(1) / groups)
                .u(bias == null ? 0 : o.base(bias))
                .u(bias == null ? 0 : bias.stride(0))
                .u(bias == null ? 0 : 1)
                .u(o.base(y));
        Grid g = Grid.covering(y.elements(), 256, ctx);
        return new Dispatch(
                Shader.CONV,
                new int[] {256, transposed ? 1 : 0},
                List.of(o.binding(x), o.binding(w), bias == null ? o.binding(w) : o.binding(bias), o.binding(y)),
                p.words(),
                g.x(),
                g.y());
    }

    /** Whether an [m, n] output (times {@code batches}) takes matmul_large.comp. */
    public static boolean largeTiles(long m, long n, long batches) {
        long groups = ((m + LARGE_TILE - 1) / LARGE_TILE) * ((n + LARGE_TILE - 1) / LARGE_TILE) * batches;
        return m >= LARGE_TILE && n >= LARGE_TILE && groups >= LARGE_TILE_MIN_GROUPS;
    }

    /** Strides of t's batch axes (all but the last two) laid over the output's two batch axes. */
    private static long[] batchStrides(Tensor t, long[] out4) {
        long[] s = new long[2];
        int shift = 4 - t.rank();
        for (int a = 0; a < 2; a++) {
            int ta = a - shift;
            s[a] = ta < 0 || t.dim(ta) == 1 ? 0 : t.stride(ta);
        }
        return s;
    }

    private static Dispatch matmul(Tensor y, Operands o, VulkanContext ctx) {
        Tensor x = y.input(0), w = y.input(1);
        long[] out4 = Push.dims4(y.shape().dims());
        long m = y.dim(-2), nn = y.dim(-1), k = x.dim(-1);
        long[] xb = batchStrides(x, out4), wb = batchStrides(w, out4);
        Push p = new Push()
                .u(m)
                .u(nn)
                .u(k)
                .u(out4[1])
                .u(o.base(x))
                .u(xb[0])
                .u(xb[1])
                .u(x.stride(-2))
                .u(x.stride(-1))
                .u(o.base(w))
                .u(wb[0])
                .u(wb[1])
                .u(w.stride(-2))
                .u(w.stride(-1))
                .u(o.base(y));
        if (m <= GEMV_MAX_ROWS) {
            Grid g = Grid.of((nn + GEMV_COLUMNS - 1) / GEMV_COLUMNS, ctx);
            return new Dispatch(
                    Shader.GEMV,
                    new int[] {256, w.dtype().ordinal()},
                    List.of(o.binding(x), o.binding(w), o.binding(y)),
                    p.words(),
                    g.x(),
                    g.y(),
                    Math.toIntExact(out4[0] * out4[1]));
        }
        boolean large = largeTiles(m, nn, out4[0] * out4[1]);
        int tile = large ? LARGE_TILE : TILE;
        int gx = Math.toIntExact((nn + tile - 1) / tile), gy = Math.toIntExact((m + tile - 1) / tile);
        return new Dispatch(
                large ? Shader.MATMUL_LARGE : Shader.MATMUL,
                new int[] {256, w.dtype().ordinal()},
                List.of(o.binding(x), o.binding(w), o.binding(y)),
                p.words(),
                gx,
                gy,
                Math.toIntExact(out4[0] * out4[1]));
    }
}
