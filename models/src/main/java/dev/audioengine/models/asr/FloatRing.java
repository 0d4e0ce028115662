package dev.audioengine.models.asr;

import java.util.Objects;

/**
 * Floats addressed by their absolute position in a stream (a sample, a chunk), kept from some position on: appended
 * at the end, discarded from the front. Capacity doubles as needed and is never given back, so it stays at the most
 * that was kept at once. Not thread-safe.
 */
final class FloatRing {
    private static final int MAX_CAPACITY = 1 << 30;
    private float[] data = new float[1 << 12]; // a power of two: positions map to slots by masking
    private long start; // the position of the first value kept
    private int size;

    /** The position of the first value kept. */
    long start() {
        return start;
    }

    /** The position the next appended value takes. */
    long end() {
        return start + size;
    }

    int size() {
        return size;
    }

    void append(float[] values, int from, int length) {
        Objects.checkFromIndexSize(from, length, values.length);
        if (size + (long) length > data.length) grow((int) Math.min(size + (long) length, MAX_CAPACITY + 1L));
        for (int i = 0; i < length; ) {
            int slot = slot(end());
            int run = Math.min(length - i, data.length - slot);
            System.arraycopy(values, from + i, data, slot, run);
            size += run;
            i += run;
        }
    }

    void append(float value) {
        if (size == data.length) grow(size + 1);
        data[slot(end())] = value;
        size++;
    }

    /** Forgets every value before {@code position} (all of them when it is past the end). */
    void discardBefore(long position) {
        long drop = Math.min(Math.max(0, position - start), size);
        start += drop;
        size -= (int) drop;
    }

    boolean holds(long position) {
        return position >= start && position < end();
    }

    float get(long position) {
        if (!holds(position))
            throw new IndexOutOfBoundsException(position + " is not kept: [" + start + ", " + end() + ") is");
        return data[slot(position)];
    }

    /** Copies the values at {@code [from, to)} to {@code dst[at, ...)}. */
    void copy(long from, long to, float[] dst, int at) {
        if (from < start || to > end() || to < from) {
            throw new IndexOutOfBoundsException(
                    "[" + from + ", " + to + ") is not kept: [" + start + ", " + end() + ") is");
        }
        Objects.checkFromIndexSize(at, (int) (to - from), dst.length);
        for (long p = from; p < to; ) {
            int slot = slot(p);
            int run = (int) Math.min(to - p, data.length - slot);
            System.arraycopy(data, slot, dst, at, run);
            at += run;
            p += run;
        }
    }

    private int slot(long position) {
        return (int) (position & (data.length - 1));
    }

    private void grow(int needed) {
        if (needed > MAX_CAPACITY) throw new IllegalStateException("more than 2^30 values kept");
        int capacity = data.length;
        while (capacity < needed) capacity <<= 1;
        float[] bigger = new float[capacity];
        for (long p = start; p < end(); ) { // each value to its slot in the bigger array, in runs that wrap in neither
            int from = slot(p), to = (int) (p & (capacity - 1));
            int run = (int) Math.min(end() - p, Math.min(data.length - from, capacity - to));
            System.arraycopy(data, from, bigger, to, run);
            p += run;
        }
        data = bigger;
    }
}
