package dev.audioengine.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The benchmarks' peer: OpenBLAS's {@code cblas_sgemm} through FFM, from the system's
 * libopenblas (Debian's libopenblas0 installs it as {@code libopenblas.so.0}). Only a library
 * that exports {@code openblas_get_config} is accepted, so a reference BLAS behind the generic
 * {@code libblas.so.3} name is never mistaken for OpenBLAS.
 */
public final class OpenBlas {
    private static final int ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112;
    /** Names tried in order: the soname (found through the loader's path), then Debian's multiarch paths. */
    static final List<String> CANDIDATES = List.of(
            "libopenblas.so.0",
            "libopenblas.so",
            "/usr/lib/x86_64-linux-gnu/libopenblas.so.0",
            "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
            "/usr/lib/aarch64-linux-gnu/libopenblas.so.0",
            "/usr/lib/aarch64-linux-gnu/openblas-pthread/libopenblas.so.0");

    private final String library;
    private final String config;
    private final MethodHandle sgemm, setThreads;

    private OpenBlas(String library, SymbolLookup lookup) throws Throwable {
        Linker linker = Linker.nativeLinker();
        this.library = library;
        MethodHandle getConfig = linker.downcallHandle(
                lookup.find("openblas_get_config").orElseThrow(), FunctionDescriptor.of(ValueLayout.ADDRESS));
        MemorySegment s = (MemorySegment) getConfig.invokeExact();
        this.config = s.reinterpret(256).getString(0).strip();
        ValueLayout.OfInt i = ValueLayout.JAVA_INT;
        this.sgemm = linker.downcallHandle(
                lookup.find("cblas_sgemm").orElseThrow(),
                FunctionDescriptor.ofVoid(
                        i,
                        i,
                        i,
                        i,
                        i,
                        i,
                        ValueLayout.JAVA_FLOAT,
                        ValueLayout.ADDRESS,
                        i,
                        ValueLayout.ADDRESS,
                        i,
                        ValueLayout.JAVA_FLOAT,
                        ValueLayout.ADDRESS,
                        i),
                Linker.Option.critical(false));
        this.setThreads = linker.downcallHandle(
                lookup.find("openblas_set_num_threads").orElseThrow(), FunctionDescriptor.ofVoid(i));
    }

    /** The result of looking for OpenBLAS: the library, or why there is none (every name tried). */
    public record Lookup(Optional<OpenBlas> blas, String why) {}

    /**
     * OpenBLAS's idle worker threads spin for about 2^28 cycles (a tenth of a second) before they
     * sleep; in an interleaved benchmark they would burn the cores our next run needs (measured
     * here: our 2-thread GEMM fell to 1-thread speed). 2^4 cycles makes them sleep at once, as our
     * pool's workers do. Read by OpenBLAS when it loads, so it is set before; a value the user
     * exported wins.
     */
    static final String THREAD_TIMEOUT = "4";

    /** Loads OpenBLAS once per call; the library stays loaded for the life of the process. */
    public static Lookup find() {
        List<String> tried = new ArrayList<>();
        setEnvIfAbsent("OPENBLAS_THREAD_TIMEOUT", THREAD_TIMEOUT);
        for (String name : CANDIDATES) {
            if (name.startsWith("/") && !Files.exists(Path.of(name))) {
                tried.add(name + " (absent)");
                continue;
            }
            try {
                SymbolLookup lookup = SymbolLookup.libraryLookup(name, Arena.global());
                if (lookup.find("openblas_get_config").isEmpty()) {
                    tried.add(name + " (not OpenBLAS)");
                    continue;
                }
                OpenBlas b = new OpenBlas(name, lookup);
                return new Lookup(Optional.of(b), "loaded " + name);
            } catch (Throwable e) {
                tried.add(name + " (" + e.getMessage() + ")");
            }
        }
        return new Lookup(
                Optional.empty(),
                "OpenBLAS not found (install Debian's libopenblas0); tried " + String.join(", ", tried));
    }

    private static void setEnvIfAbsent(String name, String value) {
        Linker linker = Linker.nativeLinker();
        try (Arena arena = Arena.ofConfined()) {
            MethodHandle setenv = linker.downcallHandle(
                    linker.defaultLookup().find("setenv").orElseThrow(),
                    FunctionDescriptor.of(
                            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
            int rc = (int) setenv.invokeExact(arena.allocateFrom(name), arena.allocateFrom(value), 0);
            if (rc != 0) throw new IllegalStateException("setenv(" + name + ") returned " + rc);
        } catch (Throwable e) {
            throw new IllegalStateException("could not set " + name + " for OpenBLAS: " + e.getMessage(), e);
        }
    }

    /** The spin timeout OpenBLAS runs with (see {@link #THREAD_TIMEOUT}); reads the process environment as native code sees it. */
    public String threadTimeout() {
        Linker linker = Linker.nativeLinker();
        try (Arena arena = Arena.ofConfined()) {
            MethodHandle getenv = linker.downcallHandle(
                    linker.defaultLookup().find("getenv").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            MemorySegment v = (MemorySegment) getenv.invokeExact(arena.allocateFrom("OPENBLAS_THREAD_TIMEOUT"));
            return v.equals(MemorySegment.NULL) ? "default" : v.reinterpret(64).getString(0);
        } catch (Throwable e) {
            return "unknown";
        }
    }

    public String library() {
        return library;
    }

    /** OpenBLAS's own description: version, build options, the core it chose. */
    public String config() {
        return config;
    }

    public void threads(int n) {
        try {
            setThreads.invokeExact(n);
        } catch (Throwable e) {
            throw new IllegalStateException("openblas_set_num_threads failed", e);
        }
    }

    /**
     * C[M, N] = op(A) · op(B), all row-major F32: op(A) = A stored {@code M x K}, or Aᵀ for A
     * stored {@code K x M} when {@code aTransposed}; op(B) = B stored {@code K x N}, or Bᵀ for B
     * stored {@code N x K} (the engine's matmul layout) when {@code bTransposed}.
     */
    public void sgemm(
            int m,
            int n,
            int k,
            boolean aTransposed,
            MemorySegment a,
            int lda,
            boolean bTransposed,
            MemorySegment b,
            int ldb,
            MemorySegment c,
            int ldc) {
        try {
            sgemm.invokeExact(
                    ROW_MAJOR,
                    aTransposed ? TRANS : NO_TRANS,
                    bTransposed ? TRANS : NO_TRANS,
                    m,
                    n,
                    k,
                    1f,
                    a,
                    lda,
                    b,
                    ldb,
                    0f,
                    c,
                    ldc);
        } catch (Throwable e) {
            throw new IllegalStateException("cblas_sgemm failed", e);
        }
    }
}
