package dev.audioengine.backend.hip;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.compile.GpuKernelCompiler;
import dev.audioengine.gpu.compile.KernelCompileException;
import dev.audioengine.gpu.compile.RuntimeCompiler;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * hipRTC: compiles the kernel sources (CUDA dialect, through gpu_compat.h) to an AMD GPU code object
 * for one gfx architecture at run time, through the compile flow it shares with NVRTC
 * ({@link RuntimeCompiler}); no device is needed to compile. ROCm 5 exports hipRTC from libamdhip64
 * itself; ROCm 6 and later ship it as libhiprtc.so.N next to it. Headers are handed over in memory,
 * so no include path is needed on the user's machine.
 */
final class HipRtc implements GpuKernelCompiler {
    /** Where ROCm 6+ keeps hipRTC; ROCm 5 has no such file (its symbols are in libamdhip64). */
    static final List<String> SONAMES = List.of("libhiprtc.so.7", "libhiprtc.so.6", "libhiprtc.so");

    private final RuntimeCompiler flow;
    private final MethodHandle errorString;
    private final String rocmVersion; // null when unknown
    private String version;

    private HipRtc(SymbolLookup lib, String location, String rocmVersion) {
        this.rocmVersion = rocmVersion;
        errorString = Linker.nativeLinker()
                .downcallHandle(
                        HipRuntime.symbol(
                                lib,
                                location,
                                "hiprtcGetErrorString",
                                "it is not hipRTC or its version is older than ROCm 5"),
                        FunctionDescriptor.of(ADDRESS, JAVA_INT));
        flow = new RuntimeCompiler(
                "hipRTC",
                location,
                "hiprtc",
                "Code",
                (name, args) -> HipRuntime.bind(
                        lib, location, name, "it is not hipRTC or its version is older than ROCm 5", args),
                this::errorName);
    }

    /**
     * hipRTC from the already loaded runtime when it exports hiprtcCreateProgram (ROCm 5), else
     * libhiprtc from the loader path or the ROCm folders; throws IllegalStateException saying
     * everything it tried.
     */
    static HipRtc load(NativeLibrary runtime, List<Path> folders) {
        return load(runtime, folders, null);
    }

    /** As {@link #load(NativeLibrary, List)}; {@code rocmVersion} joins the compiler version in the kernel cache key. */
    static HipRtc load(NativeLibrary runtime, List<Path> folders, String rocmVersion) {
        if (runtime.found() && runtime.symbols().find("hiprtcCreateProgram").isPresent()) {
            return new HipRtc(runtime.symbols(), runtime.location(), rocmVersion);
        }
        NativeLibrary separate = NativeLibrary.find(SONAMES, folders, "hiprtcCreateProgram");
        if (!separate.found()) {
            throw new IllegalStateException("hipRTC, which compiles the kernels, not found: "
                    + (runtime.found() ? runtime.location() + " does not export hiprtcCreateProgram and " : "")
                    + separate.searchReport()
                    + "; install ROCm's hiprtc package or put its lib folder on LD_LIBRARY_PATH");
        }
        return new HipRtc(separate.symbols(), separate.location(), rocmVersion);
    }

    /** The library the hipRTC entry points came from. */
    String location() {
        return flow.location();
    }

    /** "major.minor" hiprtcVersion reports (a fixed 9.0 on ROCm 5). */
    String rtcVersion() {
        return flow.version();
    }

    /** The cache key's compiler part: hipRTC's version and, since ROCm 5's hiprtcVersion never changes, the ROCm version. */
    @Override
    public synchronized String version() {
        if (version == null)
            version = "hipRTC " + flow.version() + (rocmVersion == null ? "" : " of ROCm " + rocmVersion);
        return version;
    }

    @Override
    public List<String> options(String arch) {
        return HipKernelCompiler.options(arch);
    }

    /** Compiles {@code source} with in-memory {@code headers}; a compile error throws {@link KernelCompileException} with hipRTC's log. */
    @Override
    public byte[] compile(String name, String source, Map<String, String> headers, List<String> options) {
        return flow.compile(name, source, headers, options);
    }

    String errorName(int r) {
        try {
            MemorySegment s = (MemorySegment) errorString.invokeExact(r);
            return s.equals(MemorySegment.NULL)
                    ? "hiprtcResult " + r
                    : s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }
}
