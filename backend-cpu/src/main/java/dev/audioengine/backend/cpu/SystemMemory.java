package dev.audioengine.backend.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads total and available memory and the CPU model from /proc where it exists. */
final class SystemMemory {
    private SystemMemory() {}

    /** {total, available} in bytes; the JVM's max heap for both when /proc/meminfo is missing. */
    static long[] read() {
        long total = -1, avail = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) total = kb(line);
                else if (line.startsWith("MemAvailable:")) avail = kb(line);
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        if (total < 0) total = Runtime.getRuntime().maxMemory();
        if (avail < 0) avail = total;
        return new long[] {total, avail};
    }

    static String cpuModel() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (String l : lines) {
                if (l.startsWith("model name"))
                    return l.substring(l.indexOf(':') + 1).trim();
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return System.getProperty("os.arch") + " CPU";
    }

    private static long kb(String line) {
        String[] parts = line.trim().split("\\s+");
        return Long.parseLong(parts[1]) * 1024;
    }
}
