package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.model.task.LongFormOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The step ahead ({@link WhisperLongForm}'s {@code stepAhead}): greedy decoding that feeds each position its likeliest
 * token while another thread forms greedy's sums must decode what the plain loop decodes, window for window and bit
 * for bit, whether its guesses are taken or the position is fed again. Random weights whose timestamp rows are
 * boosted, so that the timestamps' summed probability often beats the likeliest token and guesses are missed; with
 * the temperature fallback on, so that passes hotter than 0 (which never step ahead) come between them.
 */
class WhisperStepAheadTest {
    @Test
    void theStepAheadDecodesWhatThePlainLoopDecodes(@TempDir Path dir) throws Exception {
        int taken = 0, redone = 0, windows = 0, decodeTaken = 0;
        for (long seed : new long[] {11, 12}) {
            GgmlWriter writer = new GgmlWriter(WhisperLongFormParityTest.CONFIG, true, seed, 3 + 16);
            writer.boostTimestamps(1.6f);
            Path file = dir.resolve("ggml-" + seed + ".bin");
            writer.write(file, Gpt2Vocabulary.bytes());
            float[] audio = WhisperLongFormParityTest.varied(seed, 45 * 16000 + 77);
            try (AudioEngine engine =
                            AudioEngine.builder().backend("cpu").threads(2).build();
                    WhisperModel model = WhisperModel.load(engine, file);
                    java.util.concurrent.ExecutorService sums =
                            java.util.concurrent.Executors.newSingleThreadExecutor()) {
                int textCtx = model.config().textCtx();
                for (boolean timestamps : new boolean[] {true, false}) {
                    LongFormOptions o = LongFormOptions.DEFAULTS.withTemperatures(0, 0.4);
                    WhisperLongForm plain = new WhisperLongForm(model.session(), model.tokenizer(), textCtx, null);
                    WhisperLongForm ahead = new WhisperLongForm(model.session(), model.tokenizer(), textCtx, sums);
                    WhisperLongForm.Result expected =
                            plain.transcribe(audio, "en", false, timestamps, 1, new int[0], o);
                    if (Boolean.getBoolean("diag"))
                        assertSame(
                                plain.transcribe(audio, "en", false, timestamps, 1, new int[0], o), expected, "again");
                    WhisperLongForm.Result actual = ahead.transcribe(audio, "en", false, timestamps, 1, new int[0], o);
                    assertThat(plain.aheadTaken + plain.aheadRedone).isZero();
                    assertSame(actual, expected, "seed " + seed + (timestamps ? ", timestamps" : ", no timestamps"));
                    taken += ahead.aheadTaken;
                    redone += ahead.aheadRedone;
                    windows += expected.windows().size();
                    // one VAD-sized window through decode(), the path of --segmenter vad, live streams and the server
                    WhisperModel.Options one = new WhisperModel.Options("en", false, timestamps, 220);
                    WhisperModel.Decoded want = model.stepAhead(false).decode(audio, 16000, 20 * 16000, one);
                    WhisperModel.Decoded got = model.stepAhead(true).decode(audio, 16000, 20 * 16000, one);
                    String what = "decode(), seed " + seed + (timestamps ? ", timestamps" : "");
                    assertThat(got.tokens()).as(what).isEqualTo(want.tokens());
                    assertThat(bits(got.probabilities())).as(what).isEqualTo(bits(want.probabilities()));
                    assertThat(Double.doubleToRawLongBits(got.averageLogProbability()))
                            .as(what)
                            .isEqualTo(Double.doubleToRawLongBits(want.averageLogProbability()));
                    assertThat(got.segments()).as(what).isEqualTo(want.segments());
                    decodeTaken = model.aheadTaken;
                }
            }
        }
        System.err.printf(
                "step ahead: %d taken, %d fed again, %d windows; decode(): %d taken%n",
                taken, redone, windows, decodeTaken);
        assertThat(taken).as("steps ahead whose guess greedy took").isGreaterThan(0);
        assertThat(decodeTaken)
                .as("decode()'s steps ahead whose guess greedy took")
                .isGreaterThan(0);
        assertThat(redone)
                .as("steps ahead fed again: greedy took another token")
                .isGreaterThan(0);
    }

    private static void assertSame(WhisperLongForm.Result actual, WhisperLongForm.Result expected, String what) {
        LongFormResults.assertSameWindows(actual, expected, what, 0);
    }

    private static List<Integer> bits(float[] values) {
        return java.util.stream.IntStream.range(0, values.length)
                .mapToObj(i -> Float.floatToRawIntBits(values[i]))
                .toList();
    }

    /**
     * What a missed guess relies on, whatever the random weights make greedy take: a position fed one token and then
     * another gives the logits of the second alone, and rows left past a window's end by a step ahead nobody took do
     * not reach the next pass. Every position of a prompt and 14 text tokens is fed a wrong token first; the logits
     * must equal, bit for bit, those of feeding each right token once, in a pass that starts over stale rows.
     */
    @Test
    void aPositionFedAgainGivesTheLogitsOfItsLastToken(@TempDir Path dir) throws Exception {
        GgmlWriter writer = new GgmlWriter(WhisperLongFormParityTest.CONFIG, true, 21, 3 + 16);
        Path file = dir.resolve("ggml-21.bin");
        writer.write(file, Gpt2Vocabulary.bytes());
        float[] audio = WhisperLongFormParityTest.varied(21, 9 * 16000 + 77);
        java.util.SplittableRandom r = new java.util.SplittableRandom(21);
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                WhisperModel model = WhisperModel.load(engine, file)) {
            WhisperSession session = model.session();
            WhisperTokenizer t = model.tokenizer();
            int[] prompt = WhisperDecoding.prompt(t, "en", false, true);
            int[] fed = java.util.Arrays.copyOf(prompt, prompt.length + 14);
            for (int i = prompt.length; i < fed.length; i++) fed[i] = r.nextInt(t.eot());
            session.encode(audio, 0, audio.length, false);
            List<List<Integer>> once = new java.util.ArrayList<>();
            for (int i = 0; i < fed.length; i++) once.add(bits(session.step(fed[i], i)));
            session.step(r.nextInt(t.eot()), fed.length); // a step ahead past the end that nobody took
            session.encode(audio, 0, audio.length, false);
            for (int i = 0; i < fed.length; i++) {
                int wrong = (fed[i] + 1 + r.nextInt(t.eot() - 1)) % t.eot();
                session.step(wrong, i);
                assertThat(bits(session.step(fed[i], i)))
                        .as("position %d fed %d, then %d", i, wrong, fed[i])
                        .isEqualTo(once.get(i));
            }
        }
    }

    @Test
    void theStepAheadIsOnWhereTheDeviceIsNotTheHost() {
        assertThat(WhisperModel.stepAhead("auto", DeviceKind.DISCRETE_GPU)).isTrue();
        assertThat(WhisperModel.stepAhead("auto", DeviceKind.CPU)).isFalse();
        assertThat(WhisperModel.stepAhead("on", DeviceKind.CPU)).isTrue();
        assertThat(WhisperModel.stepAhead("off", DeviceKind.DISCRETE_GPU)).isFalse();
        assertThatThrownBy(() -> WhisperModel.stepAhead("yes", DeviceKind.CPU))
                .hasMessageContaining(WhisperModel.STEP_AHEAD)
                .hasMessageContaining("auto (the default), on, off");
    }
}
