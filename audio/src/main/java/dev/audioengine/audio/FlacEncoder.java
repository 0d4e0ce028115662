package dev.audioengine.audio;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A FLAC encoder for 16-bit mono audio (the server's speech endpoint encodes its samples with it), in pure Java so no
 * native encoder is needed: fixed-size blocks of {@value #BLOCK} samples, each coded as a constant, as one of FLAC's fixed polynomial
 * predictors (orders 0-4) with a partitioned Rice-coded residual, or verbatim, whichever is smallest; the STREAMINFO
 * block carries the true length, the frame sizes and the MD5 of the samples, so decoders can verify what they read.
 * No LPC: speech compresses to about half its PCM size with the fixed predictors, lossless either way.
 * Format: https://xiph.org/flac/format.html (RFC 9639).
 */
public final class FlacEncoder {
    static final int BLOCK = 4096;
    private static final int BITS = 16;
    private static final int MAX_PARTITION_ORDER = 8;
    private static final int MAX_RICE = 14; // 15 is the escape code

    private FlacEncoder() {}

    /** A whole FLAC file of {@code samples} at {@code rate} Hz. */
    public static byte[] encode(short[] samples, int rate) {
        if (rate < 1 || rate > 655_350)
            throw new IllegalArgumentException("FLAC cannot carry a sample rate of " + rate + " Hz");
        BitWriter frames = new BitWriter(samples.length + 1024);
        int minFrame = Integer.MAX_VALUE, maxFrame = 0;
        int[] block = new int[BLOCK];
        long frameNumber = 0;
        for (int at = 0; at < samples.length; at += BLOCK, frameNumber++) {
            int n = Math.min(BLOCK, samples.length - at);
            for (int i = 0; i < n; i++) block[i] = samples[at + i];
            int start = frames.bytes();
            frame(frames, block, n, rate, frameNumber);
            int size = frames.bytes() - start;
            minFrame = Math.min(minFrame, size);
            maxFrame = Math.max(maxFrame, size);
        }
        if (samples.length == 0) minFrame = 0;
        BitWriter head = new BitWriter(42);
        head.bits(0x664C6143L, 32); // "fLaC"
        head.bits(1, 1).bits(0, 7).bits(34, 24); // the last metadata block: STREAMINFO, 34 bytes
        head.bits(BLOCK, 16).bits(BLOCK, 16).bits(minFrame, 24).bits(maxFrame, 24);
        head.bits(rate, 20).bits(0, 3).bits(BITS - 1, 5).bits(samples.length, 36);
        byte[] md5 = md5(samples);
        for (byte b : md5) head.bits(b & 0xFF, 8);
        byte[] h = head.toByteArray(), f = frames.toByteArray();
        byte[] out = Arrays.copyOf(h, h.length + f.length);
        System.arraycopy(f, 0, out, h.length, f.length);
        return out;
    }

    private static void frame(BitWriter out, int[] s, int n, int rate, long number) {
        int start = out.bytes();
        out.bits(0b11111111111110, 14).bits(0, 1).bits(0, 1); // sync, reserved, fixed block size
        int sizeCode = n == BLOCK ? 0b1100 : 0b0111; // 4096, else 16 bits of n-1 follow
        int rateCode = rateCode(rate);
        out.bits(sizeCode, 4).bits(rateCode, 4);
        out.bits(0b0000, 4).bits(0b100, 3).bits(0, 1); // mono, 16 bits a sample, reserved
        utf8(out, number);
        if (sizeCode == 0b0111) out.bits(n - 1, 16);
        if (rateCode == 0b1101) out.bits(rate, 16);
        else if (rateCode == 0b1110) out.bits(rate / 10, 16);
        out.bits(crc8(out.buffer(), start, out.bytes()), 8);
        subframe(out, s, n);
        out.alignToByte();
        out.bits(crc16(out.buffer(), start, out.bytes()), 16);
    }

    /** The frame header's code for {@code rate}: one of FLAC's common rates, else the rate in the header. */
    private static int rateCode(int rate) {
        return switch (rate) {
            case 88_200 -> 0b0001;
            case 176_400 -> 0b0010;
            case 192_000 -> 0b0011;
            case 8_000 -> 0b0100;
            case 16_000 -> 0b0101;
            case 22_050 -> 0b0110;
            case 24_000 -> 0b0111;
            case 32_000 -> 0b1000;
            case 44_100 -> 0b1001;
            case 48_000 -> 0b1010;
            case 96_000 -> 0b1011;
            default ->
                rate <= 0xFFFF
                        ? 0b1101
                        : rate % 10 == 0 ? 0b1110 : 0b0000; // Hz or tens of Hz in 16 bits, else STREAMINFO's
        };
    }

    private static void subframe(BitWriter out, int[] s, int n) {
        boolean constant = true;
        for (int i = 1; i < n && constant; i++) constant = s[i] == s[0];
        if (constant) {
            out.bits(0, 1).bits(0b000000, 6).bits(0, 1).signed(s[0], BITS);
            return;
        }
        int bestOrder = -1;
        long bestBits = (long) BITS * n; // verbatim
        Residual best = null;
        int[] residual = new int[n];
        for (int order = 0; order <= 4 && order < n; order++) {
            fixedResidual(s, n, order, residual);
            Residual r = Residual.best(residual, n, order);
            long bits = (long) order * BITS + r.bits;
            if (bits < bestBits) {
                bestBits = bits;
                bestOrder = order;
                best = r;
            }
        }
        if (bestOrder < 0) {
            out.bits(0, 1).bits(0b000001, 6).bits(0, 1);
            for (int i = 0; i < n; i++) out.signed(s[i], BITS);
            return;
        }
        out.bits(0, 1).bits(0b001000 | bestOrder, 6).bits(0, 1);
        for (int i = 0; i < bestOrder; i++) out.signed(s[i], BITS);
        fixedResidual(s, n, bestOrder, residual);
        best.write(out, residual, n, bestOrder);
    }

    /** FLAC's fixed predictors: residual[i] is s[i] less its order-k polynomial extrapolation (i >= order). */
    static void fixedResidual(int[] s, int n, int order, int[] residual) {
        for (int i = order; i < n; i++) {
            residual[i] = switch (order) {
                case 0 -> s[i];
                case 1 -> s[i] - s[i - 1];
                case 2 -> s[i] - 2 * s[i - 1] + s[i - 2];
                case 3 -> s[i] - 3 * s[i - 1] + 3 * s[i - 2] - s[i - 3];
                default -> s[i] - 4 * s[i - 1] + 6 * s[i - 2] - 4 * s[i - 3] + s[i - 4];
            };
        }
    }

    /** A partitioned Rice coding of a residual: the partition order and each partition's parameter, and the bits it takes. */
    private record Residual(int partitionOrder, int[] parameters, long bits) {
        static Residual best(int[] residual, int n, int order) {
            Residual best = null;
            for (int p = 0; p <= MAX_PARTITION_ORDER; p++) {
                if (p > 0 && (n % (1 << p) != 0 || (n >> p) <= order)) break;
                int partitions = 1 << p;
                int[] params = new int[partitions];
                long bits = 2 + 4; // coding method, partition order
                for (int k = 0; k < partitions; k++) {
                    int from = k == 0 ? order : k * (n >> p), to = (k + 1) * (n >> p);
                    long[] cost = new long[MAX_RICE + 1];
                    for (int i = from; i < to; i++) {
                        long u = zigzag(residual[i]);
                        for (int r = 0; r <= MAX_RICE; r++) cost[r] += (u >> r) + 1 + r;
                    }
                    int bestParam = 0;
                    for (int r = 1; r <= MAX_RICE; r++) if (cost[r] < cost[bestParam]) bestParam = r;
                    params[k] = bestParam;
                    bits += 4 + cost[bestParam];
                }
                if (best == null || bits < best.bits) best = new Residual(p, params, bits);
            }
            return best;
        }

        void write(BitWriter out, int[] residual, int n, int order) {
            out.bits(0b00, 2).bits(partitionOrder, 4); // Rice, 4-bit parameters
            int size = n >> partitionOrder;
            for (int k = 0; k < parameters.length; k++) {
                int r = parameters[k];
                out.bits(r, 4);
                for (int i = k == 0 ? order : k * size; i < (k + 1) * size; i++) {
                    long u = zigzag(residual[i]);
                    out.unary(u >> r);
                    if (r > 0) out.bits(u & ((1L << r) - 1), r);
                }
            }
        }
    }

    private static long zigzag(int v) {
        return ((long) v << 1) ^ ((long) v >> 63);
    }

    /** A frame number in FLAC's UTF-8-like coding (up to 36 bits). */
    private static void utf8(BitWriter out, long v) {
        if (v < 0x80) {
            out.bits(v, 8);
            return;
        }
        int bytes = v < 0x800 ? 2 : v < 0x10000 ? 3 : v < 0x200000 ? 4 : v < 0x4000000 ? 5 : v < 0x80000000L ? 6 : 7;
        int lead = bytes == 7 ? 0xFE : (0xFF << (8 - bytes)) & 0xFF;
        out.bits(lead | (v >> (6 * (bytes - 1))), 8);
        for (int i = bytes - 2; i >= 0; i--) out.bits(0x80 | ((v >> (6 * i)) & 0x3F), 8);
    }

    private static byte[] md5(short[] samples) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            byte[] le = new byte[2 * Math.min(samples.length, 1 << 16)];
            for (int at = 0; at < samples.length; at += le.length / 2) {
                int n = Math.min(le.length / 2, samples.length - at);
                for (int i = 0; i < n; i++) {
                    le[2 * i] = (byte) samples[at + i];
                    le[2 * i + 1] = (byte) (samples[at + i] >> 8);
                }
                md.update(le, 0, 2 * n);
            }
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has MD5", e);
        }
    }

    static int crc8(byte[] b, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc ^= b[i] & 0xFF;
            for (int k = 0; k < 8; k++) crc = (crc & 0x80) != 0 ? ((crc << 1) ^ 0x07) & 0xFF : (crc << 1) & 0xFF;
        }
        return crc;
    }

    static int crc16(byte[] b, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc ^= (b[i] & 0xFF) << 8;
            for (int k = 0; k < 8; k++)
                crc = (crc & 0x8000) != 0 ? ((crc << 1) ^ 0x8005) & 0xFFFF : (crc << 1) & 0xFFFF;
        }
        return crc;
    }

    /** Bits written most significant first into a growing byte array. */
    static final class BitWriter {
        private byte[] buf;
        private int bytes;
        private long acc;
        private int pending; // bits in acc, < 8 between calls

        BitWriter(int capacity) {
            buf = new byte[Math.max(16, capacity)];
        }

        /** The low {@code count} bits of {@code v} (count <= 56). */
        BitWriter bits(long v, int count) {
            if (count > 56) return bits(v >>> 32, count - 32).bits(v & 0xFFFFFFFFL, 32);
            acc = (acc << count) | (v & ((1L << count) - 1));
            pending += count;
            while (pending >= 8) {
                pending -= 8;
                put((int) (acc >>> pending));
            }
            acc &= (1L << pending) - 1;
            return this;
        }

        BitWriter signed(int v, int count) {
            return bits(v & ((1L << count) - 1), count);
        }

        /** {@code q} zeros and a one. */
        void unary(long q) {
            while (q >= 32) {
                bits(0, 32);
                q -= 32;
            }
            bits(1, (int) q + 1);
        }

        void alignToByte() {
            if (pending > 0) bits(0, 8 - pending);
        }

        /** Whole bytes written (bits not yet making a byte are not counted). */
        int bytes() {
            return bytes;
        }

        byte[] buffer() {
            return buf;
        }

        byte[] toByteArray() {
            alignToByte();
            return Arrays.copyOf(buf, bytes);
        }

        private void put(int b) {
            if (bytes == buf.length) buf = Arrays.copyOf(buf, buf.length * 2);
            buf[bytes++] = (byte) b;
        }
    }
}
