package dev.audioengine.gpu.compile;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.runtime.NativeBinder;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The compile flow NVRTC and hipRTC share, entry point for entry point (hipRTC mirrors NVRTC):
 * create a program with in-memory headers, compile, on failure fetch the log and throw with it,
 * else copy the code out; the program is destroyed either way.
 */
public final class RuntimeCompiler {
    private final String product;
    private final String location;
    private final String prefix, codeName;
    private final IntFunction<String> errorName;
    private final MethodHandle version, create, compile, logSize, log, codeSize, code, destroy;

    /**
     * @param prefix   "nvrtc" or "hiprtc": the entry points are prefix + CreateProgram, CompileProgram, ...
     * @param codeName what the code getters are called after "Get": "CUBIN" (nvrtcGetCUBIN) or "Code" (hiprtcGetCode)
     */
    public RuntimeCompiler(
            String product,
            String location,
            String prefix,
            String codeName,
            NativeBinder bind,
            IntFunction<String> errorName) {
        this.product = product;
        this.location = location;
        this.errorName = errorName;
        this.prefix = prefix;
        this.codeName = codeName;
        version = bind.bind(prefix + "Version", ADDRESS, ADDRESS);
        create = bind.bind(prefix + "CreateProgram", ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        compile = bind.bind(prefix + "CompileProgram", ADDRESS, JAVA_INT, ADDRESS);
        logSize = bind.bind(prefix + "GetProgramLogSize", ADDRESS, ADDRESS);
        log = bind.bind(prefix + "GetProgramLog", ADDRESS, ADDRESS);
        codeSize = bind.bind(prefix + "Get" + codeName + "Size", ADDRESS, ADDRESS);
        code = bind.bind(prefix + "Get" + codeName, ADDRESS, ADDRESS);
        destroy = bind.bind(prefix + "DestroyProgram", ADDRESS);
    }

    /** The library the entry points came from. */
    public String location() {
        return location;
    }

    /** "major.minor" the compiler reports. */
    public String version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment major = a.allocate(JAVA_INT), minor = a.allocate(JAVA_INT);
            check((int) version.invokeExact(major, minor), prefix + "Version");
            return major.get(JAVA_INT, 0) + "." + minor.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    /** Compiles {@code source} with in-memory {@code headers} (include name to text); returns the code object. */
    public byte[] compile(String name, String source, Map<String, String> headers, List<String> options) {
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
            check(
                    (int) create.invokeExact(
                            prog, a.allocateFrom(source), a.allocateFrom(name), headers.size(), hdrSrc, hdrNames),
                    prefix + "CreateProgram");
            MemorySegment p = prog.get(ADDRESS, 0);
            try {
                MemorySegment opts = a.allocate(ADDRESS, Math.max(1, options.size()));
                for (int k = 0; k < options.size(); k++) opts.setAtIndex(ADDRESS, k, a.allocateFrom(options.get(k)));
                int r = (int) compile.invokeExact(p, options.size(), opts);
                if (r != 0)
                    throw new KernelCompileException(product, name, options, errorName.apply(r), programLog(a, p));
                MemorySegment size = a.allocate(JAVA_LONG);
                check((int) codeSize.invokeExact(p, size), prefix + "Get" + codeName + "Size");
                long bytes = size.get(JAVA_LONG, 0);
                MemorySegment bin = a.allocate(Math.max(1, bytes));
                check((int) code.invokeExact(p, bin), prefix + "Get" + codeName);
                return bin.asSlice(0, bytes).toArray(JAVA_BYTE);
            } finally {
                check((int) destroy.invokeExact(prog), prefix + "DestroyProgram");
            }
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }

    private String programLog(Arena a, MemorySegment p) throws Throwable {
        MemorySegment size = a.allocate(JAVA_LONG);
        if ((int) logSize.invokeExact(p, size) != 0) return "(no log)";
        MemorySegment text = a.allocate(Math.max(1, size.get(JAVA_LONG, 0)) + 1);
        if ((int) log.invokeExact(p, text) != 0) return "(no log)";
        return text.getString(0);
    }

    private void check(int r, String step) {
        if (r != 0) throw new IllegalStateException(step + " failed: " + errorName.apply(r) + " (" + location + ")");
    }
}
