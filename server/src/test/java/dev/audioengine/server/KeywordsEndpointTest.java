package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordSpotter;
import dev.audioengine.server.http.Routes;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** POST /v1/audio/keywords: the library's detections under the options given, and the form's errors. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KeywordsEndpointTest {
    private static TestServer server;
    private static HttpClient http;
    private static Path jarvis;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c.withModels(List.of("openwakeword", "silero_vad")));
        http = HttpClient.newHttpClient();
        jarvis = Files.createTempFile("jarvis", ".wav");
        Process p = new ProcessBuilder(
                        "espeak-ng", "-v", "en-us", "-w", jarvis.toString(), "hey jarvis, what is the weather today")
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }

    @AfterAll
    static void stop() throws Exception {
        if (http != null) http.close();
        if (server != null) server.close();
        if (jarvis != null) Files.deleteIfExists(jarvis);
    }

    private static HttpResponse<String> detect(Multipart form) throws Exception {
        return http.send(form.post(server.uri(Routes.KEYWORDS)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void givesTheLibrarysDetectionsWithTheOptionsApplied() throws Exception {
        List<KeywordDetection> expected;
        try (KeywordSpotter kws =
                ModelLoader.standard(m -> {}).load(server.engine, "openwakeword", KeywordSpotter.class)) {
            expected = kws.detect(jarvis, KeywordOptions.DEFAULTS.withKeywords(List.of("weather", "hey_jarvis")));
        }
        assertThat(expected).extracting(KeywordDetection::keyword).containsExactly("hey_jarvis", "weather");
        HttpResponse<String> r = detect(new Multipart()
                .field("keywords", "weather, hey_jarvis")
                .field("threshold", "0.5")
                .file(jarvis));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode doc = new ObjectMapper().readTree(r.body());
        assertThat(doc.get("model").asText()).isEqualTo("openwakeword");
        assertThat(doc.get("threshold").asDouble()).isEqualTo(0.5);
        assertThat(doc.get("refractory_seconds").asDouble()).isEqualTo(2.0);
        assertThat(doc.get("duration").asDouble()).isGreaterThan(2);
        assertThat(doc.get("keywords").toString()).isEqualTo("[\"weather\",\"hey_jarvis\"]");
        JsonNode d = doc.get("detections");
        assertThat(d).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(d.get(i).get("keyword").asText())
                    .isEqualTo(expected.get(i).keyword());
            assertThat(d.get(i).get("frame").asLong()).isEqualTo(expected.get(i).frame());
            assertThat(d.get(i).get("score").asDouble())
                    .isCloseTo(expected.get(i).score(), org.assertj.core.data.Offset.offset(1e-5));
        }
        HttpResponse<String> other =
                detect(new Multipart().field("keywords", "alexa").file(jarvis));
        assertThat(other.statusCode()).isEqualTo(200);
        assertThat(new ObjectMapper().readTree(other.body()).get("detections")).isEmpty();
    }

    /** vad_threshold: the served Silero gates the scores as the library's VadGatedKeywordStream does. */
    @Test
    void vadThresholdGatesWithTheServedDetector() throws Exception {
        KeywordOptions options = KeywordOptions.DEFAULTS.withKeywords(List.of("hey_jarvis", "weather"));
        List<KeywordDetection> expected = new java.util.ArrayList<>();
        try (KeywordSpotter kws =
                        ModelLoader.standard(m -> {}).load(server.engine, "openwakeword", KeywordSpotter.class);
                dev.audioengine.model.task.VoiceActivityDetector vad = ModelLoader.standard(m -> {})
                        .load(server.engine, "silero_vad", dev.audioengine.model.task.VoiceActivityDetector.class);
                dev.audioengine.audio.AudioStream in = dev.audioengine.audio.AudioStream.open(jarvis)) {
            if (in.sourceRate() != kws.sampleRate()) in.resampleTo(kws.sampleRate());
            try (var s = new dev.audioengine.model.task.VadGatedKeywordStream(
                    kws.stream(options),
                    vad.stream(kws.sampleRate(), dev.audioengine.model.task.VadOptions.DEFAULTS),
                    options,
                    0.3)) {
                float[] block = new float[4096];
                for (int n; (n = in.read(block, 0, block.length)) >= 0; )
                    expected.addAll(s.accept(block, 0, n).detections());
                expected.addAll(s.finish().detections());
            }
        }
        assertThat(expected).isNotEmpty();
        HttpResponse<String> r = detect(new Multipart()
                .field("keywords", "hey_jarvis,weather")
                .field("vad_threshold", "0.3")
                .file(jarvis));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode d = new ObjectMapper().readTree(r.body()).get("detections");
        assertThat(d).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(d.get(i).get("keyword").asText())
                    .isEqualTo(expected.get(i).keyword());
            assertThat(d.get(i).get("frame").asLong()).isEqualTo(expected.get(i).frame());
        }
        HttpResponse<String> bad =
                detect(new Multipart().field("vad_threshold", "1").file(jarvis));
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(new ObjectMapper()
                        .readTree(bad.body())
                        .get("error")
                        .get("param")
                        .asText())
                .isEqualTo("vad_threshold");
    }

    @Test
    void badFieldsAre400sNamingTheField() throws Exception {
        for (String[] c : new String[][] {
            {"threshold", "1.5", "threshold must be in (0, 1)"},
            {"refractory_ms", "-1", "refractory period must be"},
            {"refractory_ms", "soon", "refractory_ms must be a whole number"},
            {"keywords", "hey_siri", "unknown keyword 'hey_siri'; this model spots hey_jarvis"},
            {"keywords", ",", "keywords names no keyword"},
            {"model", "silero_vad", "silero_vad is a vad model; /v1/audio/keywords needs a kws model"},
            {"language", "en", "unrecognized parameter language"}
        }) {
            HttpResponse<String> r = detect(new Multipart().field(c[0], c[1]).file(jarvis));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
            JsonNode e = new ObjectMapper().readTree(r.body()).get("error");
            assertThat(e.get("param").asText()).as(r.body()).isEqualTo(c[0]);
            assertThat(e.get("message").asText()).contains(c[2]);
        }
    }
}
