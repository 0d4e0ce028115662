package dev.audioengine.models.whisper;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What keeping a quantized file's blocks saves (a study, not a check: skipped unless
 * {@code -Dwhisper.quant.memory=true}): a random model of base's real geometry (d 512, 8 heads, 6 + 6 layers, 51865
 * tokens) written in F16 and quantized by whisper.cpp's own {@code whisper-quantize} to {@code -Dwhisper.quant.type}
 * (default q5_1; q4_1, q5_0, q2_k ... q6_k as whisper-quantize names them), then loaded on the CPU backend at 2
 * threads; the process's RSS ({@code /proc/self/status}) before and after the load and after two greedy decodes of
 * 5 s, and its peak. {@code -Dwhisper.quant.capability=-Q5_1_WEIGHTS} (the type's capability) loads the same file with
 * the weights dequantized to F32 (what every backend did before, and what a backend without the type's kernels still
 * does). Run each in its own JVM:
 * <pre>mvn -B -q -pl models -am verify -Dtest=WhisperQuantizedMemory -Dwhisper.quant.memory=true
 *   [-Dwhisper.quant.type=q4_k] [-Dwhisper.quant.capability=-Q4_K_WEIGHTS] -Dsurefire.failIfNoSpecifiedTests=false -DskipITs</pre>
 */
class WhisperQuantizedMemory {
    @Test
    void residentMemoryOfAQ51File(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(
                Boolean.getBoolean("whisper.quant.memory"), "a study: -Dwhisper.quant.memory=true runs it");
        WhisperCppParityTest.build();
        WhisperConfig base = new WhisperConfig(51865, 1500, 512, 8, 6, 448, 512, 8, 6, 80);
        String type = System.getProperty("whisper.quant.type", "q5_1");
        Path f16 = dir.resolve("ggml-base-random.bin"), q = dir.resolve("ggml-base-random-" + type + ".bin");
        new GgmlWriter(base, true, 42, 20).write(f16, Gpt2Vocabulary.bytes());
        Process p = new ProcessBuilder(List.of(
                        WhisperCppParityTest.cli
                                .resolveSibling("whisper-quantize")
                                .toString(),
                        f16.toString(),
                        q.toString(),
                        type))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (p.waitFor() != 0) throw new IllegalStateException("whisper-quantize failed: " + p.exitValue());
        Files.delete(f16);
        String capability = System.getProperty("whisper.quant.capability", "");
        System.gc();
        long before = kib("VmRSS");
        AudioEngine.Builder builder = AudioEngine.builder().backend("cpu").threads(2);
        if (!capability.isEmpty()) builder.capability(capability);
        try (AudioEngine engine = builder.build();
                WhisperModel m = WhisperModel.load(engine, q)) {
            long loaded = kib("VmRSS");
            float[] audio = WhisperCppParityTest.audio(42, 5 * 16000);
            WhisperModel.Options options = new WhisperModel.Options("en", false, false, 20);
            m.decode(audio, 0, audio.length, options);
            m.decode(audio, 0, audio.length, options);
            System.err.printf(
                    "%s file of %d MB, capability switch '%s': RSS %d MB before the load, %d MB after it (+%d MB),"
                            + " %d MB after two decodes, peak %d MB%n",
                    type,
                    Files.size(q) >> 20,
                    capability,
                    before >> 10,
                    loaded >> 10,
                    (loaded - before) >> 10,
                    kib("VmRSS") >> 10,
                    kib("VmHWM") >> 10);
        }
    }

    private static long kib(String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status")))
            if (line.startsWith(field + ":")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        throw new IllegalStateException("no " + field + " in /proc/self/status");
    }
}
