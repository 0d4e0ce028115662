package dev.audioengine.backend.hip;

import java.io.IOException;
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
import java.util.List;
import java.util.Map;

/**
 * The shared kernel sources compiled by hipRTC for the device's gcnArchName (target features
 * included, e.g. gfx90a:sramecc+:xnack-), one module per source file, loaded on first use. Code
 * objects are cached on disk under a key made of the source and header text, the architecture, the
 * ROCm version and the options, so a changed kernel or runtime never meets a stale binary. Not
 * thread-safe: the backend serializes its use.
 */
final class HipKernelCache implements AutoCloseable {
    private final HipApi api;
    private final HipRtc rtc;
    private final String arch;
    private final String rocmVersion;
    private final Path dir; // null: no disk cache
    private final Map<String, MemorySegment> modules = new HashMap<>();
    private final Map<String, MemorySegment> functions = new HashMap<>();
    private int compiled, loadedFromDisk;

    HipKernelCache(HipApi api, HipRtc rtc, String arch, String rocmVersion, Path dir) {
        this.api = api;
        this.rtc = rtc;
        this.arch = arch;
        this.rocmVersion = rocmVersion;
        this.dir = dir;
    }

    /** The default cache folder: $AUDIOENGINE_CACHE/hip, else $XDG_CACHE_HOME/audioengine/hip, else ~/.cache/audioengine/hip. */
    static Path defaultDir() {
        String ae = System.getenv("AUDIOENGINE_CACHE");
        if (ae != null && !ae.isBlank()) return Path.of(ae, "hip");
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("audioengine").resolve("hip");
    }

    /** The hipFunction_t {@code kernel} of source file {@code source}, compiling or loading the module once. */
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
        byte[] code = codeObject(source);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment image = a.allocate(code.length + 1L, 16);
            MemorySegment.copy(code, 0, image, ValueLayout.JAVA_BYTE, 0, code.length);
            m = api.loadModule(image);
        }
        modules.put(source, m);
        return m;
    }

    private byte[] codeObject(String source) {
        String file = source + ".cu";
        String text = HipKernelSources.text(file);
        Map<String, String> headers = HipKernelSources.headers();
        List<String> options = HipKernelCompiler.options(arch);
        String key = key(text, headers, arch, rocmVersion, options);
        Path cached = dir == null ? null : dir.resolve(source + "-" + arch.replace(':', '_') + "-" + key + ".co");
        if (cached != null && Files.isRegularFile(cached)) {
            try {
                byte[] b = Files.readAllBytes(cached);
                loadedFromDisk++;
                return b;
            } catch (IOException e) {
                // unreadable cache entry: compile again and overwrite it below
            }
        }
        byte[] code = rtc.compile(file, text, headers, options);
        compiled++;
        if (cached != null) store(cached, code);
        return code;
    }

    /** Writes through a temporary file and a rename so a concurrent reader never sees half a code object. */
    private static void store(Path file, byte[] code) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            Files.write(tmp, code);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.getLogger("dev.audioengine.backend.hip").log(System.Logger.Level.WARNING,
                    "could not cache the compiled kernels in " + file.getParent() + ": " + e + " (they will be compiled again next time)");
        }
    }

    /** SHA-256 over everything that decides the code object. */
    static String key(String source, Map<String, String> headers, String arch, String rocmVersion, List<String> options) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            List<String> parts = new ArrayList<>(List.of(source, arch, rocmVersion, String.join(" ", options)));
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

    /** Compiles (or loads) every source now, so a later first run pays no compile time. */
    void warmAll() { for (String s : HipKernelSources.SOURCES) module(s); }

    int compiledCount() { return compiled; }

    int loadedFromDiskCount() { return loadedFromDisk; }

    @Override
    public void close() {
        for (MemorySegment m : modules.values()) api.unloadModule(m);
        modules.clear();
        functions.clear();
    }
}
