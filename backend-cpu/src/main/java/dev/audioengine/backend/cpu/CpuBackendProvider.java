package dev.audioengine.backend.cpu;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.InvalidOptionValueException;
import dev.audioengine.api.spi.ProbeResult;
import dev.audioengine.backend.cpu.kernels.linear.PanelCache;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/** Always available: the CPU this JVM runs on is its one device. */
public final class CpuBackendProvider implements BackendProvider {

    /** Verified by the conformance cases named in each capability's evidence (CPU vs float64 reference). */
    static final Set<Capability> VERIFIED = Set.copyOf(EnumSet.of(
            Capability.DEPTHWISE_CONV1D_FAST,
            Capability.CONV_TRANSPOSE1D_COL2IM,
            Capability.FUSED_ATTENTION,
            Capability.BF16_WEIGHTS,
            Capability.FAST_PROJECTION,
            Capability.DEVICE_ISTFT,
            Capability.Q5_0_WEIGHTS,
            Capability.Q5_1_WEIGHTS,
            Capability.Q4_1_WEIGHTS,
            Capability.Q6_K_WEIGHTS,
            Capability.Q4_K_WEIGHTS,
            Capability.Q5_K_WEIGHTS,
            Capability.Q3_K_WEIGHTS,
            Capability.Q2_K_WEIGHTS));

    @Override
    public String registryName() {
        return "CPU";
    }

    @Override
    public BackendType type() {
        return BackendType.CPU;
    }

    @Override
    public ProbeResult probe() {
        return ProbeResult.available(List.of(CpuDevice.describe()), null);
    }

    @Override
    public Set<Capability> verifiedCapabilities() {
        return VERIFIED;
    }

    /**
     * Option key: {@code auto} (default) gives each op the threads its work calls for; {@code all}
     * splits every op over all threads and takes the thread count as given, not clamped to the
     * processors (for tests of the split code paths on small shapes and uneven chunks).
     */
    static final String OP_THREADS = "cpu.op-threads";

    /**
     * Option key: the most megabytes of Java heap the backend spends on weights kept in the GEMM's layouts across graphs
     * (decoded quantized panels, few-row F32 panels, convolution spectra: {@code PanelCache}); {@code auto} (default)
     * is an eighth of the maximum heap, at most 512 (Kokoro's spectra alone are 220 MB, and in -Xmx1200m, where a long
     * text fits without them, a quarter ran out of heap). Past it, products pack per run and convolutions run directly.
     */
    static final String WEIGHT_CACHE_MB = "cpu.weight-cache-mb";

    private static final System.Logger LOG = System.getLogger("dev.audioengine.backend.cpu");

    @Override
    public Set<String> optionKeys() {
        return Set.of(OP_THREADS, WEIGHT_CACHE_MB);
    }

    @Override
    public Backend open(int device, BackendConfig config) {
        if (device != 0)
            throw new BackendUnavailableException(
                    "the CPU backend has one device (0); --device " + device + " does not exist");
        String opThreads = config.option(OP_THREADS, "auto");
        if (!opThreads.equals("auto") && !opThreads.equals("all")) {
            throw new InvalidOptionValueException(
                    "option " + OP_THREADS + " must be auto or all, got '" + opThreads + "'");
        }
        int processors = Runtime.getRuntime().availableProcessors();
        boolean all = opThreads.equals("all");
        int threads = all
                ? config.resolvedThreads()
                : workerThreads(
                        config.resolvedThreads(), processors, warning -> LOG.log(System.Logger.Level.WARNING, warning));
        long cacheBytes = weightCacheBytes(
                config.option(WEIGHT_CACHE_MB, "auto"), Runtime.getRuntime().maxMemory());
        return new CpuBackend(CpuDevice.describe(), threads, all, cacheBytes);
    }

    /** The cache budget for option value {@code value} in a JVM of {@code maxHeap} bytes. */
    static long weightCacheBytes(String value, long maxHeap) {
        if (value.equals("auto")) return Math.min(PanelCache.MAX_BYTES, maxHeap / 8);
        try {
            long mb = Long.parseLong(value);
            if (mb >= 0) return mb << 20;
        } catch (NumberFormatException e) {
            // falls through to the message
        }
        throw new InvalidOptionValueException("option " + WEIGHT_CACHE_MB
                + " must be auto or a number of megabytes (0 or more), got '" + value + "'");
    }

    /**
     * The pool size for {@code asked} threads: at most the available processors, since threads
     * beyond them only wait for a core and add hand-off cost (a VAD run with 5000 took several times
     * as long, docs/PERFORMANCE-cpu.md); more than that is clamped, with a warning.
     */
    static int workerThreads(int asked, int processors, Consumer<String> warn) {
        if (asked <= processors) return asked;
        warn.accept("CPU backend: " + asked + " threads asked for, but this machine has " + processors
                + " available processors; using " + processors);
        return processors;
    }

    /** Host facts for the device entry. */
    static final class CpuDevice {
        private CpuDevice() {}

        static DeviceInfo describe() {
            long[] mem = SystemMemory.read();
            String arch = System.getProperty("os.arch") + " " + SimdWidth.describe();
            return new DeviceInfo(0, SystemMemory.cpuModel(), arch, DeviceKind.CPU, mem[0], mem[1]);
        }
    }
}
