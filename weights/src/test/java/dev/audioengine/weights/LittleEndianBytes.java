package dev.audioengine.weights;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Builds little-endian byte strings for the test writers and for hand-made hostile files. */
final class LittleEndianBytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    LittleEndianBytes u8(int v) {
        out.write(v);
        return this;
    }

    LittleEndianBytes u16(int v) {
        return u8(v).u8(v >>> 8);
    }

    LittleEndianBytes u32(int v) {
        return u16(v).u16(v >>> 16);
    }

    LittleEndianBytes u64(long v) {
        return u32((int) v).u32((int) (v >>> 32));
    }

    LittleEndianBytes f32(float v) {
        return u32(Float.floatToRawIntBits(v));
    }

    LittleEndianBytes f64(double v) {
        return u64(Double.doubleToRawLongBits(v));
    }

    LittleEndianBytes bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    /** A GGUF string: u64 byte length, UTF-8 bytes. */
    LittleEndianBytes str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return u64(b.length).bytes(b);
    }

    LittleEndianBytes zeros(long n) {
        for (long i = 0; i < n; i++) out.write(0);
        return this;
    }

    int size() {
        return out.size();
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
