package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.Models;
import dev.audioengine.model.output.NoteOutput;
import dev.audioengine.model.task.NoteEvent;
import dev.audioengine.model.task.NoteOptions;
import dev.audioengine.model.task.NoteTranscriber;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sound.midi.MidiEvent;
import javax.sound.midi.MidiSystem;
import javax.sound.midi.Sequence;
import javax.sound.midi.ShortMessage;
import javax.sound.midi.Track;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --task notes} with the real default family (basic-pitch, pulled from npm on first use) on a melody sox plays
 * at 44.1 kHz: the lines, the JSON and CSV equal to the library's notes, and the MIDI file read back by
 * javax.sound.midi (an independent parser); the option errors with exit status 2.
 */
@SuppressWarnings("unchecked")
class NotesTaskTest {
    @TempDir
    static Path dir;

    private static Path melody;
    /** C4 E4 G4 C5 plucked at 0.2 s + 0.5 s each, 0.4 s long. */
    private static final int[] PITCHES = {60, 64, 67, 72};

    @BeforeAll
    static void audio() throws Exception {
        List<String> mix = new ArrayList<>(List.of("sox", "-m"));
        for (int i = 0; i < PITCHES.length; i++) {
            Path f = dir.resolve("n" + i + ".wav");
            double hz = 440 * Math.pow(2, (PITCHES[i] - 69) / 12.0);
            sox(
                    "sox",
                    "-n",
                    "-r",
                    "44100",
                    "-b",
                    "16",
                    "-c",
                    "1",
                    f.toString(),
                    "synth",
                    "0.4",
                    "pluck",
                    String.format(java.util.Locale.ROOT, "%.4f", hz),
                    "pad",
                    "" + (0.2 + 0.5 * i),
                    "" + (2.4 - 0.2 - 0.5 * i - 0.4));
            mix.add(f.toString());
        }
        melody = dir.resolve("melody.wav");
        mix.addAll(List.of(melody.toString(), "norm", "-3"));
        sox(mix.toArray(String[]::new));
    }

