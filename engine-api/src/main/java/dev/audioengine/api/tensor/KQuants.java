package dev.audioengine.api.tensor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * ggml's k-quant super-blocks (Q6_K, Q4_K, Q5_K, Q3_K, Q2_K; layouts in {@link DType}), one super-block of 256 values at a time,
 * for {@link BlockQuantization}. The decode is the arithmetic of ggml's {@code dequantize_row_q*_K} (moved here from
 * weights' GgmlBlocks, whose test checks it value for value against ggml itself), so every reader of these blocks
 * shares it. The quantizers are simple ones of our own, for casts and tests: they fill the same layout with the same
 * meaning, but are not ggml's {@code quantize_row_q*_K_ref} (no iterative scale search), so their bytes differ from
 * ggml's for the same values and their error is somewhat larger.
 */
final class KQuants {
    private KQuants() {}

    static final int SUPER = 256;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I32 =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private static float h(MemorySegment s, long at) {
        return HalfFloats.f16ToFloat(s.get(SHORT, at));
    }

    private static int u8(MemorySegment s, long at) {
        return s.get(ValueLayout.JAVA_BYTE, at) & 0xFF;
    }

    /** One super-block of {@code type} at byte {@code at} into 256 floats from {@code y[off]}. */
    static void dequantize(DType type, MemorySegment s, long at, float[] y, int off) {
        switch (type) {
            case Q6_K -> q6K(s, at, y, off);
            case Q4_K -> q45K(s, at, y, off, false);
            case Q5_K -> q45K(s, at, y, off, true);
            case Q3_K -> q3K(s, at, y, off);
            case Q2_K -> q2K(s, at, y, off);
            default -> throw new IllegalArgumentException(type + " is not a k-quant");
        }
    }

    /** One super-block: 256 values from {@code x[from]} into {@code type}'s layout at byte {@code at}. */
    static void quantize(DType type, float[] x, int from, MemorySegment s, long at) {
        switch (type) {
            case Q6_K -> quantizeQ6K(x, from, s, at);
            case Q4_K -> quantizeQ45K(x, from, s, at, false);
            case Q5_K -> quantizeQ45K(x, from, s, at, true);
            case Q3_K -> quantizeQ3K(x, from, s, at);
            case Q2_K -> quantizeQ2K(x, from, s, at);
            default -> throw new IllegalArgumentException(type + " is not a k-quant");
        }
    }

    /**
     * The 6-bit scale (or, with {@code min}, minimum) of sub-block {@code j} (0..7) of a Q4_K or Q5_K super-block whose
     * 12 scale bytes start at {@code q} (ggml's {@code get_scale_min_k4}).
     */
    static int scaleK4(MemorySegment s, long q, int j, boolean min) {
        if (j < 4) return u8(s, q + j + (min ? 4 : 0)) & 63;
        return min
                ? (u8(s, q + j + 4) >> 4) | ((u8(s, q + j) >> 6) << 4)
                : (u8(s, q + j + 4) & 0xF) | ((u8(s, q + j - 4) >> 6) << 4);
    }

    private static void q45K(MemorySegment s, long x, float[] y, int off, boolean fifth) {
        float d = h(s, x), min = h(s, x + 2);
        long scales = x + 4, qh = x + 16, ql = fifth ? x + 48 : x + 16;
        int k = off, is = 0, u1 = 1, u2 = 2;
        for (int j = 0; j < SUPER; j += 64, ql += 32, is += 2, u1 <<= 2, u2 <<= 2) {
            float d1 = d * scaleK4(s, scales, is, false), m1 = min * scaleK4(s, scales, is, true);
            float d2 = d * scaleK4(s, scales, is + 1, false), m2 = min * scaleK4(s, scales, is + 1, true);
            for (int l = 0; l < 32; l++) {
                int hi = fifth && (u8(s, qh + l) & u1) != 0 ? 16 : 0;
                y[k++] = d1 * ((u8(s, ql + l) & 0xF) + hi) - m1;
            }
            for (int l = 0; l < 32; l++) {
                int hi = fifth && (u8(s, qh + l) & u2) != 0 ? 16 : 0;
                y[k++] = d2 * ((u8(s, ql + l) >> 4) + hi) - m2;
            }
        }
    }

