package dev.audioengine.backend.hip;

import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.gpu.GpuException;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Lists the HIP devices the runtime exposes. HIP_VISIBLE_DEVICES (and ROCR_VISIBLE_DEVICES) are
 * applied by the runtime itself, so index i here is the i-th visible device, as with --device.
 */
final class HipDevices {
    /** Shown when the runtime's device-properties layout is not one this build knows. */
    static final String UNKNOWN_ARCH = "unknown";

    private HipDevices() {}

    /** Throws GpuException when a query fails (hipErrorNoDevice from the count on a machine without AMD GPUs). */
    static List<DeviceInfo> list(HipRuntime runtime) {
        try (Arena arena = Arena.ofConfined()) {
            int count = runtime.deviceCount(arena);
            List<DeviceInfo> devices = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                boolean integrated = runtime.attribute(arena, i, HipRuntime.HIP_DEVICE_ATTRIBUTE_INTEGRATED) != 0;
                devices.add(new DeviceInfo(
                        i,
                        runtime.deviceName(arena, i),
                        runtime.archName(arena, i).orElse(UNKNOWN_ARCH),
                        integrated ? DeviceKind.INTEGRATED_GPU : DeviceKind.DISCRETE_GPU,
                        runtime.totalMemory(arena, i),
                        freeMemoryOrUnknown(runtime, arena, i)));
            }
            return devices;
        }
    }

    /** -1 when the runtime cannot make the device current; the device is still listed. */
    private static long freeMemoryOrUnknown(HipRuntime runtime, Arena arena, int device) {
        try {
            return runtime.freeMemory(arena, device);
        } catch (GpuException e) {
            return -1;
        }
    }

    /** HIP_VERSION as "major.minor.patch": major * 10_000_000 + minor * 100_000 + patch. */
    static String versionName(int version) {
        return version / 10_000_000 + "." + (version / 100_000) % 100 + "." + version % 100_000;
    }

    static String gib(long bytes) {
        return bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
