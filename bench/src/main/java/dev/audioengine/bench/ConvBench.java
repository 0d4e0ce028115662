package dev.audioengine.bench;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * conv1d, depthwise conv1d and conv_transpose1d (batch 1, F32, no bias) through the engine,
 * against the textbook lowering on OpenBLAS: conv1d as im2col (timed, in Java: one shifted row
 * copy per (channel, tap)) then one sgemm (one per channel for depthwise, PyTorch's grouped
 * slow path); conv_transpose1d as one sgemm into the column matrix then col2im (timed, in Java).
 */
public final class ConvBench {
    enum Kind {
        CONV1D,
        DEPTHWISE,
        CONV_TRANSPOSE1D
    }

    /** A case: Cin, Cout, K, stride, T (input samples). Padding keeps T (conv) or makes T·stride (transpose). */
    record Case(Kind kind, int cin, int cout, int k, int stride, int t) {
        int pad() {
            return kind == Kind.CONV_TRANSPOSE1D ? (k - stride) / 2 : (k - 1) / 2;
        }

        int tout() {
            return kind == Kind.CONV_TRANSPOSE1D ? (t - 1) * stride - 2 * pad() + k : t;
        }

        double flops() {
            return switch (kind) {
                case CONV1D -> 2.0 * cout * cin * k * tout();
                case DEPTHWISE -> 2.0 * cout * k * tout();
                case CONV_TRANSPOSE1D -> 2.0 * cin * cout * k * t;
            };
        }

        String shape() {
            return switch (kind) {
                case CONV1D -> "conv1d " + cin + "->" + cout + " k" + k + " t" + t;
                case DEPTHWISE -> "depthwise " + cin + " k" + k + " t" + t;
                case CONV_TRANSPOSE1D -> "conv_transpose1d " + cin + "->" + cout + " k" + k + " s" + stride + " t" + t;
            };
        }
    }

    /** Sizes chosen so each case is a few GFLOP: 16k samples at 256 channels, fewer samples as channels grow. */
    static final List<Case> CASES = List.of(
            new Case(Kind.CONV1D, 256, 256, 3, 1, 16000),
            new Case(Kind.CONV1D, 512, 512, 7, 1, 2000),
            new Case(Kind.CONV1D, 1024, 1024, 3, 1, 1000),
            new Case(Kind.DEPTHWISE, 512, 512, 7, 1, 16000),
            new Case(Kind.CONV_TRANSPOSE1D, 512, 256, 4, 2, 4000),
            new Case(Kind.CONV_TRANSPOSE1D, 512, 256, 8, 4, 2000),
            new Case(Kind.CONV_TRANSPOSE1D, 512, 256, 16, 8, 1000));

    static final List<Case> SMOKE = List.of(
            new Case(Kind.CONV1D, 7, 5, 3, 1, 33),
            new Case(Kind.DEPTHWISE, 7, 7, 7, 1, 33),
            new Case(Kind.CONV_TRANSPOSE1D, 7, 5, 4, 2, 33));

    private ConvBench() {}

    public static List<BenchResult> run(BenchSettings s) {
        List<BenchResult> out = new ArrayList<>();
        for (int threads : s.threads()) {
            try (Backend backend = s.openBackend().apply(threads)) {
                for (Case c : s.smoke() ? SMOKE : CASES) {
                    if (s.selected(c.shape())) out.add(one(s, backend, threads, c));
                }
            }
        }
        return out;
    }

