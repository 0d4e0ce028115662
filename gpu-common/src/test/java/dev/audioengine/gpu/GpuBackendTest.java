package dev.audioengine.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.DeviceBuffer;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.Executable;
import dev.audioengine.api.spi.InvalidOptionValueException;
import dev.audioengine.api.spi.OutOfDeviceMemoryException;
import dev.audioengine.api.spi.TensorPlacement;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.gpu.compile.GpuKernelCompiler;
import dev.audioengine.gpu.gemm.FakeBlas;
import dev.audioengine.gpu.gemm.GemmChoice;
import dev.audioengine.gpu.gemm.GpuBlas;
import dev.audioengine.gpu.ops.SequenceOps;
import dev.audioengine.gpu.runtime.FakeRuntime;
import dev.audioengine.gpu.runtime.FakeVirtualMemory;
import dev.audioengine.gpu.runtime.GpuBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The op layer driven through fake vendor tables: options under the vendor's prefix, the GEMM path, graphs, memory, lifecycle. */
class GpuBackendTest {
    private static final DeviceInfo DEVICE =
            new DeviceInfo(0, "Fake GPU", "gfx1100", DeviceKind.DISCRETE_GPU, 1L << 30, 1L << 30);
    private static final GpuVendor HIP =
            new GpuVendor("ROCm", "hip", Set.of(Capability.CONV_TRANSPOSE1D_COL2IM), false);

    private final FakeRuntime runtime = new FakeRuntime(64L << 20);
    private final List<String> compiled = new ArrayList<>();
    private final GpuKernelCompiler compiler = new GpuKernelCompiler() {
        @Override
        public String version() {
            return "fake 1.0";
        }

        @Override
        public List<String> options(String arch) {
            return List.of("--offload-arch=" + arch);
        }

        @Override
        public byte[] compile(String name, String source, Map<String, String> headers, List<String> options) {
            compiled.add(name + " " + options);
            return new byte[] {1, 2, 3};
        }
    };

    private GpuBackend open(GpuBlas blas, Map<String, String> options) {
        Map<String, String> all = new java.util.HashMap<>(options);
        all.putIfAbsent("hip.kernel_cache", "off");
        return new GpuBackend(
                HIP,
                DEVICE,
                0,
                runtime,
                () -> compiler,
                rt -> blas == null
                        ? GemmChoice.select("hip.hipblaslt", "off", "hipBLASLt", () -> null)
                        : GemmChoice.required(blas),
                new BackendConfig(0, all));
    }

    /** y = x·wᵀ with x [3, 8], w [5, 8], each tensor in its own buffer. */
    private static Executable matmul(GpuBackend b, List<DeviceBuffer> held) {
        GraphBuilder g = new GraphBuilder();
        Tensor x = g.input("x", DType.F32, Shape.of(3, 8)), w = g.input("w", DType.F32, Shape.of(5, 8));
        Graph graph = g.build(g.matmul(x, w));
        Map<Tensor, DeviceBuffer> buffers = new IdentityHashMap<>();
        for (Tensor t : graph.nodes()) buffers.computeIfAbsent(t.storage(), r -> b.allocate(r.storageBytes()));
        held.addAll(buffers.values());
        return b.compile(graph.computeNodes(), new TensorPlacement() {
            @Override
            public DeviceBuffer buffer(Tensor t) {
                return buffers.get(t.storage());
            }

            @Override
            public long byteOffset(Tensor t) {
                return t.dtype().bytesFor(t.offset());
            }
        });
    }

