package dev.audioengine.backend.hip;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.runtime.OutParams;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Downcall handles for the few HIP runtime entry points the probe needs (hip_runtime_api.h).
 * Every call returns a hipError_t; {@link #check} turns a non-zero one into a {@link GpuException}
 * named by hipGetErrorName. hipGetDeviceProperties is avoided except to read gcnArchName: its
 * struct changed layout in ROCm 6 (hipDeviceProp_tR0600), see {@link #archName}.
 */
final class HipRuntime {
    static final int HIP_SUCCESS = 0;
    /** hipDeviceAttribute_t value, the same in ROCm 5, 6 and 7 (16th after EccEnabled = 0). */
    static final int HIP_DEVICE_ATTRIBUTE_INTEGRATED = 16;

    /** hipDeviceAttribute_t value (74th after EccEnabled = 0; counted in ROCm 5.2's hip_runtime_api.h, unchanged in 6 and 7). */
    static final int HIP_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 74;
    /** offsetof(hipDeviceProp_t, gcnArchName) in ROCm 5.x (checked with gcc against the 5.2 header). */
    static final long GCN_ARCH_NAME_OFFSET_R0000 = 396;
    /** offsetof(hipDeviceProp_tR0600, gcnArchName), the layout of ROCm 6 and 7 (checked with gcc). */
    static final long GCN_ARCH_NAME_OFFSET_R0600 = 1160;

    static final long GCN_ARCH_NAME_LENGTH = 256;
    /** Larger than either struct (792 and 1472 bytes), so a layout newer than we know cannot write past it. */
    static final long PROPERTIES_BUFFER_BYTES = 4096;
    /** A processor name and its target features, as in "gfx90a:sramecc+:xnack-" or "gfx1100". */
    private static final Pattern ARCH_NAME = Pattern.compile("gfx[0-9a-f]+(:[a-z0-9_]+[+-])*");

    private final MethodHandle hipRuntimeGetVersion;
    private final MethodHandle hipDriverGetVersion;
    private final MethodHandle hipGetErrorName;
    private final MethodHandle hipGetDeviceCount;
    private final MethodHandle hipDeviceGetName;
    private final MethodHandle hipDeviceGetAttribute;
    private final MethodHandle hipDeviceTotalMem;
    private final MethodHandle hipGetDevice;
    private final MethodHandle hipSetDevice;
    private final MethodHandle hipMemGetInfo;
    /** hipGetDevicePropertiesR0600 (ROCm 6+) or hipGetDeviceProperties (ROCm 5); empty if neither applies. */
    private final Optional<MethodHandle> getDeviceProperties;

    private final long gcnArchNameOffset;

    /** Binds every entry point; throws IllegalStateException naming the first missing symbol. */
    HipRuntime(SymbolLookup lib, String libraryName) {
        hipRuntimeGetVersion = bind(lib, libraryName, "hipRuntimeGetVersion", JAVA_INT, ADDRESS);
        hipDriverGetVersion = bind(lib, libraryName, "hipDriverGetVersion", JAVA_INT, ADDRESS);
        hipGetErrorName = bind(lib, libraryName, "hipGetErrorName", ADDRESS, JAVA_INT);
        hipGetDeviceCount = bind(lib, libraryName, "hipGetDeviceCount", JAVA_INT, ADDRESS);
        hipDeviceGetName = bind(lib, libraryName, "hipDeviceGetName", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT);
        hipDeviceGetAttribute = bind(lib, libraryName, "hipDeviceGetAttribute", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT);
        hipDeviceTotalMem = bind(lib, libraryName, "hipDeviceTotalMem", JAVA_INT, ADDRESS, JAVA_INT);
        hipGetDevice = bind(lib, libraryName, "hipGetDevice", JAVA_INT, ADDRESS);
        hipSetDevice = bind(lib, libraryName, "hipSetDevice", JAVA_INT, JAVA_INT);
        hipMemGetInfo = bind(lib, libraryName, "hipMemGetInfo", JAVA_INT, ADDRESS, ADDRESS);
        Optional<MemorySegment> r0600 = lib.find("hipGetDevicePropertiesR0600");
        Optional<MemorySegment> legacy = lib.find("hipGetDeviceProperties");
        FunctionDescriptor properties = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT);
        if (r0600.isPresent()) {
            getDeviceProperties = Optional.of(Linker.nativeLinker().downcallHandle(r0600.get(), properties));
            gcnArchNameOffset = GCN_ARCH_NAME_OFFSET_R0600;
        } else if (legacy.isPresent() && majorVersion() <= 5) {
            getDeviceProperties = Optional.of(Linker.nativeLinker().downcallHandle(legacy.get(), properties));
            gcnArchNameOffset = GCN_ARCH_NAME_OFFSET_R0000;
        } else {
            getDeviceProperties = Optional.empty();
            gcnArchNameOffset = -1;
        }
    }

    private static MethodHandle bind(
            SymbolLookup lib, String libraryName, String name, MemoryLayout result, MemoryLayout... args) {
        MemorySegment symbol = symbol(lib, libraryName, name, "it is not the ROCm HIP runtime (libamdhip64)");
        return Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(result, args));
    }

    /** {@code name} from {@code lib}, or IllegalStateException naming the library, the symbol and {@code why}. */
    static MemorySegment symbol(SymbolLookup lib, String libraryName, String name, String why) {
        return lib.find(name)
                .orElseThrow(() -> new IllegalStateException(libraryName + " does not export " + name + "; " + why));
    }

    /** Binds {@code name} returning a status int (hipError_t, hiprtcResult, hipblasStatus_t). */
    static MethodHandle bind(SymbolLookup lib, String libraryName, String name, String why, MemoryLayout... args) {
        return Linker.nativeLinker()
                .downcallHandle(symbol(lib, libraryName, name, why), FunctionDescriptor.of(JAVA_INT, args));
    }

    /** hipGetErrorName, or "hipError_t n" when the runtime gives no name. */
    String errorName(int error) {
        try {
            MemorySegment name = (MemorySegment) hipGetErrorName.invokeExact(error);
            return name.equals(MemorySegment.NULL)
                    ? "hipError_t " + error
                    : name.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    void check(int error, String call) {
        GpuException.check(error, call, this::errorName);
    }

    /** HIP_VERSION of the runtime: major * 10_000_000 + minor * 100_000 + patch (HIP 4.2 and later). */
    int runtimeVersion(Arena arena) {
        return intOut(arena, hipRuntimeGetVersion, "hipRuntimeGetVersion");
    }

    int driverVersion(Arena arena) {
        return intOut(arena, hipDriverGetVersion, "hipDriverGetVersion");
    }

    /** Respects HIP_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES, which the runtime applies. */
    int deviceCount(Arena arena) {
        return intOut(arena, hipGetDeviceCount, "hipGetDeviceCount");
    }

    String deviceName(Arena arena, int device) {
        return OutParams.string(arena, 256, "hipDeviceGetName", this::errorName, out ->
                (int) hipDeviceGetName.invokeExact(out, 256, device));
    }

    int attribute(Arena arena, int device, int attribute) {
        return OutParams.i32(arena, "hipDeviceGetAttribute(" + attribute + ")", this::errorName, out ->
                (int) hipDeviceGetAttribute.invokeExact(out, attribute, device));
    }

    long totalMemory(Arena arena, int device) {
        return OutParams.i64(
                arena, "hipDeviceTotalMem", this::errorName, out -> (int) hipDeviceTotalMem.invokeExact(out, device));
    }

    /** Free bytes: hipMemGetInfo answers for the current device, so switch to it and back. */
    long freeMemory(Arena arena, int device) {
        int previous = intOut(arena, hipGetDevice, "hipGetDevice");
        MemorySegment free = arena.allocate(JAVA_LONG);
        MemorySegment total = arena.allocate(JAVA_LONG);
        try {
            check((int) hipSetDevice.invokeExact(device), "hipSetDevice(" + device + ")");
            try {
                check((int) hipMemGetInfo.invokeExact(free, total), "hipMemGetInfo");
            } finally {
                check((int) hipSetDevice.invokeExact(previous), "hipSetDevice(" + previous + ")");
            }
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
        return free.get(JAVA_LONG, 0);
    }

    /**
     * gcnArchName (e.g. "gfx90a:sramecc+:xnack-") read from the properties struct at the offset of
     * the layout this runtime uses, into a buffer larger than any known layout; empty when the
     * runtime's layout is not one we know or the bytes found there do not look like an arch name.
     */
    Optional<String> archName(Arena arena, int device) {
        if (getDeviceProperties.isEmpty()) return Optional.empty();
        MemorySegment props = arena.allocate(PROPERTIES_BUFFER_BYTES, 8);
        try {
            check((int) getDeviceProperties.get().invokeExact(props, device), "hipGetDeviceProperties");
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
        return gcnArchNameAt(props, gcnArchNameOffset);
    }

    /** The NUL-terminated gcnArchName at {@code offset}, if it is one; empty for anything else. */
    static Optional<String> gcnArchNameAt(MemorySegment props, long offset) {
        MemorySegment field = props.asSlice(offset, GCN_ARCH_NAME_LENGTH);
        for (long i = 0; i < GCN_ARCH_NAME_LENGTH; i++) {
            if (field.get(JAVA_BYTE, i) == 0) {
                String name = field.getString(0);
                return ARCH_NAME.matcher(name).matches() ? Optional.of(name) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    private int majorVersion() {
        try (Arena arena = Arena.ofConfined()) {
            return runtimeVersion(arena) / 10_000_000;
        }
    }

    private int intOut(Arena arena, MethodHandle handle, String call) {
        return OutParams.i32(arena, call, this::errorName, out -> (int) handle.invokeExact(out));
    }
}
