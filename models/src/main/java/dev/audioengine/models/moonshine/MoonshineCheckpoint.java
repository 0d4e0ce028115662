package dev.audioengine.models.moonshine;

import dev.audioengine.model.ModelFormatException;
import dev.audioengine.models.json.ModelJson;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A Moonshine model on disk, in one of the two layouts the family reads:
 * <ul>
 * <li>{@link Kind#ONNX_EXPORT}: moonshine-js's {@code encoder_model.onnx} and {@code decoder_model_merged.onnx} (8-bit,
 *     optimum's merged decoder); the geometry is the released size the encoder's width names (288 tiny, 416 base);</li>
 * <li>{@link Kind#TRANSFORMERS}: a Hugging Face checkpoint folder ({@code config.json}, {@code model.safetensors},
 *     {@code tokenizer.json}), geometry from its config.</li>
 * </ul>
 *
 * @param tokenizer the vocabulary file, or null when the folder has none (the pinned Llama vocabulary is used)
 */
public record MoonshineCheckpoint(Kind kind, Path encoder, Path decoder, Path tokenizer, MoonshineConfig config) {
    public enum Kind {
        ONNX_EXPORT,
        TRANSFORMERS
    }

    public static final String ENCODER_ONNX = "encoder_model.onnx", DECODER_ONNX = "decoder_model_merged.onnx";

    /** What a folder holds, checked for the files each layout needs (not their tensors: {@link MoonshineWeights} does that). */
    public static MoonshineCheckpoint inFolder(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new ModelFormatException(
                    folder + " is not a folder; a Moonshine model is a folder with " + ENCODER_ONNX + " and "
                            + DECODER_ONNX + " (moonshine-js) or config.json and model.safetensors (Hugging Face)");
        }
        Path enc = folder.resolve(ENCODER_ONNX), dec = folder.resolve(DECODER_ONNX);
        Path config = folder.resolve("config.json"), weights = folder.resolve("model.safetensors");
        Path tokenizer =
                Files.isRegularFile(folder.resolve("tokenizer.json")) ? folder.resolve("tokenizer.json") : null;
        if (Files.isRegularFile(enc) && Files.isRegularFile(dec))
            return new MoonshineCheckpoint(Kind.ONNX_EXPORT, enc, dec, tokenizer, null);
        if (Files.isRegularFile(config) && Files.isRegularFile(weights)) {
            return new MoonshineCheckpoint(Kind.TRANSFORMERS, weights, weights, tokenizer, readConfig(config));
        }
        throw new ModelFormatException(
                folder + " holds neither " + ENCODER_ONNX + " + " + DECODER_ONNX + " (moonshine-js's ONNX export) nor "
                        + "config.json + model.safetensors (a Hugging Face Moonshine checkpoint)");
    }

    /** transformers' MoonshineConfig fields, from config.json; a config of another model type is refused. */
    static MoonshineConfig readConfig(Path file) throws IOException {
        if (!(ModelJson.read(file, Files.readAllBytes(file)) instanceof Map<?, ?> json)) {
            throw new ModelFormatException(file + " is not a JSON object");
        }
        Object type = json.get("model_type");
        if (!"moonshine".equals(type))
            throw new ModelFormatException(file + " describes a " + type + " model, not moonshine");
        double factor = json.get("partial_rotary_factor") instanceof Number n ? n.doubleValue() : 0.9;
        double base = 10000;
        if (json.get("rope_parameters") instanceof Map<?, ?> rope) {
            if (rope.get("rope_theta") instanceof Number n) base = n.doubleValue();
            if (rope.get("partial_rotary_factor") instanceof Number n) factor = n.doubleValue();
            if (rope.get("rope_type") instanceof String t && !t.equals("default")) {
                throw new ModelFormatException(
                        file + ": rope_type " + t + " is not supported (only the default rotary)");
            }
        } else if (json.get("rope_theta") instanceof Number n) {
            base = n.doubleValue();
        }
        int decoderHeads = integer(json, file, "decoder_num_attention_heads");
        int kv = json.get("decoder_num_key_value_heads") instanceof Number n ? n.intValue() : decoderHeads;
        int encoderHeads = integer(json, file, "encoder_num_attention_heads");
        if (json.get("encoder_num_key_value_heads") instanceof Number n && n.intValue() != encoderHeads) {
            throw new ModelFormatException(file + ": grouped key/value heads in the encoder are not supported");
        }
        if (!"gelu".equals(json.get("encoder_hidden_act")) || !"silu".equals(json.get("decoder_hidden_act"))) {
            throw new ModelFormatException(file + ": activations " + json.get("encoder_hidden_act") + "/"
                    + json.get("decoder_hidden_act") + " are not Moonshine's gelu/silu");
        }
        if (Boolean.TRUE.equals(json.get("attention_bias")))
            throw new ModelFormatException(file + ": attention_bias true is not supported");
        try {
            return new MoonshineConfig(
                    integer(json, file, "hidden_size"),
                    integer(json, file, "intermediate_size"),
                    integer(json, file, "encoder_num_hidden_layers"),
                    integer(json, file, "decoder_num_hidden_layers"),
                    encoderHeads,
                    decoderHeads,
                    kv,
                    factor,
                    (float) base,
                    integer(json, file, "vocab_size"));
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(file + ": " + e.getMessage(), e);
        }
    }

    private static int integer(Map<?, ?> json, Path file, String key) throws ModelFormatException {
        if (!(json.get(key) instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw new ModelFormatException(file + " has no integer " + key);
        }
        return n.intValue();
    }

    /** The released geometry an ONNX export's width names; the layer counts are checked against the file later. */
    static MoonshineConfig releasedSize(long hidden, Path encoder) throws ModelFormatException {
        if (hidden == MoonshineConfig.TINY.hidden()) return MoonshineConfig.TINY;
        if (hidden == MoonshineConfig.BASE.hidden()) return MoonshineConfig.BASE;
        throw new ModelFormatException(
                encoder + " is " + hidden + " wide, which is neither moonshine-tiny (288) nor moonshine-base (416); "
                        + "an ONNX export carries no config, so only the released sizes are known");
    }
}
