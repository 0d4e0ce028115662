package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.audio.Resampler;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.TranscriptEvent;
import dev.audioengine.server.http.JsonBody;
import dev.audioengine.server.openai.TranscriptDeltas;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * GET /v1/realtime?intent=transcription with the JDK's own WebSocket client: a real recording streamed as a live
 * source would (paced to real time) and faster, at 16 and 24 kHz, must give the items, deltas and transcripts that the
 * library's live transcription gives on the same audio fed the same way; bad events are error events that leave the
 * session usable; a client that vanishes or stalls frees its session.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RealtimeTest {
    // long enough that a session whose thread waits behind another session's decoding on a loaded 2-core machine is not
    // taken for a stalled client (3 s closed one now and then: its first message had not been read yet)
    private static final Duration IDLE = Duration.ofSeconds(10);
    private static TestServer server;
    private static HttpClient http;
    /** Two sentences of one reader with 1.5 s of silence between them and after: two items. */
    private static short[] speech;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c.withUploadStall(IDLE));
        http = HttpClient.newHttpClient();
        float[] a = read(TestServer.RECORDING), b = read(TestServer.SHORT_RECORDING);
        float[] all = new float[a.length + b.length + 2 * 24_000];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length + 24_000, b.length);
        speech = pcm16(all);
    }

    @AfterAll
    static void stop() {
        if (http != null) http.close();
        if (server != null) server.close();
    }

    private static float[] read(java.nio.file.Path wav) throws Exception {
        try (AudioStream in = AudioStream.open(wav)) {
            assertThat(in.sampleRate()).isEqualTo(16_000);
            return in.readAll().samples();
        }
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

    /** One item as a client sees it: its deltas joined and its completed transcript. */
    record Item(String deltas, String transcript) {}

    /**
     * What the library's live transcription says about {@code samples} fed in the server's 100 ms pieces and finished
     * (the client's commit), with the server's rule for deltas.
     */
    private static List<Item> library(float[] samples) throws Exception {
        List<Item> items = new ArrayList<>();
        try (SpeechRecognizer asr =
                        ModelLoader.standard(m -> {}).load(server.engine, "moonshine-tiny", SpeechRecognizer.class);
                AsrStream s = asr.stream(AsrOptions.DEFAULTS)) {
            TranscriptDeltas[] d = {null};
            StringBuilder[] joined = {null};
            java.util.function.Consumer<List<TranscriptEvent>> take = events -> {
                for (TranscriptEvent e : events) {
                    if (d[0] == null) {
                        d[0] = new TranscriptDeltas();
                        joined[0] = new StringBuilder();
                    }
                    switch (e) {
                        case TranscriptEvent.Partial p ->
                            joined[0].append(d[0].partial(p.segment().text()));
                        case TranscriptEvent.Final f -> {
                            joined[0].append(d[0].fin(f.segment().text()));
                            items.add(new Item(joined[0].toString(), f.segment().text()));
                            d[0] = null;
                        }
                    }
                }
            };
            for (int i = 0; i < samples.length; i += 1600)
                take.accept(s.accept(samples, i, Math.min(1600, samples.length - i)));
            take.accept(s.finish());
        }
        return items;
    }

    /** The member a received event gets: when it came, by System.nanoTime(). */
    static final String RECEIVED = "_received_ns";

    /** A client: every text message the server sends, parsed, in order. */
    static final class Client implements WebSocket.Listener {
        final BlockingQueue<Map<String, Object>> events = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder part = new StringBuilder();
        HttpClient http;
        WebSocket ws;

        static Client connect(String query) throws Exception {
            Client c = new Client();
            // a client of its own, as two users' browsers are (sessions sharing one JDK HttpClient were seen to stall)
            c.http = HttpClient.newHttpClient();
            c.ws = c.http.newWebSocketBuilder()
                    .buildAsync(
                            URI.create(server.server.uri().toString().replace("http:", "ws:") + "/v1/realtime" + query),
                            c)
                    .get(30, TimeUnit.SECONDS);
            return c;
        }

        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            part.append(data);
            if (last) {
                Map<String, Object> e = new java.util.LinkedHashMap<>(
                        JsonBody.parse(part.toString().getBytes(StandardCharsets.UTF_8)));
                e.put(RECEIVED, (double) System.nanoTime()); // for the latency from the end of speech
                events.add(e);
                part.setLength(0);
            }
            w.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket w, int status, String reason) {
            closed.complete(status);
            return null;
        }

        @Override
        public void onError(WebSocket w, Throwable error) {
            closed.completeExceptionally(error);
        }

        void send(String json) {
            ws.sendText(json, true).join();
        }

        Map<String, Object> next() throws InterruptedException {
            Map<String, Object> e = events.poll(60, TimeUnit.SECONDS);
            assertThat(e).as("an event within 60 s").isNotNull();
            return e;
        }

        /** The events up to and including the first of {@code type}. */
        List<Map<String, Object>> until(String type) throws InterruptedException {
            List<Map<String, Object>> out = new ArrayList<>();
            Map<String, Object> e;
            do out.add(e = next());
            while (!type.equals(e.get("type")));
            return out;
        }

        void append(short[] s, int from, int to, int rate) {
            byte[] b = new byte[2 * (to - from)];
            for (int i = from; i < to; i++) {
                b[2 * (i - from)] = (byte) s[i];
                b[2 * (i - from) + 1] = (byte) (s[i] >> 8);
            }
            send("{\"type\":\"input_audio_buffer.append\",\"audio\":\""
                    + Base64.getEncoder().encodeToString(b) + "\"}");
        }
    }

    /** The outcome of streaming {@code s} at {@code rate} in pieces of {@code pieceMs}, paced or not, then committing. */
    record Run(List<Item> items, List<Map<String, Object>> events, List<Double> endToCompletedMs) {}

    private static Run stream(short[] s, int rate, int pieceMs, boolean paced) throws Exception {
        Client c = Client.connect("?intent=transcription");
        assertThat(c.next().get("type")).isEqualTo("transcription_session.created");
        c.send("{\"type\":\"transcription_session.update\",\"session\":{\"input_audio_format\":\"pcm16\","
                + "\"input_audio_sample_rate\":" + rate
                + ",\"input_audio_transcription\":{\"model\":\"moonshine-tiny\","
                + "\"language\":\"en\"},\"turn_detection\":{\"type\":\"server_vad\",\"threshold\":0.5,"
                + "\"silence_duration_ms\":300,\"prefix_padding_ms\":200}}}");
        Map<String, Object> updated = c.next();
        assertThat(updated.get("type")).isEqualTo("transcription_session.updated");
        int piece = rate * pieceMs / 1000;
        long[] sentAt = new long[s.length / piece + 2]; // when each piece went out
        long t0 = System.nanoTime();
        for (int i = 0, k = 0; i < s.length; i += piece, k++) {
            if (paced) {
                long due = t0 + (long) k * pieceMs * 1_000_000L;
                long wait = due - System.nanoTime();
                if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            c.append(s, i, Math.min(s.length, i + piece), rate);
            sentAt[k] = System.nanoTime();
        }
        c.send("{\"type\":\"input_audio_buffer.commit\"}");
        c.send("{\"type\":\"transcription_session.update\",\"session\":{}}"); // its answer marks the end
        List<Map<String, Object>> events = c.until("transcription_session.updated");
        List<Item> items = new ArrayList<>();
        List<Double> latency = new ArrayList<>();
        StringBuilder deltas = new StringBuilder();
        double endMs = -1;
        for (Map<String, Object> e : events) {
            switch ((String) e.get("type")) {
                case "input_audio_buffer.speech_stopped" -> endMs = (Double) e.get("audio_end_ms");
                case "conversation.item.input_audio_transcription.delta" -> deltas.append(e.get("delta"));
                case "conversation.item.input_audio_transcription.completed" -> {
                    items.add(new Item(deltas.toString(), (String) e.get("transcript")));
                    deltas.setLength(0);
                    int k = (int) (endMs * rate / 1000 / piece); // the piece that held the end of the speech
                    if (endMs >= 0 && k < sentAt.length && sentAt[k] > 0)
                        latency.add(((Double) e.get(RECEIVED) - sentAt[k]) / 1e6);
                    endMs = -1;
                }
                case "error" -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> err = (Map<String, Object>) e.get("error");
                    // the commit after the last item found no speech left: the only error this run may meet
                    assertThat(err.get("code")).as(err.toString()).isEqualTo("input_audio_buffer_commit_empty");
                }
                default -> {}
            }
        }
        c.ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
        return new Run(items, events, latency);
    }

    @Test
    void aRecordingStreamedInRealTimeGivesTheLibrarysItems() throws Exception {
        List<Item> expected = library(floats(speech));
        assertThat(expected).hasSize(2);
        assertThat(expected.getFirst().transcript()).isEqualTo(TestServer.EXPECTED);
        Run run = stream(speech, 16_000, 100, true);
        System.err.println("realtime, paced 100 ms appends: end of speech (the append holding it sent) to completed: "
                + run.endToCompletedMs() + " ms, silence_duration_ms 300 included");
        assertThat(run.items()).isEqualTo(expected);
        // every item's deltas say its transcript, unless the final text revised a word already sent
        for (Item i : run.items()) assertThat(i.deltas()).isEqualTo(i.transcript());
        List<String> types =
                run.events().stream().map(e -> (String) e.get("type")).toList();
        assertThat(types)
                .containsSubsequence(
                        "input_audio_buffer.speech_started",
                        "conversation.item.input_audio_transcription.delta",
                        "input_audio_buffer.speech_stopped",
                        "input_audio_buffer.committed",
                        "conversation.item.input_audio_transcription.completed",
                        "input_audio_buffer.speech_started",
                        "input_audio_buffer.speech_stopped",
                        "input_audio_buffer.committed",
                        "conversation.item.input_audio_transcription.completed");
        Map<String, Object> started = run.events().stream()
                .filter(e -> "input_audio_buffer.speech_started".equals(e.get("type")))
                .findFirst()
                .orElseThrow();
        assertThat((Double) started.get("audio_start_ms")).isBetween(0.0, 1000.0);
        assertThat(server.server.realtimeSessions()).isLessThanOrEqualTo(1); // closing
    }

    /**
     * The latency docs/SERVER.md quotes: paced sessions, 1 then N at once, rounds alternating; the median over every
     * item of the time from sending the append that held the end of the speech to receiving its completed event.
     * Runs with {@code -Daudioengine.measure.realtime=N} only (it takes a minute or more).
     */
    @Test
    void measureLatency() throws Exception {
        int many = Integer.getInteger("audioengine.measure.realtime", 0);
        org.junit.jupiter.api.Assumptions.assumeTrue(many > 0, "set -Daudioengine.measure.realtime=N to measure");
        List<Item> expected = library(floats(speech));
        List<Double> one = new ArrayList<>(), several = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            Run r = stream(speech, 16_000, 100, true);
            assertThat(r.items()).isEqualTo(expected);
            one.addAll(r.endToCompletedMs());
            List<CompletableFuture<Run>> runs = new ArrayList<>();
            for (int i = 0; i < many; i++)
                runs.add(CompletableFuture.supplyAsync(
                        () -> unchecked(() -> stream(speech, 16_000, 100, true)),
                        java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()));
            for (CompletableFuture<Run> f : runs) {
                Run x = f.get(3, TimeUnit.MINUTES);
                assertThat(x.items()).isEqualTo(expected);
                several.addAll(x.endToCompletedMs());
            }
        }
        System.err.printf(
                "realtime latency, end of speech to completed (ms): 1 session median %.0f (max %.0f, n=%d); "
                        + "%d sessions median %.0f (max %.0f, n=%d)%n",
                median(one),
                java.util.Collections.max(one),
                one.size(),
                many,
                median(several),
                java.util.Collections.max(several),
                several.size());
    }

    private static double median(List<Double> x) {
        List<Double> s = x.stream().sorted().toList();
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    @Test
    void fasterThanRealTimeInOddPiecesAndTwoAtOnceGiveTheSame() throws Exception {
        List<Item> expected = library(floats(speech));
        CompletableFuture<Run> one =
                CompletableFuture.supplyAsync(() -> unchecked(() -> stream(speech, 16_000, 37, false)));
        CompletableFuture<Run> two =
                CompletableFuture.supplyAsync(() -> unchecked(() -> stream(speech, 16_000, 250, false)));
        assertThat(one.get(3, TimeUnit.MINUTES).items()).isEqualTo(expected);
        assertThat(two.get(3, TimeUnit.MINUTES).items()).isEqualTo(expected);
    }

    @Test
    void twentyFourKilohertzIsResampledAsTheAudioModuleResamples() throws Exception {
        short[] at24 = pcm16(Resampler.resample(floats(speech), 16_000, 24_000));
        List<Item> expected = library(Resampler.resample(floats(at24), 24_000, 16_000));
        Run run = stream(at24, 24_000, 100, false);
        assertThat(run.items()).isEqualTo(expected);
        assertThat(run.items().getFirst().transcript()).isEqualTo(TestServer.EXPECTED);
    }

    @Test
    void withoutTurnDetectionTheClientsCommitMakesOneItemOfEverythingSaid() throws Exception {
        String whole = String.join(
                " ",
                library(floats(speech)).stream()
                        .map(Item::transcript)
                        .filter(t -> !t.isEmpty())
                        .toList());
        Client c = Client.connect("?intent=transcription");
        assertThat(c.next().get("type")).isEqualTo("transcription_session.created");
        c.send("{\"type\":\"transcription_session.update\",\"session\":{\"input_audio_sample_rate\":16000,"
                + "\"turn_detection\":null}}");
        Map<String, Object> updated = c.next();
        assertThat(((Map<?, ?>) updated.get("session")).get("turn_detection")).isEqualTo(JsonBody.NULL);
        for (int i = 0; i < speech.length; i += 8000) c.append(speech, i, Math.min(speech.length, i + 8000), 16_000);
        c.send("{\"type\":\"input_audio_buffer.commit\"}");
        List<Map<String, Object>> events = c.until("conversation.item.input_audio_transcription.completed");
        List<String> types = events.stream().map(e -> (String) e.get("type")).toList();
        assertThat(types).doesNotContain("input_audio_buffer.speech_started", "error");
        assertThat(types).contains("input_audio_buffer.committed");
        assertThat(events.getLast().get("transcript")).isEqualTo(whole);
        String deltas = events.stream()
                .filter(e -> "conversation.item.input_audio_transcription.delta".equals(e.get("type")))
                .map(e -> (String) e.get("delta"))
                .reduce("", String::concat);
        assertThat(deltas).isEqualTo(whole);
        // one commit, one item: a second commit with nothing new is an error
        c.send("{\"type\":\"input_audio_buffer.commit\"}");
        assertThat(error(c).get("code")).isEqualTo("input_audio_buffer_commit_empty");
        c.ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> error(Client c) throws InterruptedException {
        Map<String, Object> e = c.next();
        assertThat(e.get("type")).as(e.toString()).isEqualTo("error");
        return (Map<String, Object>) e.get("error");
    }

    @Test
    void badEventsAreErrorEventsAndTheSessionGoesOn() throws Exception {
        Client c = Client.connect("?intent=transcription");
        assertThat(c.next().get("type")).isEqualTo("transcription_session.created");
        c.send("{not json");
        Map<String, Object> bad = error(c);
        assertThat(bad.get("type")).isEqualTo("invalid_request_error");
        assertThat((String) bad.get("message")).contains("not valid JSON");
        c.send("{\"type\":\"response.create\",\"event_id\":\"mine_1\"}");
        Map<String, Object> unknown = error(c);
        assertThat(unknown.get("code")).isEqualTo("invalid_value");
        assertThat(unknown.get("param")).isEqualTo("type");
        assertThat(unknown.get("event_id")).isEqualTo("mine_1");
        assertThat((String) unknown.get("message")).contains("response.create");
        c.send("{\"type\":\"transcription_session.update\",\"session\":{\"input_audio_format\":\"g711_ulaw\"}}");
        Map<String, Object> format = error(c);
        assertThat(format.get("param")).isEqualTo("session.input_audio_format");
        assertThat((String) format.get("message")).contains("pcm16");
        c.send("{\"type\":\"transcription_session.update\",\"session\":{\"input_audio_sample_rate\":44100}}");
        assertThat(error(c).get("param")).isEqualTo("session.input_audio_sample_rate");
        c.send("{\"type\":\"transcription_session.update\",\"session\":{\"input_audio_transcription\":"
                + "{\"model\":\"kokoro-nope\"}}}");
        assertThat(error(c).get("code")).isEqualTo("model_not_found");
        // the recognizer (Moonshine: English only) refuses a language it cannot hear when the session is updated
        c.send("{\"type\":\"transcription_session.update\",\"session\":{\"input_audio_transcription\":"
                + "{\"language\":\"fr-FR\"}}}");
        Map<String, Object> language = error(c);
        assertThat(language.get("code")).isEqualTo("unsupported_language");
        assertThat((String) language.get("message")).contains("English only", "hear language fr");
        c.send("{\"type\":\"transcription_session.update\",\"session\":{\"input_audio_transcription\":"
                + "{\"language\":\"fr!\"}}}");
        assertThat((String) error(c).get("message")).contains("a code such as en");
        c.send("{\"type\":\"input_audio_buffer.append\",\"audio\":\"A@@@\"}"); // not base64
        assertThat(error(c).get("param")).isEqualTo("audio");
        c.send("{\"type\":\"input_audio_buffer.append\",\"audio\":\"AAEC\"}"); // 3 bytes: half a sample left over
        assertThat((String) error(c).get("message")).contains("odd");
        c.send("{\"type\":\"input_audio_buffer.commit\"}");
        assertThat(error(c).get("code")).isEqualTo("input_audio_buffer_commit_empty");
        // still a working session: the defaults held
        c.send("{\"type\":\"transcription_session.update\",\"session\":{}}");
        Map<String, Object> updated = c.next();
        assertThat(updated.get("type")).isEqualTo("transcription_session.updated");
        @SuppressWarnings("unchecked")
        Map<String, Object> session = (Map<String, Object>) updated.get("session");
        assertThat(session.get("input_audio_format")).isEqualTo("pcm16");
        c.send("{\"type\":\"input_audio_buffer.clear\"}");
        assertThat(c.next().get("type")).isEqualTo("input_audio_buffer.cleared");
        c.ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }

    @Test
    void aPlainGetOrAnotherIntentIsRefused() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(server.uri("/v1/realtime?intent=transcription"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("WebSocket");
        // and without --ui, / is what it was: no page
        assertThat(http.send(HttpRequest.newBuilder(server.uri("/")).build(), HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(404);
        // a conversation (or no intent) is refused at the upgrade: this server transcribes only
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Client.connect("?intent=conversation"))
                .rootCause()
                .hasMessageContaining("400");
        // wake words need a kws model, and this server serves none
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Client.connect("?intent=keywords"))
                .rootCause()
                .hasMessageContaining("400");
    }

    @Test
    void aClientThatVanishesOrStallsFreesItsSession() throws Exception {
        awaitSessions(0);
        Client gone = Client.connect("?intent=transcription");
        assertThat(gone.next().get("type")).isEqualTo("transcription_session.created");
        gone.append(speech, 0, 16_000 * 3, 16_000); // a segment open, its audio held
        Client stalled = Client.connect("?intent=transcription");
        assertThat(stalled.next().get("type")).isEqualTo("transcription_session.created");
        awaitSessions(2);
        assertThat(http.send(
                                HttpRequest.newBuilder(server.uri("/metrics")).build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body())
                .contains("audioengine_realtime_sessions 2");
        gone.ws.abort(); // no close frame: the connection just drops
        awaitSessions(1);
        // the stalled one sends nothing: closed after the idle timeout, with a policy code
        assertThat(stalled.closed.get(IDLE.toSeconds() * 3, TimeUnit.SECONDS)).isEqualTo(1008);
        awaitSessions(0);
        // one that drops with nothing under way is noticed by the connection itself, not by the idle timeout
        Client quiet = Client.connect("?intent=transcription");
        @SuppressWarnings("unchecked")
        String id = (String) ((Map<String, Object>) quiet.next().get("session")).get("id");
        awaitSessions(1);
        quiet.ws.abort();
        awaitSessions(0);
        assertThat(server.logLinesOnceOneMatches(l -> l.contains("realtime session " + id + " ended")))
                .filteredOn(l -> l.contains("realtime session " + id + " ended"))
                .singleElement()
                .asString()
                .doesNotContain("no message for");
    }

    private static void awaitSessions(int n) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (server.server.realtimeSessions() != n && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(server.server.realtimeSessions()).isEqualTo(n);
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    private static <T> T unchecked(Call<T> c) {
        try {
            return c.call();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
