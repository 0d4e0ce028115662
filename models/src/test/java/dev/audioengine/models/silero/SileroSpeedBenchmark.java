package dev.audioengine.models.silero;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.task.VadOptions;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Speed side by side with ONNX Runtime, one thread each, in one process: streaming (one
 * 512-sample chunk per call) and offline (a whole minute of recorded speech). Prints numbers;
 * asserts nothing. Run with:
 * <pre>mvn -B -q -o -pl models -am test -Dtest=SileroSpeedBenchmark -Dbench=true -Dsurefire.failIfNoSpecifiedTests=false</pre>
 * or, on a machine with only a JDK, {@code java -cp <classes and onnxruntime> ...SileroSpeedBenchmark} ({@link #main}).
 * -Dbench.audio=WAV replaces the recording (16 kHz); the model comes from the model store.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class SileroSpeedBenchmark {
    private static final int RUNS = 5;

    public static void main(String[] args) throws Exception {
        new SileroSpeedBenchmark().onnxRuntimeVersusEngineOnOneThread();
    }

    @Test
    void onnxRuntimeVersusEngineOnOneThread() throws Exception {
        String wav = System.getProperty(
                "bench.audio",
                "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0870.wav");
        float[] speech = WavReader.read(Path.of(wav)).samples();
        float[] audio = new float[speech.length * 8]; // about 57 s
        for (int i = 0; i < 8; i++) System.arraycopy(speech, 0, audio, i * speech.length, speech.length);
        int rate = 16000, chunk = 512, chunks = (audio.length + chunk - 1) / chunk;
        double chunkUs = chunk * 1e6 / rate;
        Path model = SileroFixtures.model(SileroVadFamily.V5_FILE);

        double ortUs;
        try (OrtSilero ort = new OrtSilero(model, rate)) {
            ortUs = medianNs(() -> {
                        try {
                            ort.probabilities(audio);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    / 1e3
                    / chunks;
        }
        double streamUs, offlineUs;
        try (AudioEngine engine =
                        AudioEngine.builder().backend("cpu").threads(1).build();
                SileroVad vad = SileroVad.load(engine, model)) {
            offlineUs = medianNs(() -> vad.probabilities(audio, rate)) / 1e3 / chunks;
            try (StreamingSession s = vad.stream(rate, VadOptions.DEFAULTS)) {
                float[] piece = new float[chunk];
                streamUs = medianNs(() -> {
                            s.reset();
                            for (int i = 0; i + chunk <= audio.length; i += chunk) {
                                System.arraycopy(audio, i, piece, 0, chunk);
                                s.accept(piece);
                            }
                        })
                        / 1e3
                        / (audio.length / chunk);
            }
        }
        System.out.printf(
                "silero_vad v5, 16 kHz, %.1f s of speech, 1 thread each (median of %d runs)%n",
                audio.length / (double) rate, RUNS);
        System.out.printf("  onnxruntime per chunk         %8.2f us/chunk  %8.1fx real time%n", ortUs, chunkUs / ortUs);
        System.out.printf(
                "  audioengine streaming         %8.2f us/chunk  %8.1fx real time  (%.2f x ORT time)%n",
                streamUs, chunkUs / streamUs, streamUs / ortUs);
        System.out.printf(
                "  audioengine offline (batched) %8.2f us/chunk  %8.1fx real time  (%.2f x ORT time)%n",
                offlineUs, chunkUs / offlineUs, offlineUs / ortUs);
    }

    private static double medianNs(Runnable body) {
        long warmStart = System.nanoTime();
        for (int i = 0; i < 5 || System.nanoTime() - warmStart < 3_000_000_000L; i++) body.run(); // JIT warm-up
        long[] t = new long[RUNS];
        for (int i = 0; i < RUNS; i++) {
            long t0 = System.nanoTime();
            body.run();
            t[i] = System.nanoTime() - t0;
        }
        Arrays.sort(t);
        return t[RUNS / 2];
    }
}
