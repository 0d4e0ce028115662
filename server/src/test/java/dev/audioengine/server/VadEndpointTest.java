package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import dev.audioengine.server.http.Routes;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** POST /v1/audio/vad: the library's segments under the options given, in the formats asked for. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class VadEndpointTest {
    private static final Path SPEECH = Path.of("../docs/examples/speech.wav");
    private static TestServer server;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c.withModels(List.of("silero_vad")));
        http = HttpClient.newHttpClient();
    }

    @AfterAll
    static void stop() {
        if (http != null) http.close();
        if (server != null) server.close();
    }

    private static List<SpeechSegment> library(VadOptions o) throws Exception {
        try (VoiceActivityDetector vad =
                ModelLoader.standard(m -> {}).load(server.engine, "silero_vad", VoiceActivityDetector.class)) {
            return vad.segments(SPEECH, o);
        }
    }

    private static HttpResponse<String> detect(Multipart form) throws Exception {
        return http.send(form.post(server.uri(Routes.VAD)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void givesTheLibrarysSegmentsWithTheOptionsApplied() throws Exception {
        for (double threshold : new double[] {0.5, 0.8}) {
            VadOptions o = new VadOptions(threshold, Double.NaN, 250, 100, 30, Double.POSITIVE_INFINITY);
            List<SpeechSegment> expected = library(o);
            HttpResponse<String> r = detect(new Multipart()
                    .field("threshold", Double.toString(threshold))
                    .file(SPEECH));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode doc = new ObjectMapper().readTree(r.body());
            assertThat(doc.get("model").asText()).isEqualTo("silero_vad");
            assertThat(doc.get("threshold").asDouble()).isEqualTo(threshold);
            assertThat(doc.get("duration").asDouble()).isGreaterThan(7);
            JsonNode segments = doc.get("segments");
            assertThat(segments).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertThat(segments.get(i).get("start_sample").asLong())
                        .isEqualTo(expected.get(i).startSample());
                assertThat(segments.get(i).get("end_sample").asLong())
                        .isEqualTo(expected.get(i).endSample());
            }
        }
    }

    @Test
    void subtitlesAndBadOptions() throws Exception {
        HttpResponse<String> srt = detect(new Multipart()
                .field("response_format", "srt")
                .field("model", "silero_vad_v6")
                .file(SPEECH));
        assertThat(srt.statusCode()).isEqualTo(200);
        assertThat(srt.body()).startsWith("1\n00:00:00,").contains("speech");
        HttpResponse<String> bad =
                detect(new Multipart().field("threshold", "1.5").file(SPEECH));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("threshold must be in (0, 1)");
        // a value out of range names the form field, in param and in the message, as the form spells it
        for (String[] field : new String[][] {
            {"threshold", "2"}, {"min_speech_ms", "-5"}, {"neg_threshold", "0.9"}, {"max_speech_s", "0"}
        }) {
            HttpResponse<String> range =
                    detect(new Multipart().field(field[0], field[1]).file(SPEECH));
            assertThat(range.statusCode()).as(range.body()).isEqualTo(400);
            JsonNode e = new ObjectMapper().readTree(range.body()).get("error");
            assertThat(e.get("param").asText()).as(range.body()).isEqualTo(field[0]);
            assertThat(e.get("message").asText())
                    .startsWith(field[0] + " must")
                    .doesNotContain("-ms")
                    .doesNotContain("neg-")
                    .doesNotContain("-s ");
        }
        HttpResponse<String> ms =
                detect(new Multipart().field("min_speech_ms", "soon").file(SPEECH));
        assertThat(ms.statusCode()).isEqualTo(400);
        assertThat(ms.body()).contains("\"param\":\"min_speech_ms\"");
        HttpResponse<String> asr =
                detect(new Multipart().field("model", "moonshine-tiny").file(SPEECH));
        assertThat(asr.statusCode()).as("a model this server does not serve").isEqualTo(404);
    }
}
