package dev.audioengine.backend.cuda;

import dev.audioengine.api.spi.NativeLibrary;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the CUDA driver library lives (libcuda, shipped with the NVIDIA driver, not the toolkit);
 * the search itself is {@link NativeLibrary}'s.
 */
final class CudaLibrary {
    static final List<String> SONAMES = List.of("libcuda.so.1", "libcuda.so");
    static final List<Path> FOLDERS = List.of(
            Path.of("/usr/lib/x86_64-linux-gnu"),
            Path.of("/usr/local/cuda/compat"),
            Path.of("/usr/local/cuda/lib64"),
            Path.of("/usr/lib/wsl/lib"));

    private CudaLibrary() {}

    /** Loads the first of {@code sonames} found on the loader path or in {@code folders}; never throws. */
    static NativeLibrary find(List<String> sonames, List<Path> folders) {
        return NativeLibrary.find(sonames, folders, "cuInit");
    }
}
