package dev.audioengine.api.tensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A contiguous tensor in host memory: model inputs, outputs and weights. Memory is native
 * (so GPU backends can copy from it directly) and owned by this object unless it wraps a
 * segment somebody else owns (a memory-mapped weight file). Close it, or use
 * try-with-resources.
 */
public final class HostTensor implements AutoCloseable {
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;

    private final DType dtype;
    private final Shape shape;
    private final MemorySegment data;
    private final Arena arena; // null when the memory is borrowed

    private HostTensor(DType dtype, Shape shape, MemorySegment data, Arena arena) {
        long need = dtype.bytesFor(shape.elements());
        if (data.byteSize() < need) {
            throw new IllegalArgumentException(
                    dtype + " " + shape + " needs " + need + " bytes, segment has " + data.byteSize());
        }
        if (dtype.isQuantized() && shape.rank() > 0 && shape.dim(-1) % dtype.blockSize() != 0) {
            throw new IllegalArgumentException(
                    dtype + " rows must be a multiple of " + dtype.blockSize() + " values, shape " + shape);
        }
        this.dtype = dtype;
        this.shape = shape;
        this.data = data.asSlice(0, need);
        this.arena = arena;
    }

    /**
     * Zero-filled tensor that owns its memory.
     *
     * @param dtype the element type; a quantized one needs a last dimension that is a multiple of 32
     * @param shape the shape; an empty tensor still gets one byte
     * @return a new tensor, 64-byte aligned; the caller closes it to free the native memory (nothing else does)
     * @throws IllegalArgumentException if a quantized shape's rows are not whole blocks
     */
    public static HostTensor allocate(DType dtype, Shape shape) {
        Arena arena = Arena.ofShared();
        MemorySegment seg = NativeMemory.zeroed(arena, Math.max(1, dtype.bytesFor(shape.elements())), 64);
        return new HostTensor(dtype, shape, seg, arena);
    }

    /**
     * Wraps memory owned elsewhere (e.g. a mapped file); closing this tensor does not free it.
     *
     * @param dtype how the bytes are laid out
     * @param shape the logical shape; its rows must be whole blocks for a quantized dtype
     * @param data the bytes, at least as many as {@code dtype.bytesFor(shape.elements())} (only those are used); the
     *     owner keeps it alive for as long as this tensor, and anything uploaded from it, is in use
     * @return a tensor that borrows {@code data} without copying; {@link #ownsMemory()} is false
     * @throws IllegalArgumentException if {@code data} is too small or a quantized shape's rows are not whole blocks
     */
    public static HostTensor wrap(DType dtype, Shape shape, MemorySegment data) {
        return new HostTensor(dtype, shape, data, null);
    }

    /**
     * A new F32 tensor holding these values (a model input, a test case).
     *
     * @param shape the shape; its element count must match the values
     * @param values row-major, exactly {@code shape.elements()} of them; copied
     * @return a new tensor that owns its memory; close it
     * @throws IllegalArgumentException if the count does not match the shape
     */
    public static HostTensor ofFloats(Shape shape, float... values) {
        if (values.length != shape.elements()) {
            throw new IllegalArgumentException(values.length + " values for shape " + shape);
        }
        HostTensor t = allocate(DType.F32, shape);
        MemorySegment.copy(values, 0, t.data, F, 0, values.length);
        return t;
    }

    /**
     * A new I32 tensor holding these values (token ids, lengths, positions).
     *
     * @param shape the shape; its element count must match the values
     * @param values row-major, exactly {@code shape.elements()} of them; copied
     * @return a new tensor that owns its memory; close it
     * @throws IllegalArgumentException if the count does not match the shape
     */
    public static HostTensor ofInts(Shape shape, int... values) {
        if (values.length != shape.elements()) {
            throw new IllegalArgumentException(values.length + " values for shape " + shape);
        }
        HostTensor t = allocate(DType.I32, shape);
        MemorySegment.copy(values, 0, t.data, I, 0, values.length);
        return t;
    }

    /**
     * Converts F32 values to {@code dtype} (rounding or block-quantizing as the format needs).
     * Integer types round half up; I8 saturates to [-128, 127].
     *
     * @param dtype the stored type
     * @param shape the shape; for a quantized dtype its last dimension must be a multiple of its block size (32, or 256 for the k-quants)
     * @param values row-major, exactly {@code shape.elements()} of them
     * @return a new tensor that owns its memory; close it
     * @throws IllegalArgumentException if the count does not match the shape, or quantized rows are not whole blocks
     */
    public static HostTensor convert(DType dtype, Shape shape, float[] values) {
        if (values.length != shape.elements()) {
            throw new IllegalArgumentException(values.length + " values for shape " + shape);
        }
        HostTensor t = allocate(dtype, shape);
        switch (dtype) {
            case F32 -> MemorySegment.copy(values, 0, t.data, F, 0, values.length);
            case F16 -> {
                for (int i = 0; i < values.length; i++) t.data.set(S, 2L * i, HalfFloats.floatToF16(values[i]));
            }
            case BF16 -> {
                for (int i = 0; i < values.length; i++) t.data.set(S, 2L * i, HalfFloats.floatToBf16(values[i]));
            }
            case I32 -> {
                for (int i = 0; i < values.length; i++) t.data.set(I, 4L * i, Math.round(values[i]));
            }
            case I8 -> {
                for (int i = 0; i < values.length; i++)
                    t.data.set(ValueLayout.JAVA_BYTE, i, (byte) Math.max(-128, Math.min(127, Math.round(values[i]))));
            }
            case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K ->
                BlockQuantization.quantize(dtype, values, 0, values.length, t.data, 0);
        }
        return t;
    }

