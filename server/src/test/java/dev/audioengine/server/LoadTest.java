package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.server.http.Routes;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Many clients at once: every request answered, and a full queue refused with 503s rather than left hanging. */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class LoadTest {
    private static final int CLIENTS = 16;

    /** One answered request: its status, how long it took, and its Retry-After header. */
    private record Outcome(int status, double seconds, String retryAfter, String kind) {}

    @Test
    void twoHundredMixedRequestsFromSixteenClientsAllSucceed() throws Exception {
        try (TestServer server = TestServer.start(c -> c);
                HttpClient http = HttpClient.newHttpClient()) {
            byte[] asr = new Multipart()
                    .field("model", "moonshine-tiny")
                    .file(TestServer.SHORT_RECORDING)
                    .bytes();
            byte[] vad = new Multipart()
                    .field("model", "silero_vad")
                    .file(TestServer.SHORT_RECORDING)
                    .bytes();
            warmUp(server, http, asr, vad);
            long t0 = System.nanoTime();
            List<Outcome> outcomes = run(
                    http,
                    CLIENTS,
                    200,
                    i -> i % 2 == 0
                            ? request(server, Routes.TRANSCRIPTIONS, asr, "asr")
                            : request(server, Routes.VAD, vad, "vad"));
            double wall = (System.nanoTime() - t0) / 1e9;
            report("16 clients, 200 requests (100 asr, 100 vad) of a 3 s recording", outcomes, wall);
            assertThat(outcomes)
                    .hasSize(200)
                    .allSatisfy(o -> assertThat(o.status()).as(o.kind()).isEqualTo(200));
            String metrics = http.send(
                            HttpRequest.newBuilder(server.uri(Routes.METRICS)).build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(metrics)
                    .contains("audioengine_requests_total{endpoint=\"/v1/audio/transcriptions\",status=\"200\"} 101")
                    .contains("audioengine_requests_total{endpoint=\"/v1/audio/vad\",status=\"200\"} 101")
                    .contains("audioengine_queue_depth{model=\"moonshine-tiny\"} 0")
                    .contains("audioengine_requests_in_flight 1"); // this very request
        }
    }

    @Test
    void aQueueTooSmallForTheLoadAnswers503WithRetryAfterAndNeverHangs() throws Exception {
        try (TestServer server = TestServer.start(c -> c.withConcurrency(1, 1, Duration.ofSeconds(2)));
                HttpClient http = HttpClient.newHttpClient()) {
            byte[] asr = new Multipart()
                    .field("model", "moonshine-tiny")
                    .file(TestServer.SHORT_RECORDING)
                    .bytes();
            long t0 = System.nanoTime();
            List<Outcome> outcomes = run(http, CLIENTS, 64, i -> request(server, Routes.TRANSCRIPTIONS, asr, "asr"));
            double wall = (System.nanoTime() - t0) / 1e9;
            report("16 clients, 64 asr requests, 1 worker and a queue of 1", outcomes, wall);
            assertThat(outcomes)
                    .hasSize(64)
                    .allSatisfy(o -> assertThat(o.status()).isIn(200, 503));
            List<Outcome> refused =
                    outcomes.stream().filter(o -> o.status() == 503).toList();
            assertThat(refused)
                    .as("refusals")
                    .isNotEmpty()
                    .allSatisfy(o -> assertThat(o.retryAfter()).isEqualTo("1"));
            assertThat(outcomes.stream().filter(o -> o.status() == 200))
                    .as("served")
                    .isNotEmpty();
            // a refusal is immediate or after the 2 s queue timeout, never a hang
            assertThat(refused.stream().mapToDouble(Outcome::seconds).max().orElseThrow())
                    .isLessThan(20);
        }
    }

    /**
     * 64 clients at once on a server that batches ASR decoding (8 sequences a step): each client sends audio of its own
     * (a pair of Debian recordings no other client sends, with a pause between), and each gets the transcript that the
     * same audio gets alone, one request at a time. A batch that mixed slots up would hand a client another's words.
     */
    @Test
    void sixtyFourClientsOfABatchingServerEachGetTheirOwnTranscript() throws Exception {
        List<byte[]> bodies = pairs(64);
        assertThat(bodies).hasSize(64);
        try (TestServer server = TestServer.start(c -> c.withConcurrency(64, 64, Duration.ofSeconds(300))
                        .withBatching(new dev.audioengine.model.task.Batching(8, 0)));
                HttpClient http = HttpClient.newHttpClient()) {
            List<String> alone = new ArrayList<>();
            for (byte[] body : bodies) alone.add(transcript(server, http, body));
            assertThat(alone).doesNotHaveDuplicates();
            long t0 = System.nanoTime();
            List<String> together = atOnce(bodies, body -> transcript(server, http, body));
            System.err.printf(
                    Locale.ROOT, "LOAD 64 clients at once, batch of 8: %.1f s wall%n", (System.nanoTime() - t0) / 1e9);
            for (int c = 0; c < 64; c++)
                assertThat(together.get(c)).as("client %d", c).isEqualTo(alone.get(c));
            String metrics = http.send(
                            HttpRequest.newBuilder(server.uri(Routes.METRICS)).build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(metrics)
                    .contains("audioengine_batch_slots{model=\"moonshine-tiny\"} 8")
                    .contains("audioengine_batch_active{model=\"moonshine-tiny\"} 0");
            double occupancy = Double.parseDouble(metrics.lines()
                    .filter(l -> l.startsWith("audioengine_batch_occupancy{"))
                    .findFirst()
                    .orElseThrow()
                    .replaceAll(".* ", ""));
            assertThat(occupancy)
                    .as("sequences per step (the sequential requests ran one at a time)")
                    .isGreaterThan(1.2);
            // where the batch's time went: its windows were encoded and stepped, and a stage it never ran stays 0
            for (String stage : List.of("encode", "step"))
                assertThat(metricValue(
                                metrics,
                                "audioengine_batch_stage_seconds_total{model=\"moonshine-tiny\",stage=\"" + stage
                                        + "\"}"))
                        .as("seconds in stage %s", stage)
                        .isPositive();
            assertThat(metricValue(metrics, "audioengine_batch_windows_total{model=\"moonshine-tiny\"}"))
                    .as("windows decoded")
                    .isGreaterThanOrEqualTo(64);
            double windows = metricValue(metrics, "audioengine_batch_windows_total{model=\"moonshine-tiny\"}"),
                    lone = metricValue(metrics, "audioengine_batch_lone_windows_total{model=\"moonshine-tiny\"}"),
                    runs = metricValue(metrics, "audioengine_batch_encoder_runs_total{model=\"moonshine-tiny\"}");
            assertThat(runs)
                    .as("encoder runs: at least one, at most one per window that joined the batch")
                    .isBetween(1.0, windows - lone);
        }
    }

    /**
     * A server on two devices (two CPU engines here, standing for --device 0,1): each model has a copy on each, and
     * requests go to the less loaded one; 16 clients at once all get their own transcripts, and both copies served.
     */
    @Test
    void aServerOnTwoDevicesSpreadsRequestsOverBoth() throws Exception {
        List<byte[]> bodies = pairs(16);
        ServerConfig config = ServerConfig.defaults(line -> System.err.println("[server] " + line))
                .withModels(List.of("moonshine-tiny", "silero_vad"))
                .withPort(0)
                .withPreload(true)
                .withConcurrency(4, 32, Duration.ofSeconds(300));
        try (dev.audioengine.api.AudioEngine first =
                        dev.audioengine.api.AudioEngine.builder().backend("cpu").build();
                dev.audioengine.api.AudioEngine second =
                        dev.audioengine.api.AudioEngine.builder().backend("cpu").build();
                SpeechServer server = SpeechServer.start(
                        config,
                        List.of(first, second),
                        dev.audioengine.model.ModelLoader.standard(m -> System.err.println("[model store] " + m)));
                HttpClient http = HttpClient.newHttpClient()) {
            java.net.URI uri = server.uri().resolve(Routes.TRANSCRIPTIONS);
            List<String> alone = new ArrayList<>();
            for (byte[] body : bodies) alone.add(transcript(uri, http, body));
            List<String> together = atOnce(bodies, body -> transcript(uri, http, body));
            assertThat(together).isEqualTo(alone);
            String metrics = http.send(
                            HttpRequest.newBuilder(server.uri().resolve(Routes.METRICS))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            for (String replica : List.of("0", "1")) {
                long sent = metrics.lines()
                        .filter(l ->
                                l.startsWith("audioengine_replica_requests_total{model=\"moonshine-tiny\",replica=\""
                                        + replica + "\"}"))
                        .mapToLong(l -> Long.parseLong(l.replaceAll(".* ", "")))
                        .sum();
                assertThat(sent)
                        .as("requests sent to replica %s:%n%s", replica, metrics)
                        .isGreaterThan(0);
            }
        }
    }

    /** The first {@code n} ordered pairs (a, b), a != b, of the 10 Debian recordings: audio no other pair has. */
    private static List<byte[]> pairs(int n) throws java.io.IOException {
        List<java.nio.file.Path> recordings = new ArrayList<>();
        for (String dir : List.of("librivox", "cards"))
            try (var files =
                    java.nio.file.Files.list(java.nio.file.Path.of("/usr/share/pocketsphinx/test/data", dir))) {
                files.filter(f -> f.toString().endsWith(".wav")).sorted().forEach(recordings::add);
            }
        List<byte[]> bodies = new ArrayList<>();
        for (int a = 0; a < recordings.size() && bodies.size() < n; a++)
            for (int b = 0; b < recordings.size() && bodies.size() < n; b++)
                if (a != b) bodies.add(pair(recordings.get(a), recordings.get(b)));
        assertThat(bodies).hasSize(n);
        return bodies;
    }

    private interface Call {
        String send(byte[] body) throws Exception;
    }

    /** One client per body, all at once; their answers in the bodies' order. */
    private static List<String> atOnce(List<byte[]> bodies, Call call) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(bodies.size())) {
            List<Future<String>> running = new ArrayList<>();
            for (byte[] body : bodies) running.add(pool.submit(() -> call.send(body)));
            List<String> out = new ArrayList<>();
            for (Future<String> f : running) out.add(f.get(6, TimeUnit.MINUTES));
            return out;
        }
    }

    /** Two recordings with 0.8 s of silence between, as one 16 kHz WAV. */
    private static byte[] pair(java.nio.file.Path a, java.nio.file.Path b) throws java.io.IOException {
        short[] x = Wav.samples(java.nio.file.Files.readAllBytes(a), Integer.MAX_VALUE),
                y = Wav.samples(java.nio.file.Files.readAllBytes(b), Integer.MAX_VALUE);
        short[] both = new short[x.length + 12_800 + y.length];
        System.arraycopy(x, 0, both, 0, x.length);
        System.arraycopy(y, 0, both, x.length + 12_800, y.length);
        return new Multipart()
                .field("model", "moonshine-tiny")
                .file("file", "pair.wav", Wav.pcm16(16000, 1, both.length * 2L, both))
                .bytes();
    }

    private static String transcript(TestServer server, HttpClient http, byte[] body) throws Exception {
        return transcript(server.uri(Routes.TRANSCRIPTIONS), http, body);
    }

    private static String transcript(java.net.URI uri, HttpClient http, byte[] body) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(uri)
                        .header("Content-Type", Multipart.contentType())
                        .timeout(Duration.ofSeconds(300))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private interface Request {
        Outcome send(HttpClient http) throws Exception;
    }

    private static Request request(TestServer server, String route, byte[] body, String kind) {
        return http -> {
            long t0 = System.nanoTime();
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(server.uri(route))
                            .header("Content-Type", Multipart.contentType())
                            .timeout(Duration.ofSeconds(120))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 && r.statusCode() != 503)
                System.err.println(kind + " " + r.statusCode() + ": " + r.body());
            return new Outcome(
                    r.statusCode(),
                    (System.nanoTime() - t0) / 1e9,
                    r.headers().firstValue("Retry-After").orElse(null),
                    kind);
        };
    }

    /** {@code total} requests from {@code clients} threads, each taking the next index until none is left. */
    private static List<Outcome> run(
            HttpClient http, int clients, int total, java.util.function.IntFunction<Request> make) throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                running.add(pool.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < total; )
                        outcomes.add(make.apply(i).send(http));
                    return null;
                }));
            }
            for (Future<?> f : running) f.get(6, TimeUnit.MINUTES);
        }
        return outcomes;
    }

    private static void warmUp(TestServer server, HttpClient http, byte[] asr, byte[] vad) throws Exception {
        // the first decode of a window length compiles its encoder graph: not what a latency figure should show
        assertThat(request(server, Routes.TRANSCRIPTIONS, asr, "asr").send(http).status())
                .isEqualTo(200);
        assertThat(request(server, Routes.VAD, vad, "vad").send(http).status()).isEqualTo(200);
    }

    private static void report(String what, List<Outcome> outcomes, double wall) {
        Map<String, List<Double>> byKind = new ConcurrentHashMap<>();
        for (Outcome o : outcomes)
            if (o.status() == 200)
                byKind.computeIfAbsent(o.kind(), k -> new ArrayList<>()).add(o.seconds());
        StringBuilder s = new StringBuilder(String.format(
                Locale.ROOT, "LOAD %s: %.1f s wall, %.1f requests/s", what, wall, outcomes.size() / wall));
        byKind.forEach((kind, t) -> {
            Collections.sort(t);
            s.append(String.format(
                    Locale.ROOT,
                    "; %s: %d ok, p50 %.0f ms, p99 %.0f ms",
                    kind,
                    t.size(),
                    1e3 * percentile(t, 0.5),
                    1e3 * percentile(t, 0.99)));
        });
        long refused = outcomes.stream().filter(o -> o.status() == 503).count();
        if (refused > 0) s.append("; ").append(refused).append(" refused with 503");
        System.err.println(s);
    }

    private static double percentile(List<Double> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    /** The value of the metric line that starts with {@code series} (name and labels). */
    private static double metricValue(String metrics, String series) {
        return Double.parseDouble(metrics.lines()
                .filter(l -> l.startsWith(series + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + series + " in /metrics"))
                .substring(series.length() + 1));
    }
}
