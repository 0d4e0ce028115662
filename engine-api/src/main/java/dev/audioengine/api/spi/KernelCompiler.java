package dev.audioengine.api.spi;

import dev.audioengine.api.BackendType;
import java.util.List;

/**
 * Compiles a GPU backend's kernel sources for a named architecture without needing a device, so a
 * machine with only the vendor's runtime can prove that every kernel compiles for that vendor
 * ({@code audioengine kernels compile --backend hip --arch gfx1030}). A service of its own, beside
 * {@link BackendProvider}: only backends that compile kernels at run time provide one. Constructing
 * one loads nothing.
 */
public interface KernelCompiler {

    BackendType type();

    /**
     * Loads the compiler and names it with its version and library, e.g. "hipRTC 5.2 (libamdhip64.so.5)";
     * throws IllegalStateException saying what was tried when it cannot be loaded.
     */
    String compilerName();

    /** The architectures this compiler can target, as its users spell them (e.g. gfx90a, gfx1030). */
    List<String> architectures();

    /** The kernel source files, e.g. "elementwise.cu", in the order they should be reported. */
    List<String> sources();

    /**
     * Compiles one of {@link #sources()} for {@code arch} and returns the code object. Throws
     * IllegalArgumentException for an architecture not in {@link #architectures()}, and
     * IllegalStateException carrying the compiler's log when the source does not compile.
     */
    byte[] compile(String source, String arch);
}
