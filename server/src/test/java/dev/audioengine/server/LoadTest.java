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
}
