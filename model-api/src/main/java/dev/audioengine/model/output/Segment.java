package dev.audioengine.model.output;

/**
 * A stretch of a recording that a model reported, in samples at {@code sampleRate} (end
 * exclusive), with an optional label (what it is: "speech", a speaker) and optional text (what
 * was said). Written by {@link SegmentWriter} in any {@link SegmentFormat}.
 */
public record Segment(long startSample, long endSample, int sampleRate, String label, String text) {
    public Segment {
        if (sampleRate <= 0) throw new IllegalArgumentException("sample rate must be positive, got " + sampleRate);
        if (startSample < 0 || endSample < startSample) {
            throw new IllegalArgumentException("segment [" + startSample + ", " + endSample
                    + ") must start at 0 or later and not end before it starts");
        }
    }

    /** A segment with neither label nor text. */
    public Segment(long startSample, long endSample, int sampleRate) {
        this(startSample, endSample, sampleRate, null, null);
    }

    public double startSeconds() {
        return startSample / (double) sampleRate;
    }

    public double endSeconds() {
        return endSample / (double) sampleRate;
    }

    /** Start in whole milliseconds, rounded half up: what the subtitle formats show. */
    public long startMillis() {
        return millis(startSample);
    }

    public long endMillis() {
        return millis(endSample);
    }

    private long millis(long sample) {
        return Math.floorDiv(sample * 1000 + sampleRate / 2, sampleRate);
    }
}
