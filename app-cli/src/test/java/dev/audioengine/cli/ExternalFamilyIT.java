package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model family from outside the repository: this test writes, compiles and jars a small family (an energy-threshold
 * VAD) against the packaged model API only, drops the jar into a folder named by AUDIOENGINE_LIB_EXTRA, and the
 * unchanged launcher lists it and runs --task vad with it.
 */
class ExternalFamilyIT {
    private static final String MODULE_INFO = """
            module org.example.energyvad {
                requires dev.audioengine.model;
                provides dev.audioengine.model.ModelFamily with org.example.energyvad.EnergyVadFamily;
            }
            """;

    private static final String FAMILY = """
            package org.example.energyvad;

            import dev.audioengine.api.AudioEngine;
            import dev.audioengine.api.capability.Capability;
            import dev.audioengine.api.exec.RunSummary;
            import dev.audioengine.model.*;
            import dev.audioengine.model.task.*;
            import java.io.IOException;
            import java.net.URI;
            import java.nio.file.*;
            import java.util.*;

            /** Speech wherever a 32 ms chunk's RMS is above the level written in the model file. */
            public final class EnergyVadFamily implements ModelFamily {
                static final ModelFile FILE = new ModelFile("energy.txt", "0".repeat(64), 0,
                        List.of(new ModelSource.Https(URI.create("https://example.org/energy.txt"))));
                public String name() { return "energy_vad"; }
                public String description() { return "an energy threshold, for a test"; }
                public Set<Task> tasks() { return Set.of(Task.VAD); }
                public List<ModelVariant> variants() {
                    return List.of(new ModelVariant("energy-vad", List.of(), Task.VAD, "RMS over a level", List.of(FILE), "CC0-1.0"));
                }
                public Set<Capability> uses() { return Set.of(); }
                public String validate(Path path) throws IOException {
                    String text = Files.readString(path).strip();
                    if (!text.startsWith("level=")) throw new ModelFormatException(path + " has no level= line");
                    return "energy VAD at " + text;
                }
                public TaskModel load(AudioEngine engine, ModelLocation location) throws IOException {
                    validate(location.path());
                    float level = Float.parseFloat(Files.readString(location.path()).strip().substring(6));
                    return new Detector(level);
                }

                static final class Detector implements VoiceActivityDetector {
                    final float level;
                    Detector(float level) { this.level = level; }
                    public Task task() { return Task.VAD; }
                    public String describe() { return "energy_vad level " + level; }
                    public Optional<RunSummary> runSummary() { return Optional.empty(); }
                    public void close() {}
                    public List<Integer> sampleRates() { return List.of(16000); }
                    public int chunkSize(int rate) { return 512; }
                    public float[] probabilities(float[] x, int rate) {
                        float[] p = new float[(x.length + 511) / 512];
                        for (int c = 0; c < p.length; c++) {
                            double s = 0;
                            int n = Math.min(512, x.length - c * 512);
                            for (int i = 0; i < n; i++) s += x[c * 512 + i] * x[c * 512 + i];
                            p[c] = Math.sqrt(s / 512) > level ? 1f : 0f;
                        }
                        return p;
                    }
                    public Detection detect(float[] x, int rate, VadOptions o) {
                        float[] p = probabilities(x, rate);
                        List<SpeechSegment> segs = new ArrayList<>();
                        int start = -1;
                        for (int c = 0; c <= p.length; c++) {
                            boolean speech = c < p.length && p[c] > o.threshold();
                            if (speech && start < 0) start = c;
                            if (!speech && start >= 0) { segs.add(new SpeechSegment(start * 512L, Math.min(x.length, c * 512L), rate)); start = -1; }
                        }
                        return new Detection(p, segs);
                    }
                    public VadStream stream(int rate, VadOptions o) { throw new IllegalArgumentException("energy_vad has no streaming mode"); }
                    public OfflineVad offline(int rate, VadOptions o) {
                        return new OfflineVad() {
                            float[] all = new float[0];
                            public int sampleRate() { return rate; }
                            public Result accept(float[] x, int from, int n) {
                                float[] more = Arrays.copyOf(all, all.length + n);
                                System.arraycopy(x, from, more, all.length, n);
                                all = more;
                                return new Result(new float[0], List.of());
                            }
                            public Result finish() {
                                Detection d = detect(all, rate, o);
                                return new Result(d.probabilities(), d.segments());
                            }
                            public void close() {}
                        };
                    }
                }
            }
            """;

    @Test
    void aFamilyJarOnTheModulePathAppearsInModelsListAndServesItsTask(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src");
        Path pkg = Files.createDirectories(src.resolve("org/example/energyvad"));
        Files.writeString(src.resolve("module-info.java"), MODULE_INFO);
        Files.writeString(pkg.resolve("EnergyVadFamily.java"), FAMILY);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Dist.Result javac = Dist.run(
                List.of(
                        Dist.javaHome().resolve("bin/javac").toString(),
                        "--release",
                        "25",
                        "--module-path",
                        Dist.lib().toString(),
                        "-d",
                        classes.toString(),
                        src.resolve("module-info.java").toString(),
                        pkg.resolve("EnergyVadFamily.java").toString()),
                dir,
                Map.of());
        assertThat(javac.exit())
                .as("the family compiles against the packaged model API: %s", javac)
                .isZero();
        Path extra = Files.createDirectories(dir.resolve("families"));
        jar(classes, extra.resolve("energy-vad.jar"));

        Map<String, String> env = Map.of("AUDIOENGINE_LIB_EXTRA", extra.toString());
        Dist.Result list = launch(dir, env, "models", "list", "--json");
        assertThat(list.exit()).as(list.toString()).isZero();
        assertThat(list.out())
                .contains(
                        "{\"name\":\"energy_vad\",\"description\":\"an energy threshold, for a test\",\"tasks\":[\"vad\"]")
                .contains("{\"name\":\"silero_vad\"");

        Path model = Files.writeString(dir.resolve("energy.txt"), "level=0.02\n");
        Dist.Result run = launch(
                dir,
                env,
                "--task",
                "vad",
                "--family",
                "energy_vad",
                "--model",
                model.toString(),
                "--audio",
                Dist.repoRoot().resolve("docs/examples/speech.wav").toString(),
                "--min-speech-ms",
                "0");
        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(run.out().lines().toList()).isNotEmpty().allMatch(l -> l.matches("\\d+\\.\\d{3} - \\d+\\.\\d{3}"));
        assertThat(run.err()).contains("energy_vad level 0.02");

        Dist.Result without = launch(dir, Map.of(), "models", "list");
        assertThat(without.out()).doesNotContain("energy_vad");
    }

    private static Dist.Result launch(Path dir, Map<String, String> extraEnv, String... args) throws Exception {
        List<String> cmd =
                new ArrayList<>(List.of(Dist.repoRoot().resolve("audioengine").toString()));
        cmd.addAll(List.of(args));
        Map<String, String> env = new HashMap<>(
                Map.of("AUDIOENGINE_NO_BUILD", "1", "JAVA_HOME", Dist.javaHome().toString()));
        env.putAll(extraEnv);
        return Dist.run(cmd, dir, env);
    }

    private static void jar(Path classes, Path jar) throws IOException {
        try (OutputStream os = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(os);
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
    }
}
