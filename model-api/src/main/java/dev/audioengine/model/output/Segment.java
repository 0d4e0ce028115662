package dev.audioengine.model.output;

/**
 * A stretch of a recording that a model reported, in samples at {@code sampleRate} (end
 * exclusive), with an optional label (what it is: "speech", a speaker) and optional text (what
 * was said). Written by {@link SegmentWriter} in any {@link SegmentFormat}.
 *
 * @param startSample the first sample, {@code >= 0}
 * @param endSample one past the last sample, {@code >= startSample}
 * @param sampleRate the rate the samples are counted at, {@code > 0}
 * @param label what the stretch is ("speech", a speaker), or null
 * @param text what was said, or null
 */
public record Segment(long startSample, long endSample, int sampleRate, String label, String text) {
    /**
     * Checks the rate and range.
     *
     * @param startSample {@code >= 0}
     * @param endSample {@code >= startSample}
     * @param sampleRate {@code > 0}
     * @param label or null
     * @param text or null
     * @throws IllegalArgumentException if the rate is not positive or the range negative or reversed
     */
    public Segment {
        if (sampleRate <= 0) throw new IllegalArgumentException("sample rate must be positive, got " + sampleRate);
        if (startSample < 0 || endSample < startSample) {
            throw new IllegalArgumentException("segment [" + startSample + ", " + endSample
                    + ") must start at 0 or later and not end before it starts");
        }
    }

    /**
     * A segment with neither label nor text.
     *
     * @param startSample the first sample, {@code >= 0}
     * @param endSample one past the last sample, {@code >= startSample}
     * @param sampleRate the rate the samples are counted at, {@code > 0}
     * @throws IllegalArgumentException if the rate is not positive or the range negative or reversed
     */
    public Segment(long startSample, long endSample, int sampleRate) {
        this(startSample, endSample, sampleRate, null, null);
    }

    /**
     * The start in seconds.
     *
     * @return {@code startSample / sampleRate}, unrounded
     */
    public double startSeconds() {
        return startSample / (double) sampleRate;
    }

    /**
     * The end in seconds.
     *
     * @return {@code endSample / sampleRate}, unrounded
     */
    public double endSeconds() {
        return endSample / (double) sampleRate;
    }

    /**
     * Start in whole milliseconds, rounded half up: what the subtitle formats show.
     *
     * @return milliseconds from the start of the recording
     */
    public long startMillis() {
        return millis(startSample);
    }

    /**
     * End in whole milliseconds, rounded half up.
     *
     * @return milliseconds from the start of the recording
     */
    public long endMillis() {
        return millis(endSample);
    }

    private long millis(long sample) {
        return Math.floorDiv(sample * 1000 + sampleRate / 2, sampleRate);
    }
}
