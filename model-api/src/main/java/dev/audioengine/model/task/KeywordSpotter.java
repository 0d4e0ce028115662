package dev.audioengine.model.task;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.TaskModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A loaded keyword (wake word) spotting model ({@code --task kws}): a score per keyword for each fixed-length frame
 * of audio, and detections where a score reaches a threshold (see {@link KeywordOptions} for the debounce). Thread-safe:
 * one spotter may serve concurrent callers; the {@link KeywordStream}s it opens are not, one per audio source.
 */
public interface KeywordSpotter extends TaskModel {
    /**
     * The one sample rate the model runs at; audio at another rate is resampled by the caller (or by
     * {@link #detect(Path, KeywordOptions)}).
     *
     * @return samples per second
     */
    int sampleRate();

    /**
     * Samples per score frame at {@link #sampleRate()}.
     *
     * @return the frame length in samples
     */
    int frameSize();

    /**
     * Every keyword the model can spot, in the order scores report them when no selection is made.
     *
     * @return the keyword names
     */
    List<String> keywords();

    /**
     * One score per frame and selected keyword over the whole audio, the last partial frame zero-padded: the rows a
     * {@link KeywordStream} given the same audio reports.
     *
     * @param samples    the audio, in [-1, 1]
     * @param sampleRate its rate, which must be {@link #sampleRate()}
     * @param options    which keywords (their order in each row is {@link KeywordOptions#keywords()}'s, or
     *                   {@link #keywords()}' when it is empty)
     * @return scores[frame][keyword]
     * @throws IllegalArgumentException when the rate is not the model's, a keyword is unknown, or a sample is NaN or
     *                                  infinite
     */
    float[][] scores(float[] samples, int sampleRate, KeywordOptions options);

    /**
     * The detections over the whole audio.
     *
     * @param samples    the audio, in [-1, 1]
     * @param sampleRate its rate, which must be {@link #sampleRate()}
     * @param options    threshold, refractory period and keywords
     * @return the detections in time order
     * @throws IllegalArgumentException when the rate is not the model's, a keyword is unknown, or a sample is NaN or
     *                                  infinite
     */
    default List<KeywordDetection> detect(float[] samples, int sampleRate, KeywordOptions options) {
        if (sampleRate != sampleRate())
            throw new IllegalArgumentException(
                    "the model runs at " + sampleRate() + " Hz, got " + sampleRate + " Hz; resample the audio first");
        try (KeywordStream s = stream(options)) {
            List<KeywordDetection> out = new ArrayList<>(s.accept(samples).detections());
            out.addAll(s.finish().detections());
            return out;
        }
    }

    /**
     * The detections in an audio file (any format the audio module reads), resampled to {@link #sampleRate()} when
     * it has another rate; decoded and scored block by block, so memory does not grow with the file.
     *
     * @param audioFile the file to read
     * @param options   threshold, refractory period and keywords
     * @return the detections in time order
     * @throws IOException              when the file cannot be read or decoded
     * @throws IllegalArgumentException when a keyword is unknown or a sample is not finite
     */
    default List<KeywordDetection> detect(Path audioFile, KeywordOptions options) throws IOException {
        try (AudioStream in = AudioStream.open(audioFile)) {
            if (in.sourceRate() != sampleRate()) in.resampleTo(sampleRate());
            List<KeywordDetection> out = new ArrayList<>();
            float[] block = new float[1 << 16];
            try (KeywordStream s = stream(options)) {
                for (int n; (n = in.read(block, 0, block.length)) >= 0; )
                    out.addAll(s.accept(block, 0, n).detections());
                out.addAll(s.finish().detections());
            }
            return out;
        }
    }

    /**
     * A streaming spotter for audio as it arrives at {@link #sampleRate()}.
     *
     * @param options threshold, refractory period and keywords
     * @return a new stream; close it when done
     * @throws IllegalArgumentException when a keyword is unknown
     */
    KeywordStream stream(KeywordOptions options);
}
