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

    /**
     * The backend whose kernels this compiles.
     *
     * @return the type, as {@code --backend} names it
     */
    BackendType type();

    /**
     * Loads the compiler and names it with its version and library, e.g. "hipRTC 5.2 (libamdhip64.so.5)";
     * throws IllegalStateException saying what was tried when it cannot be loaded.
     *
     * @return a one-line description for reports
     * @throws IllegalStateException if the compiler library cannot be loaded; the message lists what was tried
     */
    String compilerName();

    /**
     * The architectures this compiler can target, as its users spell them (e.g. gfx90a, gfx1030).
     *
     * @return the names {@link #compile} accepts, in a stable order
     */
    List<String> architectures();

    /**
     * The kernel source files, e.g. "elementwise.cu", in the order they should be reported.
     *
     * @return file names as {@link #compile} takes them (one per op family)
     */
    List<String> sources();

    /**
     * Compiles one of {@link #sources()} for {@code arch} and returns the code object. Throws
     * IllegalArgumentException for an architecture not in {@link #architectures()}, and
     * IllegalStateException carrying the compiler's log when the source does not compile.
     *
     * @param source one of {@link #sources()}
     * @param arch one of {@link #architectures()}
     * @return the code object the runtime would load (for HIP, a code object for that gfx target)
     * @throws IllegalArgumentException if the architecture or source is unknown
     * @throws IllegalStateException if the compiler cannot be loaded or the source does not compile; the message
     *     carries the compiler's log
     */
    byte[] compile(String source, String arch);
}
