package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.audio.Resampler;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordSpotter;
import dev.audioengine.model.task.VadGatedKeywordStream;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import dev.audioengine.server.http.JsonBody;
import dev.audioengine.server.http.Routes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * GET /v1/realtime?intent=keywords with the JDK's WebSocket client: espeak-ng saying "hey jarvis, what is the weather
 * today", streamed in odd small pieces, must give the detections that POST /v1/audio/keywords gives on the same
 * samples (keyword, end time, score), at 24 kHz and VAD-gated those of the library on the same audio; bad settings are
 * error events that leave the session usable.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RealtimeKeywordsTest {
    private static TestServer server;
    private static HttpClient http;
    /** The phrase at 16 kHz, as PCM16 samples and as a WAV of the same samples. */
    private static short[] speech;

    private static Path wav;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c.withModels(List.of("openwakeword", "silero_vad")));
        http = HttpClient.newHttpClient();
        Path said = Files.createTempFile("jarvis", ".wav");
        try {
            Process p = new ProcessBuilder(
                            "espeak-ng", "-v", "en-us", "-w", said.toString(), "hey jarvis, what is the weather today")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            try (AudioStream in = AudioStream.open(said)) {
                in.resampleTo(16_000);
                speech = pcm16(in.readAll().samples());
            }
        } finally {
            Files.deleteIfExists(said);
        }
        wav = Files.createTempFile("jarvis16k", ".wav");
        Files.write(wav, Wav.pcm16(16_000, 1, speech.length * 2L, speech));
    }

    @AfterAll
    static void stop() throws Exception {
        if (http != null) http.close();
        if (server != null) server.close();
        if (wav != null) Files.deleteIfExists(wav);
    }

    private static short[] pcm16(float[] x) {
        short[] s = new short[x.length];
        for (int i = 0; i < x.length; i++) s[i] = (short) Math.max(-32768, Math.min(32767, Math.round(x[i] * 32768)));
        return s;
    }

    private static float[] floats(short[] s) {
        float[] x = new float[s.length];
        for (int i = 0; i < s.length; i++) x[i] = s[i] / 32768f;
        return x;
    }

    /** A client: every text message the server sends, parsed, in order. */
    static final class Client implements WebSocket.Listener {
        final BlockingQueue<Map<String, Object>> events = new LinkedBlockingQueue<>();
        private final StringBuilder part = new StringBuilder();
        HttpClient http;
        WebSocket ws;

        static Client connect(String query) throws Exception {
            Client c = new Client();
            c.http = HttpClient.newHttpClient();
            c.ws = c.http.newWebSocketBuilder()
                    .buildAsync(
                            URI.create(
                                    server.server.uri().toString().replace("http:", "ws:") + Routes.REALTIME + query),
                            c)
                    .get(30, TimeUnit.SECONDS);
            return c;
        }

        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            part.append(data);
            if (last) {
                events.add(JsonBody.parse(part.toString().getBytes(StandardCharsets.UTF_8)));
                part.setLength(0);
            }
            w.request(1);
            return null;
        }

        void send(String json) {
            ws.sendText(json, true).join();
        }

        Map<String, Object> next() throws InterruptedException {
            Map<String, Object> e = events.poll(60, TimeUnit.SECONDS);
            assertThat(e).as("an event within 60 s").isNotNull();
            return e;
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> error() throws InterruptedException {
            Map<String, Object> e = next();
            assertThat(e.get("type")).as(e.toString()).isEqualTo("error");
            return (Map<String, Object>) e.get("error");
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> session(String type) throws InterruptedException {
            Map<String, Object> e = next();
            assertThat(e.get("type")).as(e.toString()).isEqualTo(type);
            return (Map<String, Object>) e.get("session");
        }

        void append(short[] s, int from, int to) {
            byte[] b = new byte[2 * (to - from)];
            for (int i = from; i < to; i++) {
                b[2 * (i - from)] = (byte) s[i];
                b[2 * (i - from) + 1] = (byte) (s[i] >> 8);
            }
            send("{\"type\":\"input_audio_buffer.append\",\"audio\":\""
                    + Base64.getEncoder().encodeToString(b) + "\"}");
        }

        /** Streams {@code s} in pieces of {@code piece} samples, commits, and gives the detections before the commit's answer. */
        List<Map<String, Object>> stream(short[] s, int piece) throws InterruptedException {
            for (int i = 0; i < s.length; i += piece) append(s, i, Math.min(s.length, i + piece));
            send("{\"type\":\"input_audio_buffer.commit\"}");
            List<Map<String, Object>> found = new ArrayList<>();
            for (Map<String, Object> e; !"input_audio_buffer.committed".equals((e = next()).get("type")); ) {
                assertThat(e.get("type")).as(e.toString()).isEqualTo("keyword.detected");
                found.add(e);
            }
            return found;
        }

        void close() {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
            http.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void streamedInSmallPiecesItHearsWhatTheHttpEndpointHears() throws Exception {
        HttpResponse<String> r = http.send(
                new Multipart()
                        .field("keywords", "hey_jarvis,weather")
                        .file(wav)
                        .post(server.uri(Routes.KEYWORDS))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode expected = new ObjectMapper().readTree(r.body()).get("detections");
        List<String> heard = new ArrayList<>();
        expected.forEach(d -> heard.add(d.get("keyword").asText()));
        assertThat(heard).containsExactly("hey_jarvis", "weather");

        double modelSeconds = modelSeconds();
        Client c = Client.connect("?intent=keywords");
        Map<String, Object> created = c.session("session.created");
        assertThat(server.server.realtimeSessions()).isEqualTo(1);
        assertThat(created.get("object")).isEqualTo("realtime.keywords_session");
        assertThat(created.get("model")).isEqualTo("openwakeword");
        assertThat((List<Object>) created.get("keywords")).contains("hey_jarvis", "weather", "alexa");
        c.send("{\"type\":\"session.update\",\"session\":{\"input_audio_format\":\"pcm16\","
                + "\"input_audio_sample_rate\":16000,\"keywords\":[\"hey_jarvis\",\"weather\"],\"threshold\":0.5}}");
        Map<String, Object> updated = c.session("session.updated");
        assertThat(updated.get("keywords")).isEqualTo(List.of("hey_jarvis", "weather"));
        assertThat(updated.get("refractory_ms")).isEqualTo(2000.0);
        // 37 ms pieces: 592 samples, never a whole 80 ms frame
        List<Map<String, Object>> found = c.stream(speech, 592);
        assertThat(found).hasSize(expected.size());
        for (int i = 0; i < found.size(); i++) {
            JsonNode d = expected.get(i);
            assertThat(found.get(i).get("keyword")).isEqualTo(d.get("keyword").asText());
            assertThat((Double) found.get(i).get("audio_end_ms"))
                    .isCloseTo(d.get("time").asDouble() * 1000, Offset.offset(1.0));
            assertThat((Double) found.get(i).get("score"))
                    .isCloseTo(d.get("score").asDouble(), Offset.offset(1e-5));
        }
        // the same audio again: positions run on from the session's first audio
        double first = (Double) found.getFirst().get("audio_end_ms");
        List<Map<String, Object>> again = c.stream(speech, 3200);
        assertThat(again).hasSize(expected.size());
        assertThat((Double) again.getFirst().get("audio_end_ms"))
                .isCloseTo(first + speech.length * 1000.0 / 16_000, Offset.offset(1.0));
        // another keyword: nothing heard
        c.send("{\"type\":\"session.update\",\"session\":{\"keywords\":[\"alexa\"]}}");
        c.session("session.updated");
        assertThat(c.stream(speech, 1600)).isEmpty();
        // the scoring counts as the model's time, and the session is released when the client closes
        assertThat(modelSeconds()).isGreaterThan(modelSeconds);
        c.close();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (server.server.realtimeSessions() != 0 && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(server.server.realtimeSessions()).isZero();
    }

    /** openwakeword's audioengine_model_seconds_total in /metrics. */
    private static double modelSeconds() throws Exception {
        String metrics = http.send(
                        java.net.http.HttpRequest.newBuilder(server.uri("/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "(?m)^audioengine_model_seconds_total\\{model=\"openwakeword\"[^}]*} (\\S+)$")
                .matcher(metrics);
        assertThat(m.find()).as(metrics).isTrue();
        return Double.parseDouble(m.group(1));
    }

    /** 24 kHz resampled as the audio module resamples, and vad_threshold gating with the served Silero. */
    @Test
    void twentyFourKilohertzGatedByTheVadGivesTheLibrarysDetections() throws Exception {
        short[] at24 = pcm16(Resampler.resample(floats(speech), 16_000, 24_000));
        float[] heard = Resampler.resample(floats(at24), 24_000, 16_000);
        KeywordOptions options = KeywordOptions.DEFAULTS.withKeywords(List.of("hey_jarvis", "weather"));
        List<KeywordDetection> expected = new ArrayList<>();
        try (KeywordSpotter kws =
                        ModelLoader.standard(m -> {}).load(server.engine, "openwakeword", KeywordSpotter.class);
                VoiceActivityDetector vad =
                        ModelLoader.standard(m -> {}).load(server.engine, "silero_vad", VoiceActivityDetector.class);
                var s = new VadGatedKeywordStream(
                        kws.stream(options), vad.stream(16_000, VadOptions.DEFAULTS), options, 0.3)) {
            expected.addAll(s.accept(heard).detections());
            expected.addAll(s.finish().detections());
        }
        assertThat(expected).extracting(KeywordDetection::keyword).contains("hey_jarvis");

        Client c = Client.connect("?intent=keywords");
        c.session("session.created");
        c.send("{\"type\":\"session.update\",\"session\":{\"keywords\":[\"hey_jarvis\",\"weather\"],"
                + "\"vad_threshold\":0.3}}");
        assertThat(c.session("session.updated").get("vad_threshold")).isEqualTo(0.3);
        List<Map<String, Object>> found = c.stream(at24, 24_000 * 7 / 100); // 70 ms at 24 kHz
        assertThat(found).hasSize(expected.size());
        for (int i = 0; i < found.size(); i++) {
            assertThat(found.get(i).get("keyword")).isEqualTo(expected.get(i).keyword());
            assertThat((Double) found.get(i).get("audio_end_ms"))
                    .isEqualTo((double) Math.round(expected.get(i).seconds() * 1000));
            assertThat((Double) found.get(i).get("score"))
                    .isCloseTo(expected.get(i).score(), Offset.offset(1e-5));
        }
        c.close();
    }

    @Test
    @SuppressWarnings("unchecked")
    void badSettingsAreErrorEventsAndTheSessionGoesOn() throws Exception {
        Client c = Client.connect("?intent=keywords");
        c.session("session.created");
        String[][] cases = {
            {"\"threshold\":1.5", "session.threshold", "threshold must be in (0, 1)"},
            {"\"keywords\":[\"hey_siri\"]", "session.keywords", "unknown keyword 'hey_siri'; this model spots"},
            {"\"keywords\":[]", "session.keywords", "non-empty array"},
            {"\"refractory_ms\":-1", "session.refractory_ms", "refractory period must be"},
            {"\"vad_threshold\":1", "session.vad_threshold", "vad_threshold must be in (0, 1)"},
            {"\"model\":\"silero_vad\"", "session.model", "silero_vad is a vad model; intent=keywords needs a kws"},
            {"\"input_audio_sample_rate\":44100", "session.input_audio_sample_rate", "16000 or 24000"},
            {"\"language\":\"en\"", "session.language", "unknown parameter session.language"}
        };
        for (String[] k : cases) {
            c.send("{\"type\":\"session.update\",\"event_id\":\"mine\",\"session\":{" + k[0] + "}}");
            Map<String, Object> e = c.error();
            assertThat(e.get("type")).isEqualTo("invalid_request_error");
            assertThat(e.get("param")).as(k[0]).isEqualTo(k[1]);
            assertThat((String) e.get("message")).as(k[0]).contains(k[2]);
            assertThat(e.get("event_id")).isEqualTo("mine");
        }
        c.send("{\"type\":\"response.create\"}");
        assertThat(c.error().get("param")).isEqualTo("type");
        c.send("{\"type\":\"input_audio_buffer.append\",\"audio\":\"AAEC\"}");
        assertThat((String) c.error().get("message")).contains("odd");
        // the defaults held
        c.send("{\"type\":\"session.update\",\"session\":{}}");
        Map<String, Object> s = c.session("session.updated");
        assertThat(s.get("threshold")).isEqualTo(0.5);
        assertThat(s.get("vad_threshold")).isEqualTo(JsonBody.NULL);
        assertThat(s.get("input_audio_sample_rate")).isEqualTo(24_000.0);
        assertThat((List<Object>) s.get("keywords")).hasSizeGreaterThan(2);
        c.close();
    }

    @Test
    void anUnknownIntentIsStillRefused() {
        assertThatThrownBy(() -> Client.connect("?intent=conversation"))
                .rootCause()
                .hasMessageContaining("400");
        assertThatThrownBy(() -> Client.connect("?intent=keywords&intent=transcription"))
                .rootCause()
                .hasMessageContaining("400");
    }
}
