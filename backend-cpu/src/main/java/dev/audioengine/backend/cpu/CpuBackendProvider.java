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

    @Override
    public Backend open(int device, BackendConfig config) {
        if (device != 0) throw new BackendUnavailableException("the CPU backend has one device (0); --device " + device + " does not exist");
        return new CpuBackend(CpuDevice.describe(), config.resolvedThreads());
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
