package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.testkit.Closeness;
import dev.audioengine.evaluation.EnglishTextNormalizer;
import dev.audioengine.evaluation.WordErrorRate;
import dev.audioengine.models.moonshine.MoonshineNetwork.MoonshineConfig;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real npm weights against ONNX Runtime on the same files, over Debian's recorded speech (10 recordings):
 * the encoder's states close (ORT quantizes every activation to 8 bits before each MatMulInteger, the engine computes
 * in float from the dequantized weights, so they differ by that rounding), and with teacher forcing on ORT's own greedy
 * tokens, our argmax equals ORT's next token on at least 99 % of steps; and our own greedy transcripts make no more word
 * errors against the reference transcripts (Whisper's English normalisation) than ORT's. Default CPU engine and
 * weight type (the 8-bit weights kept as Q8_0).
 */
class OnnxRuntimeParityTest {
    private static final EnglishTextNormalizer NORMALIZER = new EnglishTextNormalizer();
    private static AudioEngine engine;

    @BeforeAll
    static void open() {
        engine = AudioEngine.builder().backend("cpu").threads(2).build();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tiny", "base"})
    void tracksOnnxRuntime(String size) throws Exception {
        MoonshineCheckpoint files = size.equals("tiny") ? MoonshineFixtures.tiny() : MoonshineFixtures.base();
        int steps = 0, agree = 0;
        double worstEncoder = 0, worstLogitGap = 0, logitDiff = 0, logitRange = 0;
        List<WordErrorRate.Result> ortErrors = new java.util.ArrayList<>(), ourErrors = new java.util.ArrayList<>();
        try (MoonshineModel ours = MoonshineModel.load(engine, files, MoonshineFixtures.tokenizer());
                OrtMoonshine ort = new OrtMoonshine(files, ours.config(), 2)) {
            int v = ours.config().vocabulary();
            for (MoonshineFixtures.Utterance u : MoonshineFixtures.debianSet()) {
                int[] frames = new int[1];
                float[] ortStates = ort.encode(u.samples(), frames);
                try (HostTensor mine = ours.encoderStates(u.samples())) {
                    double nmse = Closeness.nmse(mine.toFloatArray(), widen(ortStates));
                    worstEncoder = Math.max(worstEncoder, nmse);
                    assertThat(nmse)
                            .as("%s %s encoder states NMSE against ORT", size, u)
                            .isLessThan(5e-3);
                }
                List<float[]> ortLogits = new java.util.ArrayList<>();
                List<Integer> ortTokens = ort.transcribe(u.samples(), ortLogits);
                int[] forced = new int[ortTokens.size() + 1];
                forced[0] = MoonshineConfig.BOS;
                for (int i = 0; i < ortTokens.size(); i++) forced[i + 1] = ortTokens.get(i);
                float[] logits = ours.teacherForcedLogits(u.samples(), forced);
                for (int i = 0; i < forced.length; i++) {
                    int want = i < ortTokens.size() ? ortTokens.get(i) : MoonshineConfig.EOS;
                    int got = OrtMoonshine.argmax(logits, i * v, (i + 1) * v);
                    steps++;
                    if (i < ortLogits.size()) {
                        float[] o = ortLogits.get(i);
                        for (int j = 0; j < v; j++) {
                            logitDiff = Math.max(logitDiff, Math.abs(logits[i * v + j] - o[j]));
                            logitRange = Math.max(logitRange, Math.abs(o[j]));
                        }
                    }
                    if (got == want) agree++;
                    else worstLogitGap = Math.max(worstLogitGap, logits[i * v + got] - logits[i * v + want]);
                }
                String ortText = ours.tokenizer().decode(ortTokens);
                String ourText = ours.decode(
                                u.samples(), 0, u.samples().length, (int) (u.seconds() * 6), u.samples().length)
                        .text();
                String reference = NORMALIZER.normalize(u.transcript());
                ortErrors.add(WordErrorRate.score(reference, NORMALIZER.normalize(ortText)));
                ourErrors.add(WordErrorRate.score(reference, NORMALIZER.normalize(ourText)));
                System.out.printf("moonshine-%s %s: ORT \"%s\", ours \"%s\"%n", size, u, ortText, ourText);
            }
        }
        System.out.printf(
                "moonshine-%s vs ONNX Runtime: encoder NMSE at most %.2e; teacher-forced argmax agrees on %d of %d steps; "
                        + "where not, our top logit leads ORT's token by at most %.3f; logits differ by at most %.3f (largest |logit| %.1f)%n",
                size, worstEncoder, agree, steps, worstLogitGap, logitDiff, logitRange);
        WordErrorRate.Result ortWer = WordErrorRate.total(ortErrors), ourWer = WordErrorRate.total(ourErrors);
        System.out.printf(
                "moonshine-%s word errors after Whisper's English normalisation: ours %d of %d words (%s), ONNX Runtime %d (%s)%n",
                size, ourWer.errors(), ourWer.referenceWords(), ourWer, ortWer.errors(), ortWer);
        assertThat(agree).as("steps whose argmax equals ORT's token").isGreaterThanOrEqualTo((int)
                Math.ceil(0.99 * steps));
        assertThat(ourWer.errors())
                .as("our word errors against ONNX Runtime's, same model")
                .isLessThanOrEqualTo(ortWer.errors());
    }

    private static double[] widen(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) d[i] = v[i];
        return d;
    }
}