    /**
     * How the bytes are laid out.
     *
     * @return the element type
     */
    public DType dtype() {
        return dtype;
    }

    /**
     * The logical shape; the data is row-major and contiguous.
     *
     * @return the shape, outermost dimension first
     */
    public Shape shape() {
        return shape;
    }

    /**
     * Shorthand for {@code shape().elements()}.
     *
     * @return the number of values
     */
    public long elements() {
        return shape.elements();
    }

    /**
     * The raw bytes, in {@link #dtype()}'s layout.
     *
     * @return the segment, exactly {@link #byteSize()} long; writes through it change the tensor. It is invalid once
     *     an owning tensor is closed
     */
    public MemorySegment data() {
        return data;
    }

    /**
     * The size of the data.
     *
     * @return {@code dtype().bytesFor(elements())}
     */
    public long byteSize() {
        return data.byteSize();
    }

    /**
     * One value of an F32 tensor. The dtype is not checked: on another dtype this reads raw bytes as a float.
     *
     * @param index the row-major element index, {@code 0 <= index < elements()}
     * @return the float stored at {@code index * 4} bytes
     * @throws IndexOutOfBoundsException if the index is outside the data
     * @throws IllegalStateException if the tensor's memory was closed
     */
    public float getFloat(long index) {
        return data.get(F, index * 4);
    }

    /**
     * Sets one value of an F32 tensor. The dtype is not checked.
     *
     * @param index the row-major element index, {@code 0 <= index < elements()}
     * @param v the value, stored as 4 bytes at {@code index * 4}; any float, NaN included
     * @throws IndexOutOfBoundsException if the index is outside the data
     * @throws IllegalStateException if the tensor's memory was closed
     */
    public void setFloat(long index, float v) {
        data.set(F, index * 4, v);
    }

    /**
     * One value of an I32 tensor. The dtype is not checked.
     *
     * @param index the row-major element index, {@code 0 <= index < elements()}
     * @return the int stored at {@code index * 4} bytes
     * @throws IndexOutOfBoundsException if the index is outside the data
     * @throws IllegalStateException if the tensor's memory was closed
     */
    public int getInt(long index) {
        return data.get(I, index * 4);
    }

    /**
     * Values as floats, converting from any dtype (dequantizing block types).
     *
     * @return a new row-major array of {@link #elements()} values
     * @throws ArithmeticException if the tensor has more than {@code Integer.MAX_VALUE} elements
     */
    public float[] toFloatArray() {
        int n = Math.toIntExact(shape.elements());
        float[] out = new float[n];
        switch (dtype) {
            case F32 -> MemorySegment.copy(data, F, 0, out, 0, n);
            case F16 -> {
                for (int i = 0; i < n; i++) out[i] = HalfFloats.f16ToFloat(data.get(S, 2L * i));
            }
            case BF16 -> {
                for (int i = 0; i < n; i++) out[i] = HalfFloats.bf16ToFloat(data.get(S, 2L * i));
            }
            case I32 -> {
                for (int i = 0; i < n; i++) out[i] = data.get(I, 4L * i);
            }
            case I8 -> {
                for (int i = 0; i < n; i++) out[i] = data.get(ValueLayout.JAVA_BYTE, i);
            }
            case Q8_0, Q4_0, Q5_0, Q5_1, Q4_1, Q6_K, Q4_K, Q5_K, Q3_K, Q2_K ->
                BlockQuantization.dequantize(dtype, data, 0, out, 0, n);
        }
        return out;
    }

    /**
     * The values of an I32 tensor.
     *
     * @return a new row-major array of {@link #elements()} values
     * @throws IllegalStateException if the dtype is not I32
     * @throws ArithmeticException if the tensor has more than {@code Integer.MAX_VALUE} elements
     */
    public int[] toIntArray() {
        if (dtype != DType.I32) throw new IllegalStateException("toIntArray on " + dtype);
        int n = Math.toIntExact(shape.elements());
        int[] out = new int[n];
        MemorySegment.copy(data, I, 0, out, 0, n);
        return out;
    }

    /**
     * Owned copy with the same dtype and a new shape of the same element count.
     *
     * @param newShape the shape of the copy; same element count (and whole blocks per row for a quantized dtype)
     * @return a new tensor that owns its memory, whatever this one does; close it
     * @throws IllegalArgumentException if the element counts differ
     */
    public HostTensor reshaped(Shape newShape) {
        if (newShape.elements() != shape.elements()) {
            throw new IllegalArgumentException("cannot reshape " + shape + " to " + newShape);
        }
        HostTensor t = allocate(dtype, newShape);
        t.data.copyFrom(data);
        return t;
    }

    /**
     * Whether {@link #close()} frees the memory.
     *
     * @return true for tensors from {@link #allocate} and the factories built on it, false for {@link #wrap}
     */
    public boolean ownsMemory() {
        return arena != null;
    }

    /** Frees owned memory (idempotent); a wrapped tensor's memory is left to its owner. */
    @Override
    public void close() {
        if (arena != null && arena.scope().isAlive()) arena.close();
    }

    @Override
    public String toString() {
        return "HostTensor[" + dtype + " " + shape + "]";
    }
}
