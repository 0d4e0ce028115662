package dev.audioengine.weights.onnx;

import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An ONNX TensorProto: name, element type, dims and its values as little-endian bytes (a slice
 * of the mapped file for raw_data, a small heap copy for the typed repeated fields).
 */
public record OnnxTensor(String name, int dataType, long[] dims, MemorySegment bytes) {
    public static final int FLOAT = 1,
            UINT8 = 2,
            INT8 = 3,
            UINT16 = 4,
            INT16 = 5,
            INT32 = 6,
            INT64 = 7,
            STRING = 8,
            BOOL = 9,
            FLOAT16 = 10,
            DOUBLE = 11,
            UINT32 = 12,
            UINT64 = 13,
            BFLOAT16 = 16;

    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    public OnnxTensor {
        dims = dims.clone();
    }

    @Override
    public long[] dims() {
        return dims.clone();
    }

    public long elements() {
        long n = 1;
        for (long d : dims) n *= d;
        return n;
    }

    /** Bytes per element, or -1 for types this reader does not decode (strings). */
    public static int elementSize(int dataType) {
        return switch (dataType) {
            case FLOAT, INT32, UINT32 -> 4;
            case UINT8, INT8, BOOL -> 1;
            case UINT16, INT16, FLOAT16, BFLOAT16 -> 2;
            case INT64, DOUBLE, UINT64 -> 8;
            default -> -1;
        };
    }

    /** The values as floats (from float, double, float16 or any integer type). */
    public float[] toFloatArray() {
        int n = count();
        float[] out = new float[n];
        if (dataType == FLOAT) { // in bulk: a cold load ran this loop in the interpreter, element by element
            MemorySegment.copy(bytes, F, 0, out, 0, n);
            return out;
        }
        for (int i = 0; i < n; i++) {
            out[i] = switch (dataType) {
                case FLOAT -> bytes.get(F, 4L * i);
                case DOUBLE -> (float) bytes.get(D, 8L * i);
                case FLOAT16 -> Float.float16ToFloat(bytes.get(S, 2L * i));
                default -> (float) longAt(i);
            };
        }
        return out;
    }

    /** The values as longs (integer and bool types). */
    public long[] toLongArray() {
        int n = count();
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = longAt(i);
        return out;
    }

    /** A float32 copy as an engine tensor of the same shape (rank up to the engine's maximum). */
    public HostTensor toHostTensor() {
        return HostTensor.ofFloats(Shape.of(dims.length == 0 ? new long[0] : dims), toFloatArray());
    }

    private long longAt(int i) {
        return switch (dataType) {
            case INT64, UINT64 -> bytes.get(L, 8L * i);
            case INT32 -> bytes.get(I, 4L * i);
            case UINT32 -> Integer.toUnsignedLong(bytes.get(I, 4L * i));
            case INT16 -> bytes.get(S, 2L * i);
            case UINT16 -> Short.toUnsignedInt(bytes.get(S, 2L * i));
            case INT8 -> bytes.get(ValueLayout.JAVA_BYTE, i);
            case UINT8, BOOL -> Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, i));
            default ->
                throw new IllegalStateException(
                        "tensor '" + name + "' of ONNX type " + dataType + " is not an integer tensor");
        };
    }

    private int count() {
        if (elementSize(dataType) < 0)
            throw new IllegalStateException(
                    "tensor '" + name + "' has ONNX type " + dataType + ", which has no numeric values");
        long n = elements();
        if (n > Integer.MAX_VALUE) throw new IllegalStateException("tensor '" + name + "' has " + n + " elements");
        return (int) n;
    }

    @Override
    public String toString() {
        return "OnnxTensor[" + name + " type " + dataType + " " + Arrays.toString(dims) + "]";
    }
}
