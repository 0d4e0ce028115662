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
    /**
     * The sample rates the model runs at natively; audio at other rates is resampled by the caller.
     *
     * @return the rates in Hz (Silero: 8000 and 16000)
     */
    List<Integer> sampleRates();

    /**
     * Samples per model chunk at {@code sampleRate}.
     *
     * @param sampleRate one of {@link #sampleRates()}
     * @return samples per probability (Silero: 512 at 16 kHz, 256 at 8 kHz, 32 ms either way)
     * @throws IllegalArgumentException if the rate is not native to the model
     */
    int chunkSize(int sampleRate);

    /**
     * One speech probability per chunk over the whole audio, the last chunk zero-padded.
     *
     * @param samples mono audio, finite values
     * @param sampleRate the audio's rate, one of {@link #sampleRates()}
     * @return ceil(samples / chunk size) probabilities in [0, 1]
     * @throws IllegalArgumentException if the rate is not native or a sample is NaN or infinite
     */
    float[] probabilities(float[] samples, int sampleRate);

    /**
     * The probabilities and the segments they give, from one pass over the audio.
     *
     * @param samples mono audio, finite values
     * @param sampleRate the audio's rate, one of {@link #sampleRates()}
     * @param options the segmentation settings; {@link VadOptions#DEFAULTS} for Silero's
     * @return both results
     * @throws IllegalArgumentException if the rate is not native or a sample is NaN or infinite
     */
    Detection detect(float[] samples, int sampleRate, VadOptions options);

    /**
     * Speech segments (Silero's get_speech_timestamps semantics over {@link #probabilities}).
     *
     * @param samples mono audio, finite values
     * @param sampleRate the audio's rate, one of {@link #sampleRates()}
     * @param options the segmentation settings
     * @return the segments in order, in samples at {@code sampleRate}; empty when there is no speech
     * @throws IllegalArgumentException if the rate is not native or a sample is NaN or infinite
     */
    default List<SpeechSegment> segments(float[] samples, int sampleRate, VadOptions options) {
        return detect(samples, sampleRate, options).segments();
    }

    /**
     * What {@link #detect} found: one probability per chunk, and the speech segments.
     *
     * @param probabilities one speech probability in [0, 1] per chunk of {@link #chunkSize} samples
     * @param segments the speech segments in order
     */
    record Detection(float[] probabilities, List<SpeechSegment> segments) {}

    /**
     * Speech segments of an audio file (any format the audio module reads), resampled to the model's highest native
     * rate when it has another rate; decoded and detected block by block, so memory does not grow with the file.
     *
     * @param audioFile a file the audio module decodes; several channels are mixed to mono
     * @param options the segmentation settings
     * @return the segments, in samples at the rate the detection ran at ({@link SpeechSegment#sampleRate()}), which
     *     may differ from the file's
     * @throws IOException if the file cannot be read or decoded (an {@link dev.audioengine.audio.AudioFormatException}
     *     for an unsupported format or a NaN or infinite sample)
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

    /**
     * A streaming detector for audio as it arrives.
     *
     * @param sampleRate the rate of the audio to come, one of {@link #sampleRates()}
     * @param options the segmentation settings
     * @return a new stream, owned by the caller, who closes it before this detector
     * @throws IllegalArgumentException if the rate is not native to the model
     */
    VadStream stream(int sampleRate, VadOptions options);

    /**
     * An offline session for audio pushed in blocks (long files, pipes): bounded memory, the whole-array results.
     *
     * @param sampleRate the rate of the audio to come, one of {@link #sampleRates()}
     * @param options the segmentation settings
     * @return a new session, owned by the caller, who closes it before this detector
     * @throws IllegalArgumentException if the rate is not native to the model
     */
    OfflineVad offline(int sampleRate, VadOptions options);
}
