package dev.audioengine.backend.hip;

import dev.audioengine.api.spi.NativeLibrary;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Where ROCm's HIP runtime (libamdhip64) lives: newer sonames first, each on the loader path, then
 * in /opt/rocm/lib, each versioned /opt/rocm-X.Y.Z/lib (newest first) and the distribution's
 * folder. The search itself is {@link NativeLibrary}'s.
 */
final class HipLibrary {
    static final List<String> SONAMES =
            List.of("libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so");

    /** Evaluated at probe time: the versioned ROCm folders present then. */
    static List<Path> defaultFolders() {
        return folders(Path.of("/opt"));
    }

    /** rocm/lib under {@code opt}, then each rocm-X.Y.Z/lib newest first, then the distribution's folder. */
    static List<Path> folders(Path opt) {
        List<Path> folders = new ArrayList<>();
        folders.add(opt.resolve("rocm/lib"));
        List<Path> versioned = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(opt, "rocm-*")) {
            for (Path dir : dirs) versioned.add(dir.resolve("lib"));
        } catch (IOException | SecurityException e) {
            // No /opt or unreadable: nothing versioned to add; the report still names the pattern below.
        }
        versioned.sort(Comparator.comparing(HipLibrary::versionKey).reversed());
        if (versioned.isEmpty()) folders.add(opt.resolve("rocm-*/lib"));
        folders.addAll(versioned);
        folders.add(Path.of("/usr/lib/x86_64-linux-gnu"));
        return folders;
    }

    /** rocm-6.10.0 after rocm-6.9.2: compares the numbers, zero-padded, not the text. */
    private static String versionKey(Path lib) {
        String version = lib.getParent().getFileName().toString().substring("rocm-".length());
        StringBuilder key = new StringBuilder();
        for (String part : version.split("[.-]")) {
            key.append(
                            part.chars().allMatch(Character::isDigit) && part.length() <= 8
                                    ? "0".repeat(8 - part.length()) + part
                                    : part)
                    .append('.');
        }
        return key.toString();
    }

    private HipLibrary() {}

    /** Loads the first of {@code sonames} found on the loader path or in {@code folders}; never throws. */
    static NativeLibrary find(List<String> sonames, List<Path> folders) {
        return NativeLibrary.find(sonames, folders, "hipGetDeviceCount");
    }
}
