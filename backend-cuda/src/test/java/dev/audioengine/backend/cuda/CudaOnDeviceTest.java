package dev.audioengine.backend.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.backend.cpu.CpuBackendProvider;
import dev.audioengine.conformance.BackendReference;
import dev.audioengine.conformance.CapabilityEvidence;
import dev.audioengine.conformance.CaseCatalogue;
import dev.audioengine.conformance.ConformanceHarness;
import dev.audioengine.conformance.ConformanceReport;
import dev.audioengine.gpu.GpuBackend;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Runs on a machine with a CUDA device (skipped elsewhere, e.g. in CI): the whole conformance
 * catalogue against the CPU backend, the declared capabilities backed by it, and open/run/close
 * cycles that must leave device memory where it started.
 */
class CudaOnDeviceTest {
    private static final CudaBackendProvider PROVIDER = new CudaBackendProvider();

    private static void assumeDevice() {
        assumeTrue(
                PROVIDER.probe().available(),
                "no usable CUDA device: " + PROVIDER.probe().reason());
    }

    @Test
    void everyConformanceCasePassesAgainstTheCpuAndBacksTheDeclaredCapabilities() {
        assumeDevice();
        long seed = Long.getLong("audioengine.seed", System.nanoTime());
        try (Backend cuda = PROVIDER.open(0, BackendConfig.defaults());
                BackendReference cpu =
                        BackendReference.owning(new CpuBackendProvider().open(0, BackendConfig.defaults()))) {
            ConformanceReport report = new ConformanceHarness(cuda, cpu).run(CaseCatalogue.all(), seed, r -> {});
            assertThat(report.failures())
                    .as("seed " + seed + " (replay with -Daudioengine.seed=" + seed + ")")
                    .isEmpty();
            assertThat(report.unsupported()).as("every op native on CUDA").isZero();
            Set<Capability> declared = cuda.verifiedCapabilities();
            assertThat(CapabilityEvidence.unbacked(declared, report)).isEmpty();
        }
    }

    @Test
    void openRunCloseCyclesLeaveDeviceMemoryWhereItStarted() {
        assumeDevice();
        try (GpuBackend holder = (GpuBackend) PROVIDER.open(0, BackendConfig.defaults())) {
            holder.synchronize();
            long before = holder.memory().orElseThrow().freeBytes();
            for (int i = 0; i < 1000; i++) {
                try (Backend b = PROVIDER.open(0, BackendConfig.defaults())) {
                    GraphBuilder g = new GraphBuilder();
                    Tensor x = g.input("x", DType.F32, Shape.of(64, 64));
                    Tensor y = g.softmax(g.matmul(g.silu(x), x));
                    Graph graph = g.build(y);
                    Map<Tensor, DeviceBuffer> held = new IdentityHashMap<>();
                    for (Tensor t : graph.nodes()) held.computeIfAbsent(t.storage(), r -> b.allocate(r.storageBytes()));
                    TensorPlacement p = new TensorPlacement() {
                        @Override
                        public DeviceBuffer buffer(Tensor t) {
                            return held.get(t.storage());
                        }

                        @Override
                        public long byteOffset(Tensor t) {
                            return t.dtype().bytesFor(t.offset());
                        }
                    };
                    try (Executable e = b.compile(graph.computeNodes(), p);
                            HostTensor h = HostTensor.allocate(DType.F32, Shape.of(64, 64))) {
                        b.upload(held.get(x), 0, h.data());
                        e.run();
                        b.download(held.get(y), 0, h.data());
                    } finally {
                        held.values().forEach(DeviceBuffer::close);
                    }
                }
            }
            holder.synchronize();
            assertThat(holder.memory().orElseThrow().freeBytes())
                    .as("free device memory after 1000 cycles")
                    .isEqualTo(before);
        }
    }
}
