package dev.audioengine.bench;

import dev.audioengine.api.spi.Backend;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * What every side-by-side bench needs: the thread counts to run at, timed runs per side (at
 * least 10 for the report), smoke mode, a filter on case shapes (tiny shapes that only prove the command works), the
 * peer (or why there is none), a way to open our backend with a given thread count, and a
 * progress line sink.
 */
public record BenchSettings(
        List<Integer> threads,
        int runs,
        boolean smoke,
        String only,
        OpenBlas.Lookup blas,
        IntFunction<Backend> openBackend,
        Consumer<String> progress) {
    public BenchSettings {
        if (threads.isEmpty()) throw new IllegalArgumentException("no thread counts to run at");
        if (runs < 1) throw new IllegalArgumentException("runs must be >= 1, got " + runs);
        threads = List.copyOf(threads);
    }

    /** Whether a case of this shape is selected (--only: a substring of the shape, e.g. "2048" or "k7"). */
    boolean selected(String shape) {
        return only == null || shape.contains(only);
    }

    /** The peer's name in results: the library, or a note that there is none. */
    String peerName() {
        return blas.blas().map(b -> "OpenBLAS sgemm").orElse("none");
    }
}
