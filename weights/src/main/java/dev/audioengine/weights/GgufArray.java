package dev.audioengine.weights;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable GGUF metadata array. Elements are decoded on access from a heap copy of the
 * array's bytes, so a large array (a tokenizer vocabulary, token scores) costs about its size
 * in the file rather than one boxed object per element, and stays valid after the file closes.
 */
final class GgufArray extends AbstractList<Object> implements RandomAccess {
    private final GgufValueType elementType;
    private final MemorySegment body;
    private final int size;
    private final long[] stringStarts; // STRING elements: where each one's u64 length sits in body
    private final List<Object>[] arrays; // ARRAY elements, decoded when the file was opened

    GgufArray(GgufValueType elementType, MemorySegment body, int size, long[] stringStarts, List<Object>[] arrays) {
        this.elementType = elementType;
        this.body = body;
        this.size = size;
        this.stringStarts = stringStarts;
        this.arrays = arrays;
    }

    @Override
    public Object get(int index) {
        Objects.checkIndex(index, size);
        return switch (elementType) {
            case STRING -> {
                long at = stringStarts[index];
                int length = (int) body.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
                yield new String(body.asSlice(at + 8, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
            }
            case ARRAY -> arrays[index];
            default -> GgufReader.scalar(body, (long) index * elementType.width, elementType);
        };
    }

    @Override
    public int size() {
        return size;
    }
}
