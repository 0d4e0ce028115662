package dev.audioengine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.exec.CompiledGraph;
import dev.audioengine.api.exec.FallbackPolicy;
import dev.audioengine.api.exec.UnsupportedOpException;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Op;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A pretend GPU that only multiplies: the engine must run everything else on the CPU backend,
 * copy between the two explicitly, report it, and get the same numbers; or refuse when
 * fallback is off.
 */
class CpuFallbackTest {

    /** Delegates to a real CPU backend but claims only MUL, and counts what it is asked to do. */
    static final class MulOnlyBackend implements Backend {
        final Backend inner = new CpuBackendProvider().open(0, new BackendConfig(1, Map.of()));
        final AtomicInteger uploads = new AtomicInteger(), downloads = new AtomicInteger();

        @Override
        public String registryName() {
            return "CUDA";
        }

        @Override
        public DeviceInfo device() {
            return new DeviceInfo(0, "pretend GPU", "sm_00", DeviceKind.DISCRETE_GPU, 1 << 30, 1 << 30);
        }

        @Override
        public Set<Capability> verifiedCapabilities() {
            return Set.of();
        }

        @Override
        public boolean supportsOp(Tensor n) {
            return n.op() instanceof Op.Binary b && b.kind() == Op.BinaryKind.MUL;
        }

        @Override
        public DeviceBuffer allocate(long bytes) {
            return inner.allocate(bytes);
        }

        @Override
        public void upload(DeviceBuffer dst, long off, MemorySegment src) {
            uploads.incrementAndGet();
            inner.upload(dst, off, src);
        }

        @Override
        public void download(DeviceBuffer src, long off, MemorySegment dst) {
            downloads.incrementAndGet();
            inner.download(src, off, dst);
        }

        @Override
        public Executable compile(List<Tensor> nodes, TensorPlacement p) {
            return inner.compile(nodes, p);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    static BackendRegistry registryWith(MulOnlyBackend gpu) {
        BackendProvider fake = new BackendProvider() {
            @Override
            public String registryName() {
                return "CUDA";
            }

            @Override
            public BackendType type() {
                return BackendType.CUDA;
            }

            @Override
            public ProbeResult probe() {
                return ProbeResult.available(List.of(gpu.device()), null);
            }

            @Override
            public Set<Capability> verifiedCapabilities() {
                return Set.of();
            }

            @Override
            public Backend open(int device, BackendConfig config) {
                return gpu;
            }
        };
        return BackendRegistry.of(List.of(fake, new CpuBackendProvider()));
    }

    @Test
    void unsupportedNodesRunOnTheCpuWithExplicitCopies() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        float[] a = new float[12], b = new float[12];
        for (int i = 0; i < 12; i++) {
            a[i] = (float) r.nextGaussian();
            b[i] = (float) r.nextGaussian();
        }

        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("a", Shape.of(3, 4)), y = g.input("b", Shape.of(3, 4));
        Tensor prod = g.mul(x, y); // pretend GPU
        Tensor sum = g.add(prod, x); // CPU: needs prod copied over
        Tensor out = g.mul(sum, prod); // back on the pretend GPU: needs sum copied back
        Graph graph = g.build(out.named("out"));

        MulOnlyBackend gpu = new MulOnlyBackend();
        try (AudioEngine engine = AudioEngine.builder()
                        .registry(registryWith(gpu))
                        .backend(BackendType.CUDA)
                        .build();
                CompiledGraph cg = engine.compile(graph);
                HostTensor av = HostTensor.ofFloats(Shape.of(3, 4), a);
                HostTensor bv = HostTensor.ofFloats(Shape.of(3, 4), b);
                CompiledGraph.Outputs res = cg.run(Map.of("a", av, "b", bv))) {
            float[] got = res.get("out").toFloatArray();
            for (int i = 0; i < 12; i++) {
                float p = a[i] * b[i];
                assertThat(got[i]).as("seed %d, element %d", seed, i).isEqualTo((p + a[i]) * p);
            }
            assertThat(cg.summary().fallbackNodes()).hasSize(1).allMatch(s -> s.contains("add"));
            assertThat(cg.summary().copiesPerRun()).isEqualTo(2);
            assertThat(cg.summary().copyBytesPerRun()).isEqualTo(2 * 12 * 4);
            assertThat(cg.summary().nodesPerBackend()).containsEntry("CUDA", 2).containsEntry("CPU", 1);
            assertThat(cg.summary().describe()).contains("CPU fallback");
        }
    }

    @Test
    void fallbackOffNamesEveryUnsupportedNode() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("a", Shape.of(5));
        Graph graph = g.build(g.sub(g.add(x, x), x));
        MulOnlyBackend gpu = new MulOnlyBackend();
        try (AudioEngine engine = AudioEngine.builder()
                .registry(registryWith(gpu))
                .backend(BackendType.CUDA)
                .fallback(FallbackPolicy.FAIL)
                .build()) {
            assertThatThrownBy(() -> engine.compile(graph))
                    .isInstanceOf(UnsupportedOpException.class)
                    .hasMessageContaining("2 node(s)")
                    .hasMessageContaining("add")
                    .hasMessageContaining("sub")
                    .hasMessageContaining("fallback");
        }
    }

    @Test
    void inputsAreCheckedByNameDtypeAndShape() {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", Shape.of(2, 2));
        Graph graph = g.build(g.add(x, x));
        try (AudioEngine engine = AudioEngine.builder().build();
                CompiledGraph cg = engine.compile(graph);
                HostTensor wrong = HostTensor.ofFloats(Shape.of(4), 1, 2, 3, 4)) {
            assertThatThrownBy(() -> cg.run(Map.of("x", wrong)))
                    .hasMessageContaining("F32 [2, 2]")
                    .hasMessageContaining("[4]");
            assertThatThrownBy(() -> cg.run(Map.of())).hasMessageContaining("'x' missing");
            assertThatThrownBy(() -> cg.run(Map.of("y", wrong))).hasMessageContaining("no input 'y'");
        }
    }

    /** State lives on the primary: a node that reads or writes it may not fall back to the CPU, even with fallback on. */
    @Test
    void nodesThatTouchStateDoNotFallBack() {
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("s", Shape.of(4));
        Tensor x = g.input("x", Shape.of(4));
        g.overwrite(s, g.mul(s, x)); // mul on the pretend GPU reads the state; the write itself it cannot do
        Graph graph = g.build(g.mul(x, x));
        MulOnlyBackend gpu = new MulOnlyBackend();
        try (AudioEngine engine = AudioEngine.builder()
                        .registry(registryWith(gpu))
                        .backend(BackendType.CUDA)
                        .build();
                var state = engine.state("s", dev.audioengine.api.tensor.DType.F32, Shape.of(4))) {
            assertThatThrownBy(() -> engine.compile(graph, state))
                    .isInstanceOf(UnsupportedOpException.class)
                    .hasMessageContaining("persistent tensors")
                    .hasMessageContaining("write_slice");
        }
    }
}
