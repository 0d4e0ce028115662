package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.audio.AudioResponseFormat;
import com.openai.models.audio.transcriptions.TranscriptionCreateParams;
import com.openai.models.audio.transcriptions.TranscriptionCreateResponse;
import com.openai.models.audio.transcriptions.TranscriptionStreamEvent;
import com.openai.models.audio.transcriptions.TranscriptionVerbose;
import com.openai.models.models.Model;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** OpenAI's own Java SDK against the server: what a user of an OpenAI-compatible server would run. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OpenAiClientTest {
    private static TestServer server;
    private static OpenAIClient client;
    private static Transcript library;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c);
        client = OpenAIOkHttpClient.builder()
                .baseUrl(server.uri("/v1").toString())
                .apiKey("unused")
                .maxRetries(0)
                .build();
        // what the library itself hears, on the same engine: the server must say exactly this
        try (SpeechRecognizer asr =
                ModelLoader.standard(m -> {}).load(server.engine, "moonshine-tiny", SpeechRecognizer.class)) {
            library = asr.transcribe(TestServer.RECORDING, AsrOptions.DEFAULTS);
        }
    }

    @AfterAll
    static void stop() {
        if (client != null) client.close();
        if (server != null) server.close();
    }

    private static TranscriptionCreateParams.Builder params() {
        return TranscriptionCreateParams.builder().file(TestServer.RECORDING).model("moonshine-tiny");
    }

    @Test
    void aRecordingGivesTheLibrarysTranscript() {
        assertThat(library.text()).isEqualTo(TestServer.EXPECTED);
        TranscriptionCreateResponse r = client.audio().transcriptions().create(params().build());
        assertThat(r.asTranscription().text()).isEqualTo(library.text());
        assertThat(r.asTranscription().usage()).isPresent();
    }

    @Test
    void verboseJsonHasTheSegmentsAndTheDuration() {
        TranscriptionCreateResponse r = client.audio()
                .transcriptions()
                .create(params().responseFormat(AudioResponseFormat.VERBOSE_JSON)
                        .addTimestampGranularity(TranscriptionCreateParams.TimestampGranularity.SEGMENT)
                        .build());
        TranscriptionVerbose v = r.asVerbose();
        assertThat(v.text()).isEqualTo(library.text());
        assertThat(v.language()).isEqualTo("english");
        assertThat(v.duration()).isEqualTo(library.audioSeconds());
        assertThat(v.segments()).hasValueSatisfying(segments -> {
            assertThat(segments).hasSize(library.segments().size());
            for (int i = 0; i < segments.size(); i++) {
                assertThat(segments.get(i).id()).isEqualTo(i);
                assertThat(segments.get(i).text())
                        .isEqualTo(library.segments().get(i).text());
                assertThat(segments.get(i).start())
                        .isEqualTo(library.segments().get(i).startSeconds());
                assertThat(segments.get(i).end())
                        .isEqualTo(library.segments().get(i).endSeconds());
                assertThat(segments.get(i).tokens())
                        .hasSize(library.segments().get(i).tokens().size());
            }
        });
    }

    @Test
    void textSrtAndVttCarryTheSameWords() {
        for (AudioResponseFormat f :
                List.of(AudioResponseFormat.TEXT, AudioResponseFormat.SRT, AudioResponseFormat.VTT)) {
            String body = client.audio()
                    .transcriptions()
                    .create(params().responseFormat(f).build())
                    .asTranscription()
                    .text();
            // subtitle cues hold at most two lines of ~42 characters: the words are the cue lines' words, in order
            String words = f == AudioResponseFormat.TEXT
                    ? body
                    : String.join(
                            " ",
                            body.lines()
                                    .filter(l -> !l.isBlank()
                                            && !l.matches("\\d+")
                                            && !l.contains("-->")
                                            && !l.equals("WEBVTT"))
                                    .toList());
            assertThat(words).as(f.toString()).contains(library.text());
            if (f == AudioResponseFormat.SRT) assertThat(body).startsWith("1\n00:00:");
            if (f == AudioResponseFormat.VTT) assertThat(body).startsWith("WEBVTT\n\n00:00:");
        }
    }

    @Test
    void streamedDeltasJoinToTheFinalText() {
        List<String> deltas = new ArrayList<>();
        String done = null;
        try (StreamResponse<TranscriptionStreamEvent> events =
                client.audio().transcriptions().createStreaming(params().build())) {
            for (TranscriptionStreamEvent e : (Iterable<TranscriptionStreamEvent>) events.stream()::iterator) {
                if (e.isTranscriptTextDelta())
                    deltas.add(e.asTranscriptTextDelta().delta());
                if (e.isTranscriptTextDone()) done = e.asTranscriptTextDone().text();
            }
        }
        assertThat(deltas).isNotEmpty();
        assertThat(String.join("", deltas)).isEqualTo(done).isEqualTo(library.text());
    }

    @Test
    void theModelsListNamesWhatTheServerServes() {
        List<String> ids = client.models().list().data().stream().map(Model::id).toList();
        assertThat(ids).containsExactly("moonshine-tiny", "silero_vad");
        Model m = client.models().retrieve("moonshine-tiny");
        assertThat(m.ownedBy()).isEqualTo("moonshine");
        assertThat(m.created()).isPositive();
    }
}
