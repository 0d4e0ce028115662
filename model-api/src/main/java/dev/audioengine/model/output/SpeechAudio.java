package dev.audioengine.model.output;

import dev.audioengine.model.task.SpeechSegment;
import java.util.List;

/** The speech-only audio of a recording: Silero's collect_chunks. */
public final class SpeechAudio {
    private SpeechAudio() {}

    /**
     * The samples of {@code segments} (in order, not overlapping, as the VAD returns them) joined
     * end to end; empty when there are none.
     *
     * @param audio the whole recording, at the rate the segments count in
     * @param segments the speech, in order and not overlapping, inside the audio
     * @return a new array of the speech samples
     * @throws IllegalArgumentException if a segment is out of order or reaches past the audio
     */
    public static float[] collect(float[] audio, List<SpeechSegment> segments) {
        long n = 0, last = 0;
        for (SpeechSegment s : segments) {
            if (s.startSample() < last || s.endSample() < s.startSample() || s.endSample() > audio.length) {
                throw new IllegalArgumentException(
                        "segment " + s + " is out of order or outside the " + audio.length + " samples of the audio");
            }
            n += s.endSample() - s.startSample();
            last = s.endSample();
        }
        float[] out = new float[Math.toIntExact(n)];
        int k = 0;
        for (SpeechSegment s : segments) {
            int len = (int) (s.endSample() - s.startSample());
            System.arraycopy(audio, (int) s.startSample(), out, k, len);
            k += len;
        }
        return out;
    }
}
