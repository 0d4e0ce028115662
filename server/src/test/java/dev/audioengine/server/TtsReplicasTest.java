package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.server.http.Routes;
import dev.audioengine.server.serving.ServedModel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * serve --tts-replicas: a speech synthesis model gets a replica on each of its engines, preloaded on every one, and
 * a request that comes while another is being synthesized goes to the other replica, each answered in full; recognition models stay on the devices'
 * engines. On the CPU (all CI has) the replicas only share the cores; what they are for is measured on a GPU
 * (docs/PERFORMANCE.md, "Kokoro on the GPU").
 */
class TtsReplicasTest {
    @Test
    void aSpeechRequestGoesToTheReplicaThatIsFreeAndEachIsAnsweredInFull() throws Exception {
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        ServerConfig c = ServerConfig.defaults(log::add)
                .withModels(List.of("kokoro", "silero_vad"))
                .withPort(0)
                .withPreload(true);
        List<AudioEngine> engines = new ArrayList<>();
        SpeechServer server = null;
        try (HttpClient http = HttpClient.newHttpClient()) {
            for (int i = 0; i < 2; i++)
                engines.add(AudioEngine.builder().backend("cpu").build());
            server = SpeechServer.start(
                    c,
                    engines.subList(0, 1),
                    engines,
                    ModelLoader.standard(m -> System.err.println("[model store] " + m)));
            ServedModel tts = server.models().find("kokoro").orElseThrow();
            assertThat(tts.replicas()).hasSize(2);
            assertThat(server.models().find("silero_vad").orElseThrow().replicas())
                    .as("a VAD model stays on the devices' engines")
                    .hasSize(1);
            // preloaded: both replicas hold the model before the first request
            String ready = http.send(
                            HttpRequest.newBuilder(server.uri().resolve(Routes.READY))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(ready).contains("\"kokoro-82m\":\"loaded\"");

            // the second request comes while the first is being synthesized on replica 0: it goes to replica 1
            URI speech = server.uri().resolve(Routes.SPEECH);
            List<java.util.concurrent.CompletableFuture<HttpResponse<byte[]>>> answers = new ArrayList<>();
            for (String text : List.of("The first sentence is here.", "A second one, said at the same time.")) {
                answers.add(http.sendAsync(
                        HttpRequest.newBuilder(speech)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"kokoro\",\"input\":\"" + text
                                        + "\",\"voice\":\"af_heart\",\"response_format\":\"pcm\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray()));
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (tts.replicas().getFirst().pool().running() == 0
                        && !answers.getLast().isDone()
                        && System.nanoTime() < deadline) Thread.sleep(5);
            }
            for (java.util.concurrent.CompletableFuture<HttpResponse<byte[]>> a : answers) {
                HttpResponse<byte[]> r = a.get();
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body().length / 2 / 24_000.0)
                        .as("seconds of speech")
                        .isBetween(1.0, 6.0);
            }
            assertThat(tts.replicas())
                    .as("requests per replica")
                    .extracting(ServedModel.Replica::requests)
                    .containsExactly(1L, 1L);
            String metrics = http.send(
                            HttpRequest.newBuilder(server.uri().resolve(Routes.METRICS))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(metrics)
                    .contains("audioengine_replica_requests_total{model=\"kokoro-82m\",replica=\"0\"} 1")
                    .contains("audioengine_replica_requests_total{model=\"kokoro-82m\",replica=\"1\"} 1");
        } finally {
            if (server != null) server.close();
            engines.forEach(AudioEngine::close);
        }
    }
}
