package dev.audioengine.weights.onnx;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * Protocol-buffer wire format over one bounded slice of a segment: varints, fixed 32/64-bit
 * values and length-delimited fields. Every length is checked against the bytes that remain
 * before anything is sliced or allocated, so a hostile length field fails here instead of
 * allocating memory it does not have.
 */
final class ProtoReader {
    static final int VARINT = 0, FIXED64 = 1, LEN = 2, FIXED32 = 5;

    private final MemorySegment data;
    private final long base; // offset of data within the file, for messages
    private final String source;
    private long pos;

    ProtoReader(MemorySegment data, long base, String source) {
        this.data = data;
        this.base = base;
        this.source = source;
    }

    boolean hasMore() {
        return pos < data.byteSize();
    }

    /** Reads a tag; returns the field number and leaves the wire type in {@link #wireType}. */
    int readTag() {
        long tag = readVarint();
        wireType = (int) (tag & 7);
        long field = tag >>> 3;
        if (field < 1 || field > 0x1FFFFFFF) throw error("invalid field number " + field);
        if (wireType != VARINT && wireType != FIXED64 && wireType != LEN && wireType != FIXED32) {
            throw error("unsupported wire type " + wireType + " for field " + field);
        }
        return (int) field;
    }

    int wireType;

    long readVarint() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= data.byteSize()) throw error("truncated varint");
            byte b = data.get(ValueLayout.JAVA_BYTE, pos++);
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) return result;
        }
        throw error("varint longer than 10 bytes");
    }

    int readInt32() {
        return (int) readVarint();
    }

    float readFixed32Float() {
        need(4);
        float f = data.get(ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), pos);
        pos += 4;
        return f;
    }

    long readFixed64() {
        need(8);
        long v = data.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), pos);
        pos += 8;
        return v;
    }

    /** A length-delimited field as a slice of the underlying segment (no copy). */
    MemorySegment readBytes() {
        long len = readVarint();
        if (len < 0 || len > data.byteSize() - pos) {
            throw error(
                    "length " + len + " runs past the end of its message (" + (data.byteSize() - pos) + " bytes left)");
        }
        MemorySegment s = data.asSlice(pos, len);
        pos += len;
        return s;
    }

    /** A sub-message reader for a length-delimited field. */
    ProtoReader readMessage() {
        MemorySegment s = readBytes();
        return new ProtoReader(s, base + pos - s.byteSize(), source);
    }

    String readString() {
        MemorySegment s = readBytes();
        if (s.byteSize() > Integer.MAX_VALUE) throw error("string of " + s.byteSize() + " bytes");
        return new String(s.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    void skip() {
        switch (wireType) {
            case VARINT -> readVarint();
            case FIXED64 -> {
                need(8);
                pos += 8;
            }
            case FIXED32 -> {
                need(4);
                pos += 4;
            }
            case LEN -> readBytes();
            default -> throw error("cannot skip wire type " + wireType);
        }
    }

    void expect(int wire, String field) {
        if (wireType != wire) throw error(field + " has wire type " + wireType + ", expected " + wire);
    }

    OnnxFormatException error(String what) {
        return new OnnxFormatException(source + ": " + what + " at byte " + (base + pos));
    }

    private void need(long n) {
        if (data.byteSize() - pos < n)
            throw error("truncated: need " + n + " bytes, " + (data.byteSize() - pos) + " left");
    }
}
