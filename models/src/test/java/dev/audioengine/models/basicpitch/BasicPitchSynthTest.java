package dev.audioengine.models.basicpitch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.audio.WavReader;
import dev.audioengine.model.task.NoteEvent;
import dev.audioengine.model.task.NoteOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Melodies and chords synthesized by sox with known pitches and times (made here, at odd sample rates, so the
 * resampler is in the path too): every note comes out at its exact pitch with its onset within 50 ms, and anything
 * else heard is weak (amplitude below 0.45, where the played notes come out at 0.74-0.84) and an octave below or a
 * harmonic (2 to 5) of a note sounding then (the ghosts of overtones and sub-harmonics Basic Pitch is known for).
 */
class BasicPitchSynthTest {
    /** What sox plays: a MIDI pitch from start for duration seconds, and with which timbre. */
    record Played(int pitch, double start, double duration, String timbre) {}

    /** Intervals (semitones from a played note) of the ghosts allowed: the octave below, harmonics 2 to 5. */
    static final java.util.Set<Integer> GHOSTS = java.util.Set.of(-12, 12, 19, 24, 28);

    private static AudioEngine engine;
    private static BasicPitchTranscriber transcriber;

    @BeforeAll
    static void open() throws Exception {
        engine = AudioEngine.builder().backend("cpu").threads(1).build();
        transcriber = BasicPitchParityTest.load(engine);
    }

    @AfterAll
    static void close() {
        if (transcriber != null) transcriber.close();
        if (engine != null) engine.close();
    }

    static double hz(int midi) {
        return 440 * Math.pow(2, (midi - 69) / 12.0);
    }

    /** The notes mixed by sox at {@code rate}, resampled to 22050 Hz by the engine's resampler. */
    static float[] synth(List<Played> notes, double seconds, int rate) throws Exception {
        Path dir = Files.createTempDirectory("bp-synth");
        try {
            List<String> mix = new ArrayList<>(List.of("sox", "-m"));
            int i = 0;
            for (Played p : notes) {
                Path f = dir.resolve("n" + i++ + ".wav");
                sox(
                        "sox",
                        "-n",
                        "-r",
                        "" + rate,
                        "-b",
                        "16",
                        "-c",
                        "1",
                        f.toString(),
                        "synth",
                        "" + p.duration(),
                        p.timbre(),
                        String.format(java.util.Locale.ROOT, "%.4f", hz(p.pitch())),
                        "fade",
                        "0.005",
                        "" + p.duration(),
                        "0.02",
                        "pad",
                        "" + p.start(),
                        "" + Math.max(0, seconds - p.start() - p.duration()));
                mix.add(f.toString());
            }
            Path out = dir.resolve("mix.wav");
            if (notes.size() == 1) mix.remove("-m");
            mix.addAll(List.of(out.toString(), "norm", "-3"));
            sox(mix.toArray(String[]::new));
            var clip = WavReader.read(out);
            return NoteTranscriberResample.to22050(clip.samples(), clip.sampleRate());
        } finally {
            try (var s = Files.list(dir)) {
                for (Path p : s.toList()) Files.delete(p);
            }
            Files.delete(dir);
        }
    }

    /** Runs sox with -R: its pluck is noise-excited, and -R makes the noise the same on every run. */
    static void sox(String... cmd) throws Exception {
        List<String> args = new ArrayList<>(List.of(cmd));
        args.add(1, "-R");
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0)
            throw new IOException("sox failed (Debian's sox package is needed): " + String.join(" ", cmd) + "\n" + log);
    }

    static void check(List<Played> played, List<NoteEvent> heard) {
        for (Played p : played) {
            assertThat(heard)
                    .as("%s among %s", p, heard)
                    .anyMatch(n -> n.pitch() == p.pitch() && Math.abs(n.startSeconds() - p.start()) <= 0.050);
        }
        for (NoteEvent n : heard) {
            boolean playedThen = played.stream()
                    .anyMatch(p -> n.pitch() == p.pitch()
                            && n.startSeconds() < p.start() + p.duration()
                            && n.endSeconds() > p.start());
            if (playedThen) continue;
            assertThat(n.amplitude()).as("%s was not played, yet strong", n).isLessThan(0.45);
            assertThat(played)
                    .as("%s is neither played nor an overtone or sub-octave of a note playing then (%s)", n, played)
                    .anyMatch(p -> GHOSTS.contains(n.pitch() - p.pitch())
                            && n.startSeconds() < p.start() + p.duration() + 0.05
                            && n.endSeconds() > p.start());
        }
    }

    @Test
    void aMelodyComesOutNoteForNote() throws Exception {
        List<Played> melody = new ArrayList<>();
        int[] pitches = {60, 62, 64, 65, 67, 69, 71, 72, 57, 48};
        for (int i = 0; i < pitches.length; i++) melody.add(new Played(pitches[i], 0.25 + 0.5 * i, 0.4, "pluck"));
        List<NoteEvent> heard = transcriber.transcribe(synth(melody, 5.5, 44100), 22050, NoteOptions.DEFAULTS);
        System.err.println("melody: " + heard);
        check(melody, heard);
    }

    @Test
    void chordsComeOutWithEveryNote() throws Exception {
        List<Played> chords = new ArrayList<>();
        int[][] triads = {{48, 52, 55}, {53, 57, 60}, {55, 59, 62}, {45, 48, 52}};
        for (int i = 0; i < triads.length; i++)
            for (int p : triads[i]) chords.add(new Played(p, 0.3 + 0.8 * i, 0.7, "pluck"));
        List<NoteEvent> heard = transcriber.transcribe(synth(chords, 3.8, 16000), 22050, NoteOptions.DEFAULTS);
        System.err.println("chords: " + heard);
        check(chords, heard);
    }

    @Test
    void aTriangleLineAtAnotherRate() throws Exception {
        List<Played> line = List.of(
                new Played(76, 0.1, 0.3, "triangle"),
                new Played(79, 0.5, 0.3, "triangle"),
                new Played(74, 0.9, 0.6, "triangle"));
        List<NoteEvent> heard = transcriber.transcribe(synth(line, 1.7, 48000), 22050, NoteOptions.DEFAULTS);
        System.err.println("triangle: " + heard);
        check(line, heard);
    }
}
