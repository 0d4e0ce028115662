package dev.audioengine.backend.vulkan.ffm;

import dev.audioengine.api.spi.NativeLibrary;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the Vulkan loader lives (libvulkan, which in turn finds the installed drivers); the search
 * itself is {@link NativeLibrary}'s.
 */
public final class VulkanLibrary {
    public static final List<String> SONAMES = List.of("libvulkan.so.1", "libvulkan.so");
    public static final List<Path> FOLDERS = List.of(Path.of("/usr/lib/x86_64-linux-gnu"), Path.of("/usr/local/lib"));

    private VulkanLibrary() {}

    /** Loads the first of {@code sonames} found on the loader path or in {@code folders}; never throws. */
    public static NativeLibrary find(List<String> sonames, List<Path> folders) {
        return NativeLibrary.find(sonames, folders, "vkCreateInstance");
    }
}
