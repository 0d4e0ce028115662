package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.server.http.Routes;
import dev.audioengine.server.openai.TranscriptionEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Requests a client library would not send, through the JDK's HttpClient (and a plain socket where it must be). */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EdgeCasesTest {
    private static final String KEY = "sk-test-0123456789";
    private static final long LIMIT = 1 << 20; // 1 MiB uploads
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestServer server;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(
                c -> c.withMaxUploadBytes(LIMIT).withApiKey(KEY).withUploadStall(Duration.ofSeconds(2)));
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (http != null) http.close();
        if (server != null) server.close();
    }

    @AfterEach
    void noUploadIsLeftBehind() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!Files.list(server.server.uploadFolder()).toList().isEmpty() && System.nanoTime() < deadline)
            Thread.sleep(20);
        assertThat(Files.list(server.server.uploadFolder()).toList())
                .as("spooled uploads left behind")
                .isEmpty();
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(
                request.header("Authorization", "Bearer " + KEY)
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> transcribe(Multipart form) throws Exception {
        return send(form.post(server.uri(Routes.TRANSCRIPTIONS)));
    }

    /** The OpenAI error object of a response, after checking the status and the shape. */
    private static JsonNode error(HttpResponse<String> r, int status) throws IOException {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertThat(e).as(r.body()).isNotNull();
        assertThat(e.has("message") && e.has("type") && e.has("param") && e.has("code"))
                .as(r.body())
                .isTrue();
        assertThat(e.get("message").asText()).doesNotContain("audioengine-server-"); // never the server's own paths
        return e;
    }

    @Test
    void aMissingFileIsA400NamingTheParameter() throws Exception {
        JsonNode e = error(transcribe(new Multipart().field("model", "moonshine-tiny")), 400);
        assertThat(e.get("param").asText()).isEqualTo("file");
        assertThat(e.get("type").asText()).isEqualTo("invalid_request_error");
    }

    @Test
    void anEmptyFileIsA400() throws Exception {
        JsonNode e = error(
                transcribe(new Multipart().field("model", "moonshine-tiny").file("file", "empty.wav", new byte[0])),
                400);
        assertThat(e.get("code").asText()).isEqualTo("invalid_audio");
        assertThat(e.get("message").asText()).contains("empty.wav");
    }

    @Test
    void aFileThatIsNotAudioIsA400InTheClientsTerms() throws Exception {
        byte[] text = "these are the minutes of the meeting, not a recording of it\n"
                .repeat(50)
                .getBytes(StandardCharsets.UTF_8);
        JsonNode e = error(
                transcribe(new Multipart().field("model", "moonshine-tiny").file("file", "minutes.txt", text)), 400);
        assertThat(e.get("code").asText()).isEqualTo("invalid_audio");
        assertThat(e.get("message").asText()).contains("minutes.txt");
    }

    @Test
    void aWavHeaderWithAnImpossibleRateIsA400() throws Exception {
        byte[] wav = Wav.pcm16(5_000_000, 1, 32000, new short[16000]);
        JsonNode e = error(
                transcribe(new Multipart().field("model", "moonshine-tiny").file("file", "liar.wav", wav)), 400);
        assertThat(e.get("message").asText()).contains("liar.wav").contains("5000000");
    }

    @Test
    void aWavHeaderThatPromisesMoreThanItHoldsIsDecodedAsFarAsItGoes() throws Exception {
        // 2 GB of data declared, 3 s carried: the server must neither allocate the promise nor wait for it
        short[] speech = Wav.samples(Files.readAllBytes(TestServer.RECORDING), 3 * 16000);
        byte[] wav = Wav.pcm16(16000, 1, 2_000_000_000L, speech);
        HttpResponse<String> r = transcribe(new Multipart()
                .field("model", "moonshine-tiny")
                .field("response_format", "verbose_json")
                .file("file", "promise.wav", wav));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode v = JSON.readTree(r.body());
        assertThat(v.get("duration").asDouble()).isEqualTo(3.0);
        assertThat(v.get("text").asText()).startsWith("And Mr. John Dashwood");
    }

    @Test
    void anUnknownModelIsA404() throws Exception {
        JsonNode e = error(
                transcribe(new Multipart().field("model", "whisper-large-v3").file(TestServer.SHORT_RECORDING)), 404);
        assertThat(e.get("code").asText()).isEqualTo("model_not_found");
        assertThat(e.get("param").asText()).isEqualTo("model");
        assertThat(e.get("message").asText()).contains("whisper-large-v3").contains("moonshine-tiny");
    }

    @Test
    void openAisTranscriptionModelNamesStandForTheFirstRecognizer() throws Exception {
        for (String name : new String[] {"whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe", "Whisper-1"}) {
            HttpResponse<String> r = transcribe(new Multipart()
                    .field("model", name)
                    .field("response_format", "text")
                    .file(TestServer.SHORT_RECORDING));
            assertThat(r.statusCode()).as(name + ": " + r.body()).isEqualTo(200);
            assertThat(r.body()).as(name).isNotBlank();
        }
        assertThat(server.logLinesOnceOneMatches(l -> l.contains("gpt-4o-mini-transcribe")))
                .anyMatch(l -> l.startsWith("POST " + Routes.TRANSCRIPTIONS + " 200")
                        && l.contains("model=moonshine-tiny")
                        && l.contains("gpt-4o-mini-transcribe"));
    }

    @Test
    void aModelOfAnotherTaskAndBadParametersAre400s() throws Exception {
        assertThat(error(transcribe(new Multipart().field("model", "silero_vad").file(TestServer.SHORT_RECORDING)), 400)
                        .get("param")
                        .asText())
                .isEqualTo("model");
        assertThat(error(
                                transcribe(new Multipart()
                                        .field("model", "moonshine-tiny")
                                        .field("response_format", "mp3")
                                        .file(TestServer.SHORT_RECORDING)),
                                400)
                        .get("param")
                        .asText())
                .isEqualTo("response_format");
        assertThat(error(
                                transcribe(new Multipart()
                                        .field("model", "moonshine-tiny")
                                        .field("language", "fr")
                                        .file(TestServer.SHORT_RECORDING)),
                                400)
                        .get("code")
                        .asText())
                .isEqualTo("unsupported_language");
        assertThat(error(
                                transcribe(new Multipart()
                                        .field("model", "moonshine-tiny")
                                        .field("chunking_strategy", "auto")
                                        .file(TestServer.SHORT_RECORDING)),
                                400)
                        .get("param")
                        .asText())
                .isEqualTo("chunking_strategy");
        assertThat(error(
                                transcribe(new Multipart()
                                        .field("model", "moonshine-tiny")
                                        .field("temperature", "7")
                                        .file(TestServer.SHORT_RECORDING)),
                                400)
                        .get("param")
                        .asText())
                .isEqualTo("temperature");
        assertThat(error(
                                transcribe(new Multipart()
                                        .field("model", "moonshine-tiny")
                                        .field("stream", "true")
                                        .field("response_format", "srt")
                                        .file(TestServer.SHORT_RECORDING)),
                                400)
                        .get("param")
                        .asText())
                .isEqualTo("stream");
        assertThat(error(
                                transcribe(new Multipart()
                                        .field("model", "moonshine-tiny")
                                        .field("timestamp_granularities[]", "word")
                                        .file(TestServer.SHORT_RECORDING)),
                                400)
                        .get("param")
                        .asText())
                .isEqualTo("timestamp_granularities[]");
        HttpResponse<String> json = send(HttpRequest.newBuilder(server.uri(Routes.TRANSCRIPTIONS))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"moonshine-tiny\"}")));
        assertThat(error(json, 400).get("message").asText()).contains("multipart/form-data");
    }

    @Test
    void aStreamIsSentWhateverTheAcceptHeaderSays() throws Exception {
        // OpenAI's Python SDK sends Accept: application/json on every call, stream=True included; OpenAI does not check
        // it
        HttpResponse<String> r = send(new Multipart()
                .field("model", "moonshine-tiny")
                .field("stream", "true")
                .file(TestServer.SHORT_RECORDING)
                .post(server.uri(Routes.TRANSCRIPTIONS))
                .header("Accept", "application/json"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        assertThat(r.body())
                .startsWith("data: {\"type\":\"transcript.text.delta\"")
                .contains("\"type\":\"transcript.text.done\"");
    }

    @Test
    void aBodyThatIsNotAFormOrWhoseBoundaryMatchesNothingSaysSo() throws Exception {
        byte[] form = new Multipart()
                .field("model", "moonshine-tiny")
                .file(TestServer.SHORT_RECORDING)
                .bytes();
        for (String path : new String[] {Routes.TRANSCRIPTIONS, Routes.VAD}) {
            JsonNode untyped = error(
                    send(HttpRequest.newBuilder(server.uri(path)).POST(HttpRequest.BodyPublishers.ofByteArray(form))),
                    400);
            assertThat(untyped.get("message").asText())
                    .as(path)
                    .contains("expected a multipart/form-data body")
                    .doesNotContain("null");
            JsonNode elsewhere = error(
                    send(HttpRequest.newBuilder(server.uri(path))
                            .header("Content-Type", "multipart/form-data; boundary=another-boundary")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(form))),
                    400);
            assertThat(elsewhere.get("message").asText())
                    .as(path)
                    .contains("boundary another-boundary")
                    .contains("no part")
                    .doesNotContain("model parameter");
        }
    }

    @Test
    void fieldsWithoutEffectAreNamedInAHeader() throws Exception {
        HttpResponse<String> r = transcribe(new Multipart()
                .field("model", "moonshine-tiny")
                .field("prompt", "Dashwood, Norland")
                .field("temperature", "0.4")
                .field("temperature_inc", "0")
                .field("language", "en")
                .field("response_format", "text")
                .file(TestServer.SHORT_RECORDING));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue(TranscriptionEndpoint.IGNORED_HEADER))
                .hasValue("prompt,temperature,temperature_inc");
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
    }

    @Test
    void theApiKeyIsRequiredOnV1AndNotOnTheProbes() throws Exception {
        HttpRequest.Builder models = HttpRequest.newBuilder(server.uri(Routes.MODELS));
        HttpResponse<String> none = http.send(models.copy().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(error(none, 401).get("code").asText()).isEqualTo("invalid_api_key");
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        HttpResponse<String> wrong = http.send(
                models.copy().header("Authorization", "Bearer " + KEY + "x").build(),
                HttpResponse.BodyHandlers.ofString());
        error(wrong, 401);
        HttpResponse<String> prefix = http.send(
                models.copy()
                        .header("Authorization", "Bearer " + KEY.substring(0, 5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        error(prefix, 401);
        assertThat(send(models).statusCode()).isEqualTo(200);
        for (String probe : new String[] {Routes.HEALTH, Routes.READY, Routes.METRICS}) {
            assertThat(http.send(
                                    HttpRequest.newBuilder(server.uri(probe)).build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .as(probe)
                    .isEqualTo(200);
        }
        // refused before the upload is read, and still delivered to a client that sends its whole body meanwhile
        HttpResponse<String> upload = http.send(
                new Multipart()
                        .field("model", "moonshine-tiny")
                        .file(TestServer.RECORDING)
                        .post(server.uri(Routes.TRANSCRIPTIONS))
                        .header("Authorization", "Bearer wrong")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        error(upload, 401);
        // refused before the upload is read: the server answers while the client still holds most of the body
        try (RawHttp raw = new RawHttp(server.server.uri(), 10_000)) {
            raw.head(
                    "POST",
                    Routes.TRANSCRIPTIONS,
                    "Content-Type: " + Multipart.contentType(),
                    "Content-Length: " + (LIMIT - 1));
            raw.out.write(new byte[4096]);
            assertThat(raw.status()).isEqualTo(401);
        }
    }

    @Test
    void anUnknownPathIsA404InTheSameShape() throws Exception {
        assertThat(error(
                                send(HttpRequest.newBuilder(server.uri("/v1/audio/translate"))
                                        .POST(HttpRequest.BodyPublishers.noBody())),
                                404)
                        .get("message")
                        .asText())
                .contains(Routes.TRANSCRIPTIONS, Routes.SPEECH, Routes.VOICES);
    }

    @Test
    void aKnownPathWithAnotherMethodIsA405WithAllow() throws Exception {
        String[][] cases = {
            {"GET", Routes.TRANSCRIPTIONS, "POST"},
            {"DELETE", Routes.MODELS, "GET"},
            {"PUT", Routes.MODELS + "/moonshine-tiny", "GET"},
            {"POST", Routes.HEALTH, "GET"},
            {"GET", Routes.SPEECH, "POST"}
        };
        for (String[] c : cases) {
            HttpResponse<String> r =
                    send(HttpRequest.newBuilder(server.uri(c[1])).method(c[0], HttpRequest.BodyPublishers.noBody()));
            JsonNode e = error(r, 405);
            assertThat(r.headers().firstValue("Allow")).as(c[0] + " " + c[1]).hasValue(c[2]);
            assertThat(e.get("type").asText()).isEqualTo("invalid_request_error");
            assertThat(e.get("message").asText()).contains(c[0] + " " + c[1]).contains(c[2]);
        }
    }

    @Test
    void aDeclaredBodyOverTheLimitIsRefusedBeforeItIsSent() throws Exception {
        // Expect: 100-continue, as curl sends for large uploads: the 413 comes instead of the 100, no byte of the body
        // goes out
        HttpRequest request = HttpRequest.newBuilder(server.uri(Routes.TRANSCRIPTIONS))
                .expectContinue(true)
                .header("Authorization", "Bearer " + KEY)
                .header("Content-Type", Multipart.contentType())
                .POST(HttpRequest.BodyPublishers.fromPublisher(
                        HttpRequest.BodyPublishers.ofInputStream(() -> new Endless()), 2L << 30))
                .timeout(Duration.ofSeconds(30))
                .build();
        long t0 = System.nanoTime();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(error(r, 413).get("message").asText()).contains("--max-upload-mb");
        assertThat((System.nanoTime() - t0) / 1e9).as("seconds to the 413").isLessThan(5);

        // without Expect: the answer comes after the headers, while the client is still sending
        try (RawHttp raw = new RawHttp(server.server.uri(), 10_000)) {
            raw.head(
                    "POST",
                    Routes.TRANSCRIPTIONS,
                    "Authorization: Bearer " + KEY,
                    "Content-Type: " + Multipart.contentType(),
                    "Content-Length: " + (2L << 30));
            CompletableFuture<Long> sent = sendUntilRefused(raw, false);
            assertThat(raw.status()).isEqualTo(413);
            assertThat(raw.rest()).contains("payload_too_large");
            assertThat(sent.get(30, TimeUnit.SECONDS)).as("bytes sent of 2 GiB").isLessThan(64L << 20);
        }
    }

    @Test
    void aChunkedBodyIsRefusedOnceItPassesTheLimit() throws Exception {
        try (RawHttp raw = new RawHttp(server.server.uri(), 30_000)) {
            raw.head(
                    "POST",
                    Routes.TRANSCRIPTIONS,
                    "Authorization: Bearer " + KEY,
                    "Content-Type: " + Multipart.contentType(),
                    "Transfer-Encoding: chunked");
            CompletableFuture<Long> sent = sendUntilRefused(raw, true);
            assertThat(raw.status()).isEqualTo(413);
            assertThat(raw.rest()).contains("payload_too_large");
            long bytes = sent.get(30, TimeUnit.SECONDS);
            assertThat(bytes).as("bytes sent when refused").isGreaterThan(LIMIT).isLessThan(64L << 20);
        }
    }

    @Test
    void aSlowClientDoesNotHoldUpOthers() throws Exception {
        byte[] body = new Multipart()
                .field("model", "silero_vad")
                .file(TestServer.SHORT_RECORDING)
                .bytes();
        try (RawHttp slow = new RawHttp(server.server.uri(), 30_000)) {
            slow.head(
                    "POST",
                    Routes.VAD,
                    "Authorization: Bearer " + KEY,
                    "Content-Type: " + Multipart.contentType(),
                    "Content-Length: " + body.length,
                    "Connection: close");
            long t0 = System.nanoTime();
            int piece = body.length / 40;
            for (int at = 0, i = 0; at < body.length; at += piece, i++) {
                slow.out.write(body, at, Math.min(piece, body.length - at));
                slow.out.flush();
                Thread.sleep(75); // 3 s for 100 kB
                if (i == 20) {
                    // halfway through the slow upload, another client is served at once
                    long u0 = System.nanoTime();
                    HttpResponse<String> quick = send(new Multipart()
                            .field("model", "silero_vad")
                            .file(TestServer.SHORT_RECORDING)
                            .post(server.uri(Routes.VAD)));
                    assertThat(quick.statusCode()).isEqualTo(200);
                    assertThat((System.nanoTime() - u0) / 1e9)
                            .as("seconds for the quick request")
                            .isLessThan(2);
                }
            }
            assertThat(slow.status()).isEqualTo(200);
            assertThat(slow.rest()).contains("\"segments\":[{");
            assertThat((System.nanoTime() - t0) / 1e9).isGreaterThan(2.5);
        }
    }

    @Test
    void anUploadThatStallsIsEndedAfterTheStallTime() throws Exception {
        byte[] body = new Multipart()
                .field("model", "silero_vad")
                .file(TestServer.SHORT_RECORDING)
                .bytes();
        try (RawHttp stalled = new RawHttp(server.server.uri(), 30_000)) {
            stalled.head(
                    "POST",
                    Routes.VAD,
                    "Authorization: Bearer " + KEY,
                    "Content-Type: " + Multipart.contentType(),
                    "Content-Length: " + body.length);
            stalled.out.write(body, 0, body.length / 3);
            stalled.out.flush();
            long t0 = System.nanoTime();
            assertThat(stalled.status()).isEqualTo(408); // answered in OpenAI's shape, then the connection ends
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(stalled.rest())
                    .contains("Connection: close")
                    .contains("\"error\":{\"message\":\"the upload stalled");
            assertThat(seconds).as("seconds until the stalled upload was ended").isBetween(1.5, 10.0);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.logLines().stream().noneMatch(l -> l.contains(" 408 ")) && System.nanoTime() < deadline)
            Thread.sleep(20);
        assertThat(server.logLines())
                .anyMatch(l -> l.startsWith("POST " + Routes.VAD + " 408 ") && l.contains("the upload stalled"));
    }

    @Test
    void aSpeechRequestsJsonThatStallsIsAnswered408() throws Exception {
        try (RawHttp stalled = new RawHttp(server.server.uri(), 30_000)) {
            stalled.head(
                    "POST",
                    Routes.SPEECH,
                    "Authorization: Bearer " + KEY,
                    "Content-Type: application/json",
                    "Content-Length: 100");
            stalled.out.write("{\"model\":\"kokoro\",\"inp".getBytes(StandardCharsets.US_ASCII));
            stalled.out.flush();
            long t0 = System.nanoTime();
            assertThat(stalled.status()).isEqualTo(408);
            assertThat(stalled.rest()).contains("\"error\":{\"message\":\"the upload stalled");
            assertThat((System.nanoTime() - t0) / 1e9)
                    .as("seconds until the stalled body was ended")
                    .isBetween(1.5, 10.0);
        }
    }

    @Test
    void aChunkedJsonBodyOverItsLimitGetsThe413() throws Exception {
        // the speech endpoint's own limit (far below --max-upload-mb): the 413 must reach a client that is still
        // sending
        try (RawHttp raw = new RawHttp(server.server.uri(), 30_000)) {
            raw.head(
                    "POST",
                    Routes.SPEECH,
                    "Authorization: Bearer " + KEY,
                    "Content-Type: application/json",
                    "Transfer-Encoding: chunked");
            byte[] start = "{\"model\":\"kokoro\",\"input\":\"".getBytes(StandardCharsets.US_ASCII);
            raw.chunk(start, 0, start.length);
            CompletableFuture<Long> sent = sendUntilRefused(raw, true);
            assertThat(raw.status()).isEqualTo(413);
            assertThat(raw.rest()).contains("payload_too_large");
            assertThat(sent.get(30, TimeUnit.SECONDS))
                    .as("bytes sent when refused")
                    .isLessThan(64L << 20);
        }
    }

    /** Writes generated bytes (chunked or not) until the server stops taking them, on another thread; how many went out. */
    private static CompletableFuture<Long> sendUntilRefused(RawHttp raw, boolean chunked) {
        return CompletableFuture.supplyAsync(() -> {
            byte[] block = new byte[64 << 10];
            long sent = 0;
            try {
                while (sent
                        < (64L << 20)) { // bounded: a server that never refuses fails the assertion, not the machine
                    if (chunked) raw.chunk(block, 0, block.length);
                    else raw.out.write(block);
                    sent += block.length;
                }
            } catch (IOException refused) {
                // the server answered and closed: it took no more
            }
            return sent;
        });
    }

    /** Zero bytes forever: a body far larger than anything should read. */
    private static final class Endless extends InputStream {
        @Override
        public int read() {
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return len;
        }
    }

    /** The realtime WebSocket's upgrade needs the key too: as a header, or as a browser sends it, a subprotocol. */
    @Test
    void theRealtimeUpgradeNeedsTheKey() throws Exception {
        java.net.URI uri = java.net.URI.create(
                server.server.uri().toString().replace("http:", "ws:") + Routes.REALTIME + "?intent=transcription");
        java.net.http.WebSocket.Listener quiet = new java.net.http.WebSocket.Listener() {};
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> http.newWebSocketBuilder().buildAsync(uri, quiet).get(30, TimeUnit.SECONDS))
                .rootCause()
                .hasMessageContaining("401");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> http.newWebSocketBuilder()
                        .header("Authorization", "Bearer " + KEY + "x")
                        .buildAsync(uri, quiet)
                        .get(30, TimeUnit.SECONDS))
                .rootCause()
                .hasMessageContaining("401");
        java.net.http.WebSocket byHeader = http.newWebSocketBuilder()
                .header("Authorization", "Bearer " + KEY)
                .buildAsync(uri, quiet)
                .get(30, TimeUnit.SECONDS);
        byHeader.abort();
        java.net.http.WebSocket byProtocol = http.newWebSocketBuilder()
                .subprotocols("realtime", "openai-insecure-api-key." + KEY)
                .buildAsync(uri, quiet)
                .get(30, TimeUnit.SECONDS);
        assertThat(byProtocol.getSubprotocol()).isEqualTo("realtime"); // a browser needs one of its offers echoed
        byProtocol.abort();
    }
}
