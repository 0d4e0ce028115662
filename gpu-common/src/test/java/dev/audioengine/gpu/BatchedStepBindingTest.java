package dev.audioengine.gpu;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.gpu.compile.GpuKernelCompiler;
import dev.audioengine.gpu.gemm.GemmChoice;
import dev.audioengine.gpu.runtime.FakeRuntime;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A batched decoder step (write_slice with a start per batch element, key_mask over B lengths, attention with a
 * [B, 1, Tq, Tk] mask) binds the same launches as a single-sequence step, with the arguments that make the kernels
 * read each batch element's own start, length and mask rows: checked through a fake runtime, without a GPU.
 */
class BatchedStepBindingTest {
    private static final DeviceInfo DEVICE =
            new DeviceInfo(0, "Fake GPU", "gfx1100", DeviceKind.DISCRETE_GPU, 1L << 30, 1L << 30);
    private static final GpuVendor VENDOR = new GpuVendor("ROCm", "hip", Set.of(), false);
    private static final long CAP = 6, DH = 8;

    private final FakeRuntime runtime = new FakeRuntime(64L << 20);
    /** Open until the test has read the launches' arguments, which live in their executable's memory. */
    private final List<Executable> open = new ArrayList<>();

    private GpuBackend open() {
        GpuKernelCompiler compiler = new GpuKernelCompiler() {
            @Override
            public String version() {
                return "fake 1.0";
            }

            @Override
            public List<String> options(String arch) {
                return List.of();
            }

            @Override
            public byte[] compile(String name, String source, Map<String, String> headers, List<String> options) {
                return new byte[] {1, 2, 3};
            }
        };
        return new GpuBackend(
                VENDOR,
                DEVICE,
                0,
                runtime,
                () -> compiler,
                rt -> GemmChoice.select("hip.hipblaslt", "off", "hipBLASLt", () -> null),
                new BackendConfig(0, Map.of("hip.kernel_cache", "off", "hip.graphs", "off", "hip.pinned", "off")));
    }

    /** One decoder step over b cache slots: k, v [b, 2, CAP, DH] written at pos, attended under key_mask(lengths). */
    private static Graph step(long b) {
        GraphBuilder g = new GraphBuilder();
        Tensor k = g.state("k", Shape.of(b, 2, CAP, DH)), v = g.state("v", Shape.of(b, 2, CAP, DH));
        Tensor pos = g.input("pos", DType.I32, Shape.of(b)), lengths = g.input("lengths", DType.I32, Shape.of(b));
        Tensor kw = g.writeSlice(k, g.input("k_new", Shape.of(b, 2, 1, DH)), 2, pos);
        Tensor vw = g.writeSlice(v, g.input("v_new", Shape.of(b, 2, 1, DH)), 2, pos);
        Tensor mask = g.keyMask(lengths, 1, CAP, false);
        return g.build(g.attention(g.input("q", Shape.of(b, 4, 1, DH)), kw, vw, mask, 0.35f, false));
    }

    /** The launches of one run of {@code graph}. */
    private List<FakeRuntime.Launch> launches(GpuBackend backend, Graph graph, List<DeviceBuffer> held) {
        Map<Tensor, DeviceBuffer> buffers = new IdentityHashMap<>();
        for (Tensor t : graph.nodes()) buffers.computeIfAbsent(t.storage(), r -> backend.allocate(r.storageBytes()));
        held.addAll(buffers.values());
        Executable e = backend.compile(graph.computeNodes(), new TensorPlacement() {
            @Override
            public DeviceBuffer buffer(Tensor t) {
                return buffers.get(t.storage());
            }

            @Override
            public long byteOffset(Tensor t) {
                return t.dtype().bytesFor(t.offset());
            }
        });
        open.add(e);
        int before = runtime.launches.size();
        e.run();
        return List.copyOf(runtime.launches.subList(before, runtime.launches.size()));
    }

    private static MemorySegment slot(FakeRuntime.Launch l, int i) {
        return l.params().reinterpret(ADDRESS.byteSize() * (i + 1)).getAtIndex(ADDRESS, i);
    }

    private static long i64(FakeRuntime.Launch l, int i) {
        return slot(l, i).reinterpret(8).get(JAVA_LONG, 0);
    }

