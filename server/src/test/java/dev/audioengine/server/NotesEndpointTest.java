package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.output.NoteOutput;
import dev.audioengine.model.task.NoteEvent;
import dev.audioengine.model.task.NoteOptions;
import dev.audioengine.model.task.NoteTranscriber;
import dev.audioengine.server.http.Routes;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * POST /v1/audio/notes on the real basic-pitch model: JSON, MIDI and CSV equal to what the library and the shared
 * writers make of the same melody (sox plays C4 E4 G4 C5 at 44.1 kHz, so the upload is resampled as the CLI's input
 * is) under the options sent, and the form's errors as 400s naming the field.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class NotesEndpointTest {
    @TempDir
    static Path dir;

    private static TestServer server;
    private static HttpClient http;
    private static Path melody;
    private static final int[] PITCHES = {60, 64, 67, 72};

    @BeforeAll
    static void start() throws Exception {
        List<String> mix = new ArrayList<>(List.of("sox", "-R", "-m"));
        for (int i = 0; i < PITCHES.length; i++) {
            Path f = dir.resolve("n" + i + ".wav");
            double hz = 440 * Math.pow(2, (PITCHES[i] - 69) / 12.0);
            sox(
                    "sox",
                    "-R",
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
                    String.format(Locale.ROOT, "%.4f", hz),
                    "pad",
                    "" + (0.2 + 0.5 * i),
                    "" + (2.4 - 0.2 - 0.5 * i - 0.4));
            mix.add(f.toString());
        }
        melody = dir.resolve("melody.wav");
        mix.addAll(List.of(melody.toString(), "norm", "-3"));
        sox(mix.toArray(String[]::new));
        server = TestServer.start(c -> c.withModels(List.of("basic-pitch")));
        http = HttpClient.newHttpClient();
    }

    private static void sox(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
    }

    @AfterAll
    static void stop() throws Exception {
        if (http != null) http.close();
        if (server != null) server.close();
    }

    private static HttpResponse<byte[]> post(Multipart form) throws Exception {
        return http.send(form.post(server.uri(Routes.NOTES)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static List<NoteEvent> library(NoteOptions options) throws Exception {
        try (NoteTranscriber t =
                ModelLoader.standard(m -> {}).load(server.engine, "basic-pitch", NoteTranscriber.class)) {
            return NoteOutput.sorted(t.transcribe(melody, options));
        }
    }

    @Test
    void givesTheLibrarysNotesAsJsonMidiAndCsv() throws Exception {
        List<NoteEvent> expected = library(NoteOptions.DEFAULTS);
        assertThat(expected).extracting(NoteEvent::pitch).containsExactly(60, 64, 67, 72);

        HttpResponse<byte[]> json = post(new Multipart().file(melody));
        assertThat(json.statusCode())
                .as(new String(json.body(), StandardCharsets.UTF_8))
                .isEqualTo(200);
        assertThat(json.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode doc = new ObjectMapper().readTree(json.body());
        assertThat(doc.get("model").asText()).isEqualTo("basic-pitch");
        assertThat(doc.get("duration").asDouble()).isCloseTo(2.4, org.assertj.core.data.Offset.offset(0.01));
        assertThat(doc.get("onset_threshold").asDouble()).isEqualTo(0.5);
        JsonNode notes = doc.get("notes");
        assertThat(notes).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            NoteEvent e = expected.get(i);
            assertThat(notes.get(i).get("pitch").asInt()).isEqualTo(e.pitch());
            assertThat(notes.get(i).get("velocity").asInt()).isEqualTo(e.velocity());
            assertThat(notes.get(i).get("start").asDouble()).isEqualTo(Math.round(e.startSeconds() * 1e4) / 1e4);
            assertThat(notes.get(i).get("end").asDouble()).isEqualTo(Math.round(e.endSeconds() * 1e4) / 1e4);
        }

        HttpResponse<byte[]> midi =
                post(new Multipart().field("response_format", "midi").file(melody));
        assertThat(midi.statusCode()).isEqualTo(200);
        assertThat(midi.headers().firstValue("content-type")).hasValue("audio/midi");
        // the shared writer's bytes (app-cli's NotesTaskTest reads that writer's files back with javax.sound.midi)
        assertThat(midi.body()).isEqualTo(NoteOutput.midi(expected));

        HttpResponse<byte[]> csv =
                post(new Multipart().field("response_format", "csv").file(melody));
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(new String(csv.body(), StandardCharsets.UTF_8)).isEqualTo(NoteOutput.csv(expected));
    }

    @Test
    void appliesTheOptionsSent() throws Exception {
        // lower thresholds, shorter notes, no melodia pass, bends and a range that keeps G4 and C5 (MIDI 65.0 to 74.4)
        NoteOptions options = NoteOptions.DEFAULTS
                .withThresholds(0.4, 0.25)
                .withMinNoteFrames(3)
                .withMelodiaTrick(false)
                .withPitchBends(true)
                .withFrequencyRange(350, 600);
        List<NoteEvent> expected = library(options);
        assertThat(expected).extracting(NoteEvent::pitch).contains(67, 72).allMatch(p -> p >= 65 && p <= 74);
        assertThat(expected).isNotEqualTo(library(NoteOptions.DEFAULTS));
        HttpResponse<byte[]> r = post(new Multipart()
                .field("onset_threshold", "0.4")
                .field("frame_threshold", "0.25")
                .field("min_note_frames", "3")
                .field("melodia", "false")
                .field("pitch_bends", "true")
                .field("min_freq", "350")
                .field("max_freq", "600")
                .file(melody));
        assertThat(r.statusCode())
                .as(new String(r.body(), StandardCharsets.UTF_8))
                .isEqualTo(200);
        JsonNode doc = new ObjectMapper().readTree(r.body());
        assertThat(doc.get("onset_threshold").asDouble()).isEqualTo(0.4);
        assertThat(doc.get("frame_threshold").asDouble()).isEqualTo(0.25);
        assertThat(doc.get("min_note_frames").asInt()).isEqualTo(3);
        assertThat(doc.get("melodia_trick").asBoolean()).isFalse();
        JsonNode notes = doc.get("notes");
        assertThat(notes).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(notes.get(i).get("pitch").asInt())
                    .isEqualTo(expected.get(i).pitch());
            assertThat(notes.get(i).get("pitch_bends")).hasSize(expected.get(i).pitchBends().length);
        }
    }

    @Test
    void badFieldsAre400sNamingTheField() throws Exception {
        for (String[] c : new String[][] {
            {"onset_threshold", "1.5", "onset_threshold must be between 0 and 1"},
            {"frame_threshold", "zero", "frame_threshold must be a number"},
            {"min_note_frames", "-2", "min_note_frames must not be negative"},
            {"min_note_frames", "2.5", "min_note_frames must be a whole number"},
            {"melodia", "maybe", "melodia must be true or false"},
            {"max_freq", "-1", "max_freq must be above min_freq"},
            {"response_format", "mp3", "response_format must be json, midi or csv"},
            {"model", "nothing-such", "does not exist on this server"},
            {"language", "en", "unrecognized parameter language"}
        }) {
            HttpResponse<byte[]> r = post(new Multipart().field(c[0], c[1]).file(melody));
            String body = new String(r.body(), StandardCharsets.UTF_8);
            assertThat(r.statusCode()).as(body).isEqualTo(c[0].equals("model") ? 404 : 400);
            JsonNode e = new ObjectMapper().readTree(body).get("error");
            if (!c[0].equals("model"))
                assertThat(e.get("param").asText()).as(body).isEqualTo(c[0]);
            assertThat(e.get("message").asText()).contains(c[2]);
        }
        HttpResponse<byte[]> none = post(new Multipart().field("response_format", "json"));
        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(new String(none.body(), StandardCharsets.UTF_8)).contains("file");
    }
}
