package dev.audioengine.models.moonshine;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ONNX Runtime running moonshine-js's files as moonshine-js does (the reference and the speed peer): the encoder, then
 * greedy decoding with the merged decoder's cache branch, at most trunc(seconds · 6) tokens, stopped at EOS.
 */
final class OrtMoonshine implements AutoCloseable {
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession encoder, decoder;
    private final int layers, kvHeads, headDim;

    OrtMoonshine(MoonshineCheckpoint files, MoonshineConfig config, int threads) throws OrtException {
        OrtSession.SessionOptions o = new OrtSession.SessionOptions();
        o.setIntraOpNumThreads(threads);
        o.setInterOpNumThreads(1);
        encoder = env.createSession(files.encoder().toString(), o);
        decoder = env.createSession(files.decoder().toString(), o);
        layers = config.decoderLayers();
        kvHeads = config.decoderKvHeads();
        headDim = config.decoderHeadDim();
    }

    /** Encoder states [T × D] flattened; {@code frames[0]} receives T. */
    float[] encode(float[] audio, int[] frames) throws OrtException {
        try (OnnxTensor x = OnnxTensor.createTensor(env, FloatBuffer.wrap(audio), new long[] {1, audio.length});
                OrtSession.Result r = encoder.run(Map.of("input_values", x))) {
            OnnxTensor y = (OnnxTensor) r.get("last_hidden_state").orElseThrow();
            frames[0] = (int) y.getInfo().getShape()[1];
            FloatBuffer b = y.getFloatBuffer();
            float[] out = new float[b.remaining()];
            b.get(out);
            return out;
        }
    }

    /** moonshine-js's greedy loop with the cache; returns the tokens after BOS, without EOS. */
    List<Integer> transcribe(float[] audio) throws OrtException {
        return transcribe(audio, null);
    }

    /** As {@link #transcribe(float[])}, adding each step's logits to {@code stepLogits} when it is not null. */
    List<Integer> transcribe(float[] audio, List<float[]> stepLogits) throws OrtException {
        int[] t = new int[1];
        float[] memory = encode(audio, t);
        int maxLen = (int) (audio.length / 16000.0 * 6);
        List<Integer> tokens = new ArrayList<>();
        Map<String, OnnxTensor> past = new HashMap<>();
        try (OnnxTensor mem =
                OnnxTensor.createTensor(env, FloatBuffer.wrap(memory), new long[] {1, t[0], memory.length / t[0]})) {
            long next = MoonshineConfig.BOS;
            for (int i = 0; i < maxLen; i++) {
                Map<String, OnnxTensor> in = new HashMap<>(past);
                List<OnnxTensor> made = new ArrayList<>();
                try {
                    OnnxTensor ids =
                            OnnxTensor.createTensor(env, LongBuffer.wrap(new long[] {next}), new long[] {1, 1});
                    OnnxTensor cache = OnnxTensor.createTensor(env, new boolean[] {i > 0});
                    made.add(ids);
                    made.add(cache);
                    in.put("input_ids", ids);
                    in.put("encoder_hidden_states", mem);
                    in.put("use_cache_branch", cache);
                    if (i == 0) {
                        for (String name : decoder.getInputNames()) {
                            if (name.startsWith("past_key_values")) {
                                OnnxTensor z = OnnxTensor.createTensor(
                                        env, FloatBuffer.allocate(0), new long[] {1, kvHeads, 0, headDim});
                                made.add(z);
                                in.put(name, z);
                            }
                        }
                    }
                    OrtSession.Result r = decoder.run(in);
                    float[] logits = floats((OnnxTensor) r.get("logits").orElseThrow());
                    int best = argmax(logits, 0, logits.length);
                    if (stepLogits != null) stepLogits.add(logits);
                    // keep the decoder caches every step, the encoder caches from the first step (the cache branch
                    // passes them through empty)
                    Map<String, OnnxTensor> kept = new HashMap<>();
                    for (Map.Entry<String, ai.onnxruntime.OnnxValue> e : r) {
                        if (!e.getKey().startsWith("present")) continue;
                        String pastName = e.getKey().replace("present", "past_key_values");
                        if (i == 0 || e.getKey().contains("decoder"))
                            kept.put(pastName, copy((OnnxTensor) e.getValue()));
                        else kept.put(pastName, past.remove(pastName));
                    }
                    r.close();
                    past.values().forEach(OnnxTensor::close);
                    past = kept;
                    if (best == MoonshineConfig.EOS) break;
                    tokens.add(best);
                    next = best;
                } finally {
                    made.forEach(OnnxTensor::close);
                }
            }
        } finally {
            past.values().forEach(OnnxTensor::close);
        }
        return tokens;
    }

    private OnnxTensor copy(OnnxTensor t) throws OrtException {
        return OnnxTensor.createTensor(
                env, FloatBuffer.wrap(floats(t)), t.getInfo().getShape());
    }

    private static float[] floats(OnnxTensor t) {
        FloatBuffer b = t.getFloatBuffer();
        float[] out = new float[b.remaining()];
        b.get(out);
        return out;
    }

    static int argmax(float[] v, int from, int to) {
        int best = from;
        for (int i = from + 1; i < to; i++) if (v[i] > v[best]) best = i;
        return best - from;
    }

    @Override
    public void close() throws OrtException {
        decoder.close();
        encoder.close();
    }
}