    private static int i32(FakeRuntime.Launch l, int i) {
        return slot(l, i).reinterpret(4).get(JAVA_INT, 0);
    }

    /** Element {@code e} of the tensor descriptor in slot i: n[0..3], then s[0..3]. */
    private static long desc(FakeRuntime.Launch l, int i, int e) {
        return slot(l, i).reinterpret(64).getAtIndex(JAVA_LONG, e);
    }

    private static FakeRuntime.Launch only(List<FakeRuntime.Launch> ls, String kernel) {
        List<FakeRuntime.Launch> m =
                ls.stream().filter(l -> l.kernel().equals(kernel)).toList();
        assertThat(m).as(kernel).isNotEmpty();
        return m.getFirst();
    }

    @Test
    void aBatchedStepLaunchesWhatOneSequenceDoesAndReadsEachElementsOwnStartLengthAndMask() {
        List<DeviceBuffer> held = new ArrayList<>();
        try (GpuBackend backend = open()) {
            List<FakeRuntime.Launch> one = launches(backend, step(1), held), four = launches(backend, step(4), held);
            assertThat(four.stream().map(FakeRuntime.Launch::kernel).toList())
                    .as("the same kernels, no launch added for the batch")
                    .isEqualTo(one.stream().map(FakeRuntime.Launch::kernel).toList())
                    .containsSubsequence(
                            "ae_write_slice",
                            "ae_write_slice",
                            "ae_key_mask",
                            "ae_attention_split",
                            "ae_attention_merge");

            // ae_write_slice(n, axis, start, batchAxis, startStride, y, ty, x, tx)
            FakeRuntime.Launch w1 = only(one, "ae_write_slice"), w4 = only(four, "ae_write_slice");
            assertThat(i32(w1, 1)).isEqualTo(2);
            assertThat(i32(w1, 3)).as("one sequence: the single start's rule").isEqualTo(-1);
            assertThat(i32(w4, 3)).as("a start per element of the batch axis").isZero();
            assertThat(i64(w4, 4)).isEqualTo(1);

            // ae_key_mask(causal, n, tq, tk, length, lengthStride, y)
            FakeRuntime.Launch k1 = only(one, "ae_key_mask"), k4 = only(four, "ae_key_mask");
            assertThat(List.of(i64(k1, 1), i64(k1, 2), i64(k1, 3))).containsExactly(CAP, 1L, CAP);
            assertThat(List.of(i64(k4, 1), i64(k4, 2), i64(k4, 3), i64(k4, 5))).containsExactly(4 * CAP, 1L, CAP, 1L);

            // ae_attention_split(q, tq, k, tk, v, tv, kvt, mask, tm, ...): batch element b's rows at b * tm.s[0]
            FakeRuntime.Launch a1 = only(one, "ae_attention_split"), a4 = only(four, "ae_attention_split");
            assertThat(desc(a1, 8, 4))
                    .as("a [Tq, Tk] mask: stride 0 across the batch")
                    .isZero();
            assertThat(desc(a4, 8, 0)).isEqualTo(4);
            assertThat(desc(a4, 8, 4))
                    .as("a [B, 1, Tq, Tk] mask: one row block per element")
                    .isEqualTo(CAP);
            open.forEach(Executable::close);
        }
    }

    @Test
    void perBatchStartsSitOnTheFirstAxisOfTheTensorsPaddedRank() {
        GraphBuilder g = new GraphBuilder();
        Tensor rows = g.state("rows", Shape.of(4, 5, 8));
        Tensor w = g.writeSlice(rows, g.input("row", Shape.of(4, 1, 8)), 1, g.input("at", DType.I32, Shape.of(4)));
        List<DeviceBuffer> held = new ArrayList<>();
        try (GpuBackend backend = open()) {
            FakeRuntime.Launch l = only(launches(backend, g.build(w), held), "ae_write_slice");
            assertThat(i32(l, 1))
                    .as("axis 1 of rank 3 is axis 2 of the padded rank 4")
                    .isEqualTo(2);
            assertThat(i32(l, 3)).as("the batch axis, padded").isEqualTo(1);
            open.forEach(Executable::close);
        }
    }
}
