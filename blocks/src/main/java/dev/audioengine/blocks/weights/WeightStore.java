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
    private final WeightSource source;
    private final DType weightType;
    private final Map<String, HostTensor> f32 = new LinkedHashMap<>();
    private final Map<String, HostTensor> converted = new LinkedHashMap<>();
    private final Map<String, HostTensor> derived = new LinkedHashMap<>();
    private final List<HostTensor> owned = new ArrayList<>();
    private boolean closed;

    private WeightStore(WeightSource source, DType weightType) {
        WeightConversion.resultType(DType.F32, dev.audioengine.api.tensor.Shape.of(32), weightType); // rejects a non-weight type now
        this.source = source;
        this.weightType = weightType;
    }

    /**
     * Opens a .onnx file, or a safetensors or GGUF file (told apart by their contents), for a
     * session whose matmul weights are {@code weightType}.
     */
    public static WeightStore open(Path file, DType weightType) throws IOException {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".onnx")) {
            OnnxModel model = OnnxModel.read(file);
            return new WeightStore(new OnnxWeightSource(model, file.toString(), true), weightType);
        }
        return new WeightStore(new FileWeightSource(WeightFiles.open(file), true), weightType);
    }

    /** Over an ONNX model the caller keeps open (and closes after this store). */
    public static WeightStore of(OnnxModel model, String source, DType weightType) {
        return new WeightStore(new OnnxWeightSource(model, source, false), weightType);
    }

    /** Over a safetensors or GGUF file the caller keeps open (and closes after this store). */
    public static WeightStore of(WeightFile file, DType weightType) {
        return new WeightStore(new FileWeightSource(file, false), weightType);
    }

    public DType weightType() { return weightType; }

    /** The scope of every name in the file. */
    public WeightScope scope() { return new WeightScope(this, ""); }

    /** Where the weights come from. */
    public String location() { return source.location(); }

    synchronized boolean has(String name) {
        check();
        return f32.containsKey(name) || raw(name, false) != null;
    }

    synchronized HostTensor f32(String name) {
        check();
        HostTensor t = f32.get(name);
        if (t != null) return t;
        HostTensor raw = raw(name, true);
        t = own(WeightConversion.converted(raw, DType.F32), raw);
        f32.put(name, t);
        return t;
    }

    synchronized HostTensor weight(String name) {
        check();
        HostTensor t = converted.get(name);
        if (t != null) return t;
        HostTensor base = f32.containsKey(name) ? f32.get(name) : raw(name, true);
        t = own(WeightConversion.converted(base, weightType), base);
        converted.put(name, t);
        return t;
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

    private final Map<String, HostTensor> rawCache = new LinkedHashMap<>();

    /** The tensor as the file gives it (any dtype); computed tensors are owned from here on. */
    private HostTensor raw(String name, boolean required) {
        HostTensor t = rawCache.get(name);
        if (t != null) return t;
        WeightSource.Lookup found = source.find(name);
        if (found == null) {
            if (!required) return null;
            throw new IllegalArgumentException("no weight '" + name + "' in " + source.location() + " (looked for " + source.triedFor(name)
                    + "); " + suggestions(name));
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
        List<String> names = source.names();
        String last = name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf('/')) + 1);
        List<String> similar = names.stream().filter(n -> n.contains(last)).limit(6).toList();
        return names.size() + " stored tensors" + (similar.isEmpty() ? names.isEmpty() ? "" : ", e.g. '" + names.getFirst() + "'"
                : ", those with '" + last + "' in their name include " + similar);
    }

    private void check() {
        if (closed) throw new IllegalStateException("the weight store of " + source.location() + " is closed");
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        owned.forEach(HostTensor::close);
        owned.clear();
        source.close();
    }
}
