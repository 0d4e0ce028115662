package dev.audioengine.cli.task;

import java.util.Arrays;

/** A growable float array: per-chunk probabilities, and the samples --speech-out writes again. */
final class FloatList {
    private float[] values = new float[1024];
    private int size;

    void add(float[] from, int offset, int length) {
        if (size + length > values.length) values = Arrays.copyOf(values, Math.max(values.length * 2, size + length));
        System.arraycopy(from, offset, values, size, length);
        size += length;
    }

    float[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
