package dev.audioengine.weights;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads GGUF v2/v3: magic "GGUF", u32 version, u64 tensor count, u64 metadata count, the
 * metadata key/values, the tensor infos (name, u32 n_dims, u64 ne[n_dims] innermost first,
 * u32 ggml type, u64 offset), then the tensor data, which starts at the next multiple of
 * {@code general.alignment} (default 32). All integers are little-endian.
 */
final class GgufReader {
    static final int MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
    private static final int DEFAULT_ALIGNMENT = 32;
    private static final int MAX_ARRAY_NESTING = 16;
    /**
     * Caps on entry counts that cost far more heap than file bytes (a tensor info is 24 bytes
     * in the file but hundreds on the heap), so a hostile file cannot exhaust memory. Real
     * models have thousands of tensors and a few dozen keys.
     */
    static final int MAX_ENTRIES = 1 << 20;

    private static final int MIN_TENSOR_INFO_BYTES = 8 + 4 + 4 + 8; // empty name, n_dims, type, offset
    private static final int MIN_KV_BYTES = 8 + 4 + 1; // empty key, type, one-byte value

    private GgufReader() {}

    static WeightFile read(Path file, Arena arena, MemorySegment mapped) throws WeightFormatException {
        ByteCursor in = new ByteCursor(file, mapped, 0);
        int magic = in.u32("GGUF magic");
        if (magic != MAGIC) {
            throw in.error(
                    0,
                    String.format(
                            "not a GGUF file: it starts with %08x, GGUF files start with 'GGUF'",
                            Integer.reverseBytes(magic)));
        }
        int version = in.u32("GGUF version");
        if (version == 1) {
            throw in.error(
                    4,
                    "GGUF version 1 is not supported (it used 32-bit counts); re-convert the model with a current GGUF writer");
        }
        if (version != 2 && version != 3) {
            int swapped = Integer.reverseBytes(version);
            String hint = swapped >= 1 && swapped <= 3
                    ? " (this looks like a big-endian GGUF file, which is not supported)"
                    : "";
            throw in.error(
                    4,
                    "unsupported GGUF version " + Integer.toUnsignedString(version) + hint
                            + "; this reader knows versions 2 and 3");
        }
        long tensorCount = in.count("tensor count", MIN_TENSOR_INFO_BYTES);
        long kvCount = in.count("metadata key/value count", MIN_KV_BYTES);
        if (tensorCount > MAX_ENTRIES)
            throw in.error(
                    8, "tensor count " + tensorCount + " is more than the " + MAX_ENTRIES + " this reader supports");
        if (kvCount > MAX_ENTRIES)
            throw in.error(
                    16, "metadata count " + kvCount + " is more than the " + MAX_ENTRIES + " this reader supports");

        Map<String, Object> metadata = new LinkedHashMap<>();
        int alignment = DEFAULT_ALIGNMENT;
        for (long i = 0; i < kvCount; i++) {
            long keyAt = in.position();
            String key = in.string("metadata key #" + i);
            long typeAt = in.position();
            int typeId = in.u32("value type of metadata '" + key + "'");
            GgufValueType type = GgufValueType.byId(typeId);
            if (type == null)
                throw in.error(
                        typeAt, "metadata '" + key + "' has unknown value type " + Integer.toUnsignedString(typeId));
            Object value = readValue(in, type, "metadata '" + key + "'", 0);
            if (metadata.putIfAbsent(key, value) != null)
                throw in.error(keyAt, "metadata key '" + key + "' appears twice");
            if (key.equals("general.alignment")) alignment = alignment(in, keyAt, type, value);
        }

        Map<String, TensorInfo> tensors = new LinkedHashMap<>();
        long[] relativeOffsets = new long[(int) tensorCount];
        long[] infoPositions = new long[relativeOffsets.length];
        for (int i = 0; i < tensorCount; i++) {
            long infoAt = in.position();
            infoPositions[i] = infoAt;
            String name = in.string("name of tensor #" + i);
            int nDims = in.u32("dimension count of tensor '" + name + "'");
            if (nDims < 0 || nDims > Shape.MAX_RANK) {
                throw in.error(
                        infoAt,
                        "tensor '" + name + "' has " + Integer.toUnsignedString(nDims)
                                + " dimensions; the engine supports at most " + Shape.MAX_RANK);
            }
            long[] ne = new long[nDims];
            for (int d = 0; d < nDims; d++) ne[d] = in.u64("dimension " + d + " of tensor '" + name + "'");
            long typeAt = in.position();
            int ggmlType = in.u32("ggml type of tensor '" + name + "'");
            long offset = in.u64("data offset of tensor '" + name + "'");
            DType dtype = GgmlType.engineType(ggmlType);
            if (dtype == null) {
                throw in.error(
                        typeAt,
                        "unsupported ggml type " + Integer.toUnsignedString(ggmlType) + " (" + GgmlType.nameOf(ggmlType)
                                + ") for tensor '" + name
                                + "'; the engine reads F32, F16, BF16, Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K, I8 and I32");
            }
            long[] dims = new long[nDims]; // ggml lists the innermost dimension first; the engine the outermost
            for (int d = 0; d < nDims; d++) dims[d] = ne[nDims - 1 - d];
            long byteSize = TensorExtents.byteSize(file, infoAt, name, dtype, dims);
            if (offset < 0 || offset % alignment != 0) {
                throw in.error(
                        infoAt,
                        "data offset " + Long.toUnsignedString(offset) + " of tensor '" + name
                                + "' is not a multiple of the alignment " + alignment);
            }
            relativeOffsets[i] = offset;
            TensorInfo info = new TensorInfo(name, dtype, new Shape(dims), offset, byteSize);
            if (tensors.putIfAbsent(name, info) != null)
                throw in.error(infoAt, "tensor name '" + name + "' appears twice");
        }

        long dataStart = alignUp(in.position(), alignment);
        long room = mapped.byteSize() - dataStart;
        int i = 0;
        for (Map.Entry<String, TensorInfo> e : tensors.entrySet()) {
            TensorInfo t = e.getValue();
            long offset = relativeOffsets[i];
            if (room < 0 || offset > room || t.byteSize() > room - offset) {
                throw in.error(
                        infoPositions[i],
                        "data of tensor '" + t.name() + "' (" + t.byteSize() + " bytes at data offset "
                                + offset + ", data section at byte " + dataStart
                                + ") extends past the end of the file ("
                                + mapped.byteSize() + " bytes)");
            }
            e.setValue(new TensorInfo(t.name(), t.dtype(), t.shape(), dataStart + offset, t.byteSize()));
            i++;
        }
        TensorExtents.checkNoOverlap(file, tensors.values());
        return new WeightFile(file, WeightFormat.GGUF, arena, mapped, tensors, metadata);
    }

