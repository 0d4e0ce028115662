package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.server.http.Routes;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** close(), what SIGTERM calls: the request in flight finishes, new ones are refused, the probes say so. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ShutdownTest {
    @Test
    void aRequestInFlightFinishesWhileNewOnesAreRefused() throws Exception {
        TestServer server = TestServer.start(c -> c.withModels(java.util.List.of("silero_vad")));
        try (HttpClient http = HttpClient.newHttpClient()) {
            // a minute of audio trickled in: the request is in flight (still uploading) when close() begins
            byte[] wav = Files.readAllBytes(TestServer.RECORDING);
            byte[] body = new Multipart().file("file", "a.wav", wav).bytes();
            RawHttp slow = new RawHttp(server.server.uri(), 60_000);
            slow.head(
                    "POST",
                    Routes.VAD,
                    "Content-Type: " + Multipart.contentType(),
                    "Content-Length: " + body.length,
                    "Connection: close");
            slow.out.write(body, 0, body.length / 2);
            slow.out.flush();
            long routed = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (server.server.metrics().inFlight() < 1 && System.nanoTime() < routed) Thread.sleep(5);
            assertThat(server.server.metrics().inFlight())
                    .as("the slow upload is being read")
                    .isEqualTo(1);
            CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            HttpResponse<String> ready;
            do {
                ready = http.send(
                        HttpRequest.newBuilder(server.uri(Routes.READY)).build(), HttpResponse.BodyHandlers.ofString());
            } while (ready.statusCode() == 200 && System.nanoTime() < deadline);
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(new ObjectMapper().readTree(ready.body()).get("status").asText())
                    .isEqualTo("draining");
            HttpResponse<String> refused = http.send(
                    new Multipart()
                            .file("file", "a.wav", wav)
                            .post(server.uri(Routes.VAD))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(refused.body()).contains("shutting_down");
            assertThat(closing).isNotDone();

            slow.out.write(body, body.length / 2, body.length - body.length / 2);
            slow.out.flush();
            assertThat(slow.status()).isEqualTo(200);
            assertThat(slow.rest()).contains("\"segments\":[{");
            slow.close();
            closing.get(60, TimeUnit.SECONDS);
            assertThat(server.logLines()).contains("audioengine serve: stopped");
        } finally {
            server.engine.close();
        }
    }
}