    private static void q6K(MemorySegment s, long x, float[] y, int off) {
        long ql = x, qh = x + 128, sc = x + 192;
        float d = h(s, x + 208);
        for (int n = 0; n < SUPER; n += 128, ql += 64, qh += 32, sc += 8) {
            for (int l = 0; l < 32; l++) {
                int is = l / 16, hb = u8(s, qh + l);
                int q1 = ((u8(s, ql + l) & 0xF) | ((hb & 3) << 4)) - 32;
                int q2 = ((u8(s, ql + l + 32) & 0xF) | (((hb >> 2) & 3) << 4)) - 32;
                int q3 = ((u8(s, ql + l) >> 4) | (((hb >> 4) & 3) << 4)) - 32;
                int q4 = ((u8(s, ql + l + 32) >> 4) | (((hb >> 6) & 3) << 4)) - 32;
                y[off + n + l] = d * s.get(ValueLayout.JAVA_BYTE, sc + is) * q1;
                y[off + n + l + 32] = d * s.get(ValueLayout.JAVA_BYTE, sc + is + 2) * q2;
                y[off + n + l + 64] = d * s.get(ValueLayout.JAVA_BYTE, sc + is + 4) * q3;
                y[off + n + l + 96] = d * s.get(ValueLayout.JAVA_BYTE, sc + is + 6) * q4;
            }
        }
    }

    /**
     * Q6_K: each sub-block of 16 takes the scale that maps its value of largest magnitude to -32 (as Q5_0's d does to
     * -16); d is the largest of those magnitudes over 127 (f16), each int8 scale the nearest multiple of d, and each
     * value the nearest step of d · scale in -32..31.
     */
    private static void quantizeQ6K(float[] x, int from, MemorySegment s, long at) {
        float[] scale = new float[16];
        float amaxScale = 0;
        for (int j = 0; j < 16; j++) {
            float amax = 0, max = 0;
            for (int i = 0; i < 16; i++) {
                float v = x[from + 16 * j + i];
                if (Math.abs(v) > amax) {
                    amax = Math.abs(v);
                    max = v;
                }
            }
            scale[j] = max / -32f;
            amaxScale = Math.max(amaxScale, Math.abs(scale[j]));
        }
        short dBits = HalfFloats.floatToF16(amaxScale / 127f);
        float d = HalfFloats.f16ToFloat(dBits);
        int[] q = new int[SUPER];
        for (int j = 0; j < 16; j++) {
            int sc = d == 0 ? 0 : Math.max(-127, Math.min(127, Math.round(scale[j] / d)));
            s.set(ValueLayout.JAVA_BYTE, at + 192 + j, (byte) sc);
            float step = d * sc;
            for (int i = 0; i < 16; i++) {
                int v = step == 0 ? 0 : Math.max(-32, Math.min(31, Math.round(x[from + 16 * j + i] / step)));
                q[16 * j + i] = v + 32;
            }
        }
        for (int n = 0; n < SUPER; n += 128) {
            long ql = at + n / 2, qh = at + 128 + n / 4;
            for (int l = 0; l < 32; l++) {
                int q1 = q[n + l], q2 = q[n + l + 32], q3 = q[n + l + 64], q4 = q[n + l + 96];
                s.set(ValueLayout.JAVA_BYTE, ql + l, (byte) ((q1 & 0xF) | ((q3 & 0xF) << 4)));
                s.set(ValueLayout.JAVA_BYTE, ql + l + 32, (byte) ((q2 & 0xF) | ((q4 & 0xF) << 4)));
                s.set(ValueLayout.JAVA_BYTE, qh + l, (byte)
                        ((q1 >> 4) | ((q2 >> 4) << 2) | ((q3 >> 4) << 4) | ((q4 >> 4) << 6)));
            }
        }
        s.set(SHORT, at + 208, dBits);
    }

