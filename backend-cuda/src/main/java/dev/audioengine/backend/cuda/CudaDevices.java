package dev.audioengine.backend.cuda;

import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.gpu.GpuException;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

/** Lists the CUDA devices the driver exposes (after CUDA_VISIBLE_DEVICES, which the driver applies). */
final class CudaDevices {
    private CudaDevices() {}

    /** Needs cuInit done; throws GpuException when a query fails. */
    static List<DeviceInfo> list(CudaDriver driver) {
        try (Arena arena = Arena.ofConfined()) {
            int count = driver.deviceCount(arena);
            List<DeviceInfo> devices = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int device = driver.device(arena, i);
                int major = driver.attribute(arena, device, CudaDriver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
                int minor = driver.attribute(arena, device, CudaDriver.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
                boolean integrated = driver.attribute(arena, device, CudaDriver.CU_DEVICE_ATTRIBUTE_INTEGRATED) != 0;
                devices.add(new DeviceInfo(
                        i,
                        driver.deviceName(arena, device),
                        arch(major, minor),
                        integrated ? DeviceKind.INTEGRATED_GPU : DeviceKind.DISCRETE_GPU,
                        driver.totalMemory(arena, device),
                        freeMemoryOrUnknown(driver, arena, device)));
            }
            return devices;
        }
    }

    /** The nvcc/NVRTC architecture name of a compute capability: 9.0 is sm_90, 12.0 is sm_120. */
    static String arch(int major, int minor) {
        return "sm_" + major + minor;
    }

    /** -1 when no context can be made (e.g. compute mode "prohibited"); the device is still listed. */
    private static long freeMemoryOrUnknown(CudaDriver driver, Arena arena, int device) {
        try {
            return driver.freeMemory(arena, device);
        } catch (GpuException e) {
            return -1;
        }
    }

    /** "1.0 GiB" style, for reasons and listings. */
    static String gib(long bytes) {
        return bytes < 0 ? "unknown" : String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
