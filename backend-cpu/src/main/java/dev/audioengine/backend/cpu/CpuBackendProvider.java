package dev.audioengine.backend.cpu;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.ProbeResult;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/** Always available: the CPU this JVM runs on is its one device. */
public final class CpuBackendProvider implements BackendProvider {

    /** Verified by the conformance cases named in each capability's evidence (CPU vs float64 reference). */
    static final Set<Capability> VERIFIED = Set.copyOf(EnumSet.of(
            Capability.DEPTHWISE_CONV1D_FAST, Capability.CONV_TRANSPOSE1D_COL2IM, Capability.FUSED_ATTENTION,
            Capability.BF16_WEIGHTS, Capability.FAST_PROJECTION, Capability.DEVICE_ISTFT));

    @Override public String registryName() { return "CPU"; }

    @Override public BackendType type() { return BackendType.CPU; }

    @Override
    public ProbeResult probe() {
        return ProbeResult.available(List.of(CpuDevice.describe()), null);
    }

    @Override public Set<Capability> verifiedCapabilities() { return VERIFIED; }

    /**
     * Option key: {@code auto} (default) gives each op the threads its work calls for; {@code all}
     * splits every op over all threads and takes the thread count as given, not clamped to the
     * processors (for tests of the split code paths on small shapes and uneven chunks).
     */
    static final String OP_THREADS = "cpu.op-threads";

    private static final System.Logger LOG = System.getLogger("dev.audioengine.backend.cpu");

    @Override public Set<String> optionKeys() { return Set.of(OP_THREADS); }

    @Override
    public Backend open(int device, BackendConfig config) {
        if (device != 0) throw new BackendUnavailableException("the CPU backend has one device (0); --device " + device + " does not exist");
        String opThreads = config.option(OP_THREADS, "auto");
        if (!opThreads.equals("auto") && !opThreads.equals("all")) {
            throw new IllegalArgumentException("option " + OP_THREADS + " must be auto or all, got '" + opThreads + "'");
        }
        int processors = Runtime.getRuntime().availableProcessors();
        boolean all = opThreads.equals("all");
        int threads = all ? config.resolvedThreads() : workerThreads(config.resolvedThreads(), processors, warning -> LOG.log(System.Logger.Level.WARNING, warning));
        return new CpuBackend(CpuDevice.describe(), threads, all);
    }

    /**
     * The pool size for {@code asked} threads: at most the available processors, since threads
     * beyond them only wait for a core and add hand-off cost (5000 made a VAD run of a 7.5 s file
     * take 22.7 s); more than that is clamped, with a warning.
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
