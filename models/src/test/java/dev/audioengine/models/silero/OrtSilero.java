package dev.audioengine.models.silero;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.Map;

/**
 * The reference: ONNX Runtime running the original ONNX file, fed exactly as Silero's OnnxWrapper
 * feeds it (context + chunk per call, zero context and state at the start, the state output fed
 * back, the last chunk zero-padded). One intra-op thread, as the wrapper configures it.
 */
final class OrtSilero implements AutoCloseable {
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession session;
    private final int rate, chunk, context;
    private final float[] window, state = new float[2 * 128];
    private final OnnxTensor sr;

    OrtSilero(Path model, int rate) throws OrtException {
        OrtSession.SessionOptions o = new OrtSession.SessionOptions();
        o.setIntraOpNumThreads(1);
        o.setInterOpNumThreads(1);
        session = env.createSession(model.toString(), o);
        this.rate = rate;
        chunk = rate == 16000 ? 512 : 256;
        context = rate == 16000 ? 64 : 32;
        window = new float[context + chunk];
        sr = OnnxTensor.createTensor(env, LongBuffer.wrap(new long[] {rate}), new long[0]);
    }

    void reset() {
        java.util.Arrays.fill(window, 0f);
        java.util.Arrays.fill(state, 0f);
    }

    /** One chunk of exactly {@code chunk} samples. */
    float step(float[] samples, int offset) throws OrtException {
        System.arraycopy(samples, offset, window, context, chunk);
        try (OnnxTensor in = OnnxTensor.createTensor(env, FloatBuffer.wrap(window), new long[] {1, window.length});
                OnnxTensor st = OnnxTensor.createTensor(env, FloatBuffer.wrap(state), new long[] {2, 1, 128});
                OrtSession.Result r = session.run(Map.of("input", in, "state", st, "sr", sr))) {
            float p = ((float[][]) r.get(0).getValue())[0][0];
            ((OnnxTensor) r.get(1)).getFloatBuffer().get(state);
            System.arraycopy(window, chunk, window, 0, context);
            return p;
        }
    }

    /** Silero's audio_forward: probabilities over the whole audio from a fresh state. */
    float[] probabilities(float[] audio) throws OrtException {
        reset();
        int n = (audio.length + chunk - 1) / chunk;
        float[] padded = java.util.Arrays.copyOf(audio, n * chunk);
        float[] out = new float[n];
        for (int i = 0; i < n; i++) out[i] = step(padded, i * chunk);
        return out;
    }

    int chunk() {
        return chunk;
    }

    int rate() {
        return rate;
    }

    @Override
    public void close() throws OrtException {
        sr.close();
        session.close();
    }
}
