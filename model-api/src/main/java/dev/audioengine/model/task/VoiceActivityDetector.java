package dev.audioengine.model.task;

import dev.audioengine.audio.AudioClip;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.TaskModel;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A loaded voice activity detection model ({@code --task vad}). Thread-safe: one detector may serve concurrent callers
 * (each call runs on state of its own); the {@link VadStream}s it opens are not, one per audio source.
 */
public interface VoiceActivityDetector extends TaskModel {
    /** The sample rates the model runs at natively; audio at other rates is resampled by the caller. */
    List<Integer> sampleRates();

    /** Samples per model chunk at {@code sampleRate}. */
    int chunkSize(int sampleRate);

    /** One speech probability per chunk over the whole audio, the last chunk zero-padded. */
    float[] probabilities(float[] samples, int sampleRate);

    /** The probabilities and the segments they give, from one pass over the audio. */
    Detection detect(float[] samples, int sampleRate, VadOptions options);

    /** Speech segments (Silero's get_speech_timestamps semantics over {@link #probabilities}). */
    default List<SpeechSegment> segments(float[] samples, int sampleRate, VadOptions options) {
        return detect(samples, sampleRate, options).segments();
    }

    /** What {@link #detect} found: one probability per chunk, and the speech segments. */
    record Detection(float[] probabilities, List<SpeechSegment> segments) {}

    /** Speech segments of an audio file, resampled to the model's highest native rate when it has another rate. */
    default List<SpeechSegment> segments(Path audioFile, VadOptions options) throws IOException {
        AudioClip clip = WavReader.read(audioFile);
        if (!sampleRates().contains(clip.sampleRate())) clip = clip.resampledTo(sampleRates().stream().max(Integer::compare).orElseThrow());
        return segments(clip.samples(), clip.sampleRate(), options);
    }

    /** A streaming detector for audio as it arrives. */
    VadStream stream(int sampleRate, VadOptions options);
}
