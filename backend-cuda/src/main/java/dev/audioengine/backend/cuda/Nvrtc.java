package dev.audioengine.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.audioengine.api.spi.NativeLibrary;
import dev.audioengine.gpu.GpuException;
import dev.audioengine.gpu.compile.GpuKernelCompiler;
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
 * NVRTC (libnvrtc): compiles CUDA C source to a CUBIN for one architecture at run time, through
 * the compile flow it shares with hipRTC ({@link RuntimeCompiler}). Headers are handed over in
 * memory, so no include path is needed on the user's machine.
 */
final class Nvrtc implements GpuKernelCompiler {
    static final List<String> SONAMES = List.of("libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so");
    static final List<Path> FOLDERS = List.of(
            Path.of("/usr/local/cuda/lib64"),
            Path.of("/usr/local/cuda/targets/x86_64-linux/lib"),
            Path.of("/usr/lib/x86_64-linux-gnu"),
            Path.of("/usr/local/cuda/targets/sbsa-linux/lib"));

    private final RuntimeCompiler flow;
    private final MethodHandle errorString;
    private String version;

    private Nvrtc(SymbolLookup lib, String location) {
        errorString = Linker.nativeLinker()
                .downcallHandle(
                        Downcalls.find(lib, location, "nvrtcGetErrorString"), FunctionDescriptor.of(ADDRESS, JAVA_INT));
        flow = new RuntimeCompiler(
                "NVRTC",
                location,
                "nvrtc",
                "CUBIN",
                (name, args) -> Downcalls.bind(lib, location, name, args),
                this::errorName);
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

    String location() {
        return flow.location();
    }

    /** "major.minor" of the loaded NVRTC (the cache key part). */
    @Override
    public synchronized String version() {
        if (version == null) version = flow.version();
        return version;
    }

    @Override
    public List<String> options(String arch) {
        return List.of("--gpu-architecture=" + arch, "--std=c++17");
    }

    /**
     * The fatbin scripts/gpu/cuda-kernels built for {@code source} at this jar's build (SASS for sm_75 to sm_120, PTX
     * for later architectures), with the hash of the text it was built from; null when the build had no nvcc.
     */
    @Override
    public Prebuilt prebuilt(String source) {
        return prebuiltOf(source);
    }

    static Prebuilt prebuiltOf(String source) {
        String built = Prebuilts.MANIFEST.get(source);
        if (built == null) return null;
        try (java.io.InputStream in = Nvrtc.class.getResourceAsStream("kernels/" + source + ".fatbin")) {
            return in == null ? null : new Prebuilt(in.readAllBytes(), built);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** kernels/manifest: "name sha256" per source, read once. */
    private static final class Prebuilts {
        static final Map<String, String> MANIFEST = read();

        private static Map<String, String> read() {
            try (java.io.InputStream in = Nvrtc.class.getResourceAsStream("kernels/manifest")) {
                if (in == null) return Map.of();
                Map<String, String> m = new java.util.HashMap<>();
                for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                    String[] f = line.strip().split(" ");
                    if (f.length == 2 && !line.startsWith("#")) m.put(f[0], f[1]);
                }
                return Map.copyOf(m);
            } catch (java.io.IOException e) {
                return Map.of();
            }
        }
    }

    /** Compiles {@code source} with in-memory {@code headers} (include name to text); returns the CUBIN. */
    @Override
    public byte[] compile(String name, String source, Map<String, String> headers, List<String> options) {
        return flow.compile(name, source, headers, options);
    }

    private String errorName(int r) {
        try {
            MemorySegment s = (MemorySegment) errorString.invokeExact(r);
            return s.equals(MemorySegment.NULL)
                    ? "nvrtcResult " + r
                    : s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw GpuException.unchecked(t);
        }
    }
}
