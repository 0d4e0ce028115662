package dev.audioengine.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.runtime.OutParams;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Downcall handles for the few CUDA driver API entry points the probe needs (cuda.h). Versioned
 * names (_v2) are the ones cuda.h maps the plain names to since CUDA 11. Every call returns a
 * CUresult; {@link #check} turns a non-zero one into a {@link GpuException} named by cuGetErrorName.
 */
final class CudaDriver {
    static final int CUDA_SUCCESS = 0;
    // CUdevice_attribute values from cuda.h
    static final int CU_DEVICE_ATTRIBUTE_INTEGRATED = 18;
    static final int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
    static final int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
    static final int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;

    private final MethodHandle cuInit;
    private final MethodHandle cuDriverGetVersion;
    private final MethodHandle cuGetErrorName;
    private final MethodHandle cuDeviceGetCount;
    private final MethodHandle cuDeviceGet;
    private final MethodHandle cuDeviceGetName;
    private final MethodHandle cuDeviceGetAttribute;
    private final MethodHandle cuDeviceTotalMem;
    private final MethodHandle cuDevicePrimaryCtxRetain;
    private final MethodHandle cuDevicePrimaryCtxRelease;
    private final MethodHandle cuCtxPushCurrent;
    private final MethodHandle cuCtxPopCurrent;
    private final MethodHandle cuMemGetInfo;

    /** Binds every entry point; throws IllegalStateException naming the first missing symbol. */
    CudaDriver(SymbolLookup lib, String libraryName) {
        cuInit = bind(lib, libraryName, "cuInit", JAVA_INT);
        cuDriverGetVersion = bind(lib, libraryName, "cuDriverGetVersion", ADDRESS);
        cuGetErrorName = bind(lib, libraryName, "cuGetErrorName", JAVA_INT, ADDRESS);
        cuDeviceGetCount = bind(lib, libraryName, "cuDeviceGetCount", ADDRESS);
        cuDeviceGet = bind(lib, libraryName, "cuDeviceGet", ADDRESS, JAVA_INT);
        cuDeviceGetName = bind(lib, libraryName, "cuDeviceGetName", ADDRESS, JAVA_INT, JAVA_INT);
        cuDeviceGetAttribute = bind(lib, libraryName, "cuDeviceGetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
        cuDeviceTotalMem = bind(lib, libraryName, "cuDeviceTotalMem_v2", ADDRESS, JAVA_INT);
        cuDevicePrimaryCtxRetain = bind(lib, libraryName, "cuDevicePrimaryCtxRetain", ADDRESS, JAVA_INT);
        cuDevicePrimaryCtxRelease = bind(lib, libraryName, "cuDevicePrimaryCtxRelease_v2", JAVA_INT);
        cuCtxPushCurrent = bind(lib, libraryName, "cuCtxPushCurrent_v2", ADDRESS);
        cuCtxPopCurrent = bind(lib, libraryName, "cuCtxPopCurrent_v2", ADDRESS);
        cuMemGetInfo = bind(lib, libraryName, "cuMemGetInfo_v2", ADDRESS, ADDRESS);
    }

    private static MethodHandle bind(
            SymbolLookup lib, String libraryName, String name, java.lang.foreign.MemoryLayout... args) {
        MemorySegment symbol = lib.find(name)
                .orElseThrow(() -> new IllegalStateException(libraryName + " does not export " + name
                        + "; it is not the CUDA driver library" + " (or a driver older than CUDA 11)"));
        return Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, args));
    }

    /** cuGetErrorName, or "CUresult n" when the driver does not know the code. */
    String errorName(int result) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int r = (int) cuGetErrorName.invokeExact(result, out);
            MemorySegment name = out.get(ADDRESS, 0);
            if (r != CUDA_SUCCESS || name.equals(MemorySegment.NULL)) return "CUresult " + result;
            return name.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    void check(int result, String call) {
        GpuException.check(result, call, this::errorName);
    }

    void init() {
        try {
            check((int) cuInit.invokeExact(0), "cuInit");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** The driver's CUDA version, 1000 * major + 10 * minor (13000 = 13.0); needs no cuInit. */
    int driverVersion(Arena arena) {
        return intOut(arena, cuDriverGetVersion, "cuDriverGetVersion");
    }

    int deviceCount(Arena arena) {
        return intOut(arena, cuDeviceGetCount, "cuDeviceGetCount");
    }

    int device(Arena arena, int ordinal) {
        return OutParams.i32(arena, "cuDeviceGet(" + ordinal + ")", this::errorName, out ->
                (int) cuDeviceGet.invokeExact(out, ordinal));
    }

    String deviceName(Arena arena, int device) {
        return OutParams.string(arena, 256, "cuDeviceGetName", this::errorName, out ->
                (int) cuDeviceGetName.invokeExact(out, 256, device));
    }

    int attribute(Arena arena, int device, int attribute) {
        return OutParams.i32(arena, "cuDeviceGetAttribute(" + attribute + ")", this::errorName, out ->
                (int) cuDeviceGetAttribute.invokeExact(out, attribute, device));
    }

    long totalMemory(Arena arena, int device) {
        return OutParams.i64(
                arena, "cuDeviceTotalMem_v2", this::errorName, out -> (int) cuDeviceTotalMem.invokeExact(out, device));
    }

    /**
     * Free bytes on the device. The driver answers only inside a context, so this retains the
     * device's primary context (creating it if no one holds it: the expensive part, in time and
     * in device memory while it lives), makes it current on this thread for the
     * one call, then pops it and releases it; the caller's current context is left as it was.
     */
    long freeMemory(Arena arena, int device) {
        MemorySegment ctx = arena.allocate(ADDRESS);
        MemorySegment free = arena.allocate(JAVA_LONG);
        MemorySegment total = arena.allocate(JAVA_LONG);
        try {
            check((int) cuDevicePrimaryCtxRetain.invokeExact(ctx, device), "cuDevicePrimaryCtxRetain");
            try {
                check((int) cuCtxPushCurrent.invokeExact(ctx.get(ADDRESS, 0)), "cuCtxPushCurrent_v2");
                try {
                    check((int) cuMemGetInfo.invokeExact(free, total), "cuMemGetInfo_v2");
                } finally {
                    check((int) cuCtxPopCurrent.invokeExact(arena.allocate(ADDRESS)), "cuCtxPopCurrent_v2");
                }
            } finally {
                check((int) cuDevicePrimaryCtxRelease.invokeExact(device), "cuDevicePrimaryCtxRelease_v2");
            }
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
        return free.get(JAVA_LONG, 0);
    }

    private int intOut(Arena arena, MethodHandle handle, String call) {
        return OutParams.i32(arena, call, this::errorName, out -> (int) handle.invokeExact(out));
    }
}
