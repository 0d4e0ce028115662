package dev.audioengine.gpu;

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
}
