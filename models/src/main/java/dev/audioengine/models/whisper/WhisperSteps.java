package dev.audioengine.models.whisper;

/**
 * What Whisper's decoding loops ({@link WhisperLongForm}, {@link WhisperModel#decode}) ask of a decoder: a window
 * encoded into its cross caches, then one token a step at increasing positions. A {@link WhisperSession} does it alone;
 * a slot of a {@link WhisperBatch} does it beside other callers' sequences, its steps run together with theirs.
 */
interface WhisperSteps {
    /** Encodes one window of at most 30 s ({@code length} samples from {@code from}, zero-padded) for the steps after. */
    void encode(float[] samples, int from, int length);

    /** Feeds {@code token} at {@code position} (every earlier position fed since the last encode) → logits [V]. */
    float[] step(int token, int position);

    /**
     * {@code n} decoders of the window last encoded, each starting from the caches that feeding {@code fed} (from
     * position 0, through {@link #step}) left: beam search and best-of sampling. Closed when their pass ends; until
     * then {@link #step} is not called.
     */
    Decoders decoders(int n, int[] fed);

    /** Several decoders' steps over one window: {@link WhisperBeamSearch.Beams}, closed when the pass ends. */
    interface Decoders extends WhisperBeamSearch.Beams, AutoCloseable {
        @Override
        void close();
    }
}
