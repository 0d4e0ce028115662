package dev.audioengine.weights.onnx;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * An ONNX ModelProto read from a memory-mapped file. Tensor bytes are slices of the mapping,
 * valid until {@link #close}.
 */
public final class OnnxModel implements AutoCloseable {
    private final Arena arena;
    private final long irVersion;
    private final String producer;
    private final Map<String, Long> opsets;
    private final OnnxGraph graph;

    OnnxModel(Arena arena, long irVersion, String producer, Map<String, Long> opsets, OnnxGraph graph) {
        this.arena = arena;
        this.irVersion = irVersion;
        this.producer = producer;
        this.opsets = Map.copyOf(opsets);
        this.graph = graph;
    }

    /** Maps and parses a file; a file that is not ONNX, truncated or hostile gives an {@link OnnxFormatException}. */
    public static OnnxModel read(Path file) throws IOException {
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) throw new OnnxFormatException(file + ": empty file, not an ONNX model");
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return OnnxReader.parse(seg, file.toString(), arena);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Parses bytes already in memory (tests, embedded models). */
    public static OnnxModel parse(byte[] bytes, String source) {
        if (bytes.length == 0) throw new OnnxFormatException(source + ": empty, not an ONNX model");
        return OnnxReader.parse(MemorySegment.ofArray(bytes), source, null);
    }

    public long irVersion() {
        return irVersion;
    }

    public String producer() {
        return producer;
    }

    /** Operator set versions by domain ("" is the default ONNX domain). */
    public Map<String, Long> opsets() {
        return opsets;
    }

    public OnnxGraph graph() {
        return graph;
    }

    @Override
    public void close() {
        if (arena != null) arena.close();
    }
}
