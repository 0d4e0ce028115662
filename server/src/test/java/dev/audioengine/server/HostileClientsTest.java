package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.server.http.JsonBody;
import dev.audioengine.server.http.Routes;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a hostile (or broken) client sends, on loopback, bounded in count and time: a flood of sockets that send
 * nothing or half a request and then wait, clients that hang up before their headers are complete, JSON nested
 * deeper than any request needs, and control characters meant to forge log lines. The server here loads no model:
 * none of this gets as far as one.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HostileClientsTest {
    private static final int FLOOD = 300, MAX_CONNECTIONS = 200;
    private static final Duration HEADER_TIMEOUT = Duration.ofSeconds(1), IDLE_TIMEOUT = Duration.ofSeconds(1);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestServer server;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(c -> c.withPreload(false)
                .withUploadStall(Duration.ofSeconds(2))
                .withConnectionLimits(HEADER_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS));
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (http != null) http.close();
        if (server != null) server.close();
    }

    private static long openFiles() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    private static Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(
                new InetSocketAddress(
                        server.server.uri().getHost(), server.server.uri().getPort()),
                5000);
        return s;
    }

    private static void write(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
    }

    /** Whether the server has ended the connection: the next read sees its end (or a reset) within {@code millis}. */
    private static boolean closedByServer(Socket s, int millis) throws IOException {
        s.setSoTimeout(millis);
        try {
            InputStream in = s.getInputStream();
            while (true) {
                if (in.read() < 0) return true; // an answer before the end (a 408) is fine too
            }
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }

    @Test
    void aFloodOfIdleSocketsIsClosedWithoutExhaustingDescriptorsOrHoldingUpARequest() throws Exception {
        assertThat(http.send(
                                HttpRequest.newBuilder(server.uri(Routes.HEALTH))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(200);
        long before = openFiles();
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < FLOOD; i++) {
                Socket s = connect();
                flood.add(s);
                // a third send nothing, a third half a request line, a third a request line and half their headers
                switch (i % 3) {
                    case 1 -> write(s, "POST /v1/audio/vad HT");
                    case 2 ->
                        write(s, "POST /v1/audio/vad HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-da");
                    default -> {}
                }
            }
            // this JVM holds both ends: FLOOD client sockets, and at most MAX_CONNECTIONS accepted by the server
            long during = openFiles();
            System.err.printf("FLOOD %d idle sockets: open files %d before, %d during%n", FLOOD, before, during);
            assertThat(during - before)
                    .as("open files added by %d idle sockets", FLOOD)
                    .isLessThanOrEqualTo(FLOOD + MAX_CONNECTIONS + 16L);

            // a normal request on a new connection meanwhile: it waits in the accept queue behind the flood's excess
            // over
            // the cap until the timeouts free their slots, about one timeout, never as long as the flood likes
            double seconds = freshRequestSeconds();
            System.err.printf("FLOOD a request during the flood answered in %.2f s%n", seconds);
            assertThat(seconds)
                    .as("seconds to answer a request during the flood")
                    .isLessThan(10);

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int open = 0;
            for (Socket s : flood) {
                int left = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                if (!closedByServer(s, left)) open++;
            }
            assertThat(open).as("idle sockets the server still holds 20 s on").isZero();
        } finally {
            for (Socket s : flood) s.close();
        }
        // the server's ends are gone too; a request is answered at once
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (openFiles() > before + 16 && System.nanoTime() < deadline) Thread.sleep(50);
        assertThat(openFiles()).as("open files after the flood").isLessThanOrEqualTo(before + 16);
        assertThat(freshRequestSeconds())
                .as("seconds to answer after the flood")
                .isLessThan(2);
        assertThat(server.logLines()).noneMatch(l -> l.matches("\\S+ \\S+ 500 .*"));
    }

    /** GET /health on a connection of its own (a pooled one would skip the accept queue): the seconds to its answer. */
    private static double freshRequestSeconds() throws IOException {
        long t0 = System.nanoTime();
        try (RawHttp raw = new RawHttp(server.server.uri(), 20_000)) {
            raw.head("GET", Routes.HEALTH, "Connection: close");
            assertThat(raw.status()).isEqualTo(200);
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    @Test
    void clientsThatHangUpBeforeTheirHeadersAreCompleteAre499sInOneLine() throws Exception {
        String[] cuts = {
            "POST /v1/audio/vad HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=x\r\n",
            "POST /v1/audio/vad HTTP/1.1\r\nHost: localhost\r\nContent-Le",
            "GET /health HTTP/1.1\r\nHost: localhost\r\n",
        };
        int before = server.logLines().size();
        for (int i = 0; i < 30; i++) {
            try (Socket s = connect()) {
                write(s, cuts[i % cuts.length]);
            }
        }
        List<String> lines = server.logLinesOnceOneMatches(l -> l.contains(" 499 ") && l.contains("headers"));
        Thread.sleep(500); // the rest of the hang-ups' lines
        lines = server.logLines().subList(before, server.logLines().size());
        assertThat(lines)
                .as("log lines of 30 hang-ups")
                .noneMatch(l -> l.contains("\n") || l.contains("Exception") && l.contains("\tat "));
        assertThat(lines).anyMatch(l -> l.contains(" 499 "));
        String metrics = http.send(
                        HttpRequest.newBuilder(server.uri(Routes.METRICS)).build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        assertThat(metrics).doesNotContain("status=\"500\"");
    }

    @Test
    void jsonNestedDeeperThanAnyRequestIsA400() throws Exception {
        // 50,000 deep (past Jackson's own limit, whose error has no location), and just past the server's
        for (int depth : new int[] {50_000, JsonBody.MAX_DEPTH}) {
            String deep = "{\"input\":\"Hi\",\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(server.uri(Routes.SPEECH))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(deep))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
            JsonNode e = JSON.readTree(r.body()).get("error");
            assertThat(e.get("type").asText()).isEqualTo("invalid_request_error");
            assertThat(e.get("message").asText()).contains("nests JSON").doesNotContain("NullPointer");
        }
    }

    @Test
    void aClientThatSendsAChunkedJsonBodyOverTheLimitBeforeReadingGetsThe413() throws Exception {
        // most clients send their whole body before they read: the server must read the rest after its 413 rather than
        // close on it, which resets the connection under the client's writes (a broken pipe, and the answer lost)
        try (RawHttp raw = new RawHttp(server.server.uri(), 30_000)) {
            raw.head("POST", Routes.SPEECH, "Content-Type: application/json", "Transfer-Encoding: chunked");
            byte[] block = new byte[64 << 10];
            java.util.Arrays.fill(block, (byte) 'a');
            for (int i = 0; i < 80; i++)
                raw.chunk(block, 0, block.length); // 5 MiB: 45 times the JSON limit, under --max-upload-mb
            write(raw.socket, "0\r\n\r\n");
            assertThat(raw.status()).isEqualTo(413);
            assertThat(raw.rest()).contains("Connection: close").contains("payload_too_large");
        }
    }

    @Test
    void controlCharactersAClientSendsAreEscapedInTheLog() throws Exception {
        String forged =
                "x.wav\n2099-01-01T00:00:00Z POST /v1/audio/vad 200 1 ms client=10.0.0.1\r\u001b[2J\u001b[31mred\u0007";
        byte[] body = new Multipart()
                .file("file", forged, "not audio at all, only words".repeat(20).getBytes(StandardCharsets.UTF_8))
                .bytes();
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(server.uri(Routes.VAD + "/%0d%0aforged%1b%5B0m"))
                        .header("Content-Type", Multipart.contentType())
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(404);
        HttpResponse<String> audio = http.send(
                HttpRequest.newBuilder(server.uri(Routes.VAD))
                        .header("Content-Type", Multipart.contentType())
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(audio.statusCode()).as(audio.body()).isEqualTo(400);
        List<String> lines = server.logLinesOnceOneMatches(l -> l.startsWith("POST " + Routes.VAD + " 400"));
        List<String> ours = lines.stream()
                .filter(l -> l.contains("forged") || l.contains("x.wav"))
                .toList();
        assertThat(ours).hasSizeGreaterThanOrEqualTo(2);
        for (String l : ours) {
            assertThat(l.chars().filter(c -> c < 0x20 || c == 0x7f)).as(l).isEmpty();
        }
        assertThat(ours).anyMatch(l -> l.contains("x.wav\\n2099-01-01") && l.contains("\\r\\u001b[2J"));
    }
}
