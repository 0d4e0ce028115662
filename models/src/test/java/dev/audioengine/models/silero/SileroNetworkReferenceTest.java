package dev.audioengine.models.silero;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.model.ModelFile;
import dev.audioengine.reference.ReferenceEvaluator;
import dev.audioengine.reference.ReferenceState;
import dev.audioengine.weights.onnx.OnnxModel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The model graph itself, evaluated by the engine's float64 reference evaluator (no backend),
 * against ONNX Runtime on the same windows: checks the graph's structure and weights
 * independently of any kernel, and the LSTM state carried across runs in a persistent tensor.
 */
class SileroNetworkReferenceTest {

    @ParameterizedTest(name = "{0} at {1} Hz")
    @CsvSource({"v5,16000", "v5,8000", "v6,16000", "v6,8000"})
    void graphInFloat64MatchesOnnxRuntime(String version, int rate) throws Exception {
        ModelFile file = version.equals("v5") ? SileroVadFamily.V5_FILE : SileroVadFamily.V6_FILE;
        Path model = SileroFixtures.model(file);
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        int chunk = rate == 16000 ? 512 : 256, n = 12;
        float[] audio = new float[n * chunk];
        for (int i = 0; i < audio.length; i++)
            audio[i] = (float) (0.3 * Math.sin(i * 0.05 * (1 + i / 3000.0)) + 0.05 * rnd.nextGaussian());
        float[] expected;
        try (OrtSilero ort = new OrtSilero(model, rate)) {
            expected = ort.probabilities(audio);
        }
        try (OnnxModel m = OnnxModel.read(model)) {
            Map<Integer, SileroWeights> weights = SileroWeights.fromOnnx(m, model.toString());
            try {
                SileroWeights w = weights.get(rate);
                // two runs of half the windows each: the LSTM state carries between them in the reference's persistent
                // tensor
                int half = n / 2;
                Graph g = SileroNetwork.build(w, half);
                int len = w.context + w.chunk;
                ReferenceState state =
                        new ReferenceState().zeros(SileroNetwork.STATE, DType.F32, SileroNetwork.STATE_SHAPE);
                double[] got = new double[n];
                for (int run = 0; run < 2; run++) {
                    float[] windows = new float[half * len];
                    for (int j = 0; j < half; j++) {
                        for (int k = 0; k < len; k++) {
                            int s = (run * half + j) * chunk - w.context + k;
                            windows[j * len + k] = s >= 0 ? audio[s] : 0f;
                        }
                    }
                    try (HostTensor x = HostTensor.ofFloats(Shape.of(half, 1, len), windows)) {
                        Tensor prob = g.outputs().getFirst();
                        double[] p = ReferenceEvaluator.evaluate(g, Map.of(SileroNetwork.WINDOW, x), state)
                                .get(prob);
                        assertThat(p).hasSize(half);
                        System.arraycopy(p, 0, got, run * half, half);
                    }
                }
                double max = 0;
                for (int i = 0; i < n; i++) max = Math.max(max, Math.abs(got[i] - expected[i]));
                System.out.printf(
                        "reference graph %s %d Hz: max |diff| vs ORT %.3g over %d chunks in two runs (seed %d)%n",
                        version, rate, max, n, seed);
                assertThat(max).as("seed %d", seed).isLessThan(1e-4);
            } finally {
                weights.values().forEach(SileroWeights::close);
            }
        }
    }
}
