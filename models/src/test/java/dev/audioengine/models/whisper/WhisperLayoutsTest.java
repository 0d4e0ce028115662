package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two layouts a user may have, loaded from the same seeded weights: a whisper.cpp F32 file and a transformers
 * folder (config.json, model.safetensors, tokenizer.json) must give the same encoder states, the same teacher-forced
 * logits and the same greedy tokens and text; the geometry is read from each file's own hyperparameters. Odd sizes
 * (d = 96 over 3 heads, 3 + 1 layers) so that a transposed or mis-split tensor cannot pass.
 */
class WhisperLayoutsTest {
    /**
     * {@code f16}: the ggml file stores its projections and token table in F16 (the values rounded to F16 first, so
     * the F32 folder holds the same ones); the engine keeps them F16 (WhisperModel.storedTypesKept, the table for the
     * head and the row lookup alike) and must still give the F32 folder's states, logits and tokens.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void ggmlAndTransformersFoldersAgree(boolean f16, @TempDir Path dir) throws Exception {
        long seed = new SplittableRandom().nextLong();
        WhisperConfig c = new WhisperConfig(51865, 1500, 96, 3, 3, 448, 96, 3, 1, 80);
        GgmlWriter w = new GgmlWriter(c, f16, seed, 4 + 10);
        Path ggml = dir.resolve("ggml-random.bin"), hf = dir.resolve("hf");
        w.write(ggml, Gpt2Vocabulary.bytes());
        TransformersLayout.write(w, hf, Gpt2Vocabulary.encoderJson());
        float[] audio = WhisperCppParityTest.audio(seed, 2 * 16000 + 321);
        int[] forced = {50258, 50259, 50360, 50364, 1000, 2000, 3000};
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                WhisperModel a = WhisperModel.load(engine, ggml);
                WhisperModel b = WhisperModel.load(engine, hf)) {
            assertThat(a.config()).isEqualTo(c).isEqualTo(b.config());
            DType stored = f16 ? DType.F16 : DType.F32;
            assertThat(a.weights().decoder.embedding().dtype())
                    .as("the ggml file's token table")
                    .isEqualTo(stored);
            assertThat(a.weights().decoder.head().weightType())
                    .as("the ggml file's head")
                    .isEqualTo(stored);
            assertThat(b.weights().decoder.head().weightType())
                    .as("the F32 folder's head")
                    .isEqualTo(DType.F32);
            try (HostTensor sa = a.encoderStates(audio);
                    HostTensor sb = b.encoderStates(audio)) {
                assertThat(sa.shape()).isEqualTo(dev.audioengine.api.tensor.Shape.of(1, 1500, 96));
                assertClose("encoder states", sa.toFloatArray(), sb.toFloatArray(), 1e-5);
            }
            assertClose(
                    "teacher-forced logits",
                    a.teacherForcedLogits(audio, forced),
                    b.teacherForcedLogits(audio, forced),
                    1e-4);
            var options = new WhisperModel.Options("en", false, false, 50);
            var da = a.decode(audio, 0, audio.length, options);
            var db = b.decode(audio, 0, audio.length, options);
            assertThat(da.tokens()).hasSizeGreaterThan(3).isEqualTo(db.tokens());
            assertThat(da.text()).isEqualTo(db.text());
        }
    }

    static void assertClose(String what, float[] a, float[] b, double tol) {
        assertThat(a.length).isEqualTo(b.length);
        double worst = 0, scale = 0;
        for (int i = 0; i < a.length; i++) {
            worst = Math.max(worst, Math.abs(a[i] - b[i]));
            scale = Math.max(scale, Math.abs(a[i]));
        }
        assertThat(worst).as(what + " (largest |value| " + scale + ")").isLessThanOrEqualTo(tol * Math.max(1, scale));
    }
}