    @Test
    void optionsAreReadUnderTheVendorsPrefixWithTheVendorsGraphDefault() {
        try (GpuBackend b = open(null, Map.of())) {
            assertThat(b.registryName()).isEqualTo("ROCm");
            assertThat(b.verifiedCapabilities()).containsExactly(Capability.CONV_TRANSPOSE1D_COL2IM);
            assertThat(b.graphCache()).as("this vendor's default is graphs off").isNull();
            assertThat(runtime.calls).contains("hostAlloc " + GpuBackend.PINNED_HALF_BYTES);
        }
        runtime.calls.clear();
        try (GpuBackend b = open(null, Map.of("hip.graphs", "on", "hip.pinned", "off", "cuda.graphs", "off"))) {
            assertThat(b.graphCache())
                    .as("hip.graphs=on; cuda.* options are not this vendor's")
                    .isNotNull();
            assertThat(runtime.calls).noneMatch(c -> c.startsWith("hostAlloc"));
        }
        assertThatThrownBy(() -> open(null, Map.of("hip.matmul", "sloppy")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("hip.matmul must be precise or fast, got 'sloppy'");
    }

    @Test
    void withoutALibraryMatmulRunsTheEnginesKernelAndSaysSo() {
        List<DeviceBuffer> held = new ArrayList<>();
        try (GpuBackend b = open(null, Map.of())) {
            assertThat(b.gemmPath()).isEqualTo("engine GEMM kernels (hipBLASLt switched off: hip.hipblaslt=off)");
            try (Executable e = matmul(b, held)) {
                e.run();
            }
            assertThat(compiled).containsExactly("linear.cu [--offload-arch=gfx1100]");
            assertThat(runtime.calls).contains("launch");
        }
    }

    /** Attention blocks need 45 KiB of shared memory at head size 64 and 86 KiB at 128: more than a 64 KiB AMD workgroup has. */
    @Test
    void opsNeedingMoreSharedMemoryThanTheDeviceHasAreUnsupportedNotFailedLaunches() {
        for (int[] limitAndD : new int[][] {{64 * 1024, 64}, {64 * 1024, 128}, {227 * 1024, 128}}) {
            runtime.maxShared = limitAndD[0];
            int d = limitAndD[1];
            GraphBuilder g = new GraphBuilder();
            Tensor q = g.input("q", DType.F32, Shape.of(1, 2, 7, d));
            Tensor y = g.attention(
                    q,
                    g.input("k", DType.F32, Shape.of(1, 2, 9, d)),
                    g.input("v", DType.F32, Shape.of(1, 2, 9, d)),
                    null,
                    0.125f,
                    false);
            boolean fits = SequenceOps.attentionShared(y) <= limitAndD[0];
            assertThat(fits)
                    .as("head size %d in %d bytes", d, limitAndD[0])
                    .isEqualTo(d == 64 || limitAndD[0] > 100 * 1024);
            try (GpuBackend b = open(null, Map.of())) {
                assertThat(b.supportsOp(y))
                        .as("attention, head size %d, device limit %d bytes", d, limitAndD[0])
                        .isEqualTo(fits);
            }
        }
    }

    @Test
    void withALibraryMatmulRunsOnItAndGraphsCaptureOnTheThirdRunThenReplay() {
        FakeBlas blas = new FakeBlas();
        List<DeviceBuffer> held = new ArrayList<>();
        try (GpuBackend b = open(blas, Map.of("hip.graphs", "on"))) {
            assertThat(b.gemmPath()).isEqualTo("fakeBLAS /opt/fake/libfakeblas.so.1");
            // the constructor's GEMM factory parameter once shadowed the field here and the log printed a lambda
            assertThat(b.openedMessage()).contains("opened: GEMM: fakeBLAS /opt/fake/libfakeblas.so.1; graphs on");
            assertThat(b.detail())
                    .as("what every run summary shows")
                    .isEqualTo("GEMM: fakeBLAS /opt/fake/libfakeblas.so.1; graphs on");
            try (Executable e = matmul(b, held)) {
                e.run();
                e.run();
                assertThat(blas.runs)
                        .as("two runs go step by step: a segment run once or twice never pays for a capture")
                        .isEqualTo(2);
                assertThat(runtime.calls).doesNotContain("beginCapture", "launchGraph");
                e.run();
                e.run();
            }
            assertThat(blas.runs)
                    .as("captured on the third run; replays do not enqueue the steps again")
                    .isEqualTo(3);
            assertThat(runtime.calls.stream()
                            .filter(c -> c.equals("beginCapture"))
                            .count())
                    .isEqualTo(1);
            assertThat(runtime.calls.stream()
                            .filter(c -> c.equals("launchGraph"))
                            .count())
                    .isEqualTo(2);
            assertThat(runtime.calls).contains("destroyGraphExec").doesNotContain("launch");
        }
        assertThat(blas.closed).isTrue();
    }

    @Test
    void aProfileTimesEveryStepLaunchByLaunchAndNamesItsOpAndKernel() {
        FakeBlas blas = new FakeBlas();
        List<DeviceBuffer> held = new ArrayList<>();
        try (GpuBackend b = open(blas, Map.of("hip.graphs", "on", "hip.profile", "on"))) {
            assertThat(b.graphCache())
                    .as("a profile needs launch-by-launch execution, whatever hip.graphs says")
                    .isNull();
            assertThat(b.detail()).contains("graphs off (profiling every step)");
            try (Executable e = matmul(b, held)) {
                e.run();
                e.run();
            }
            assertThat(blas.runs).isEqualTo(2);
            assertThat(b.profileReport())
                    .contains("in 2 steps")
                    .containsPattern("\\n +[0-9.]+ +100\\.0% +2 +[0-9.]+  matmul gemm\\n");
        }
        try (GpuBackend b = open(null, Map.of())) {
            assertThat(b.profileReport()).isNull();
        }
    }

    /** y = x·wᵀ with x [rows, 64] F32 and w [17, 64] Q8_0, profiled: which steps the product became. */
    private String quantizedProduct(GpuVendor vendor, long rows) {
        return product(vendor, rows, DType.Q8_0, Map.of());
    }

    /** y = x·wᵀ with x [rows, 64] F32 and w [17, 64] of {@code type}, profiled under the options. */
    private String product(GpuVendor vendor, long rows, DType type, Map<String, String> options) {
        Map<String, String> all = new java.util.HashMap<>(options);
        all.put("hip.kernel_cache", "off");
        all.put("hip.profile", "on");
        List<DeviceBuffer> held = new ArrayList<>();
        try (GpuBackend b = new GpuBackend(
                vendor,
                DEVICE,
                0,
                runtime,
                () -> compiler,
                rt -> GemmChoice.required(new FakeBlas()),
                new BackendConfig(0, all))) {
            GraphBuilder g = new GraphBuilder();
            Tensor x = g.input("x", DType.F32, Shape.of(rows, 64)), w = g.input("w", type, Shape.of(17, 64));
            Graph graph = g.build(g.matmul(x, w));
            Map<Tensor, DeviceBuffer> buffers = new IdentityHashMap<>();
            for (Tensor t : graph.nodes()) buffers.computeIfAbsent(t.storage(), r -> b.allocate(r.storageBytes()));
            held.addAll(buffers.values());
            try (Executable e = b.compile(graph.computeNodes(), new TensorPlacement() {
                @Override
                public DeviceBuffer buffer(Tensor t) {
                    return buffers.get(t.storage());
                }

                @Override
                public long byteOffset(Tensor t) {
                    return t.dtype().bytesFor(t.offset());
                }
            })) {
                e.run();
            }
            return b.profileReport();
        }
    }

    /**
     * Quantized weights of a wide product go to the GEMM library on a decoded F32 copy only where the vendor has
     * verified FAST_PROJECTION (the conformance cases of Q8_0 and Q4_0 matmul on that vendor are its evidence); a
     * vendor without it, as HIP today, keeps the tiled kernel, and up to 64 rows keep the mat-vec kernel either way.
     */
    @Test
    void wideQuantizedProductsUseTheLibraryOnlyWhereFastProjectionIsVerified() {
        GpuVendor verified = new GpuVendor(
                "ROCm", "hip", Set.of(Capability.CONV_TRANSPOSE1D_COL2IM, Capability.FAST_PROJECTION), false);
        assertThat(quantizedProduct(verified, 65))
                .contains("matmul ae_cast_to_f32")
                .contains("matmul gemm")
                .doesNotContain("ae_matmul");
        assertThat(quantizedProduct(HIP, 65)).contains("matmul ae_matmul").doesNotContain("gemm");
        assertThat(quantizedProduct(verified, 64))
                .contains("matmul ae_matvec_q")
                .doesNotContain("gemm");
    }

    /**
     * Weight constants keep one F32 copy on the device for the library, shared by every segment that uses it
     * (a batched decoder's step per width) and decoded once, by the first run; past hip.matvec_max_rows rows only.
     * The copy is freed when the last segment using it closes.
     */
    @Test
    void quantizedConstantsShareOneDecodedCopyDecodedOnce() {
        GpuVendor verified = new GpuVendor(
                "ROCm", "hip", Set.of(Capability.CONV_TRANSPOSE1D_COL2IM, Capability.FAST_PROJECTION), false);
        List<DeviceBuffer> held = new ArrayList<>();
        try (GpuBackend b = new GpuBackend(
                verified,
                DEVICE,
                0,
                runtime,
                () -> compiler,
                rt -> GemmChoice.required(new FakeBlas()),
                new BackendConfig(
                        0, Map.of("hip.kernel_cache", "off", "hip.profile", "on", "hip.matvec_max_rows", "8")))) {
            GraphBuilder g = new GraphBuilder(), g8 = new GraphBuilder();
            Graph wide = g.build(g.matmul(
                    g.input("x", DType.F32, Shape.of(9, 64)),
                    g.constant("w", HostTensor.allocate(DType.Q8_0, Shape.of(17, 64)))));
            Graph narrow = g8.build(g8.matmul(
                    g8.input("x", DType.F32, Shape.of(8, 64)),
                    g8.constant("w", HostTensor.allocate(DType.Q8_0, Shape.of(17, 64)))));
            Map<Tensor, DeviceBuffer> buffers = new IdentityHashMap<>();
            TensorPlacement placement = new TensorPlacement() {
                @Override
                public DeviceBuffer buffer(Tensor t) {
                    return buffers.computeIfAbsent(t.storage(), r -> {
                        DeviceBuffer d = b.allocate(r.storageBytes());
                        held.add(d);
                        return d;
                    });
                }

                @Override
                public long byteOffset(Tensor t) {
                    return t.dtype().bytesFor(t.offset());
                }
            };
            long before = b.decodedBytes();
            try (Executable e1 = b.compile(wide.computeNodes(), placement);
                    Executable e2 = b.compile(wide.computeNodes(), placement);
                    Executable e3 = b.compile(narrow.computeNodes(), placement)) {
                assertThat(b.decodedBytes() - before)
                        .as("one F32 copy of the 17x64 constant for both wide segments")
                        .isEqualTo(17 * 64 * 4);
                e1.run();
                e2.run();
                e1.run();
                e3.run();
                assertThat(runtime.launches.stream().map(l -> l.kernel()))
                        .as("decoded by the first run only; 8 rows keep the mat-vec kernel")
                        .containsExactly("ae_cast_to_f32", "ae_matvec_q8_0");
                assertThat(b.profileReport()).containsPattern("\\n +[0-9.]+ +[0-9.]+% +3 +[0-9.]+  matmul gemm\\n");
                e1.close();
                assertThat(b.decodedBytes() - before)
                        .as("still used by the second segment")
                        .isEqualTo(17 * 64 * 4);
            }
            assertThat(b.decodedBytes())
                    .as("freed with the last segment that used it")
                    .isEqualTo(before);
        }
    }

    /**
     * Half-float weights of a product of at most hip.half_matvec_rows rows take ae_matvec_f16 (or _bf16), one launch;
     * past it, and by default (0: off; no faster on an H100), the library's half path as before.
     */
    @Test
    void halfWeightsOfFewRowsTakeTheHalfMatvecWhenAsked() {
        Map<String, String> four = Map.of("hip.half_matvec_rows", "4");
        assertThat(product(HIP, 1, DType.F16, four))
                .contains("matmul ae_matvec_f16")
                .doesNotContain("gemm");
        assertThat(product(HIP, 4, DType.BF16, four))
                .contains("matmul ae_matvec_bf16")
                .doesNotContain("gemm");
        assertThat(product(HIP, 5, DType.F16, four)).contains("matmul gemm").doesNotContain("ae_matvec");
        assertThat(product(HIP, 1, DType.F16, Map.of()))
                .as("off by default")
                .contains("matmul gemm")
                .doesNotContain("ae_matvec");
        assertThatThrownBy(() -> open(null, Map.of("hip.half_matvec_rows", "x")))
                .isInstanceOf(InvalidOptionValueException.class)
                .hasMessageContaining("hip.half_matvec_rows must be a whole number from 0 to 64, got 'x'");
        // the engine refuses an option its backend's provider does not list: this one was missing, and only a device
        // run through the CLI found it out
        assertThat(GpuBackend.optionKeys("cuda")).contains("cuda.half_matvec_rows");
    }

    @Test
    void matvecMaxRowsIsCheckedWhenTheBackendOpens() {
        assertThatThrownBy(() -> open(null, Map.of("hip.matvec_max_rows", "65")))
                .isInstanceOf(InvalidOptionValueException.class)
                .hasMessageContaining("hip.matvec_max_rows must be a whole number from 0 to 64, got '65'");
    }

    /** Each op's scratch is used only by its own steps, which run in order on one stream: one buffer serves them all. */
    @Test
    void opsOfOneSegmentShareOneScratchBuffer() {
        List<DeviceBuffer> held = new ArrayList<>();
        try (GpuBackend b = open(new FakeBlas(), Map.of())) {
            GraphBuilder g = new GraphBuilder();
            long t = 1000;
            Tensor x = g.input("x", DType.F32, Shape.of(1, 3, t));
            Tensor y1 = g.conv1d(x, g.input("w1", DType.F32, Shape.of(4, 3, 5)), null, 1, 2, 1, 1); // im2col 3*5 rows
            Tensor y2 = g.conv1d(g.relu(y1), g.input("w2", DType.F32, Shape.of(2, 4, 3)), null, 1, 1, 1, 1); // 4*3 rows
            Graph graph = g.build(y2);
            Map<Tensor, DeviceBuffer> buffers = new IdentityHashMap<>();
            for (Tensor n : graph.nodes()) buffers.computeIfAbsent(n.storage(), r -> b.allocate(r.storageBytes()));
            held.addAll(buffers.values());
            int before = runtime.calls.size();
            try (Executable e = b.compile(graph.computeNodes(), new TensorPlacement() {
                @Override
                public DeviceBuffer buffer(Tensor n) {
                    return buffers.get(n.storage());
                }

                @Override
                public long byteOffset(Tensor n) {
                    return n.dtype().bytesFor(n.offset());
                }
            })) {
                long cols = 4L * 3 * 5 * t, rounded = (cols + 255) / 256 * 256;
                assertThat(runtime.calls.subList(before, runtime.calls.size()).stream()
                                .filter(c -> c.startsWith("alloc")))
                        .as("one scratch buffer, the larger op's, for both convolutions")
                        .containsExactly("alloc " + rounded);
            }
        }
    }

    @Test
    void outOfMemoryHandsCachedMemoryBackAndNamesTheDevice() {
        try (GpuBackend b = open(null, Map.of("hip.pinned", "off"))) {
            assertThatThrownBy(() -> b.allocate(1L << 30))
                    .isInstanceOf(OutOfDeviceMemoryException.class)
                    .hasMessageContaining("Fake GPU (HIP device 0)");
            assertThat(runtime.calls).containsSubsequence("alloc failed", "releaseCachedMemory");
        }
    }

    @Test
    void closeFreesEverythingAndReleasesTheDeviceLast() {
        GpuBackend b = open(null, Map.of());
        DeviceBuffer leaked = b.allocate(1024);
        b.close();
        assertThat(runtime.calls).containsSubsequence("free", "destroyStream", "release");
        assertThat(runtime.calls.getLast()).isEqualTo("release");
        assertThat(leaked.byteSize()).isEqualTo(1024);
        assertThatThrownBy(() -> b.allocate(16))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("HIP backend is closed");
    }

    @Test
    void withVmmOnMemoryComesFromTheReservedRangeAndIsHandedBackOnClose() {
        GpuBackend b = open(null, Map.of("hip.vmm", "on", "hip.pinned", "off"));
        GpuBuffer x = GpuBackend.gpu(b.allocate(1000)), y = GpuBackend.gpu(b.allocate(3 << 20));
        assertThat(x.address()).isEqualTo(FakeVirtualMemory.BASE);
        assertThat(y.address()).isEqualTo(FakeVirtualMemory.BASE + 1024);
        assertThat(runtime.vm.reserved)
                .as("the device's total memory, reserved")
                .isEqualTo(DEVICE.memoryTotal());
        assertThat(runtime.calls).noneMatch(c -> c.startsWith("alloc"));
        x.close();
        assertThat(GpuBackend.gpu(b.allocate(512)).address())
                .as("a freed block is reused at once")
                .isEqualTo(FakeVirtualMemory.BASE);
        assertThatThrownBy(() -> b.allocate(100L << 20))
                .isInstanceOf(OutOfDeviceMemoryException.class)
                .hasMessageContaining("Fake GPU (HIP device 0)");
        b.close();
        assertThat(runtime.vm.mappedNow).isZero();
        assertThat(runtime.vm.calls.getLast()).isEqualTo("unreserve " + DEVICE.memoryTotal());
        assertThat(runtime.calls).doesNotContain("free");
    }

    @Test
    void aFailedOpenReleasesWhatItMade() {
        assertThatThrownBy(() -> new GpuBackend(
                        HIP,
                        DEVICE,
                        0,
                        runtime,
                        () -> {
                            throw new IllegalStateException("hipRTC not found");
                        },
                        rt -> GemmChoice.select("hip.hipblaslt", "off", "hipBLASLt", () -> null),
                        BackendConfig.defaults()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("hipRTC not found");
        assertThat(runtime.calls).containsSubsequence("createStream", "hostFree", "destroyStream", "release");
    }
}
