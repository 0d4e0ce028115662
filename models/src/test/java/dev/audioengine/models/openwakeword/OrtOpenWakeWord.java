package dev.audioengine.models.openwakeword;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference: ONNX Runtime running openWakeWord's ONNX files, composed as openWakeWord's Python package composes
 * them ({@code AudioFeatures._streaming_features}, {@code Model.predict}): 16-bit PCM values into the mel model, per
 * 80 ms chunk the chunk and the 480 samples before it (the first chunk alone), {@code x/10 + 2}, a feature buffer
 * that starts as 76 rows of ones, one embedding per chunk of its last 76 rows, each head on its last embeddings, 0 for
 * the first 5 frames. Where openWakeWord starts its embedding buffer from random noise, this starts it with the
 * embedding of the 76 ones (as the engine does). One intra-op thread.
 */
final class OrtOpenWakeWord implements AutoCloseable {
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession mel, embedding;
    private final Map<String, OrtSession> heads = new LinkedHashMap<>();

    OrtOpenWakeWord(Path melFile, Path embeddingFile, Map<String, Path> headFiles) throws OrtException {
        mel = session(melFile);
        embedding = session(embeddingFile);
        for (var h : headFiles.entrySet()) heads.put(h.getKey(), session(h.getValue()));
    }

    private OrtSession session(Path p) throws OrtException {
        OrtSession.SessionOptions o = new OrtSession.SessionOptions();
        o.setIntraOpNumThreads(1);
        o.setInterOpNumThreads(1);
        return env.createSession(p.toString(), o);
    }

    /** melspectrogram.onnx on samples in [-1, 1] (as 16-bit PCM values), then x/10 + 2: [frames][32]. */
    float[][] features(float[] samples, int from, int length) throws OrtException {
        float[] pcm = new float[length];
        for (int i = 0; i < length; i++) pcm[i] = samples[from + i] * 32768f;
        try (OnnxTensor t = OnnxTensor.createTensor(env, FloatBuffer.wrap(pcm), new long[] {1, length});
                OrtSession.Result r =
                        mel.run(Map.of(mel.getInputNames().iterator().next(), t))) {
            float[][] f = ((float[][][][]) r.get(0).getValue())[0][0];
            for (float[] row : f) for (int j = 0; j < row.length; j++) row[j] = row[j] / 10f + 2f;
            return f;
        }
    }

    /** embedding_model.onnx on one window of 76 × 32 features, row-major: 96 values. */
    float[] embed(float[] window) throws OrtException {
        try (OnnxTensor t = OnnxTensor.createTensor(env, FloatBuffer.wrap(window), new long[] {1, 76, 32, 1});
                OrtSession.Result r = embedding.run(
                        Map.of(embedding.getInputNames().iterator().next(), t))) {
            return ((float[][][][]) r.get(0).getValue())[0][0][0];
        }
    }

    /** Embeddings the head reads (its input's second axis). */
    int window(String head) throws OrtException {
        var info = (ai.onnxruntime.TensorInfo)
                heads.get(head).getInputInfo().values().iterator().next().getInfo();
        long w = info.getShape()[1];
        return w > 0 ? (int) w : 16;
    }

    /** A head on {@code n} embeddings (row-major [n, 96]): its output row (1 value, or one per class). */
    float[] head(String head, float[] embeddings, int n) throws OrtException {
        OrtSession s = heads.get(head);
        try (OnnxTensor t = OnnxTensor.createTensor(env, FloatBuffer.wrap(embeddings), new long[] {1, n, 96});
                OrtSession.Result r = s.run(Map.of(s.getInputNames().iterator().next(), t))) {
            return ((float[][]) r.get(0).getValue())[0];
        }
    }

    /** The head's class names by output index, from its output's name ({"1": "1_minute_timer", ...}), or empty. */
    Map<Integer, String> classNames(String head) {
        Map<Integer, String> out = new java.util.TreeMap<>();
        String name = heads.get(head).getOutputNames().iterator().next();
        Matcher m = Pattern.compile("\"(\\d+)\"\\s*:\\s*\"([^\"]+)\"").matcher(name);
        while (m.find()) out.put(Integer.parseInt(m.group(1)), m.group(2));
        return out;
    }

    /** The keywords scored by {@link #scores}, head by head, classes by index. */
    List<String> keywords() {
        List<String> out = new ArrayList<>();
        for (String h : heads.keySet()) {
            Map<Integer, String> c = classNames(h);
            if (c.isEmpty()) out.add(h);
            else out.addAll(c.values());
        }
        return out;
    }

    /** Scores [frame][keyword of {@link #keywords()}] over the audio, the last partial chunk zero-padded. */
    float[][] scores(float[] audio) throws OrtException {
        int chunks = (audio.length + 1279) / 1280;
        float[] x = Arrays.copyOf(audio, chunks * 1280);
        List<float[]> features = new ArrayList<>();
        for (int i = 0; i < 76; i++) {
            float[] ones = new float[32];
            Arrays.fill(ones, 1f);
            features.add(ones);
        }
        int maxWindow = 0;
        for (String h : heads.keySet()) maxWindow = Math.max(maxWindow, window(h));
        float[] pad = embed(window(features));
        List<float[]> embeddings = new ArrayList<>();
        for (int i = 0; i < maxWindow; i++) embeddings.add(pad);
        List<String> keywords = keywords();
        float[][] out = new float[chunks][keywords.size()];
        for (int k = 0; k < chunks; k++) {
            int end = (k + 1) * 1280, start = Math.max(0, end - 1760);
            features.addAll(Arrays.asList(features(x, start, end - start)));
            embeddings.add(embed(window(features)));
            if (k < 5) continue; // openWakeWord's zero predictions for the first 5 frames
            int col = 0;
            for (String h : heads.keySet()) {
                int w = window(h);
                float[] in = new float[w * 96];
                for (int i = 0; i < w; i++)
                    System.arraycopy(embeddings.get(embeddings.size() - w + i), 0, in, i * 96, 96);
                float[] p = head(h, in, w);
                Map<Integer, String> c = classNames(h);
                if (c.isEmpty()) out[k][col++] = p[0];
                else for (int cls : c.keySet()) out[k][col++] = p[cls];
            }
        }
        return out;
    }

    /** The last 76 feature rows, row-major. */
    static float[] window(List<float[]> features) {
        float[] w = new float[76 * 32];
        for (int i = 0; i < 76; i++) System.arraycopy(features.get(features.size() - 76 + i), 0, w, i * 32, 32);
        return w;
    }

    @Override
    public void close() throws OrtException {
        for (OrtSession s : heads.values()) s.close();
        embedding.close();
        mel.close();
    }
}
