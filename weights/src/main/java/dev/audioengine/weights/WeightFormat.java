package dev.audioengine.weights;

/** The on-disk formats {@link WeightFiles#open} understands. */
public enum WeightFormat {
    /** Hugging Face safetensors: 8-byte header length, JSON header, raw tensor bytes. */
    SAFETENSORS,
    /** ggml's GGUF, versions 2 and 3 (little-endian). */
    GGUF,
    /**
     * whisper.cpp's own model files ({@code ggml-*.bin}): hyperparameters, mel filters, vocabulary, then unaligned
     * tensors (see {@code GgmlWhisperReader}); the tensors are copied into aligned memory at open.
     */
    GGML_WHISPER
}
