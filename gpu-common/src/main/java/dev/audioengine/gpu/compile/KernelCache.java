package dev.audioengine.gpu.compile;

import dev.audioengine.gpu.runtime.GpuRuntime;
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
 * The shared kernel sources ({@link KernelSources}) compiled by the vendor's runtime compiler for the
 * device's architecture, one module per source file, loaded on first use. Code objects are cached on
 * disk under a key made of the source and header text, the architecture, the compiler's version and
 * the options, so a changed kernel or toolkit never meets a stale binary. A code object the vendor
 * ships built ahead of time ({@link GpuKernelCompiler#prebuilt}: CUDA's fatbins) comes first when it was built
 * from the same text, so a first run on a new machine compiles nothing. Not thread-safe: the
 * backend serializes its use.
 */
public final class KernelCache implements AutoCloseable {
    private final GpuRuntime api;
    private final GpuKernelCompiler compiler;
    private final String arch;
    private final Path dir; // null: no disk cache
    private final Map<String, MemorySegment> modules = new HashMap<>();
    private final Map<String, MemorySegment> functions = new HashMap<>();
    private int compiled, loadedFromDisk, prebuilt;

    private final boolean usePrebuilt;

    KernelCache(GpuRuntime api, GpuKernelCompiler compiler, String arch, Path dir) {
        this(api, compiler, arch, dir, true);
    }

    public KernelCache(GpuRuntime api, GpuKernelCompiler compiler, String arch, Path dir, boolean usePrebuilt) {
        this.usePrebuilt = usePrebuilt;
        this.api = api;
        this.compiler = compiler;
        this.arch = arch;
        this.dir = dir;
    }

    /**
     * The default cache folder for a vendor ("cuda", "hip"): VENDOR under the engine's cache folder
     * ({@link dev.audioengine.api.CacheDirectory}: $AUDIOENGINE_CACHE, $XDG_CACHE_HOME/audioengine or $HOME/.cache/audioengine).
     */
    public static Path defaultDir(String vendor) {
        return dev.audioengine.api.CacheDirectory.resolve().resolve(vendor);
    }

    /** The function {@code kernel} of source file {@code source}, compiling or loading the module once. */
    public MemorySegment function(String source, String kernel) {
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
        byte[] code = code(source);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment image = a.allocate(code.length + 1L, 16);
            MemorySegment.copy(code, 0, image, ValueLayout.JAVA_BYTE, 0, code.length);
            m = api.loadModule(image);
        }
        modules.put(source, m);
        return m;
    }

    private byte[] code(String source) {
        String text = KernelSources.text(source + ".cu");
        Map<String, String> headers = KernelSources.headers();
        List<String> options = compiler.options(arch);
        GpuKernelCompiler.Prebuilt shipped = usePrebuilt ? compiler.prebuilt(source) : null;
        if (shipped != null && shipped.builtFrom().equals(textSha256(text, headers))) {
            prebuilt++;
            return shipped.image();
        }
        String key = key(text, headers, arch, compiler.version(), options);
        Path file = dir == null ? null : dir.resolve(source + "-" + arch.replace(':', '_') + "-" + key + ".bin");
        if (file != null && Files.isRegularFile(file)) {
            try {
                byte[] b = Files.readAllBytes(file);
                loadedFromDisk++;
                return b;
            } catch (IOException e) {
                // unreadable cache entry: compile again and overwrite it below
            }
        }
        byte[] bin = compiler.compile(source + ".cu", text, headers, options);
        compiled++;
        if (file != null) store(file, bin);
        return bin;
    }

    /** Writes through a temporary file and a rename so a concurrent reader never sees half a code object. */
    private static void store(Path file, byte[] bin) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            Files.write(tmp, bin);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.getLogger("dev.audioengine.gpu")
                    .log(
                            System.Logger.Level.WARNING,
                            "could not cache the compiled kernels in " + file.getParent() + ": " + e
                                    + " (they will be compiled again next time)");
        }
    }

    /** SHA-256 over everything that decides the binary. */
    static String key(
            String source, Map<String, String> headers, String arch, String compilerVersion, List<String> options) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            List<String> parts = new ArrayList<>(List.of(source, arch, compilerVersion, String.join(" ", options)));
            headers.forEach((k, v) -> {
                parts.add(k);
                parts.add(v);
            });
            for (String p : parts) {
                md.update(p.getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            }
            return HexFormat.of().formatHex(md.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** sha256 of a source's text followed by every header's in name order, as scripts/gpu/cuda-kernels writes it. */
    public static String textSha256(String source, Map<String, String> headers) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(source.getBytes(StandardCharsets.UTF_8));
            for (String name : new java.util.TreeMap<>(headers).keySet())
                md.update(headers.get(name).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public int compiledCount() {
        return compiled;
    }

    /** Modules loaded from code the backend shipped (no compiler run). */
    public int prebuiltCount() {
        return prebuilt;
    }

    public int loadedFromDiskCount() {
        return loadedFromDisk;
    }

    @Override
    public void close() {
        for (MemorySegment m : modules.values()) api.unloadModule(m);
        modules.clear();
        functions.clear();
    }
}
