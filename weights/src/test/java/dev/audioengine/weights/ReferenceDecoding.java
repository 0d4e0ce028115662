package dev.audioengine.weights;

import dev.audioengine.api.tensor.DType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Decodes raw tensor bytes to floats straight from the formats' definitions (little-endian
 * IEEE values, bfloat16 = top half of an f32, ggml Q8_0/Q4_0 blocks), independently of
 * HostTensor, to check what the readers hand out.
 */
final class ReferenceDecoding {
    private ReferenceDecoding() {}

    static float[] floats(DType dtype, byte[] raw, int n) {
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[n];
        switch (dtype) {
            case F32 -> {
                for (int i = 0; i < n; i++) out[i] = b.getFloat(4 * i);
            }
            case F16 -> {
                for (int i = 0; i < n; i++) out[i] = Float.float16ToFloat(b.getShort(2 * i));
            }
            case BF16 -> {
                for (int i = 0; i < n; i++) out[i] = Float.intBitsToFloat((b.getShort(2 * i) & 0xffff) << 16);
            }
            case I32 -> {
                for (int i = 0; i < n; i++) out[i] = b.getInt(4 * i);
            }
            case I8 -> {
                for (int i = 0; i < n; i++) out[i] = b.get(i);
            }
            case Q8_0 -> {
                for (int blk = 0; blk < n / 32; blk++) {
                    float d = Float.float16ToFloat(b.getShort(34 * blk));
                    for (int j = 0; j < 32; j++) out[32 * blk + j] = b.get(34 * blk + 2 + j) * d;
                }
            }
            case Q4_0 -> {
                for (int blk = 0; blk < n / 32; blk++) {
                    float d = Float.float16ToFloat(b.getShort(18 * blk));
                    for (int j = 0; j < 16; j++) {
                        int q = b.get(18 * blk + 2 + j) & 0xff;
                        out[32 * blk + j] = ((q & 0xf) - 8) * d;
                        out[32 * blk + j + 16] = ((q >>> 4) - 8) * d;
                    }
                }
            }
        }
        return out;
    }
}
