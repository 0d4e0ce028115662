package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import dev.audioengine.weights.WeightFile;
import dev.audioengine.weights.WeightFiles;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Architecture parity with transformers: MoonshineForConditionalGeneration (5.17) with seeded random weights in the
 * original checkpoints' layout (config.json + model.safetensors, tied head), its outputs computed in float64
 * (scripts/fixtures/moonshine-fixtures.py, run on the GPU machine). The configs keep moonshine-tiny's head (36, rotary 0.9) and
 * moonshine-base's (52, rotary 0.62). Our F32 encoder states and teacher-forced logits must be within 1e-4 relative
 * (NMSE 1e-8) with F32 weights, on both attention lowerings; greedy decoding with the cache must give generate()'s tokens.
 */
class TransformersFixtureTest {
    private static AudioEngine engine, composite;

    @BeforeAll
    static void open() {
        engine = AudioEngine.builder()
                .backend("cpu")
                .threads(1)
                .capability("-bf16_weights")
                .build();
        composite = AudioEngine.builder()
                .backend("cpu")
                .threads(1)
                .capability("-fused_attention", "-bf16_weights")
                .build();
    }

    @AfterAll
    static void close() {
        composite.close();
        engine.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tiny-layout", "base-layout"})
    void matchesTransformers(String name) throws Exception {
        Path dir = Path.of("src/test/resources/moonshine/hf", name);
        try (WeightFile ref = WeightFiles.open(dir.resolve("reference.safetensors"))) {
            float[] audio = ref.get("audio").toFloatArray();
            float[] states = ref.get("encoder_states").toFloatArray();
            int[] prefix = ref.get("prefix").toIntArray();
            float[] logits = ref.get("logits").toFloatArray();
            int[] greedy = ref.get("greedy").toIntArray();
            for (AudioEngine e : List.of(engine, composite)) {
                try (MoonshineModel m = MoonshineModel.load(
                                e, MoonshineCheckpoint.inFolder(dir), MoonshineFixtures.tokenizer());
                        HostTensor got = m.encoderStates(audio)) {
                    String what = name + " on " + e.effectiveCapabilities(MoonshineModel.USES);
                    Closeness.assertNmse(what + " encoder states", null, 0, got.toFloatArray(), widen(states), 1e-8);
                    float[] ours = m.teacherForcedLogits(audio, prefix);
                    System.out.printf(
                            "%s: encoder NMSE %.2e, logits NMSE %.2e, max rel %.2e%n",
                            what,
                            Closeness.nmse(got.toFloatArray(), widen(states)),
                            Closeness.nmse(ours, widen(logits)),
                            maxRelative(ours, logits));
                    Closeness.assertNmse(what + " teacher-forced logits", null, 0, ours, widen(logits), 1e-8);
                    assertThat(maxRelative(ours, logits))
                            .as(what + " logits, largest error relative to the largest logit")
                            .isLessThan(1e-4);
                    MoonshineModel.Decoded d = m.decode(audio, 0, audio.length, greedy.length - 1, audio.length);
                    assertThat(d.tokens())
                            .as(what + " greedy tokens (generate()'s, cut where the repetition guard cuts)")
                            .isEqualTo(guarded(greedy));
                }
            }
        }
    }

    /** generate()'s tokens after BOS as the decoder keeps them: up to EOS, a loop cut to its first occurrence. */
    private static List<Integer> guarded(int[] greedy) {
        List<Integer> out = new java.util.ArrayList<>();
        for (int t : Arrays.stream(greedy).skip(1).toArray()) {
            if (t == MoonshineConfig.EOS) break;
            out.add(t);
            int cut = RepetitionGuard.loopCut(out);
            if (cut >= 0) return out.subList(0, cut);
        }
        return out;
    }

    private static double maxRelative(float[] got, float[] want) {
        double scale = 0, err = 0;
        for (int i = 0; i < want.length; i++) {
            scale = Math.max(scale, Math.abs(want[i]));
            err = Math.max(err, Math.abs(got[i] - want[i]));
        }
        return err / scale;
    }

    private static double[] widen(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) d[i] = v[i];
        return d;
    }
}
