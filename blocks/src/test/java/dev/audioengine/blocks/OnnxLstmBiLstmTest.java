package dev.audioengine.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.api.testkit.Seeds;
import dev.audioengine.blocks.weights.OnnxModels;
import dev.audioengine.blocks.weights.WeightStore;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bidirectional ONNX LSTM node (the way torch exports nn.LSTM: W, R, B with gates i, o, f, c)
 * read through WeightScope by PyTorch's parameter names and run as the BiLstm block on the CPU,
 * against ONNX Runtime running the same file: checks the gate reordering, the direction split
 * and the block's time reversal together.
 */
class OnnxLstmBiLstmTest {

    @Test
    void biLstmFromOnnxLstmNodeMatchesOnnxRuntime(@TempDir Path dir) throws Exception {
        long seed = Seeds.fresh();
        RandomTensors r = new RandomTensors(seed);
        int t = 11, b = 2, in = 7, h = 5;
        float bound = (float) (1 / Math.sqrt(h));
        float[] w = r.uniform(2 * 4 * h * in, -bound, bound),
                rr = r.uniform(2 * 4 * h * h, -bound, bound),
                bias = r.uniform(2 * 8 * h, -bound, bound);
        byte[] model = OnnxModels.bidirectionalLstm("/lstm/LSTM", t, b, in, h, w, rr, bias);
        Path file = dir.resolve("lstm.onnx");
        Files.write(file, model);
        float[] x = r.uniform(t * b * in, -1, 1); // ONNX layout [T, B, I]

        float[] ort;
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession s = env.createSession(model, new OrtSession.SessionOptions());
                OnnxTensor xt = OnnxTensor.createTensor(env, FloatBuffer.wrap(x), new long[] {t, b, in});
                OrtSession.Result res = s.run(Map.of("X", xt))) {
            FloatBuffer y = ((OnnxTensor) res.get("Y").orElseThrow()).getFloatBuffer(); // [T, 2, B, H]
            ort = new float[y.remaining()];
            y.get(ort);
        }
        double[] expect = new double[b * t * 2 * h]; // [B, T, 2H]
        for (int ti = 0; ti < t; ti++)
            for (int d = 0; d < 2; d++)
                for (int bi = 0; bi < b; bi++)
                    for (int j = 0; j < h; j++) {
                        expect[(bi * t + ti) * 2 * h + d * h + j] = ort[((ti * 2 + d) * b + bi) * h + j];
                    }
        float[] xb = new float[x.length]; // [B, T, I]
        for (int ti = 0; ti < t; ti++)
            for (int bi = 0; bi < b; bi++) System.arraycopy(x, (ti * b + bi) * in, xb, (bi * t + ti) * in, in);

        try (AudioEngine engine = BlockCheck.cpu();
                WeightStore store = WeightStore.open(file, DType.F32);
                HostTensor xh = HostTensor.ofFloats(Shape.of(b, t, in), xb)) {
            assertThat(store.scope().tensor("lstm.weight_ih_l0_reverse").shape())
                    .isEqualTo(Shape.of(4 * h, in));
            assertThat(store.scope().tensor("lstm.bias_hh_l0").shape()).isEqualTo(Shape.of(4 * h));
            BiLstm lstm = BiLstm.load(store.scope().child("lstm"));
            GraphBuilder g = new GraphBuilder();
            Tensor y = lstm.apply(g, g.input("x", xh.shape()));
            float[] got = BlockCheck.run(engine, "BiLSTM from ONNX LSTM", g.build(y), Map.of("x", xh), seed);
            Closeness.assertNmse("BiLSTM block vs ONNX Runtime's LSTM", y.shape(), seed, got, expect, 1e-9);
        }
    }
}
