package dev.audioengine.models.asr;

import dev.audioengine.model.task.SpeechSegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a stretch of speech longer than a window into the fewest near-equal parts that fit, moving each cut from
 * its even position to the quietest chunk nearby, so that a cut falls in a pause rather than in a word when there
 * is one.
 */
final class SegmentSplitter {
    /** How far a cut may move from its even position, as a fraction of a part: parts stay alike (within 2:1) yet a pause between words is usually in reach. */
    static final double REACH = 0.25;

    private SegmentSplitter() {}

    /** {@code [start, end)} in parts of at most {@code maxSamples}, in order, end to end. */
    static List<SpeechSegment> split(
            long start, long end, long maxSamples, int sampleRate, ChunkProbabilities probabilities) {
        if (maxSamples <= 0) throw new IllegalArgumentException("max window must be positive, got " + maxSamples);
        int parts = (int) Math.ceilDiv(end - start, maxSamples);
        List<SpeechSegment> out = new ArrayList<>(parts);
        long from = start;
        for (int left = parts; left > 1; left--) {
            long rest = end - from;
            long even = from + rest / left;
            // the rest must still fit the parts left, each at most maxSamples and none empty
            long lo = Math.max(from + 1, end - (left - 1) * maxSamples);
            long hi = Math.min(from + maxSamples, end - (left - 1));
            long reach = (long) (rest / left * REACH);
            long cut = quietest(probabilities, Math.max(lo, even - reach), Math.min(hi, even + reach), even);
            out.add(new SpeechSegment(from, cut, sampleRate));
            from = cut;
        }
        out.add(new SpeechSegment(from, end, sampleRate));
        return out;
    }

    /** The middle of the least probable chunk whose middle lies in [lo, hi] (the nearest to {@code even} among equals); {@code even} when none is known. */
    private static long quietest(ChunkProbabilities p, long lo, long hi, long even) {
        if (p == ChunkProbabilities.NONE) return even;
        int size = p.chunkSize();
        long best = even;
        float bestP = Float.POSITIVE_INFINITY;
        for (long c = Math.floorDiv(lo, size); c <= Math.floorDiv(hi, size); c++) {
            long middle = c * size + size / 2;
            float q = p.at(c);
            if (middle < lo || middle > hi || Float.isNaN(q)) continue;
            if (q < bestP || (q == bestP && Math.abs(middle - even) < Math.abs(best - even))) {
                bestP = q;
                best = middle;
            }
        }
        return best;
    }
}
