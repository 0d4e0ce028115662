package dev.audioengine.backend.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel sources (resources kernels/*.cu plus the shared headers) compiled by NVRTC for the
 * device's architecture, one module per source file, loaded on first use. CUBINs are cached on
 * disk under a key made of the source and header text, the architecture, the NVRTC version and
 * the options, so a changed kernel or toolkit never meets a stale binary. Not thread-safe: the
 * backend serializes its use.
 */
final class KernelCache implements AutoCloseable {
    /** The kernel source files, each compiled to one module. */
    static final List<String> SOURCES = List.of("elementwise", "layout", "linear", "norm", "sequence", "spectral");
    /** The headers every source may include; gpu_compat.h is the one that holds vendor differences. */
    static final List<String> HEADERS = List.of("gpu_compat.h", "ae_tensor.h");

    private final DriverApi api;
    private final Nvrtc nvrtc;
    private final String arch;
    private final Path dir; // null: no disk cache
    private final Map<String, MemorySegment> modules = new HashMap<>();
    private final Map<String, MemorySegment> functions = new HashMap<>();
    private int compiled, loadedFromDisk;

    KernelCache(DriverApi api, Nvrtc nvrtc, String arch, Path dir) {
        this.api = api;
        this.nvrtc = nvrtc;
        this.arch = arch;
        this.dir = dir;
    }

    /** The default cache folder: $AUDIOENGINE_CACHE/cuda, else $XDG_CACHE_HOME/audioengine/cuda, else ~/.cache/audioengine/cuda. */
    static Path defaultDir() {
        String ae = System.getenv("AUDIOENGINE_CACHE");
        if (ae != null && !ae.isBlank()) return Path.of(ae, "cuda");
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("audioengine").resolve("cuda");
    }

    static String resource(String file) {
        try (InputStream in = KernelCache.class.getResourceAsStream("kernels/" + file)) {
            if (in == null) throw new IllegalStateException("kernel source kernels/" + file + " is missing from the backend-cuda jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> options() {
        return List.of("--gpu-architecture=" + arch, "--std=c++17");
    }

    /** The CUfunction {@code kernel} of source file {@code source}, compiling or loading the module once. */
    MemorySegment function(String source, String kernel) {
        String key = source + "/" + kernel;
        MemorySegment f = functions.get(key);
        if (f == null) {
            f = api.function(module(source), kernel);
            functions.put(key, f);
        }
        return f;
    }

    private MemorySegment module(String source) {
        MemorySegment m = modules.get(source);
        if (m != null) return m;
        byte[] cubin = cubin(source);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment image = a.allocate(cubin.length + 1L, 16);
            MemorySegment.copy(cubin, 0, image, ValueLayout.JAVA_BYTE, 0, cubin.length);
            m = api.loadModule(image);
        }
        modules.put(source, m);
        return m;
    }

    private byte[] cubin(String source) {
        String text = resource(source + ".cu");
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h : HEADERS) headers.put(h, resource(h));
        String nvrtcVersion = nvrtc.version();
        String key = key(text, headers, arch, nvrtcVersion, options());
        Path file = dir == null ? null : dir.resolve(source + "-" + arch + "-" + key + ".cubin");
        if (file != null && Files.isRegularFile(file)) {
            try {
                byte[] b = Files.readAllBytes(file);
                loadedFromDisk++;
                return b;
            } catch (IOException e) {
                // unreadable cache entry: compile again and overwrite it below
            }
        }
        byte[] bin = nvrtc.compile(source + ".cu", text, headers, options());
        compiled++;
        if (file != null) store(file, bin);
        return bin;
    }

    /** Writes through a temporary file and a rename so a concurrent reader never sees half a CUBIN. */
    private static void store(Path file, byte[] bin) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            Files.write(tmp, bin);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.getLogger("dev.audioengine.backend.cuda").log(System.Logger.Level.WARNING,
                    "could not cache the compiled kernels in " + file.getParent() + ": " + e + " (they will be compiled again next time)");
        }
    }

    /** SHA-256 over everything that decides the binary. */
    static String key(String source, Map<String, String> headers, String arch, String nvrtcVersion, List<String> options) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            List<String> parts = new ArrayList<>(List.of(source, arch, nvrtcVersion, String.join(" ", options)));
            headers.forEach((k, v) -> { parts.add(k); parts.add(v); });
            for (String p : parts) {
                md.update(p.getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            return HexFormat.of().formatHex(md.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    int compiledCount() { return compiled; }

    int loadedFromDiskCount() { return loadedFromDisk; }

    @Override
    public void close() {
        for (MemorySegment m : modules.values()) api.unloadModule(m);
        modules.clear();
        functions.clear();
    }
}