    private static int alignment(ByteCursor in, long at, GgufValueType type, Object value)
            throws WeightFormatException {
        if (type != GgufValueType.UINT32) throw in.error(at, "general.alignment must be a UINT32, found " + type);
        long a = (Long) value;
        if (a == 0 || Long.bitCount(a) != 1) throw in.error(at, "general.alignment must be a power of two, found " + a);
        if (a > 1L << 30) throw in.error(at, "general.alignment " + a + " is larger than the supported 2^30");
        return (int) a;
    }

    private static long alignUp(long position, int alignment) {
        return (position + alignment - 1) / alignment * alignment;
    }

    private static Object readValue(ByteCursor in, GgufValueType type, String what, int depth)
            throws WeightFormatException {
        return switch (type) {
            case STRING -> in.string(what);
            case ARRAY -> readArray(in, what, depth);
            default -> {
                in.require(type.width, what);
                Object v = scalar(in.segment(), in.position(), type);
                in.skip(type.width, what);
                yield v;
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static List<Object> readArray(ByteCursor in, String what, int depth) throws WeightFormatException {
        long at = in.position();
        if (depth >= MAX_ARRAY_NESTING)
            throw in.error(at, what + " nests arrays deeper than " + MAX_ARRAY_NESTING + " levels");
        int typeId = in.u32("element type of " + what);
        GgufValueType elementType = GgufValueType.byId(typeId);
        if (elementType == null)
            throw in.error(at, what + " is an array of unknown value type " + Integer.toUnsignedString(typeId));
        long n = in.count("length of " + what, elementType.minBytes());
        if (n > Integer.MAX_VALUE - 8)
            throw in.error(at, what + " has " + n + " elements, more than a Java list holds");
        int size = (int) n;
        long bodyStart = in.position();
        long[] stringStarts = null;
        List<Object>[] arrays = null;
        switch (elementType) {
            case STRING -> {
                stringStarts = new long[size];
                for (int i = 0; i < size; i++) {
                    stringStarts[i] = in.position() - bodyStart;
                    long length = in.count("length of string #" + i + " of " + what, 1);
                    if (length > Integer.MAX_VALUE - 8)
                        throw in.error(in.position() - 8, "string #" + i + " of " + what + " is too long");
                    in.skip(length, "string #" + i + " of " + what);
                }
            }
            case ARRAY -> {
                if (size > MAX_ENTRIES)
                    throw in.error(
                            at,
                            what + " holds " + size + " arrays, more than the " + MAX_ENTRIES
                                    + " this reader supports");
                arrays = new List[size];
                for (int i = 0; i < size; i++) arrays[i] = readArray(in, "element " + i + " of " + what, depth + 1);
            }
            default -> in.skip(n * elementType.width, what); // count() bounded n by the remaining bytes
        }
        long bodyBytes = in.position() - bodyStart;
        if (bodyBytes > Integer.MAX_VALUE - 8)
            throw in.error(at, what + " takes " + bodyBytes + " bytes, more than 2 GiB");
        MemorySegment body = elementType == GgufValueType.ARRAY
                ? null
                : MemorySegment.ofArray(
                        in.segment().asSlice(bodyStart, bodyBytes).toArray(ValueLayout.JAVA_BYTE));
        return new GgufArray(elementType, body, size, stringStarts, arrays);
    }

    /**
     * Decodes one fixed-width value. Unsigned types widen to the next Java type that holds them
     * exactly (UINT8 to Short, UINT16 to Integer, UINT32 to Long); UINT64 stays a Long holding the
     * raw 64 bits.
     */
    static Object scalar(MemorySegment s, long at, GgufValueType type) {
        return switch (type) {
            case UINT8 -> (short) (s.get(ValueLayout.JAVA_BYTE, at) & 0xff);
            case INT8 -> s.get(ValueLayout.JAVA_BYTE, at);
            case UINT16 -> s.get(ValueLayout.JAVA_SHORT_UNALIGNED, at) & 0xffff;
            case INT16 -> s.get(ValueLayout.JAVA_SHORT_UNALIGNED, at);
            case UINT32 -> s.get(ValueLayout.JAVA_INT_UNALIGNED, at) & 0xffffffffL;
            case INT32 -> s.get(ValueLayout.JAVA_INT_UNALIGNED, at);
            case FLOAT32 -> s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at);
            case BOOL -> s.get(ValueLayout.JAVA_BYTE, at) != 0;
            case UINT64, INT64 -> s.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
            case FLOAT64 -> s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at);
            case STRING, ARRAY -> throw new IllegalArgumentException(type + " is not a fixed-width type");
        };
    }
}
