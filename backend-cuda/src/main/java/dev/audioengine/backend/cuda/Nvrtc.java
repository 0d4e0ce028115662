package dev.audioengine.backend.cuda;

import dev.audioengine.api.spi.NativeLibrary;

import java.lang.foreign.Arena;
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
 * NVRTC (libnvrtc): compiles CUDA C source to a CUBIN for one architecture at run time. Headers
 * are handed over in memory, so no include path is needed on the user's machine.
 */
final class Nvrtc {
    static final List<String> SONAMES = List.of("libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so");
    static final List<Path> FOLDERS = List.of(
            Path.of("/usr/local/cuda/lib64"),
            Path.of("/usr/local/cuda/targets/x86_64-linux/lib"),
            Path.of("/usr/lib/x86_64-linux-gnu"),
            Path.of("/usr/local/cuda/targets/sbsa-linux/lib"));

    private final String location;
    private final MethodHandle version, create, compile, logSize, log, cubinSize, cubin, destroy, errorString;

    private Nvrtc(SymbolLookup lib, String location) {
        this.location = location;
        version = Downcalls.bind(lib, location, "nvrtcVersion", ADDRESS, ADDRESS);
        create = Downcalls.bind(lib, location, "nvrtcCreateProgram", ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        compile = Downcalls.bind(lib, location, "nvrtcCompileProgram", ADDRESS, JAVA_INT, ADDRESS);
        logSize = Downcalls.bind(lib, location, "nvrtcGetProgramLogSize", ADDRESS, ADDRESS);
        log = Downcalls.bind(lib, location, "nvrtcGetProgramLog", ADDRESS, ADDRESS);
        cubinSize = Downcalls.bind(lib, location, "nvrtcGetCUBINSize", ADDRESS, ADDRESS);
        cubin = Downcalls.bind(lib, location, "nvrtcGetCUBIN", ADDRESS, ADDRESS);
        destroy = Downcalls.bind(lib, location, "nvrtcDestroyProgram", ADDRESS);
        errorString = java.lang.foreign.Linker.nativeLinker().downcallHandle(Downcalls.find(lib, location, "nvrtcGetErrorString"),
                java.lang.foreign.FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /** Loads libnvrtc; throws IllegalStateException listing every name and folder tried. */
    static Nvrtc load() {
        NativeLibrary lib = NativeLibrary.find(SONAMES, FOLDERS, "nvrtcVersion");
        if (!lib.found()) {
            throw new IllegalStateException("NVRTC not found (" + lib.searchReport() + "); install the CUDA toolkit's"
                    + " runtime compiler (cuda-nvrtc) or put its folder on LD_LIBRARY_PATH");
        }
        return new Nvrtc(lib.symbols(), lib.location());
    }

    String location() { return location; }

    /** "major.minor" of the loaded NVRTC. */
    String version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment major = a.allocate(JAVA_INT), minor = a.allocate(JAVA_INT);
            check((int) version.invokeExact(major, minor), "nvrtcVersion");
            return major.get(JAVA_INT, 0) + "." + minor.get(JAVA_INT, 0);
        } catch (Throwable t) { throw Downcalls.rethrow(t); }
    }

    /** Compiles {@code source} with in-memory {@code headers} (include name to text); returns the CUBIN. */
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
                    "nvrtcCreateProgram");
            MemorySegment p = prog.get(ADDRESS, 0);
            try {
                MemorySegment opts = a.allocate(ADDRESS, Math.max(1, options.size()));
                for (int k = 0; k < options.size(); k++) opts.setAtIndex(ADDRESS, k, a.allocateFrom(options.get(k)));
                int r = (int) compile.invokeExact(p, options.size(), opts);
                if (r != 0) {
                    throw new IllegalStateException("NVRTC could not compile " + name + " with " + options + ": "
                            + errorName(r) + "\n" + programLog(a, p));
                }
                MemorySegment size = a.allocate(JAVA_LONG);
                check((int) cubinSize.invokeExact(p, size), "nvrtcGetCUBINSize");
                MemorySegment bin = a.allocate(size.get(JAVA_LONG, 0));
                check((int) cubin.invokeExact(p, bin), "nvrtcGetCUBIN");
                return bin.toArray(JAVA_BYTE);
            } finally {
                check((int) destroy.invokeExact(prog), "nvrtcDestroyProgram");
            }
        } catch (Throwable t) { throw Downcalls.rethrow(t); }
    }

    private String programLog(Arena a, MemorySegment p) throws Throwable {
        MemorySegment size = a.allocate(JAVA_LONG);
        if ((int) logSize.invokeExact(p, size) != 0) return "(no log)";
        MemorySegment text = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)));
        if ((int) log.invokeExact(p, text) != 0) return "(no log)";
        return text.getString(0);
    }

    private String errorName(int r) {
        try {
            MemorySegment s = (MemorySegment) errorString.invokeExact(r);
            return s.equals(MemorySegment.NULL) ? "nvrtcResult " + r : s.reinterpret(256).getString(0);
        } catch (Throwable t) { throw Downcalls.rethrow(t); }
    }

    private void check(int r, String call) {
        if (r != 0) throw new IllegalStateException(call + " failed: " + errorName(r) + " (" + location + ")");
    }
}
