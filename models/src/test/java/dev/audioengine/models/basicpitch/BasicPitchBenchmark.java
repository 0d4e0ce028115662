package dev.audioengine.models.basicpitch;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.task.NoteOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Warm cost for docs/BASIC-PITCH.md; prints, asserts nothing. One thread each: the engine's transcribe (activations
 * and note decoding) on an already loaded model, and Basic Pitch's package on TF.js's CPU backend
 * (scripts/fixtures/basic-pitch-reference.mjs --time 1: evaluateModel and outputToNotesPoly after one untimed run in
 * the same process), in alternating rounds on the same WAV. Run with:
 * <pre>mvn -B -q -pl models -am verify -Dtest=BasicPitchBenchmark -Dbench=true -Dbench.wav=FILE.wav \
 *     -Dbench.node=/tmp/bpref -Dsurefire.failIfNoSpecifiedTests=false -DskipITs</pre>
 * FILE.wav: 16-bit mono at 22050 Hz (scripts/peers/basic-pitch-bench.sh makes one).
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class BasicPitchBenchmark {
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 5);

    @Test
    void warmBesideTfjs() throws Exception {
        Path wav = Path.of(System.getProperty("bench.wav"));
        String node = System.getProperty("bench.node", "/tmp/bpref");
        Path script = Path.of(System.getProperty("user.dir")).resolve("../scripts/fixtures/basic-pitch-reference.mjs");
        float[] samples = dev.audioengine.audio.WavReader.read(wav).samples();
        List<Double> engine = new ArrayList<>(), tfjs = new ArrayList<>();
        try (AudioEngine e = AudioEngine.builder().backend("cpu").threads(1).build();
                BasicPitchTranscriber t = BasicPitchParityTest.load(e)) {
            long c0 = System.nanoTime();
            t.transcribe(samples, 22050, NoteOptions.DEFAULTS); // compile and warm
            System.err.printf(Locale.ROOT, "first run (compiles): %.3f s%n", (System.nanoTime() - c0) / 1e9);
            for (int r = 0; r < ROUNDS; r++) {
                long t0 = System.nanoTime();
                int notes = t.transcribe(samples, 22050, NoteOptions.DEFAULTS).size();
                engine.add((System.nanoTime() - t0) / 1e9);
                if (node.equals("none")) { // the engine alone (-Dbench.node=none)
                    System.err.printf(Locale.ROOT, "round %d: engine %.3f s (%d notes)%n", r, engine.getLast(), notes);
                    tfjs.add(Double.NaN);
                    continue;
                }
                Process p = new ProcessBuilder("node", script.toString(), node, wav.toString(), "--time", "1")
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
                String out = new String(p.getInputStream().readAllBytes()).strip();
                if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0)
                    throw new IllegalStateException("node failed: " + out);
                tfjs.add(Double.parseDouble(out.lines().reduce((a, b) -> b).orElseThrow()));
                System.err.printf(
                        Locale.ROOT,
                        "round %d: engine %.3f s (%d notes), tfjs %.3f s%n",
                        r,
                        engine.getLast(),
                        notes,
                        tfjs.getLast());
            }
        }
        double seconds = samples.length / 22050.0, em = median(engine), tm = median(tfjs);
        System.err.printf(
                Locale.ROOT,
                "warm, %.1f s of audio, 1 thread: engine median %.3f s (%.0fx real time), "
                        + "tfjs %.3f s (%.1fx real time): %.1fx%n",
                seconds,
                em,
                seconds / em,
                tm,
                seconds / tm,
                tm / em);
    }

    static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