    /**
     * Q4_K (15 levels) and Q5_K (31): each sub-block of 32 spans [min(0, lowest), highest]. dmin is the largest -min
     * over 63 (f16) and each 6-bit minimum the multiple of it at or below the sub-block's lowest value (rounded up, so
     * nothing clips below); then d is the largest step over 63 and each 6-bit scale the multiple of d at or above the
     * step that reaches the sub-block's highest value from there; each value is the nearest step in 0..levels.
     */
    private static void quantizeQ45K(float[] x, int from, MemorySegment s, long at, boolean fifth) {
        int levels = fifth ? 31 : 15;
        float[] his = new float[8], mins = new float[8];
        float maxMin = 0;
        for (int j = 0; j < 8; j++) {
            float lo = 0, hi = -Float.MAX_VALUE;
            for (int i = 0; i < 32; i++) {
                float v = x[from + 32 * j + i];
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            his[j] = hi;
            mins[j] = -lo;
            maxMin = Math.max(maxMin, mins[j]);
        }
        short mBits = HalfFloats.floatToF16(maxMin / 63f);
        float dmin = HalfFloats.f16ToFloat(mBits);
        int[] lms = new int[8];
        float[] steps = new float[8];
        float maxStep = 0;
        for (int j = 0; j < 8; j++) {
            lms[j] = dmin == 0 ? 0 : (int) Math.min(63, Math.ceil(mins[j] / dmin));
            steps[j] = (his[j] + dmin * lms[j]) / levels;
            maxStep = Math.max(maxStep, steps[j]);
        }
        short dBits = HalfFloats.floatToF16(maxStep / 63f);
        float d = HalfFloats.f16ToFloat(dBits);
        s.set(SHORT, at, dBits);
        s.set(SHORT, at + 2, mBits);
        long scales = at + 4, qh = at + 16, qs = fifth ? at + 48 : at + 16;
        for (int i = 0; i < 12; i++) s.set(ValueLayout.JAVA_BYTE, scales + i, (byte) 0);
        if (fifth) for (int i = 0; i < 32; i++) s.set(ValueLayout.JAVA_BYTE, qh + i, (byte) 0);
        int[] q = new int[SUPER];
        for (int j = 0; j < 8; j++) {
            int ls = d == 0 ? 0 : (int) Math.min(63, Math.ceil(steps[j] / d)), lm = lms[j];
            // ggml's packing: the low six bits of the first four in bytes 0-7, the last four split over bytes 8-11
            // (low nibbles) and the top two bits of bytes 0-7
            if (j < 4) {
                orByte(s, scales + j, ls);
                orByte(s, scales + j + 4, lm);
            } else {
                orByte(s, scales + j + 4, (ls & 0xF) | ((lm & 0xF) << 4));
                orByte(s, scales + j - 4, (ls >> 4) << 6);
                orByte(s, scales + j, (lm >> 4) << 6);
            }
            float step = d * ls, min = dmin * lm;
            for (int i = 0; i < 32; i++) {
                float v = x[from + 32 * j + i];
                q[32 * j + i] = step == 0 ? 0 : Math.max(0, Math.min(levels, Math.round((v + min) / step)));
            }
        }
        for (int p = 0; p < 4; p++) {
            for (int l = 0; l < 32; l++) {
                int a = q[64 * p + l], b = q[64 * p + 32 + l];
                s.set(ValueLayout.JAVA_BYTE, qs + 32 * p + l, (byte) ((a & 0xF) | ((b & 0xF) << 4)));
                if (fifth) orByte(s, qh + l, ((a >> 4) << (2 * p)) | ((b >> 4) << (2 * p + 1)));
            }
        }
    }

    private static void q2K(MemorySegment s, long x, float[] y, int off) {
        long scales = x, qs = x + 16;
        float d = h(s, x + 80), min = h(s, x + 82);
        int k = off, is = 0;
        for (int n = 0; n < SUPER; n += 128, qs += 32) {
            for (int shift = 0; shift < 8; shift += 2) {
                for (int half = 0; half < 2; half++) {
                    int sc = u8(s, scales + is++);
                    float dl = d * (sc & 0xF), ml = min * (sc >> 4);
                    for (int l = 0; l < 16; l++) y[k++] = dl * ((u8(s, qs + half * 16 + l) >> shift) & 3) - ml;
                }
            }
        }
    }

    /** The 6-bit scale (0..63, 32 meaning 0) of sub-block {@code j} (0..15) of a Q3_K super-block's 12 scale bytes. */
    static int scaleQ3K(MemorySegment s, long sc, int j) {
        int low = j < 8 ? u8(s, sc + j) & 0xF : u8(s, sc + j - 8) >> 4;
        return low | (((u8(s, sc + 8 + j % 4) >> (2 * (j / 4))) & 3) << 4);
    }

    private static void q3K(MemorySegment s, long x, float[] y, int off) {
        long hmask = x, qs = x + 32, sc = x + 96;
        float dAll = h(s, x + 108);
        // twelve bytes hold sixteen 6-bit scales: low nibbles in bytes 0-7, high 2 bits in bytes 8-11
        int a0 = s.get(I32, sc), a1 = s.get(I32, sc + 4), tmp = s.get(I32, sc + 8);
        int k1 = 0x03030303, k2 = 0x0f0f0f0f;
        int[] aux = {
            (a0 & k2) | (((tmp) & k1) << 4),
            (a1 & k2) | (((tmp >>> 2) & k1) << 4),
            ((a0 >>> 4) & k2) | (((tmp >>> 4) & k1) << 4),
            ((a1 >>> 4) & k2) | (((tmp >>> 6) & k1) << 4)
        };
        int k = off, is = 0, m = 1;
        for (int n = 0; n < SUPER; n += 128, qs += 32) {
            for (int shift = 0; shift < 8; shift += 2, m <<= 1) {
                for (int half = 0; half < 2; half++) {
                    int scale = ((aux[is >> 2] >>> (8 * (is & 3))) & 0xFF) - 32;
                    is++;
                    float dl = dAll * scale;
                    for (int l = 0; l < 16; l++) {
                        int i = half * 16 + l;
                        int q = (u8(s, qs + i) >> shift) & 3;
                        y[k++] = dl * (q - ((u8(s, hmask + i) & m) != 0 ? 0 : 4));
                    }
                }
            }
        }
    }

    /** Where element e's two low bits sit: byte {@code 32 (e / 128) + e % 32} of qs, shifted by 2 ((e % 128) / 32). */
    private static void setTwoBits(MemorySegment s, long qs, int e, int q) {
        orByte(s, qs + 32 * (e / 128) + e % 32, (q & 3) << (2 * ((e % 128) / 32)));
    }

    /**
     * Q3_K: each sub-block of 16 takes the scale that maps its value of largest magnitude to -4; d is the largest of
     * those magnitudes over 31 (f16) and each 6-bit signed scale the multiple of d at or beyond it in magnitude (so
     * nothing clips at -4), each value the nearest step in -4..3.
     */
    private static void quantizeQ3K(float[] x, int from, MemorySegment s, long at) {
        float[] scale = new float[16];
        float amaxScale = 0;
        for (int j = 0; j < 16; j++) {
            float amax = 0, max = 0;
            for (int i = 0; i < 16; i++) {
                float v = x[from + 16 * j + i];
                if (Math.abs(v) > amax) {
                    amax = Math.abs(v);
                    max = v;
                }
            }
            scale[j] = max / -4f;
            amaxScale = Math.max(amaxScale, Math.abs(scale[j]));
        }
        short dBits = HalfFloats.floatToF16(amaxScale / 31f);
        float d = HalfFloats.f16ToFloat(dBits);
        for (int i = 0; i < 110; i++) s.set(ValueLayout.JAVA_BYTE, at + i, (byte) 0);
        long hmask = at, qs = at + 32, sc = at + 96;
        for (int j = 0; j < 16; j++) {
            int mag = d == 0 ? 0 : (int) Math.ceil(Math.abs(scale[j]) / d);
            int l = scale[j] < 0 ? -Math.min(32, mag) : Math.min(31, mag);
            int stored = l + 32;
            // ggml's packing: low nibbles in bytes 0-7 (sub-blocks 8-15 in the high halves), high two bits in 8-11
            orByte(s, sc + j % 8, j < 8 ? stored & 0xF : (stored & 0xF) << 4);
            orByte(s, sc + 8 + j % 4, (stored >> 4) << (2 * (j / 4)));
            float step = d * l;
            for (int i = 0; i < 16; i++) {
                int e = 16 * j + i;
                int q = step == 0 ? 0 : Math.max(-4, Math.min(3, Math.round(x[from + e] / step))) + 4;
                setTwoBits(s, qs, e, q);
                if (q >= 4) orByte(s, hmask + e % 32, 1 << (e / 32));
            }
        }
        s.set(SHORT, at + 108, dBits);
    }

    /**
     * Q2_K: each sub-block of 16 spans [min(0, lowest), highest]; dmin is the largest -min over 15 (f16) and each 4-bit
     * minimum the multiple of it at or below the lowest value, then d the largest step over 15 and each 4-bit scale the
     * multiple of d at or above the step that reaches the highest value in 3 steps; each value the nearest step in 0..3.
     */
    private static void quantizeQ2K(float[] x, int from, MemorySegment s, long at) {
        float[] his = new float[16], mins = new float[16];
        float maxMin = 0;
        for (int j = 0; j < 16; j++) {
            float lo = 0, hi = -Float.MAX_VALUE;
            for (int i = 0; i < 16; i++) {
                float v = x[from + 16 * j + i];
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            his[j] = hi;
            mins[j] = -lo;
            maxMin = Math.max(maxMin, mins[j]);
        }
        short mBits = HalfFloats.floatToF16(maxMin / 15f);
        float dmin = HalfFloats.f16ToFloat(mBits);
        int[] lms = new int[16];
        float[] steps = new float[16];
        float maxStep = 0;
        for (int j = 0; j < 16; j++) {
            lms[j] = dmin == 0 ? 0 : (int) Math.min(15, Math.ceil(mins[j] / dmin));
            steps[j] = (his[j] + dmin * lms[j]) / 3;
            maxStep = Math.max(maxStep, steps[j]);
        }
        short dBits = HalfFloats.floatToF16(maxStep / 15f);
        float d = HalfFloats.f16ToFloat(dBits);
        for (int i = 0; i < 84; i++) s.set(ValueLayout.JAVA_BYTE, at + i, (byte) 0);
        for (int j = 0; j < 16; j++) {
            int ls = d == 0 ? 0 : (int) Math.min(15, Math.ceil(steps[j] / d)), lm = lms[j];
            s.set(ValueLayout.JAVA_BYTE, at + j, (byte) (ls | (lm << 4)));
            float step = d * ls, min = dmin * lm;
            for (int i = 0; i < 16; i++) {
                int e = 16 * j + i;
                int q = step == 0 ? 0 : Math.max(0, Math.min(3, Math.round((x[from + e] + min) / step)));
                setTwoBits(s, at + 16, e, q);
            }
        }
        s.set(SHORT, at + 80, dBits);
        s.set(SHORT, at + 82, mBits);
    }

    private static void orByte(MemorySegment s, long at, int bits) {
        s.set(ValueLayout.JAVA_BYTE, at, (byte) (u8(s, at) | bits));
    }
}
