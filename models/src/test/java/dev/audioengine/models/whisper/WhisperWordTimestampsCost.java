package dev.audioengine.models.whisper;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What word timestamps cost (a study, not a check: skipped unless {@code -Dwhisper.words.cost=true}): one window of
 * 10 s decoded greedily with timestamps by a random model of tiny's real geometry (d 384, 6 heads, 4 + 4 layers,
 * 51865 tokens, F16 file), plain ({@link WhisperModel#decode}) and with word timestamps ({@link
 * WhisperModel#decodeTimed}), alternating, warm, on the CPU backend at 2 threads; medians printed.
 * <pre>mvn -B -q -pl models -am verify -Dtest=WhisperWordTimestampsCost -Dwhisper.words.cost=true
 *   -Dsurefire.failIfNoSpecifiedTests=false -DskipITs</pre>
 */
class WhisperWordTimestampsCost {
    @Test
    void decodeWithAndWithoutWords(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("whisper.words.cost"), "a study: -Dwhisper.words.cost=true runs it");
        WhisperConfig tiny = new WhisperConfig(51865, 1500, 384, 6, 4, 448, 384, 6, 4, 80);
        long seed = 42;
        Path file = dir.resolve("ggml-tiny-random.bin");
        new GgmlWriter(tiny, true, seed, 4 + 24).write(file, Gpt2Vocabulary.bytes());
        float[] audio = WhisperCppParityTest.audio(seed, 10 * 16000);
        WhisperModel.Options options = new WhisperModel.Options("en", false, true, 220);
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(2).build();
                WhisperModel model = WhisperModel.load(engine, file)) {
            WhisperAlignment.Heads heads = WhisperAlignment.forShape(tiny);
            int rounds = 7;
            double[] plain = new double[rounds], timed = new double[rounds];
            WhisperModel.Timed t = model.decodeTimed(audio, 0, audio.length, options, heads); // compiles its graph
            model.decode(audio, 0, audio.length, options);
            for (int r = 0; r < rounds; r++) {
                long a = System.nanoTime();
                model.decode(audio, 0, audio.length, options);
                long b = System.nanoTime();
                t = model.decodeTimed(audio, 0, audio.length, options, heads);
                long c = System.nanoTime();
                plain[r] = (b - a) / 1e6;
                timed[r] = (c - b) / 1e6;
            }
            Arrays.sort(plain);
            Arrays.sort(timed);
            System.err.println(String.format(
                    Locale.ROOT,
                    "word timestamps cost: %d tokens (%d text), plain %.1f ms, with words %.1f ms (median of %d"
                            + " alternating rounds; +%.1f ms, %.2fx)",
                    t.decoded().tokens().size(),
                    t.text().size(),
                    plain[rounds / 2],
                    timed[rounds / 2],
                    rounds,
                    timed[rounds / 2] - plain[rounds / 2],
                    timed[rounds / 2] / plain[rounds / 2]));
        }
    }
}
