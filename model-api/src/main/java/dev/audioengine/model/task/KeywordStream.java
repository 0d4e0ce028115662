package dev.audioengine.model.task;

import java.util.List;

/**
 * Keyword spotting on audio as it arrives: {@link #accept} takes any number of samples at {@link #sampleRate()} and
 * reports the score frames they complete and the detections those frames make; {@link #finish} ends the audio. The
 * scores do not depend on how the audio is cut into calls, up to float rounding (a model may run the frames of one
 * call as a batch, which a backend may sum in another order than one frame). Not thread-safe: one stream per audio
 * source, fed from one thread at a time. Close it to free what it holds on the engine.
 */
public interface KeywordStream extends AutoCloseable {
    /**
     * What one call produced.
     *
     * @param firstFrame the index of the first frame in {@code scores} since the start of the audio
     * @param scores     one row per completed frame, one score per keyword of {@link #keywords()} in that order
     * @param detections the detections those frames made, in frame order
     */
    record Result(long firstFrame, float[][] scores, List<KeywordDetection> detections) {
        /**
         * Keeps the lists as given.
         *
         * @throws NullPointerException when {@code scores} or {@code detections} is null
         */
        public Result {
            detections = List.copyOf(detections);
            java.util.Objects.requireNonNull(scores, "scores");
        }
    }

    /**
     * The rate samples are taken at.
     *
     * @return samples per second
     */
    int sampleRate();

    /**
     * Samples per score frame.
     *
     * @return the frame length in samples
     */
    int frameSize();

    /**
     * The keywords this stream reports, in the order of each row of {@link Result#scores()}.
     *
     * @return the selected keywords
     */
    List<String> keywords();

    /**
     * Feeds samples in [-1, 1] at {@link #sampleRate()}.
     *
     * @param samples the next samples of the audio
     * @return the frames these samples completed and their detections
     * @throws IllegalArgumentException when a sample is NaN or infinite (nothing of the call is used)
     */
    default Result accept(float[] samples) {
        return accept(samples, 0, samples.length);
    }

    /**
     * Feeds {@code length} samples of {@code samples} from {@code offset}.
     *
     * @param samples the array holding the next samples
     * @param offset  where they start in it
     * @param length  how many
     * @return the frames these samples completed and their detections
     * @throws IllegalArgumentException  when a sample is NaN or infinite (nothing of the call is used)
     * @throws IndexOutOfBoundsException when the range is not inside the array
     */
    Result accept(float[] samples, int offset, int length);

    /**
     * The end of the audio: a partial frame still buffered is zero-padded and scored; the stream is then reset.
     *
     * @return the last frame, if any, and its detections
     */
    Result finish();

    /** Forgets the audio so far, as if new. */
    void reset();

    @Override
    void close();
}
