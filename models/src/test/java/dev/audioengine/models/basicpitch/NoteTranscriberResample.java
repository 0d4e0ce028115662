package dev.audioengine.models.basicpitch;

import dev.audioengine.audio.Resampler;

/** The engine's resampler to Basic Pitch's 22050 Hz, as NoteTranscriber.transcribe(Path, ...) reads files. */
final class NoteTranscriberResample {
    private NoteTranscriberResample() {}

    static float[] to22050(float[] samples, int rate) {
        return rate == 22050 ? samples : Resampler.resample(samples, rate, 22050);
    }
}
