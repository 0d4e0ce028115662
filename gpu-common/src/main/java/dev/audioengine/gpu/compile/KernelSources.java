package dev.audioengine.gpu.compile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel sources CUDA and HIP share (resources under {@value #DIR}): each .cu file is
 * compiled to one module; the headers are handed to the runtime compiler in memory.
 */
public final class KernelSources {
    /** The kernel source files (without .cu), each compiled to one module. */
    public static final List<String> SOURCES =
            List.of("elementwise", "layout", "linear", "reduction", "sequence", "spectral");
    /** The headers every source may include; gpu_compat.h is the one that holds vendor differences. */
    public static final List<String> HEADERS = List.of("gpu_compat.h", "ae_tensor.h");
    /** Where the sources lie in the gpu-common jar (gpu-common/src/main/resources), which scripts/gpu/cuda-kernels reads too. */
    static final String DIR = "/dev/audioengine/gpu/kernels/";

    private KernelSources() {}

    /** The text of a source ("reduction.cu") or header ("gpu_compat.h"). */
    public static String text(String file) {
        try (InputStream in = KernelSources.class.getResourceAsStream(DIR + file)) {
            if (in == null) {
                throw new IllegalStateException(
                        "kernel source kernels/" + file + " is missing from the gpu-common jar (the sources are "
                                + SOURCES.stream().map(s -> s + ".cu").toList() + " and " + HEADERS + ")");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Include name to text, in {@link #HEADERS} order. */
    public static Map<String, String> headers() {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h : HEADERS) headers.put(h, text(h));
        return headers;
    }
}