    static BenchResult one(BenchSettings s, Backend backend, int threads, Case c) {
        s.progress().accept(c.shape() + " threads " + threads);
        Shape xs = Shape.of(1, c.cin(), c.t());
        Shape ws = switch (c.kind()) {
            case CONV1D -> Shape.of(c.cout(), c.cin(), c.k());
            case DEPTHWISE -> Shape.of(c.cout(), 1, c.k());
            case CONV_TRANSPOSE1D -> Shape.of(c.cin(), c.cout(), c.k());
        };
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", xs), w = g.input("w", ws);
        Graph graph = g.build(
                switch (c.kind()) {
                    case CONV1D -> g.conv1d(x, w, null, 1, c.pad(), 1, 1);
                    case DEPTHWISE -> g.conv1d(x, w, null, 1, c.pad(), 1, c.cin());
                    case CONV_TRANSPOSE1D -> g.convTranspose1d(x, w, null, c.stride(), c.pad(), 0, 1, 1);
                });
        long colFloats =
                c.kind() == Kind.CONV_TRANSPOSE1D ? (long) c.cout() * c.k() * c.t() : (long) c.cin() * c.k() * c.tout();
        long slotBytes = 4L * (xs.elements() + ws.elements() + (long) c.cout() * c.tout());
        int slots = Fixtures.slots(slotBytes, s.smoke());
        List<Map<String, HostTensor>> inputs = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[][] peer = new MemorySegment[slots][];
            MemorySegment col = Fixtures.nativeZeros(arena, colFloats); // the lowering's scratch, shared by all slots
            for (int i = 0; i < slots; i++) {
                HostTensor xv = Fixtures.tensor(DType.F32, xs, 2L * i + 1),
                        wv = Fixtures.tensor(DType.F32, ws, 2L * i + 2);
                inputs.add(Map.of("x", xv, "w", wv));
                if (s.blas().blas().isPresent()) {
                    peer[i] = new MemorySegment[] {
                        Fixtures.nativeCopy(arena, xv),
                        Fixtures.nativeCopy(arena, wv),
                        Fixtures.nativeZeros(arena, (long) c.cout() * c.tout())
                    };
                }
            }
            try (EngineRunner ours = new EngineRunner(backend, graph, inputs)) {
                inputs.forEach(v -> v.values().forEach(HostTensor::close));
                OpenBlas blas = s.blas().blas().orElse(null);
                if (blas != null) blas.threads(threads);
                Interleaved.Medians med = Interleaved.measure(
                        ours::run, blas == null ? null : i -> lowered(blas, c, peer[i], col), slots, s.runs());
                return BenchResult.of(
                        "conv",
                        backend.registryName(),
                        c.shape(),
                        "F32",
                        threads,
                        c.flops(),
                        s.peerName() + " + " + (c.kind() == Kind.CONV_TRANSPOSE1D ? "col2im" : "im2col"),
                        med,
                        Map.of());
            }
        }
    }

    /** The peer: {x, w, y} = p. */
    static void lowered(OpenBlas blas, Case c, MemorySegment[] p, MemorySegment col) {
        MemorySegment x = p[0], w = p[1], y = p[2];
        int k = c.k(), t = c.t(), tout = c.tout(), pad = c.pad();
        switch (c.kind()) {
            case CONV1D -> {
                im2col(x, col, c.cin(), k, t, tout, pad);
                blas.sgemm(c.cout(), tout, c.cin() * k, false, w, c.cin() * k, false, col, tout, y, tout);
            }
            case DEPTHWISE -> {
                im2col(x, col, c.cin(), k, t, tout, pad);
                for (int ch = 0; ch < c.cin(); ch++) {
                    blas.sgemm(
                            1,
                            tout,
                            k,
                            false,
                            w.asSlice(4L * ch * k),
                            k,
                            false,
                            col.asSlice(4L * ch * k * tout),
                            tout,
                            y.asSlice(4L * ch * tout),
                            tout);
                }
            }
            case CONV_TRANSPOSE1D -> {
                // col[(co, kk), i] = Σ_ci w[ci, (co, kk)] · x[ci, i]: wᵀ · x
                int rows = c.cout() * k;
                blas.sgemm(rows, t, c.cin(), true, w, rows, false, x, t, col, t);
                col2im(col, y, c.cout(), k, t, tout, c.stride(), pad);
            }
        }
    }

    /** col[(ci, kk), i] = x[ci, i + kk − pad] (0 outside), one shifted row copy per (ci, kk). */
    static void im2col(MemorySegment x, MemorySegment col, int cin, int k, int t, int tout, int pad) {
        for (int ci = 0; ci < cin; ci++) {
            for (int kk = 0; kk < k; kk++) {
                long row = ((long) ci * k + kk) * tout;
                int shift = kk - pad;
                int from = Math.min(tout, Math.max(0, -shift)),
                        to = Math.min(tout, t - shift); // i where 0 <= i + shift < t
                if (from > 0) col.asSlice(4 * row, 4L * from).fill((byte) 0);
                if (to > from)
                    MemorySegment.copy(x, 4L * ((long) ci * t + from + shift), col, 4 * (row + from), 4L * (to - from));
                if (to < tout)
                    col.asSlice(4 * (row + Math.max(to, from)), 4L * (tout - Math.max(to, from)))
                            .fill((byte) 0);
            }
        }
    }

    /** y[co, i·stride − pad + kk] = Σ col[(co, kk), i]. */
    static void col2im(MemorySegment col, MemorySegment y, int cout, int k, int t, int tout, int stride, int pad) {
        y.fill((byte) 0);
        for (int co = 0; co < cout; co++) {
            long yRow = (long) co * tout;
            for (int kk = 0; kk < k; kk++) {
                long src = ((long) co * k + kk) * t;
                for (int i = 0, pos = kk - pad; i < t; i++, pos += stride) {
                    if (pos < 0 || pos >= tout) continue;
                    long at = 4 * (yRow + pos);
                    y.set(
                            ValueLayout.JAVA_FLOAT,
                            at,
                            y.get(ValueLayout.JAVA_FLOAT, at) + col.get(ValueLayout.JAVA_FLOAT, 4 * (src + i)));
                }
            }
        }
    }
}
