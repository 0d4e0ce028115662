package dev.audioengine.blocks;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a long signal into fixed-size chunks that overlap by {@code overlap} samples (a model run
 * per chunk, one graph shape for all), and joins per-chunk outputs of the same length back with a
 * linear cross-fade over each overlap: the fade-out and fade-in weights sum to one at every
 * sample, so processing that returns its chunk unchanged returns the original signal. The last
 * chunk is zero-padded to the chunk size; {@link #join} cuts the result back to the input length.
 * Immutable and thread-safe.
 */
public final class OverlapAdd {
    private final int chunk, overlap;

    public OverlapAdd(int chunk, int overlap) {
        if (chunk < 1 || overlap < 0 || 2 * overlap > chunk) {
            throw new IllegalArgumentException("chunk " + chunk + " with overlap " + overlap + ": need chunk >= 1 and 0 <= overlap <= chunk / 2");
        }
        this.chunk = chunk;
        this.overlap = overlap;
    }

    public int chunk() { return chunk; }

    public int overlap() { return overlap; }

    /** Start offsets of the chunks covering {@code length} samples (one chunk for a short signal). */
    public int[] starts(int length) {
        if (length < 0) throw new IllegalArgumentException("negative length " + length);
        int step = chunk - overlap;
        int n = length <= chunk ? 1 : (length - chunk + step - 1) / step + 1;
        int[] s = new int[n];
        for (int i = 0; i < n; i++) s[i] = i * step;
        return s;
    }

    /** The chunks of {@code signal}, each {@code chunk} samples, the last zero-padded. */
    public List<float[]> split(float[] signal) {
        List<float[]> out = new ArrayList<>();
        for (int s : starts(signal.length)) {
            float[] c = new float[chunk];
            System.arraycopy(signal, s, c, 0, Math.max(0, Math.min(chunk, signal.length - s)));
            out.add(c);
        }
        return out;
    }

    /** Per-chunk outputs (each {@code chunk} samples, in order) joined into {@code length} samples. */
    public float[] join(List<float[]> pieces, int length) {
        int[] starts = starts(length);
        if (pieces.size() != starts.length) throw new IllegalArgumentException(length + " samples were " + starts.length + " chunks, got " + pieces.size());
        float[] out = new float[starts[starts.length - 1] + chunk];
        for (int i = 0; i < pieces.size(); i++) {
            float[] p = pieces.get(i);
            if (p.length != chunk) throw new IllegalArgumentException("chunk " + i + " has " + p.length + " samples, expected " + chunk);
            for (int j = 0; j < chunk; j++) {
                double w = 1;
                if (i > 0 && j < overlap) w = (j + 1.0) / (overlap + 1);                              // fading in
                if (i < pieces.size() - 1 && j >= chunk - overlap) w = (chunk - j) / (overlap + 1.0);  // fading out
                out[starts[i] + j] += (float) (w * p[j]);
            }
        }
        return java.util.Arrays.copyOf(out, length);
    }
}
