package dev.audioengine.models.whisper;

import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The seeded random ggml files that docs/WHISPER.md's speed comparisons with whisper.cpp run (a tool, not a check:
 * skipped unless {@code -Dwhisper.random.dir=DIR} names where to write them): F16 files at the released tiny (d 384,
 * 6 heads, 4 + 4 layers; seed 7) and base (d 512, 8 heads, 6 + 6 layers; seed 8) shapes with the multilingual
 * vocabulary, EOT forced from decoder position 4 + 24 on so that greedy decoding on both sides ends after about 24
 * tokens (random weights would otherwise run to the context's end), and each quantized to q8_0 by whisper.cpp's own
 * {@code whisper-quantize} (built by scripts/peers/whisper-cpp-build). Writes ggml-tiny-random.bin,
 * ggml-tiny-random-q8_0.bin, ggml-base-random.bin and ggml-base-random-q8_0.bin:
 * <pre>mvn -B -q -pl models -am verify -Dtest=WhisperRandomFiles -Dwhisper.random.dir=/tmp
 *   -Dsurefire.failIfNoSpecifiedTests=false -DskipITs</pre>
 */
class WhisperRandomFiles {
    @Test
    void write() throws Exception {
        String where = System.getProperty("whisper.random.dir", "");
        Assumptions.assumeFalse(where.isEmpty(), "a tool: -Dwhisper.random.dir=DIR writes the files there");
        Path dir = Path.of(where);
        Files.createDirectories(dir);
        WhisperCppParityTest.build();
        write(dir, "tiny", new WhisperConfig(51865, 1500, 384, 6, 4, 448, 384, 6, 4, 80), 7);
        write(dir, "base", new WhisperConfig(51865, 1500, 512, 8, 6, 448, 512, 8, 6, 80), 8);
    }

    private static void write(Path dir, String name, WhisperConfig shape, long seed) throws Exception {
        Path f16 = dir.resolve("ggml-" + name + "-random.bin"), q = dir.resolve("ggml-" + name + "-random-q8_0.bin");
        new GgmlWriter(shape, true, seed, 4 + 24).write(f16, Gpt2Vocabulary.bytes());
        Process p = new ProcessBuilder(List.of(
                        WhisperCppParityTest.cli
                                .resolveSibling("whisper-quantize")
                                .toString(),
                        f16.toString(),
                        q.toString(),
                        "q8_0"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (p.waitFor() != 0)
            throw new IllegalStateException(
                    "whisper-quantize " + f16 + " " + q + " q8_0 failed: exit " + p.exitValue());
        System.err.printf("wrote %s (%d MB) and %s (%d MB)%n", f16, Files.size(f16) >> 20, q, Files.size(q) >> 20);
    }
}
