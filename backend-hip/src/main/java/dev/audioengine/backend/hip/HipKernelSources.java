package dev.audioengine.backend.hip;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel sources HIP shares with CUDA. They live once, in backend-cuda's resources
 * (dev/audioengine/backend/cuda/kernels); this module's build copies them into its own
 * resources (kernels/ next to this class), so the HIP jar stands alone at run time.
 */
final class HipKernelSources {
    /** The kernel source files, each compiled to one code object (the same list as CUDA's KernelCache). */
    static final List<String> SOURCES = List.of("elementwise", "layout", "linear", "norm", "sequence", "spectral");
    /** The headers every source may include; gpu_compat.h holds every vendor difference. */
    static final List<String> HEADERS = List.of("gpu_compat.h", "ae_tensor.h");

    private HipKernelSources() {}

    static String text(String file) {
        try (InputStream in = HipKernelSources.class.getResourceAsStream("kernels/" + file)) {
            if (in == null) {
                throw new IllegalStateException("kernel resource kernels/" + file + " is missing from the HIP backend jar;"
                        + " it is copied from backend-cuda at build time, so rebuild backend-hip");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Include name to text, for hipRTC's in-memory headers. */
    static Map<String, String> headers() {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h : HEADERS) headers.put(h, text(h));
        return headers;
    }
}
