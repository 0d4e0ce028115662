package dev.audioengine.models.whisper;

import dev.audioengine.blocks.LogMel;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded random Whisper weights written as a whisper.cpp model file (the layout whisper.cpp's
 * {@code whisper_model_load} reads: magic, hparams, mel filters, vocabulary, then tensors with OpenAI's names), so
 * that whisper.cpp and the engine run the very same numbers. F32 (ftype 0) or F16 (ftype 1): in an F16 file the
 * matmul weights, the token table and the conv kernels are F16 and the rest F32, as whisper.cpp expects. The values
 * are kept (already rounded to F16 where stored so) for writing the same model in other layouts.
 * <p>
 * The decoder's learned positions from {@code eotFrom} on are pushed towards EOT's embedding, so that greedy
 * decoding of random weights ends after a known number of tokens (whisper.cpp marks a window that never ends as failed).
 */
final class GgmlWriter {
    final WhisperConfig config;
    final Map<String, float[]> values = new LinkedHashMap<>();
    final Map<String, int[]> shapes = new LinkedHashMap<>(); // outermost first, as PyTorch
    private final Map<String, Boolean> half = new LinkedHashMap<>();
    private final boolean f16;
    private final SplittableRandom random;

    GgmlWriter(WhisperConfig c, boolean f16, long seed, int eotFrom) {
        this.config = c;
        this.f16 = f16;
        this.random = new SplittableRandom(seed);
        int d = c.audioState();
        float[] sin = sinusoids(c.audioCtx(), d);
        put("encoder.positional_embedding", sin, false, c.audioCtx(), d);
        linearLike("encoder.conv1.weight", true, d, c.mels(), 3);
        put("encoder.conv1.bias", uniform(d, 0.1f), false, d, 1);
        linearLike("encoder.conv2.weight", true, d, d, 3);
        put("encoder.conv2.bias", uniform(d, 0.1f), false, d, 1);
        for (int l = 0; l < c.audioLayers(); l++) block("encoder.blocks." + l, d, false);
        norm("encoder.ln_post", d);
        // positions as strong as tokens: with a tied table a token's own row would otherwise win the next step too.
        // That self-score grows as d, the others' spread as sqrt(d): the positions grow with sqrt(d) to keep up
        float positionStd = (float) (1.5 * Math.sqrt(d / 64.0));
        put("decoder.positional_embedding", normal(c.textCtx() * d, positionStd), false, c.textCtx(), d);
        put("decoder.token_embedding.weight", normal(c.vocabulary() * d, 0.5f), true, c.vocabulary(), d);
        for (int l = 0; l < c.textLayers(); l++) block("decoder.blocks." + l, d, true);
        norm("decoder.ln", d);
        // positions from eotFrom on point at EOT's row, strongly enough to beat what the layers add
        int eot = new WhisperTokenizer(new byte[0][], c.vocabulary()).eot();
        float[] table = values.get("decoder.token_embedding.weight"), pos = values.get("decoder.positional_embedding");
        double norm = 0;
        for (int i = 0; i < d; i++) norm += table[eot * d + i] * table[eot * d + i];
        for (int p = eotFrom; p < c.textCtx(); p++)
            for (int i = 0; i < d; i++) pos[p * d + i] = (float) (table[eot * d + i] * 12 * Math.sqrt(d / norm));
    }

    /**
     * Scales the timestamp tokens' rows of the (tied) token table, so that random weights take timestamps: their
     * summed probability then often beats the likeliest text token, as it does in a trained model.
     */
    GgmlWriter boostTimestamps(float factor) {
        String name = "decoder.token_embedding.weight";
        float[] table = values.get(name);
        int d = config.textState(), beg = new WhisperTokenizer(new byte[0][], config.vocabulary()).timestampBegin();
        for (int i = beg * d; i < table.length; i++) {
            float v = table[i] * factor;
            table[i] = half.get(name) ? Float.float16ToFloat(Float.floatToFloat16(v)) : v;
        }
        return this;
    }

    private void block(String prefix, int d, boolean decoder) {
        attention(prefix + ".attn", d);
        norm(prefix + ".attn_ln", d);
        if (decoder) {
            attention(prefix + ".cross_attn", d);
            norm(prefix + ".cross_attn_ln", d);
        }
        linearLike(prefix + ".mlp.0.weight", true, 4 * d, d);
        put(prefix + ".mlp.0.bias", uniform(4 * d, 0.1f), false, 4 * d);
        linearLike(prefix + ".mlp.2.weight", true, d, 4 * d);
        put(prefix + ".mlp.2.bias", uniform(d, 0.1f), false, d);
        norm(prefix + ".mlp_ln", d);
    }

    private void attention(String prefix, int d) {
        for (String p : List.of("query", "key", "value", "out")) {
            linearLike(prefix + "." + p + ".weight", true, d, d);
            if (!p.equals("key")) put(prefix + "." + p + ".bias", uniform(d, 0.1f), false, d);
        }
    }

    private void norm(String prefix, int d) {
        float[] w = uniform(d, 0.2f);
        for (int i = 0; i < d; i++) w[i] += 1;
        put(prefix + ".weight", w, false, d);
        put(prefix + ".bias", uniform(d, 0.1f), false, d);
    }

    /** Uniform in ±1/√fan-in, as torch initialises Linear and Conv. */
    private void linearLike(String name, boolean halfInF16, int... shape) {
        int fanIn = 1, n = 1;
        for (int i = 1; i < shape.length; i++) fanIn *= shape[i];
        for (int s : shape) n *= s;
        put(name, uniform(n, (float) (1 / Math.sqrt(fanIn))), halfInF16, shape);
    }

    private void put(String name, float[] v, boolean halfInF16, int... shape) {
        boolean h = f16 && halfInF16;
        if (h) for (int i = 0; i < v.length; i++) v[i] = Float.float16ToFloat(Float.floatToFloat16(v[i]));
        values.put(name, v);
        shapes.put(name, shape);
        half.put(name, h);
    }

    private float[] uniform(int n, float bound) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) ((random.nextDouble() * 2 - 1) * bound);
        return v;
    }

    private float[] normal(int n, float std) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            double u1 = random.nextDouble(), u2 = random.nextDouble();
            v[i] = (float) (std * Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2));
        }
        return v;
    }

    /** openai-whisper's sinusoids(length, channels): sin then cos halves, log-spaced timescales up to 10000. */
    static float[] sinusoids(int length, int channels) {
        int half = channels / 2;
        double inc = Math.log(10000) / (half - 1);
        float[] out = new float[length * channels];
        for (int t = 0; t < length; t++) {
            for (int i = 0; i < half; i++) {
                double a = t * Math.exp(-inc * i);
                out[t * channels + i] = (float) Math.sin(a);
                out[t * channels + half + i] = (float) Math.cos(a);
            }
        }
        return out;
    }

    /** Writes the file: {@code vocabulary} holds the text tokens' bytes (whisper.cpp names the specials itself). */
    void write(Path file, List<byte[]> vocabulary) throws IOException {
        WhisperConfig c = config;
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
                DataOutputStream out = new DataOutputStream(os)) {
            i32(out, 0x67676d6c);
            for (int h : new int[] {
                c.vocabulary(),
                c.audioCtx(),
                c.audioState(),
                c.audioHeads(),
                c.audioLayers(),
                c.textCtx(),
                c.textState(),
                c.textHeads(),
                c.textLayers(),
                c.mels(),
                f16 ? 1 : 0
            }) i32(out, h);
            i32(out, c.mels());
            i32(out, 201);
            for (float f : LogMel.slaney(16000, 400, c.mels())) i32(out, Float.floatToRawIntBits(f));
            i32(out, vocabulary.size());
            for (byte[] t : vocabulary) {
                i32(out, t.length);
                out.write(t);
            }
            for (var e : values.entrySet()) {
                int[] shape = shapes.get(e.getKey());
                byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
                boolean h = half.get(e.getKey());
                i32(out, shape.length);
                i32(out, name.length);
                i32(out, h ? 1 : 0);
                for (int i = shape.length - 1; i >= 0; i--) i32(out, shape[i]); // ggml: innermost first
                out.write(name);
                for (float f : e.getValue()) {
                    if (h) {
                        short s = Float.floatToFloat16(f);
                        out.write(s & 0xff);
                        out.write((s >> 8) & 0xff);
                    } else {
                        i32(out, Float.floatToRawIntBits(f));
                    }
                }
            }
        }
    }

    private static void i32(DataOutputStream out, int v) throws IOException {
        out.writeInt(Integer.reverseBytes(v));
    }
}
