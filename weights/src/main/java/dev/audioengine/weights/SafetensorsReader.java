package dev.audioengine.weights;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.weights.json.JsonFormatException;
import dev.audioengine.weights.json.JsonObject;
import dev.audioengine.weights.json.StrictJson;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads safetensors: a u64 little-endian header length N, N bytes of JSON header mapping tensor
 * names to {"dtype", "shape", "data_offsets": [begin, end]} (offsets relative to the data
 * section at byte 8 + N) plus an optional "__metadata__" object of strings, then the data.
 */
final class SafetensorsReader {
    /** The safetensors reference implementation's header limit; anything larger is not a real file. */
    static final long MAX_HEADER_BYTES = 100_000_000L;

    private static final String METADATA_KEY = "__metadata__";

    private SafetensorsReader() {}

    static WeightFile read(Path file, Arena arena, MemorySegment mapped) throws WeightFormatException {
        ByteCursor in = new ByteCursor(file, mapped, 0);
        long headerLength = in.u64("safetensors header length");
        if (headerLength < 0 || headerLength > in.remaining()) {
            throw in.error(
                    0,
                    "header length " + Long.toUnsignedString(headerLength) + " exceeds the remaining " + in.remaining()
                            + " bytes of the file");
        }
        if (headerLength > MAX_HEADER_BYTES) {
            throw in.error(
                    0,
                    "header length " + headerLength + " exceeds safetensors' limit of " + MAX_HEADER_BYTES + " bytes");
        }
        if (headerLength < 2 || mapped.get(ValueLayout.JAVA_BYTE, 8) != '{') {
            throw in.error(8, "the JSON header must be an object starting with '{'");
        }
        byte[] header = mapped.asSlice(8, headerLength).toArray(ValueLayout.JAVA_BYTE);
        JsonObject root;
        try {
            root = (JsonObject) StrictJson.parse(header);
        } catch (JsonFormatException e) {
            throw new WeightFormatException(file, 8 + e.byteOffset(), "JSON header: " + e.problem());
        }
        long dataStart = 8 + headerLength;
        long dataSize = mapped.byteSize() - dataStart;

        Map<String, Object> metadata = new LinkedHashMap<>();
        Map<String, TensorInfo> tensors = new LinkedHashMap<>();
        for (String name : root.keys()) {
            long at = 8 + root.positionOf(name);
            Object entry = root.get(name);
            if (name.equals(METADATA_KEY)) {
                readMetadata(in, at, entry, metadata);
                continue;
            }
            if (!(entry instanceof JsonObject t))
                throw in.error(at, "entry for tensor '" + name + "' must be an object");
            DType dtype = dtype(in, at, t, name);
            long[] dims = shape(in, at, t, name);
            long byteSize = TensorExtents.byteSize(file, at, name, dtype, dims);
            long[] range = dataOffsets(in, at, t, name);
            if (range[0] > range[1] || range[1] > dataSize) {
                throw in.error(
                        at,
                        "data_offsets [" + range[0] + ", " + range[1] + "] of tensor '" + name
                                + "' are outside the data section of " + dataSize + " bytes");
            }
            if (range[1] - range[0] != byteSize) {
                throw in.error(
                        at,
                        "tensor '" + name + "' is " + dtype + " " + java.util.Arrays.toString(dims) + " = " + byteSize
                                + " bytes, but its data_offsets span " + (range[1] - range[0]));
            }
            tensors.put(name, new TensorInfo(name, dtype, new Shape(dims), dataStart + range[0], byteSize));
        }
        TensorExtents.checkNoOverlap(file, tensors.values());
        return new WeightFile(file, WeightFormat.SAFETENSORS, arena, mapped, tensors, metadata);
    }

    private static void readMetadata(ByteCursor in, long at, Object entry, Map<String, Object> out)
            throws WeightFormatException {
        if (!(entry instanceof JsonObject m)) throw in.error(at, METADATA_KEY + " must be an object of strings");
        for (String key : m.keys()) {
            if (!(m.get(key) instanceof String s)) {
                throw in.error(8 + m.positionOf(key), METADATA_KEY + " value for '" + key + "' must be a string");
            }
            out.put(key, s);
        }
    }

    private static DType dtype(ByteCursor in, long at, JsonObject t, String name) throws WeightFormatException {
        if (!(t.get("dtype") instanceof String s)) throw in.error(at, "tensor '" + name + "' needs a string \"dtype\"");
        return switch (s) {
            case "F32" -> DType.F32;
            case "F16" -> DType.F16;
            case "BF16" -> DType.BF16;
            case "I32" -> DType.I32;
            case "I8" -> DType.I8;
            default ->
                throw in.error(
                        8 + t.positionOf("dtype"),
                        "unsupported dtype " + s + " for tensor '" + name
                                + "'; the engine reads F32, F16, BF16, I32 and I8 (convert the file, e.g. F64 to F32)");
        };
    }

    private static long[] shape(ByteCursor in, long at, JsonObject t, String name) throws WeightFormatException {
        if (!(t.get("shape") instanceof List<?> list))
            throw in.error(at, "tensor '" + name + "' needs a \"shape\" array");
        if (list.size() > Shape.MAX_RANK) {
            throw in.error(
                    8 + t.positionOf("shape"),
                    "tensor '" + name + "' has rank " + list.size() + "; the engine supports at most " + Shape.MAX_RANK
                            + " dimensions");
        }
        long[] dims = new long[list.size()];
        for (int i = 0; i < dims.length; i++) {
            dims[i] = nonNegative(in, 8 + t.positionOf("shape"), list.get(i), "shape of tensor '" + name + "'");
        }
        return dims;
    }

    private static long[] dataOffsets(ByteCursor in, long at, JsonObject t, String name) throws WeightFormatException {
        if (!(t.get("data_offsets") instanceof List<?> list) || list.size() != 2) {
            throw in.error(at, "tensor '" + name + "' needs \"data_offsets\": [begin, end]");
        }
        long where = 8 + t.positionOf("data_offsets");
        return new long[] {
            nonNegative(in, where, list.get(0), "data_offsets of tensor '" + name + "'"),
            nonNegative(in, where, list.get(1), "data_offsets of tensor '" + name + "'")
        };
    }

    private static long nonNegative(ByteCursor in, long at, Object v, String what) throws WeightFormatException {
        if (v instanceof Long l && l >= 0) return l;
        throw in.error(at, what + " must hold integers from 0 to 2^63-1, found " + v);
    }
}
