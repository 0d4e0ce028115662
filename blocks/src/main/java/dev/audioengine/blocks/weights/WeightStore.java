package dev.audioengine.blocks.weights;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.weights.WeightConversion;
import dev.audioengine.weights.WeightFile;
import dev.audioengine.weights.WeightFiles;
import dev.audioengine.weights.onnx.OnnxModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The weights of one model file, loaded for one session: the owner of every tensor the blocks
 * read through its {@link #scope() scopes}. Each name is read, dequantized and converted once;
 * the same HostTensor comes back on every later request, so graphs built from it share one upload
 * per backend. Closing the store frees every tensor it made and unmaps the file; graphs compiled
 * from its tensors must be closed first.
 * <p>
 * {@code weightType} is the session's weight type (f32, f16, bf16 or q8_0) that matmul weights
 * are converted to at load (see {@link WeightConversion}); values read with
 * {@link WeightScope#tensor} stay F32.
 * <p>
 * Thread-safe: lookups are synchronized, and a tensor once returned is never changed or replaced
 * until {@link #close}.
 */
public final class WeightStore implements AutoCloseable {
    private final java.util.function.Supplier<WeightSource> opener;
    private final String location;
    private WeightSource source; // opened on the first lookup the prepared copy cannot answer
    private final DType weightType;
    private final Set<DType> kept; // stored types matmul weights keep as they are (see of(file, type, kept))
    private final Path sourcePath; // the file behind a prepared copy, or null
    private final PreparedWeights prepared; // where prepared copies live, or null
    private PreparedWeights.Loaded loaded; // the mapped prepared copy, or null
    private final List<PreparedWeights.Entry> recorded =
            new ArrayList<>(); // lookups made here, in order, for the next copy
    private boolean dirty; // the prepared copy must be (re)written at keepPrepared
    private boolean missed; // a lookup the prepared copy (if any) could not answer
    private final Map<String, HostTensor> f32 = new LinkedHashMap<>();
    private final Map<String, HostTensor> converted = new LinkedHashMap<>();
    private final Map<String, HostTensor> derived = new LinkedHashMap<>();
    private final List<HostTensor> owned = new ArrayList<>();
    private boolean closed;

    private WeightStore(WeightSource source, DType weightType) {
        this(source, weightType, Set.of());
    }

    private WeightStore(WeightSource source, DType weightType, Set<DType> kept) {
        this(() -> source, source.location(), weightType, null, null, kept);
        this.source = source;
    }

    private WeightStore(
            Supplier<WeightSource> opener,
            String location,
            DType weightType,
            Path sourcePath,
            PreparedWeights prepared) {
        this(opener, location, weightType, sourcePath, prepared, Set.of());
    }

    private WeightStore(
            Supplier<WeightSource> opener,
            String location,
            DType weightType,
            Path sourcePath,
            PreparedWeights prepared,
            Set<DType> kept) {
        this.kept = Set.copyOf(kept);
        WeightConversion.resultType(
                DType.F32, dev.audioengine.api.tensor.Shape.of(32), weightType); // rejects a non-weight type now
        this.opener = opener;
        this.location = location;
        this.weightType = weightType;
        this.sourcePath = sourcePath;
        this.prepared = prepared;
        if (prepared != null) {
            loaded = prepared.load(sourcePath, weightType);
            if (loaded != null) for (var byKind : loaded.entries.values()) recorded.addAll(byKind.values());
            // a touched source would otherwise be hashed again on every load: keep the copy under its new stamp
            dirty = loaded != null && loaded.restamp;
        }
    }

    /**
     * Opens a .onnx file, or a safetensors or GGUF file (told apart by their contents), for a
     * session whose matmul weights are {@code weightType}.
     */
    public static WeightStore open(Path file, DType weightType) throws IOException {
        return open(file, weightType, null);
    }

    /**
     * As {@link #open(Path, DType)}, serving lookups from the prepared copy of {@code file} in {@code prepared} when
     * there is a valid one (the file itself is then not even parsed), and keeping one there at {@link #keepPrepared}
     * when there is not. {@code prepared} null: no prepared copy.
     */
    public static WeightStore open(Path file, DType weightType, PreparedWeights prepared) throws IOException {
        if (prepared != null) {
            if (!java.nio.file.Files.isRegularFile(file)) throw new java.nio.file.NoSuchFileException(file.toString());
            return new WeightStore(
                    () -> {
                        try {
                            return openSource(file);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    },
                    file.toString(),
                    weightType,
                    file,
                    prepared);
        }
        return new WeightStore(openSource(file), weightType);
    }

    private static WeightSource openSource(Path file) throws IOException {
        String name =
                file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".onnx")) return new OnnxWeightSource(OnnxModel.read(file), file.toString(), true);
        return new FileWeightSource(WeightFiles.open(file), true);
    }

    /** Whether the source file was opened (parsed) at all: not while a prepared copy answers every lookup. */
    synchronized boolean sourceOpened() {
        return source != null;
    }

    /** Whether lookups were answered by a prepared copy (every one so far, when nothing else was read). */
    public synchronized boolean servedFromPrepared() {
        return loaded != null && !missed;
    }

    /**
     * Keeps a prepared copy of every lookup made so far, when this store has a prepared cache and made a lookup the
     * existing copy (if any) could not answer. Families call it once their weights are read; {@link #close} calls it
     * again for lookups made later (graphs built per shape). Best effort: a failure to write is logged.
     */
    public synchronized void keepPrepared() {
        if (prepared == null || !dirty || closed) return;
        prepared.write(sourcePath, weightType, List.copyOf(recorded));
        dirty = false;
    }

    /** Over an ONNX model the caller keeps open (and closes after this store). */
    public static WeightStore of(OnnxModel model, String source, DType weightType) {
        return new WeightStore(new OnnxWeightSource(model, source, false), weightType);
    }

    /** Over a safetensors or GGUF file the caller keeps open (and closes after this store). */
    public static WeightStore of(WeightFile file, DType weightType) {
        return new WeightStore(new FileWeightSource(file, false), weightType);
    }

    /**
     * As {@link #of(WeightFile, DType)}, with matmul weights stored in one of {@code kept} left in that type instead of
     * converted to {@code weightType}: the block types the engine's backend multiplies directly, which a model picks
     * from its effective capabilities (so a backend without a type's kernels gets F32, dequantized once at load).
     */
    public static WeightStore of(WeightFile file, DType weightType, Set<DType> kept) {
        return new WeightStore(new FileWeightSource(file, false), weightType, kept);
    }

    public DType weightType() {
        return weightType;
    }

    /** The scope of every name in the file. */
    public WeightScope scope() {
        return new WeightScope(this, "");
    }

    /** Where the weights come from. */
    public String location() {
        return location;
    }

    synchronized boolean has(String name) {
        check();
        if (f32.containsKey(name) || converted.containsKey(name)) return true;
        if (loaded != null) {
            for (PreparedWeights.Kind k : PreparedWeights.Kind.values()) {
                if (loaded.get(k, name) != null) return k != PreparedWeights.Kind.ABSENT;
            }
        }
        boolean present = raw(name, false) != null;
        record(present ? PreparedWeights.Kind.PRESENT : PreparedWeights.Kind.ABSENT, name, null);
        return present;
    }

    synchronized HostTensor f32(String name) {
        check();
        HostTensor t = f32.get(name);
        if (t != null) return t;
        t = fromPrepared(PreparedWeights.Kind.F32, name);
        if (t == null) {
            HostTensor raw = raw(name, true);
            t = own(WeightConversion.converted(raw, DType.F32), raw);
            record(PreparedWeights.Kind.F32, name, t);
        }
        f32.put(name, t);
        return t;
    }

    synchronized HostTensor weight(String name) {
        check();
        HostTensor t = converted.get(name);
        if (t != null) return t;
        t = fromPrepared(PreparedWeights.Kind.WEIGHT, name);
        if (t == null) {
            HostTensor base = f32.containsKey(name) ? f32.get(name) : raw(name, true);
            t = own(WeightConversion.converted(base, weightType, kept), base);
            record(PreparedWeights.Kind.WEIGHT, name, t);
        }
        converted.put(name, t);
        return t;
    }

    private HostTensor fromPrepared(PreparedWeights.Kind kind, String name) {
        if (loaded == null) return null;
        PreparedWeights.Entry e = loaded.get(kind, name);
        return e == null ? null : e.tensor();
    }

    private void record(PreparedWeights.Kind kind, String name, HostTensor t) {
        if (prepared == null) return;
        recorded.add(new PreparedWeights.Entry(kind, name, t));
        dirty = true;
        missed = true;
    }

    private WeightSource source() {
        if (source == null) {
            try {
                source = opener.get();
            } catch (java.io.UncheckedIOException e) {
                throw new IllegalStateException(
                        "cannot read " + location + ": " + e.getCause().getMessage(), e.getCause());
            }
        }
        return source;
    }

    /**
     * A constant derived from weights or shapes (a causal mask, a folded weight norm), made once
     * under {@code key} and owned by this store like the weights.
     */
    public synchronized HostTensor derived(String key, Supplier<HostTensor> make) {
        check();
        HostTensor t = derived.get(key);
        if (t == null) {
            t = make.get();
            derived.put(key, t);
            owned.add(t);
        }
        return t;
    }

    /**
     * A weight made from the file's weights (a stacked projection), kept in the prepared copy under {@code key} like
     * the file's own: a session served from the prepared copy maps it with the rest. Made in memory of its own, it
     * would be the one weight a kernel reads from another kind of segment than the mapped file's, and a CPU mat-vec
     * loop that meets two segment classes is compiled for both: measured on Moonshine tiny's decoder, every step 30 %
     * slower (docs/PERFORMANCE.md).
     */
    public synchronized HostTensor derivedWeight(String key, Supplier<HostTensor> make) {
        check();
        HostTensor t = converted.get(key);
        if (t != null) return t;
        t = fromPrepared(PreparedWeights.Kind.WEIGHT, key);
        if (t == null) {
            t = make.get();
            owned.add(t);
            record(PreparedWeights.Kind.WEIGHT, key, t);
        }
        converted.put(key, t);
        return t;
    }

    private final Map<String, HostTensor> rawCache = new LinkedHashMap<>();

    /** The tensor as the file gives it (any dtype); computed tensors are owned from here on. */
    private HostTensor raw(String name, boolean required) {
        HostTensor t = rawCache.get(name);
        if (t != null) return t;
        WeightSource.Lookup found = source().find(name);
        if (found == null) {
            if (!required) return null;
            throw new IllegalArgumentException("no weight '" + name + "' in " + location + " (looked for "
                    + source().triedFor(name) + "); " + suggestions(name));
        }
        if (found.owned()) owned.add(found.tensor());
        rawCache.put(name, found.tensor());
        return found.tensor();
    }

    private HostTensor own(HostTensor result, HostTensor from) {
        if (result != from) owned.add(result);
        return result;
    }

    private String suggestions(String name) {
        List<String> names = source().names();
        String last = name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf('/')) + 1);
        List<String> similar =
                names.stream().filter(n -> n.contains(last)).limit(6).toList();
        return names.size() + " stored tensors"
                + (similar.isEmpty()
                        ? names.isEmpty() ? "" : ", e.g. '" + names.getFirst() + "'"
                        : ", those with '" + last + "' in their name include " + similar);
    }

    private void check() {
        if (closed) throw new IllegalStateException("the weight store of " + location + " is closed");
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        keepPrepared();
        closed = true;
        owned.forEach(HostTensor::close);
        owned.clear();
        if (source != null) source.close();
        if (loaded != null) loaded.close();
    }
}
