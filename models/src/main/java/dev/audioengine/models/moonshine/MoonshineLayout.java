package dev.audioengine.models.moonshine;

/**
 * Where a Moonshine file keeps each weight: the names differ between optimum's ONNX export (what moonshine-js ships)
 * and transformers' checkpoint (what Hugging Face hosts), the tensors do not.
 *
 * @param encoderPrefix    scope of the encoder in its file
 * @param decoderPrefix    scope of the decoder in its file
 * @param attentionOutput  attention's output projection (ONNX export: dense; transformers: o_proj)
 * @param decoderMlpUp     the decoder's SwiGLU projection to value and gate (up_proj; fc1)
 * @param decoderMlpDown   its down projection (down_proj; fc2)
 * @param outputHead       the output head; when absent the head is tied to the decoder's embedding
 */
public record MoonshineLayout(
        String encoderPrefix,
        String decoderPrefix,
        String attentionOutput,
        String decoderMlpUp,
        String decoderMlpDown,
        String outputHead) {
    /** encoder_model.onnx (no prefix) and decoder_model_merged.onnx, as optimum exported them for moonshine-js. */
    public static final MoonshineLayout ONNX_EXPORT =
            new MoonshineLayout("", "model.decoder", "dense", "up_proj", "down_proj", "proj_out");

    /** MoonshineForConditionalGeneration's state dict (model.safetensors). */
    public static final MoonshineLayout TRANSFORMERS =
            new MoonshineLayout("model.encoder", "model.decoder", "o_proj", "fc1", "fc2", "proj_out");
}
