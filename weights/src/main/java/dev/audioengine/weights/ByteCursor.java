package dev.audioengine.weights;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Little-endian reads from a mapped file that check the remaining bytes first, so a truncated
 * or hostile file produces a {@link WeightFormatException} naming the field, never an
 * out-of-bounds access or an allocation sized by an unchecked length.
 */
final class ByteCursor {
    private final Path file;
    private final MemorySegment segment;
    private long position;

    ByteCursor(Path file, MemorySegment segment, long position) {
        this.file = file;
        this.segment = segment;
        this.position = position;
    }

    long position() {
        return position;
    }

    long remaining() {
        return segment.byteSize() - position;
    }

    Path file() {
        return file;
    }

    MemorySegment segment() {
        return segment;
    }

    WeightFormatException error(long at, String problem) {
        return new WeightFormatException(file, at, problem);
    }

    /** Fails unless {@code n} more bytes exist; {@code what} names the field for the message. */
    void require(long n, String what) throws WeightFormatException {
        if (n < 0 || n > remaining()) {
            throw error(
                    position,
                    "truncated: " + what + " needs " + Long.toUnsignedString(n) + " bytes, only " + remaining()
                            + " left in the file");
        }
    }

    void skip(long n, String what) throws WeightFormatException {
        require(n, what);
        position += n;
    }

    byte u8(String what) throws WeightFormatException {
        require(1, what);
        return segment.get(ValueLayout.JAVA_BYTE, position++);
    }

    short u16(String what) throws WeightFormatException {
        require(2, what);
        short v = segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, position);
        position += 2;
        return v;
    }

    int u32(String what) throws WeightFormatException {
        require(4, what);
        int v = segment.get(ValueLayout.JAVA_INT_UNALIGNED, position);
        position += 4;
        return v;
    }

    long u64(String what) throws WeightFormatException {
        require(8, what);
        long v = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, position);
        position += 8;
        return v;
    }

    /**
     * A count or size field that the following data must be able to hold: rejects values of
     * 2^63 and above, and values whose {@code minBytesEach}-byte items cannot fit in the rest
     * of the file.
     */
    long count(String what, long minBytesEach) throws WeightFormatException {
        long at = position;
        long n = u64(what);
        long room = minBytesEach == 0 ? Long.MAX_VALUE : remaining() / minBytesEach;
        if (n < 0 || n > room) {
            throw error(
                    at,
                    what + " is " + Long.toUnsignedString(n) + " but the remaining " + remaining()
                            + " bytes of the file hold at most " + room);
        }
        return n;
    }

    /** A GGUF string: u64 byte length, then that many UTF-8 bytes (decoded leniently). */
    String string(String what) throws WeightFormatException {
        long at = position;
        long n = count("length of " + what, 1);
        if (n > Integer.MAX_VALUE - 8)
            throw error(at, what + " is " + n + " bytes long, more than a Java string holds");
        byte[] bytes = segment.asSlice(position, n).toArray(ValueLayout.JAVA_BYTE);
        position += n;
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
