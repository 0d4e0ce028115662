package dev.audioengine.models.whisper;

import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The weights of a {@link GgmlWriter} written again in transformers' layout: a folder with config.json,
 * model.safetensors (F32, transformers' names) and tokenizer.json (GPT-2's vocabulary as model.vocab), as
 * {@code WhisperForConditionalGeneration.save_pretrained} and its tokenizer would leave them.
 */
final class TransformersLayout {
    private TransformersLayout() {}

    /** transformers' name for an OpenAI one. */
    static String rename(String n) {
        String s = n.replace("encoder.positional_embedding", "encoder.embed_positions.weight")
                .replace("decoder.positional_embedding", "decoder.embed_positions.weight")
                .replace("decoder.token_embedding", "decoder.embed_tokens")
                .replace("encoder.ln_post", "encoder.layer_norm")
                .replace("decoder.ln.", "decoder.layer_norm.")
                .replace(".blocks.", ".layers.")
                .replace(".cross_attn_ln.", ".encoder_attn_layer_norm.")
                .replace(".cross_attn.", ".encoder_attn.")
                .replace(".attn_ln.", ".self_attn_layer_norm.")
                .replace(".attn.", ".self_attn.")
                .replace(".mlp_ln.", ".final_layer_norm.")
                .replace(".mlp.0.", ".fc1.")
                .replace(".mlp.2.", ".fc2.")
                .replace(".query.", ".q_proj.")
                .replace(".key.", ".k_proj.")
                .replace(".value.", ".v_proj.")
                .replace(".out.", ".out_proj.");
        return "model." + s;
    }

    static void write(GgmlWriter w, Path dir, Path gpt2EncoderJson) throws IOException {
        Files.createDirectories(dir);
        WhisperConfig c = w.config;
        Files.writeString(
                dir.resolve("config.json"),
                "{\"model_type\": \"whisper\", \"vocab_size\": " + c.vocabulary() + ", \"num_mel_bins\": " + c.mels()
                        + ", \"d_model\": " + c.audioState() + ", \"encoder_layers\": " + c.audioLayers()
                        + ", \"encoder_attention_heads\": " + c.audioHeads() + ", \"decoder_layers\": "
                        + c.textLayers() + ", \"decoder_attention_heads\": " + c.textHeads()
                        + ", \"encoder_ffn_dim\": " + 4 * c.audioState() + ", \"decoder_ffn_dim\": "
                        + 4 * c.textState() + ", \"max_source_positions\": " + c.audioCtx()
                        + ", \"max_target_positions\": " + c.textCtx() + "}\n");
        Files.writeString(
                dir.resolve("tokenizer.json"),
                "{\"model\": {\"type\": \"BPE\", \"vocab\": " + Files.readString(gpt2EncoderJson) + "}}\n");
        Map<String, float[]> tensors = new LinkedHashMap<>();
        Map<String, int[]> shapes = new LinkedHashMap<>();
        for (var e : w.values.entrySet()) {
            int[] shape = w.shapes.get(e.getKey());
            if (e.getKey().endsWith("conv1.bias") || e.getKey().endsWith("conv2.bias")) shape = new int[] {shape[0]};
            tensors.put(rename(e.getKey()), e.getValue());
            shapes.put(rename(e.getKey()), shape);
        }
        StringBuilder h = new StringBuilder("{");
        long at = 0;
        for (var e : tensors.entrySet()) {
            long bytes = 4L * e.getValue().length;
            if (h.length() > 1) h.append(',');
            h.append('"')
                    .append(e.getKey())
                    .append("\":{\"dtype\":\"F32\",\"shape\":")
                    .append(java.util.Arrays.toString(shapes.get(e.getKey())).replace(" ", ""))
                    .append(",\"data_offsets\":[")
                    .append(at)
                    .append(',')
                    .append(at + bytes)
                    .append("]}");
            at += bytes;
        }
        h.append('}');
        while ((h.length() + 8) % 8 != 0) h.append(' ');
        byte[] header = h.toString().getBytes(StandardCharsets.UTF_8);
        try (OutputStream out =
                new BufferedOutputStream(Files.newOutputStream(dir.resolve("model.safetensors")), 1 << 20)) {
            out.write(ByteBuffer.allocate(8)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(header.length)
                    .array());
            out.write(header);
            for (float[] v : tensors.values()) {
                ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
                for (float f : v) b.putFloat(f);
                out.write(b.array());
            }
        }
    }
}