    /** Runs sox with -R: its pluck is noise-excited, and -R makes the noise the same on every run. */
    static void sox(String... cmd) throws Exception {
        List<String> args = new ArrayList<>(List.of(cmd));
        args.add(1, "-R");
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd)).isZero();
    }

    private static VadTaskTest.Run notes(String... more) {
        List<String> args = new ArrayList<>(List.of("--task", "notes", "--backend", "cpu", "--threads", "1"));
        args.addAll(List.of(more));
        return VadTaskTest.run(args.toArray(String[]::new));
    }

    @Test
    void printsWritesAndReadsBackTheLibrarysNotes() throws Exception {
        List<NoteEvent> expected;
        try (AudioEngine e = AudioEngine.builder().backend("cpu").threads(1).build();
                NoteTranscriber t = Models.load(e, "basic-pitch", NoteTranscriber.class)) {
            expected = NoteOutput.sorted(t.transcribe(melody, NoteOptions.DEFAULTS));
        }
        assertThat(expected).extracting(NoteEvent::pitch).containsExactly(60, 64, 67, 72);

        Path mid = dir.resolve("song.mid"), csv = dir.resolve("song.csv");
        VadTaskTest.Run text = notes("--audio", melody.toString(), "--out", mid.toString(), "--csv", csv.toString());
        assertThat(text.exit()).as(text.err()).isZero();
        StringBuilder lines = new StringBuilder();
        for (NoteEvent n : expected)
            lines.append(String.format(
                    java.util.Locale.ROOT,
                    "%.3f %.3f %d %d%n",
                    n.startSeconds(),
                    n.endSeconds(),
                    n.pitch(),
                    n.velocity()));
        assertThat(text.out()).isEqualTo(lines.toString());
        assertThat(text.err()).contains("resampling", "44100 Hz to 22050 Hz", "4 notes in 2.");
        assertThat(Files.readString(csv)).isEqualTo(NoteOutput.csv(expected)).startsWith("start,end,pitch,velocity");

        // the MIDI file through javax.sound.midi's own parser
        Sequence seq = MidiSystem.getSequence(mid.toFile());
        assertThat(seq.getDivisionType()).isEqualTo(Sequence.PPQ);
        assertThat(seq.getResolution()).isEqualTo(480);
        assertThat(seq.getTracks()).hasSize(2);
        Track notes = seq.getTracks()[1];
        List<long[]> ons = new ArrayList<>(), offs = new ArrayList<>();
        for (int i = 0; i < notes.size(); i++) {
            MidiEvent ev = notes.get(i);
            if (ev.getMessage() instanceof ShortMessage m) {
                if (m.getCommand() == ShortMessage.NOTE_ON && m.getData2() > 0)
                    ons.add(new long[] {ev.getTick(), m.getData1(), m.getData2()});
                else if (m.getCommand() == ShortMessage.NOTE_OFF) offs.add(new long[] {ev.getTick(), m.getData1()});
            }
        }
        assertThat(ons).hasSize(expected.size());
        assertThat(offs).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            NoteEvent n = expected.get(i);
            // 120 bpm, 480 ticks a beat: 960 ticks a second
            assertThat(ons.get(i)).containsExactly(Math.round(n.startSeconds() * 960), n.pitch(), n.velocity());
            assertThat(offs).anyMatch(o -> o[1] == n.pitch() && o[0] == Math.round(n.endSeconds() * 960));
            assertThat(n.startSeconds()).isCloseTo(0.2 + 0.5 * i, org.assertj.core.data.Offset.offset(0.05));
        }
        assertThat(seq.getMicrosecondLength() / 1e6)
                .isCloseTo(expected.getLast().endSeconds(), org.assertj.core.data.Offset.offset(0.01));

        Path bent = dir.resolve("bent.mid");
        VadTaskTest.Run json = notes("--audio", melody.toString(), "--json", "--pitch-bends", "--out", bent.toString());
        assertThat(json.exit()).as(json.err()).isZero();
        Map<String, Object> doc = (Map<String, Object>) AsrTaskTest.json(json.out());
        assertThat(doc.get("model")).isEqualTo("basic-pitch (Apache-2.0)");
        assertThat(doc.get("onset_threshold")).isEqualTo(0.5);
        assertThat(doc.get("frame_threshold")).isEqualTo(0.3);
        List<Map<String, Object>> got = (List<Map<String, Object>>) doc.get("notes");
        assertThat(got).hasSize(expected.size());
        for (int i = 0; i < got.size(); i++) {
            assertThat(((Number) got.get(i).get("pitch")).intValue())
                    .isEqualTo(expected.get(i).pitch());
            assertThat((double) got.get(i).get("start"))
                    .isEqualTo(Math.round(expected.get(i).startSeconds() * 1e4) / 1e4);
            assertThat((List<Object>) got.get(i).get("pitch_bends"))
                    .hasSize(expected.get(i).frames());
        }
        // one bend event per frame of every note, and a reset to centre at each note's end, all of them parsed
        Track bends = MidiSystem.getSequence(bent.toFile()).getTracks()[1];
        int bendEvents = 0, centred = 0;
        for (int i = 0; i < bends.size(); i++)
            if (bends.get(i).getMessage() instanceof ShortMessage m && m.getCommand() == ShortMessage.PITCH_BEND) {
                bendEvents++;
                int value = m.getData1() | (m.getData2() << 7);
                assertThat(value).isBetween(0, 16383);
                if (value == 8192) centred++;
            }
        int frames = expected.stream().mapToInt(NoteEvent::frames).sum();
        assertThat(bendEvents).isEqualTo(frames + expected.size());
        assertThat(centred).isGreaterThanOrEqualTo(expected.size());
    }

    @Test
    void thresholdsChangeWhatIsHeardAndBadOnesAreUsageErrors() {
        // C4 is 261.6 Hz: --min-freq 300 keeps E4, G4 and C5
        VadTaskTest.Run high = notes("--audio", melody.toString(), "--min-freq", "300");
        assertThat(high.exit()).as(high.err()).isZero();
        assertThat(high.out().lines().map(l -> l.split(" ")[2]).toList()).containsExactly("64", "67", "72");

        VadTaskTest.Run bad = notes("--audio", melody.toString(), "--onset-threshold", "1.5");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--onset-threshold must be between 0 and 1");

        VadTaskTest.Run other = notes("--audio", melody.toString(), "--keywords", "alexa");
        assertThat(other.exit()).isEqualTo(2);
        assertThat(other.err()).contains("--keywords is an option of --task kws", "--onset-threshold");

        VadTaskTest.Run list = VadTaskTest.run("models", "list");
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).contains("basic-pitch", "Apache-2.0", "notes");
    }
}
