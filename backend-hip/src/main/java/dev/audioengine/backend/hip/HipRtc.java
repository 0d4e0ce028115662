package dev.audioengine.backend.hip;

import dev.audioengine.api.spi.NativeLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * hipRTC: compiles the kernel sources (CUDA dialect, through gpu_compat.h) to an AMD GPU code object
 * for one gfx architecture at run time; no device is needed to compile. ROCm 5 exports hipRTC from
 * libamdhip64 itself; ROCm 6 and later ship it as libhiprtc.so.N next to it. Headers are handed over
 * in memory, so no include path is needed on the user's machine.
 */
final class HipRtc {
    /** Where ROCm 6+ keeps hipRTC; ROCm 5 has no such file (its symbols are in libamdhip64). */
    static final List<String> SONAMES = List.of("libhiprtc.so.7", "libhiprtc.so.6", "libhiprtc.so");
    static final int HIPRTC_SUCCESS = 0;

    private final String location;
    private final MethodHandle version, create, compile, logSize, log, codeSize, code, destroy, errorString;

    private HipRtc(SymbolLookup lib, String location) {
        this.location = location;
        version = bind(lib, "hiprtcVersion", ADDRESS, ADDRESS);
        create = bind(lib, "hiprtcCreateProgram", ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        compile = bind(lib, "hiprtcCompileProgram", ADDRESS, JAVA_INT, ADDRESS);
        logSize = bind(lib, "hiprtcGetProgramLogSize", ADDRESS, ADDRESS);
        log = bind(lib, "hiprtcGetProgramLog", ADDRESS, ADDRESS);
        codeSize = bind(lib, "hiprtcGetCodeSize", ADDRESS, ADDRESS);
        code = bind(lib, "hiprtcGetCode", ADDRESS, ADDRESS);
        destroy = bind(lib, "hiprtcDestroyProgram", ADDRESS);
        errorString = Linker.nativeLinker().downcallHandle(symbol(lib, "hiprtcGetErrorString"), FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /**
     * hipRTC from the already loaded runtime when it exports hiprtcCreateProgram (ROCm 5), else
     * libhiprtc from the loader path or the ROCm folders; throws IllegalStateException saying
     * everything it tried.
     */
    static HipRtc load(NativeLibrary runtime, List<Path> folders) {
        if (runtime.found() && runtime.symbols().find("hiprtcCreateProgram").isPresent()) {
            return new HipRtc(runtime.symbols(), runtime.location());
        }
        NativeLibrary separate = NativeLibrary.find(SONAMES, folders, "hiprtcCreateProgram");
        if (!separate.found()) {
            throw new IllegalStateException("hipRTC, which compiles the kernels, not found: "
                    + (runtime.found() ? runtime.location() + " does not export hiprtcCreateProgram and " : "")
                    + separate.searchReport() + "; install ROCm's hiprtc package or put its lib folder on LD_LIBRARY_PATH");
        }
        return new HipRtc(separate.symbols(), separate.location());
    }

    /** The library the hipRTC entry points came from. */
    String location() { return location; }

    /** "major.minor" of hipRTC. */
    String version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment major = a.allocate(JAVA_INT), minor = a.allocate(JAVA_INT);
            check((int) version.invokeExact(major, minor), "hiprtcVersion");
            return major.get(JAVA_INT, 0) + "." + minor.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw HipRuntime.rethrow(t);
        }
    }

    /**
     * Compiles {@code source} with in-memory {@code headers} (include name to text) and returns the
     * code object; a compile error throws {@link KernelCompileError} carrying hipRTC's log.
     */
    byte[] compile(String name, String source, Map<String, String> headers, List<String> options) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment prog = a.allocate(ADDRESS);
            MemorySegment hdrSrc = a.allocate(ADDRESS, Math.max(1, headers.size()));
            MemorySegment hdrNames = a.allocate(ADDRESS, Math.max(1, headers.size()));
            int i = 0;
            for (Map.Entry<String, String> h : headers.entrySet()) {
                hdrSrc.setAtIndex(ADDRESS, i, a.allocateFrom(h.getValue()));
                hdrNames.setAtIndex(ADDRESS, i, a.allocateFrom(h.getKey()));
                i++;
            }
            check((int) create.invokeExact(prog, a.allocateFrom(source), a.allocateFrom(name), headers.size(), hdrSrc, hdrNames),
                    "hiprtcCreateProgram");
            MemorySegment p = prog.get(ADDRESS, 0);
            try {
                MemorySegment opts = a.allocate(ADDRESS, Math.max(1, options.size()));
                for (int k = 0; k < options.size(); k++) opts.setAtIndex(ADDRESS, k, a.allocateFrom(options.get(k)));
                int r = (int) compile.invokeExact(p, options.size(), opts);
                if (r != HIPRTC_SUCCESS) throw new KernelCompileError(name, options, errorName(r), programLog(a, p));
                MemorySegment size = a.allocate(JAVA_LONG);
                check((int) codeSize.invokeExact(p, size), "hiprtcGetCodeSize");
                MemorySegment bin = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
                check((int) code.invokeExact(p, bin), "hiprtcGetCode");
                return bin.asSlice(0, size.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
            } finally {
                check((int) destroy.invokeExact(prog), "hiprtcDestroyProgram");
            }
        } catch (Throwable t) {
            throw HipRuntime.rethrow(t);
        }
    }

    /** A kernel source hipRTC refused: the message names the file, options and error; {@link #log()} is hipRTC's. */
    static final class KernelCompileError extends IllegalStateException {
        private final String log;

        KernelCompileError(String name, List<String> options, String error, String log) {
            super("hipRTC could not compile " + name + " with " + options + ": " + error + "\n" + log);
            this.log = log;
        }

        String log() { return log; }
    }

    private String programLog(Arena a, MemorySegment p) throws Throwable {
        MemorySegment size = a.allocate(JAVA_LONG);
        if ((int) logSize.invokeExact(p, size) != HIPRTC_SUCCESS) return "(no log)";
        MemorySegment text = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)) + 1);
        if ((int) log.invokeExact(p, text) != HIPRTC_SUCCESS) return "(no log)";
        return text.getString(0);
    }

    String errorName(int r) {
        try {
            MemorySegment s = (MemorySegment) errorString.invokeExact(r);
            return s.equals(MemorySegment.NULL) ? "hiprtcResult " + r : s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw HipRuntime.rethrow(t);
        }
    }

    private void check(int r, String call) {
        if (r != HIPRTC_SUCCESS) throw new IllegalStateException(call + " failed: " + errorName(r) + " (" + location + ")");
    }

    private MethodHandle bind(SymbolLookup lib, String name, MemoryLayout... args) {
        return Linker.nativeLinker().downcallHandle(symbol(lib, name), FunctionDescriptor.of(JAVA_INT, args));
    }

    private MemorySegment symbol(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new IllegalStateException(location + " does not export " + name
                + "; it is not hipRTC or its version is older than ROCm 5"));
    }
}
