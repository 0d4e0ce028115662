package dev.audioengine.weights;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes GGUF files for tests, following the GGUF spec: header, key/values, tensor infos
 * (ne innermost first), padding to the alignment, tensor data at aligned offsets.
 */
final class GgufTestWriter {
    static final int UINT8 = 0,
            INT8 = 1,
            UINT16 = 2,
            INT16 = 3,
            UINT32 = 4,
            INT32 = 5,
            FLOAT32 = 6,
            BOOL = 7,
            STRING = 8,
            ARRAY = 9,
            UINT64 = 10,
            INT64 = 11,
            FLOAT64 = 12;
    static final int GGML_F32 = 0,
            GGML_F16 = 1,
            GGML_Q4_0 = 2,
            GGML_Q8_0 = 8,
            GGML_I8 = 24,
            GGML_I32 = 26,
            GGML_BF16 = 30;

    /** A metadata array value: element type id and elements (nested Arr for arrays of arrays). */
    record Arr(int elementType, List<?> items) {}

    private record Tensor(String name, int type, long[] ne, byte[] data, long offset) {}

    private final int version;
    private int alignment = 32;
    private final LittleEndianBytes kvs = new LittleEndianBytes();
    private int kvCount;
    private final List<Tensor> tensors = new ArrayList<>();
    private long nextOffset;

    GgufTestWriter(int version) {
        this.version = version;
    }

    /** Sets general.alignment (written as a UINT32 key/value) for the offsets that follow. */
    GgufTestWriter alignment(int a) {
        alignment = a;
        return kv("general.alignment", UINT32, (long) a);
    }

    GgufTestWriter kv(String key, int type, Object value) {
        kvs.str(key).u32(type);
        encode(kvs, type, value);
        kvCount++;
        return this;
    }

    /** Adds a tensor at the next aligned offset. */
    GgufTestWriter tensor(String name, int ggmlType, long[] ne, byte[] data) {
        long offset = align(nextOffset);
        return tensorAt(name, ggmlType, ne, data, offset);
    }

    /** Adds a tensor whose data goes at {@code offset} in the data section, whatever that implies. */
    GgufTestWriter tensorAt(String name, int ggmlType, long[] ne, byte[] data, long offset) {
        tensors.add(new Tensor(name, ggmlType, ne.clone(), data, offset));
        nextOffset = Math.max(nextOffset, offset + data.length);
        return this;
    }

    private long align(long v) {
        return (v + alignment - 1) / alignment * alignment;
    }

    static void encode(LittleEndianBytes out, int type, Object v) {
        switch (type) {
            case UINT8, INT8 -> out.u8(((Number) v).intValue());
            case UINT16, INT16 -> out.u16(((Number) v).intValue());
            case UINT32, INT32 -> out.u32((int) ((Number) v).longValue());
            case FLOAT32 -> out.f32((Float) v);
            case BOOL -> out.u8((Boolean) v ? 1 : 0);
            case STRING -> out.str((String) v);
            case ARRAY -> {
                Arr a = (Arr) v;
                out.u32(a.elementType()).u64(a.items().size());
                for (Object item : a.items()) encode(out, a.elementType(), item);
            }
            case UINT64, INT64 -> out.u64(((Number) v).longValue());
            case FLOAT64 -> out.f64((Double) v);
            default -> throw new IllegalArgumentException("type " + type);
        }
    }

    byte[] toBytes() {
        LittleEndianBytes out = new LittleEndianBytes();
        out.bytes(new byte[] {'G', 'G', 'U', 'F'})
                .u32(version)
                .u64(tensors.size())
                .u64(kvCount)
                .bytes(kvs.toByteArray());
        for (Tensor t : tensors) {
            out.str(t.name()).u32(t.ne().length);
            for (long d : t.ne()) out.u64(d);
            out.u32(t.type()).u64(t.offset());
        }
        out.zeros(align(out.size()) - out.size());
        byte[] data = new byte[(int) nextOffset];
        for (Tensor t : tensors) System.arraycopy(t.data(), 0, data, (int) t.offset(), t.data().length);
        return out.bytes(data).toByteArray();
    }
}
