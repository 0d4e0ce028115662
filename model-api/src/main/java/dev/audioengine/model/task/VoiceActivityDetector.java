package dev.audioengine.model.task;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.TaskModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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

    /**
     * Speech segments of an audio file (any format the audio module reads), resampled to the model's highest native
     * rate when it has another rate; decoded and detected block by block, so memory does not grow with the file.
     */
    default List<SpeechSegment> segments(Path audioFile, VadOptions options) throws IOException {
        try (AudioStream in = AudioStream.open(audioFile)) {
            if (!sampleRates().contains(in.sourceRate()))
                in.resampleTo(sampleRates().stream().max(Integer::compare).orElseThrow());
            List<SpeechSegment> segments = new ArrayList<>();
            float[] block = new float[1 << 16];
            try (OfflineVad session = offline(in.sampleRate(), options)) {
                for (int n; (n = in.read(block, 0, block.length)) >= 0; )
                    segments.addAll(session.accept(block, 0, n).segments());
                segments.addAll(session.finish().segments());
            }
            return segments;
        }
    }

    /** A streaming detector for audio as it arrives. */
    VadStream stream(int sampleRate, VadOptions options);

    /** An offline session for audio pushed in blocks (long files, pipes): bounded memory, the whole-array results. */
    OfflineVad offline(int sampleRate, VadOptions options);
}
