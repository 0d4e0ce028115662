package dev.audioengine.models.silero;

import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns per-chunk speech probabilities into segments with the semantics of Silero's
 * get_speech_timestamps: the rules of {@link SpeechTracker} (hysteresis, min-silence, min-speech,
 * max-speech splits), then padding each segment by speech-pad (sharing the gap when two segments
 * are closer than twice the pad), clamped to the audio.
 */
public final class SpeechTimestamps {
    private SpeechTimestamps() {}

    /**
     * @param probs         one probability per chunk of {@code window} samples
     * @param audioSamples  the audio's length in samples (before the last chunk's zero padding)
     */
    public static List<SpeechSegment> segments(
            float[] probs, int window, long audioSamples, int sampleRate, VadOptions o) {
        SpeechTracker tracker = new SpeechTracker(o, window, sampleRate);
        List<long[]> speeches = new ArrayList<>(); // {start, end}
        SpeechTracker.Closed keep = (start, end) -> speeches.add(new long[] {start, end});
        for (float p : probs) tracker.accept(p, keep);
        tracker.finish(audioSamples, keep);
        return padded(speeches, audioSamples, sampleRate, o);
    }

    /** The padding pass: {@code speeches} hold raw {start, end} pairs in order. */
    private static List<SpeechSegment> padded(List<long[]> speeches, long audioSamples, int sampleRate, VadOptions o) {
        double pad = SpeechTracker.samples(sampleRate, o.speechPadMs());
        for (int i = 0; i < speeches.size(); i++) {
            long[] s = speeches.get(i);
            if (i == 0) s[0] = (long) Math.max(0, s[0] - pad);
            if (i != speeches.size() - 1) {
                long[] next = speeches.get(i + 1);
                long silence = next[0] - s[1];
                if (silence < 2 * pad) {
                    s[1] += Math.floorDiv(silence, 2);
                    next[0] = Math.max(0, next[0] - Math.floorDiv(silence, 2));
                } else {
                    s[1] = (long) Math.min(audioSamples, s[1] + pad);
                    next[0] = (long) Math.max(0, next[0] - pad);
                }
            } else {
                s[1] = (long) Math.min(audioSamples, s[1] + pad);
            }
        }
        List<SpeechSegment> out = new ArrayList<>(speeches.size());
        for (long[] s : speeches) out.add(new SpeechSegment(s[0], s[1], sampleRate));
        return out;
    }
}
