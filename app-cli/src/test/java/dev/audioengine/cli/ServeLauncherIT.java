package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ./audioengine serve} from the launcher, on the module path (the server module, Helidon and FileUpload as
 * named modules): it answers a transcription, and SIGTERM lets a request in flight finish before the JVM exits 143.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ServeLauncherIT {
    private static final Path RECORDING =
            Path.of("/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0870.wav");
    private static final String BOUNDARY = "serve-launcher-it";

    @Test
    void servesOnTheModulePathAndDrainsOnSigterm() throws Exception {
        Process p = new ProcessBuilder(
                        Dist.repoRoot().resolve("audioengine").toString(),
                        "serve",
                        "--port",
                        "0",
                        "--preload",
                        "--models",
                        "moonshine-tiny")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectErrorStream(false)
                .start();
        p.getOutputStream().close();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    System.err.println("[serve] " + l);
                    lines.add(l);
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        try (HttpClient http = HttpClient.newHttpClient()) {
            URI base = URI.create("http://127.0.0.1:" + port(lines, p));
            awaitReady(http, base);
            byte[] body = form(Files.readAllBytes(RECORDING));
            HttpResponse<String> first = transcribe(http, base, body).get(60, TimeUnit.SECONDS);
            assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
            assertThat(first.body()).contains("And Mr. John Dashwood had then leisure to consider");

            // six times the recording: a request still being decoded when SIGTERM arrives
            byte[] longer = form(sixTimes(Files.readAllBytes(RECORDING)));
            CompletableFuture<HttpResponse<String>> inFlight = transcribe(http, base, longer);
            Thread.sleep(500);
            // SIGTERM to the launcher, which hands it to the JVM (ProcessHandle's: Process.destroy would also close our
            // end of stderr)
            p.toHandle().destroy();
            HttpResponse<String> drained = inFlight.get(90, TimeUnit.SECONDS);
            assertThat(drained.statusCode()).as(drained.body()).isEqualTo(200);
            assertThat(drained.body().split("Dashwood", -1)).hasSize(7);
            assertThat(p.waitFor(60, TimeUnit.SECONDS))
                    .as("the server exits once drained")
                    .isTrue();
            assertThat(p.exitValue()).isEqualTo(143);
            reader.join(5000);
            assertThat(List.copyOf(lines))
                    .anyMatch(l -> l.endsWith("audioengine serve: stopped"))
                    .noneMatch(l -> l.contains("Exception"));
        } finally {
            if (p.isAlive()) p.destroyForcibly();
        }
    }

    private static int port(LinkedBlockingQueue<String> lines, Process p) throws InterruptedException {
        Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+) ");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(1, TimeUnit.SECONDS);
            if (l == null) {
                assertThat(p.isAlive()).as("the server is running").isTrue();
                continue;
            }
            Matcher m = listening.matcher(l);
            if (m.find()) return Integer.parseInt(m.group(1));
        }
        throw new AssertionError("the server never said where it listens");
    }

    private static void awaitReady(HttpClient http, URI base) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (http.send(HttpRequest.newBuilder(base.resolve("/ready")).build(), HttpResponse.BodyHandlers.ofString())
                            .statusCode()
                    == 200) return;
            Thread.sleep(250);
        }
        throw new AssertionError("never ready");
    }

    private static CompletableFuture<HttpResponse<String>> transcribe(HttpClient http, URI base, byte[] body) {
        return http.sendAsync(
                HttpRequest.newBuilder(base.resolve("/v1/audio/transcriptions"))
                        .timeout(Duration.ofSeconds(90))
                        .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] form(byte[] wav) {
        String head = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nmoonshine-tiny\r\n"
                + "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII),
                t = ("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[h.length + wav.length + t.length];
        System.arraycopy(h, 0, out, 0, h.length);
        System.arraycopy(wav, 0, out, h.length, wav.length);
        System.arraycopy(t, 0, out, h.length + wav.length, t.length);
        return out;
    }

    /** The 44-byte header's data six times over, with a second of silence after each, under one header. */
    private static byte[] sixTimes(byte[] wav) {
        int data = wav.length - 44, silence = 32000, each = data + silence;
        byte[] out = new byte[44 + 6 * each];
        System.arraycopy(wav, 0, out, 0, 44);
        for (int k = 0; k < 6; k++) System.arraycopy(wav, 44, out, 44 + k * each, data);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(out).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(4, out.length - 8).putInt(40, 6 * each);
        return out;
    }
}
