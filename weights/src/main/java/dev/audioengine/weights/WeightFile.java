package dev.audioengine.weights;

import dev.audioengine.api.tensor.HostTensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * An open, memory-mapped weight file. Every tensor was validated when the file was opened
 * (dtype, shape, data inside the file, no overlaps), so {@link #get} cannot fail on file
 * contents. Tensors are zero-copy views of the mapping: they stay usable only until this file
 * is closed, after which touching their data throws IllegalStateException.
 */
public final class WeightFile implements AutoCloseable {
    private final Path path;
    private final WeightFormat format;
    private final Arena arena;
    private final MemorySegment mapped;
    private final Map<String, TensorInfo> tensors;
    private final List<String> names;
    private final Map<String, Object> metadata;

    WeightFile(
            Path path,
            WeightFormat format,
            Arena arena,
            MemorySegment mapped,
            Map<String, TensorInfo> tensors,
            Map<String, Object> metadata) {
        this.path = path;
        this.format = format;
        this.arena = arena;
        this.mapped = mapped;
        this.tensors = Collections.unmodifiableMap(tensors);
        this.names = List.copyOf(tensors.keySet());
        this.metadata = Collections.unmodifiableMap(metadata);
    }

    public Path path() {
        return path;
    }

    public WeightFormat format() {
        return format;
    }

    /** Tensor names in the order the file lists them. */
    public List<String> names() {
        return names;
    }

    public boolean contains(String name) {
        return tensors.containsKey(name);
    }

    /** Name, dtype, shape and location of a tensor, without touching its data. */
    public TensorInfo info(String name) {
        TensorInfo t = tensors.get(name);
        if (t == null) {
            throw new IllegalArgumentException("no tensor '" + name + "' in " + path + " (" + names.size() + " tensors"
                    + (names.isEmpty() ? "" : ", e.g. '" + names.getFirst() + "'") + ")");
        }
        return t;
    }

    /**
     * The tensor as a view of the mapped file (no copy). Closing the returned tensor frees
     * nothing; the memory belongs to this file.
     */
    public HostTensor get(String name) {
        TensorInfo t = info(name);
        if (!arena.scope().isAlive()) throw new IllegalStateException("weight file " + path + " is closed");
        return HostTensor.wrap(t.dtype(), t.shape(), mapped.asSlice(t.fileOffset(), t.byteSize()));
    }

    /**
     * The file's metadata. safetensors: the {@code __metadata__} strings. GGUF: every key/value,
     * as String, Boolean, Float (FLOAT32), Double (FLOAT64), Byte (INT8), Short (INT16 and
     * UINT8), Integer (INT32 and UINT16), Long (INT64, UINT32, and UINT64 holding its raw 64
     * bits: use Long.toUnsignedString), or an immutable List of these for arrays (nested for
     * arrays of arrays). Strings are decoded as UTF-8, malformed bytes becoming U+FFFD. Values
     * are copies and stay valid after close.
     */
    public Map<String, Object> metadata() {
        return metadata;
    }

    /** Unmaps the file. Idempotent. */
    @Override
    public void close() {
        if (arena.scope().isAlive()) arena.close();
    }

    @Override
    public String toString() {
        return "WeightFile[" + format + " " + path + ", " + names.size() + " tensors]";
    }
}
