package dev.audioengine.gpu.compile;

import java.util.List;
import java.util.Map;

/** The vendor's runtime compiler (NVRTC, hipRTC): kernel source and architecture to a loadable code object. */
public interface GpuKernelCompiler {
    /** Compiler and version, part of the cache key so a changed toolkit never meets a stale binary. */
    String version();

    /** The options a source is compiled with for {@code arch}; part of the cache key too. */
    List<String> options(String arch);

    /** Compiles {@code source} (file {@code name}) with in-memory {@code headers}; a compile error throws {@link KernelCompileException}. */
    byte[] compile(String name, String source, Map<String, String> headers, List<String> options);

    /**
     * A code object for kernel source {@code source} (e.g. "elementwise") built ahead of time and shipped with the
     * backend, or null (the default) when there is none. {@link KernelCache} uses it only when {@code builtFrom}
     * names the text it now holds, so a jar of another build never runs stale kernels.
     *
     * @param image     what the driver loads (a fatbin: code for several architectures, and PTX for later ones)
     * @param builtFrom the lower-case hex sha256 of the source's text followed by every header's, in name order
     */
    record Prebuilt(byte[] image, String builtFrom) {}

    default Prebuilt prebuilt(String source) {
        return null;
    }
}
