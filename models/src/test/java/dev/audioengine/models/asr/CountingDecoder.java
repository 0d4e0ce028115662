package dev.audioengine.models.asr;

import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.TranscriptSegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A fake recognizer: records every window it decodes, checks that its samples are the {@link SyntheticAudio} at the
 * window's position, and answers "w&lt;start&gt;-&lt;end&gt;" with one token per started second.
 */
final class CountingDecoder implements WindowDecoder {
    final List<SpeechSegment> windows = new ArrayList<>();

    @Override
    public TranscriptSegment decode(float[] samples, int from, int length, long startSample) {
        for (int i = 0; i < length; i++) {
            if (samples[from + i] != SyntheticAudio.at(startSample + i)) {
                throw new AssertionError(
                        "window at " + startSample + ": sample " + i + " is not the audio at " + (startSample + i));
            }
        }
        windows.add(new SpeechSegment(startSample, startSample + length, SAMPLE_RATE));
        List<Integer> tokens = Collections.nCopies(1 + length / SAMPLE_RATE, 7);
        return new TranscriptSegment(
                startSample,
                startSample + length,
                SAMPLE_RATE,
                "w" + startSample + "-" + (startSample + length),
                tokens);
    }
}
