package dev.audioengine.weights;

import dev.audioengine.api.tensor.BlockQuantization;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HalfFloats;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Converts weights to the session's weight type (weight_type = f32 | f16 | bf16 | q8_0) at load.
 * The rule, which {@link #resultType} states without converting anything:
 * <ul>
 *   <li>integer tensors (I32, I8) are indices or tables, not weights, and stay as they are;</li>
 *   <li>Q8_0 applies only to tensors whose last dimension is a multiple of 32 (whole blocks per
 *       row); others (biases of odd length, scalars) keep their dtype;</li>
 *   <li>every other float-valued tensor (F32, F16, BF16, Q8_0, Q4_0) becomes the target type,
 *       rounding to nearest even or block-quantizing as ggml does.</li>
 * </ul>
 */
public final class WeightConversion {
    /** Elements converted per step: bounds the temporary float buffer; a multiple of the 32-value block. */
    private static final int CHUNK = 1 << 16;

    private WeightConversion() {}

    /**
     * As {@link #resultType(DType, Shape, DType)}, except that a tensor stored in one of {@code kept} stays as it is:
     * block-quantized weights a model keeps because the backend multiplies by their blocks (a whisper.cpp file's
     * q5_1 tensors on a backend with Q5_1_WEIGHTS), where the target alone would dequantize them.
     */
    public static DType resultType(DType source, Shape shape, DType target, java.util.Set<DType> kept) {
        DType plain = resultType(source, shape, target);
        return kept.contains(source) ? source : plain;
    }

    /** {@link #converted(HostTensor, DType)} under {@link #resultType(DType, Shape, DType, java.util.Set)}'s rule. */
    public static HostTensor converted(HostTensor t, DType target, java.util.Set<DType> kept) {
        return kept.contains(t.dtype()) ? t : converted(t, target);
    }

    /** The dtype {@link #converted} produces for a tensor of {@code source} dtype and {@code shape}. */
    public static DType resultType(DType source, Shape shape, DType target) {
        if (target != DType.F32 && target != DType.F16 && target != DType.BF16 && target != DType.Q8_0) {
            throw new IllegalArgumentException("weight type must be f32, f16, bf16 or q8_0, not " + target);
        }
        if (source == DType.I32 || source == DType.I8) return source;
        if (target == DType.Q8_0 && (shape.rank() == 0 || shape.dim(-1) % DType.Q8_0.blockSize() != 0)) return source;
        return target;
    }

    /**
     * {@code t} in {@link #resultType}'s dtype. When that is {@code t}'s own dtype, returns
     * {@code t} itself (still a view of the file, if it was one); otherwise a new tensor that owns
     * its memory, which the caller closes.
     */
    public static HostTensor converted(HostTensor t, DType target) {
        DType from = t.dtype();
        DType to = resultType(from, t.shape(), target);
        if (to == from) return t;
        HostTensor out = HostTensor.allocate(to, t.shape());
        MemorySegment src = t.data();
        MemorySegment dst = out.data();
        long n = t.elements();
        for (long done = 0; done < n; done += CHUNK) {
            int len = (int) Math.min(CHUNK, n - done);
            MemorySegment chunk = src.asSlice(from.bytesFor(done), from.bytesFor(len));
            float[] values = HostTensor.wrap(from, Shape.of((long) len), chunk).toFloatArray();
            long at = to.bytesFor(done);
            switch (to) {
                case F32 -> MemorySegment.copy(values, 0, dst, ValueLayout.JAVA_FLOAT_UNALIGNED, at, len);
                case F16 -> {
                    for (int i = 0; i < len; i++)
                        dst.set(ValueLayout.JAVA_SHORT_UNALIGNED, at + 2L * i, HalfFloats.floatToF16(values[i]));
                }
                case BF16 -> {
                    for (int i = 0; i < len; i++)
                        dst.set(ValueLayout.JAVA_SHORT_UNALIGNED, at + 2L * i, HalfFloats.floatToBf16(values[i]));
                }
                case Q8_0 -> BlockQuantization.quantizeQ8_0(values, 0, len, dst, at);
                default -> throw new IllegalStateException("resultType admitted " + to);
            }
        }
        return out;
    }
}
