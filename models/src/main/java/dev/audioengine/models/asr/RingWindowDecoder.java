package dev.audioengine.models.asr;

import dev.audioengine.model.task.TranscriptSegment;

/**
 * Decodes windows of the audio a {@link FloatRing} keeps, through one scratch array, and holds the decoder to its
 * contract: the segment it returns spans the window it was given (a recognizer that returned other times would
 * misplace the text in the transcript).
 */
final class RingWindowDecoder {
    private final FloatRing audio;
    private final WindowDecoder decoder;
    private float[] scratch = new float[0];

    RingWindowDecoder(FloatRing audio, WindowDecoder decoder) {
        if (decoder == null) throw new IllegalArgumentException("a window decoder is required");
        this.audio = audio;
        this.decoder = decoder;
    }

    /**
     * The decoding of samples {@code [from, to)} on a copy of them, to run on another thread after the ring has moved
     * on.
     */
    java.util.concurrent.Callable<TranscriptSegment> later(long from, long to) {
        float[] window = new float[Math.toIntExact(to - from)];
        audio.copy(from, to, window, 0);
        return () -> checked(decoder.decode(window, 0, window.length, from), from, to);
    }

    /** Decodes samples {@code [from, to)}, which the ring must still keep. */
    TranscriptSegment decode(long from, long to) {
        int length = Math.toIntExact(to - from);
        if (scratch.length < length) scratch = new float[length];
        audio.copy(from, to, scratch, 0);
        return checked(decoder.decode(scratch, 0, length, from), from, to);
    }

    private static TranscriptSegment checked(TranscriptSegment s, long from, long to) {
        if (s == null
                || s.startSample() != from
                || s.endSample() != to
                || s.sampleRate() != WindowDecoder.SAMPLE_RATE) {
            throw new IllegalStateException("the decoder returned "
                    + (s == null
                            ? "null"
                            : "[" + s.startSample() + ", " + s.endSample() + ") at " + s.sampleRate() + " Hz")
                    + " for the window [" + from + ", " + to + ") at " + WindowDecoder.SAMPLE_RATE + " Hz");
        }
        return s;
    }
}
