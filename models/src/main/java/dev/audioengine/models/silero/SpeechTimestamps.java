package dev.audioengine.models.silero;

import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns per-chunk speech probabilities into segments with the semantics of Silero's
 * get_speech_timestamps: hysteresis between threshold and neg-threshold, a minimum silence
 * before a segment ends, dropping segments shorter than min-speech, splitting at max-speech
 * (at the longest silence of more than 98 ms seen inside the segment, else right there), then
 * padding each segment by speech-pad (sharing the gap when two segments are closer than twice
 * the pad).
 */
public final class SpeechTimestamps {
    private SpeechTimestamps() {}

    /**
     * @param probs         one probability per chunk of {@code window} samples
     * @param audioSamples  the audio's length in samples (before the last chunk's zero padding)
     */
    public static List<SpeechSegment> segments(float[] probs, int window, long audioSamples, int sampleRate, VadOptions o) {
        double thr = o.threshold(), neg = o.effectiveNegThreshold();
        double minSpeech = sampleRate * o.minSpeechMs() / 1000.0;
        double pad = sampleRate * o.speechPadMs() / 1000.0;
        double maxSpeech = sampleRate * o.maxSpeechS() - window - 2 * pad;
        double minSilence = sampleRate * o.minSilenceMs() / 1000.0;
        double minSilenceAtMax = sampleRate * VadOptions.MIN_SILENCE_AT_MAX_SPEECH_MS / 1000.0;

        List<long[]> speeches = new ArrayList<>(); // {start, end}
        boolean triggered = false;
        long start = -1;                            // -1: no open segment
        long tempEnd = 0, prevEnd = 0, nextStart = 0; // 0 doubles as "unset", as in the reference
        List<long[]> possibleEnds = new ArrayList<>(); // {end, silence length}

        for (int i = 0; i < probs.length; i++) {
            double p = probs[i];
            long pos = (long) window * i;
            if (p >= thr && tempEnd != 0) {
                long silence = pos - tempEnd;
                if (silence > minSilenceAtMax) possibleEnds.add(new long[] {tempEnd, silence});
                tempEnd = 0;
                if (nextStart < prevEnd) nextStart = pos;
            }
            if (p >= thr && !triggered) {
                triggered = true;
                start = pos;
                continue;
            }
            if (triggered && pos - start > maxSpeech) {
                if (!possibleEnds.isEmpty()) {
                    long[] best = possibleEnds.getFirst();
                    for (long[] e : possibleEnds) if (e[1] > best[1]) best = e; // the first longest, like Python's max
                    prevEnd = best[0];
                    speeches.add(new long[] {start, prevEnd});
                    start = -1;
                    nextStart = prevEnd + best[1];
                    if (nextStart < prevEnd + pos) start = nextStart; // already past that silence and still speech
                    else triggered = false;
                    long cut = nextStart;
                    possibleEnds.removeIf(e -> e[0] <= cut);
                    prevEnd = nextStart = tempEnd = 0;
                } else {
                    speeches.add(new long[] {start, pos});
                    start = -1;
                    prevEnd = nextStart = tempEnd = 0;
                    triggered = false;
                    possibleEnds.clear();
                    continue;
                }
            }
            if (p < neg && triggered) {
                if (tempEnd == 0) tempEnd = pos;
                if (pos - tempEnd < minSilence) continue;
                if (tempEnd - start > minSpeech) speeches.add(new long[] {start, tempEnd});
                start = -1;
                prevEnd = nextStart = tempEnd = 0;
                triggered = false;
                possibleEnds.clear();
            }
        }
        if (start >= 0 && audioSamples - start > minSpeech) speeches.add(new long[] {start, audioSamples});

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
