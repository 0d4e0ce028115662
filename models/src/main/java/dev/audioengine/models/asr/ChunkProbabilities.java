package dev.audioengine.models.asr;

/**
 * The voice activity detector's speech probability per chunk: chunk {@code c} covers samples
 * {@code [c * chunkSize(), (c + 1) * chunkSize())} of the audio. Long segments are split where it is lowest.
 */
public interface ChunkProbabilities {
    /** No probabilities known: long segments are split into equal parts. */
    ChunkProbabilities NONE = new ChunkProbabilities() {
        @Override
        public int chunkSize() {
            return 1;
        }

        @Override
        public float at(long chunk) {
            return Float.NaN;
        }
    };

    int chunkSize();

    /** The probability of chunk {@code chunk}; NaN where it is not known. */
    float at(long chunk);

    /** The probabilities of audio starting at sample 0, one per chunk, as {@code VoiceActivityDetector.probabilities} gives them. */
    static ChunkProbabilities of(float[] probabilities, int chunkSize) {
        if (chunkSize <= 0) throw new IllegalArgumentException("chunk size must be positive, got " + chunkSize);
        float[] values = probabilities.clone();
        return new ChunkProbabilities() {
            @Override
            public int chunkSize() {
                return chunkSize;
            }

            @Override
            public float at(long chunk) {
                return chunk >= 0 && chunk < values.length ? values[(int) chunk] : Float.NaN;
            }
        };
    }
}
