package dev.audioengine.server;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.BearerAuth;
import dev.audioengine.server.http.Endpoint;
import dev.audioengine.server.http.ErrorResponder;
import dev.audioengine.server.http.FramingErrors;
import dev.audioengine.server.http.HeaderTimeout;
import dev.audioengine.server.http.RequestLog;
import dev.audioengine.server.http.Routes;
import dev.audioengine.server.http.ShutdownGate;
import dev.audioengine.server.http.UploadFolder;
import dev.audioengine.server.http.UploadWatchdog;
import dev.audioengine.server.openai.KeywordsEndpoint;
import dev.audioengine.server.openai.ModelsEndpoint;
import dev.audioengine.server.openai.NotesEndpoint;
import dev.audioengine.server.openai.RealtimeEndpoint;
import dev.audioengine.server.openai.SpeechEndpoint;
import dev.audioengine.server.openai.TranscriptionEndpoint;
import dev.audioengine.server.openai.VadEndpoint;
import dev.audioengine.server.openai.VoicesEndpoint;
import dev.audioengine.server.serving.Metrics;
import dev.audioengine.server.serving.Probes;
import dev.audioengine.server.serving.ServedModel;
import dev.audioengine.server.serving.ServedModels;
import dev.audioengine.server.ui.WebPage;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.websocket.WsConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * {@code audioengine serve}: an OpenAI-compatible speech server on Helidon SE's WebServer (virtual thread per
 * request). Endpoints: {@code POST /v1/audio/transcriptions}, {@code POST /v1/audio/speech}, {@code GET /v1/audio/voices},
 * {@code GET /v1/models[/{id}]}, {@code POST /v1/audio/vad}, the WebSocket {@code GET /v1/realtime?intent=transcription}
 * (live transcription), with --ui the page at {@code /}, {@code GET /health}, {@code /ready}, {@code /metrics}. It serves the models of {@link ServerConfig#models()} on the
 * engine it is given (which it does not close), each with a bounded worker pool, and answers every error in OpenAI's
 * shape. Stateless: replicas behind a balancer need nothing shared.
 * <p>
 * {@link #close} shuts down gracefully: new requests are refused with 503, /ready says draining, requests in flight
 * finish (up to the drain timeout), then the listener stops and the models are closed.
 */
public final class SpeechServer implements AutoCloseable {
    private final ServerConfig config;
    private final ServedModels models;
    private final UploadFolder uploads;
    private final UploadWatchdog watchdog;
    private final HeaderTimeout headerTimeout;
    private final Metrics metrics;
    private final ShutdownGate gate;
    private final RealtimeEndpoint realtime;
    private final WebServer web;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile boolean preloaded;

    private SpeechServer(
            ServerConfig config, List<AudioEngine> engines, List<AudioEngine> ttsEngines, ModelLoader loader)
            throws IOException {
        this.config = config;
        AudioEngine engine = engines.getFirst(); // its backend and memory speak for the replicas in /ready and /metrics
        Consumer<String> log = config.log();
        metrics = new Metrics();
        models = new ServedModels(config, loader, engines, ttsEngines);
        uploads = new UploadFolder();
        watchdog = new UploadWatchdog(config.uploadStall());
        ErrorResponder errors = new ErrorResponder(watchdog);
        gate = new ShutdownGate(errors);
        ModelsEndpoint list = new ModelsEndpoint(models, Instant.now().getEpochSecond());
        Probes probes =
                new Probes(models, engine.backend().registryName(), config.preload(), gate::draining, () -> preloaded);
        HttpRouting.Builder routing =
                HttpRouting.builder().addFilter(new RequestLog(metrics, log)).addFilter(gate);
        config.apiKey().ifPresent(key -> routing.addFilter(new BearerAuth(key, errors)));
        // a live session is an upload that goes on: one whose client sends nothing for the upload stall time is closed
        // (with a close code and reason, before Helidon's idle check, at --idle-timeout-s, would cut it without one)
        realtime = new RealtimeEndpoint(models, metrics, config.apiKey(), config.uploadStall(), gate::draining, log);
        routing.post(
                        Routes.TRANSCRIPTIONS,
                        new Endpoint(
                                new TranscriptionEndpoint(models, uploads, config.maxUploadBytes(), metrics, watchdog),
                                log,
                                errors))
                .post(
                        Routes.TRANSLATIONS,
                        new Endpoint(
                                new TranscriptionEndpoint(
                                        models, uploads, config.maxUploadBytes(), metrics, watchdog, true),
                                log,
                                errors))
                .post(
                        Routes.SPEECH,
                        new Endpoint(
                                new SpeechEndpoint(
                                        models, metrics, watchdog, config.maxJsonBytes(), config.maxInputChars()),
                                log,
                                errors))
                .get(Routes.VOICES, new Endpoint(new VoicesEndpoint(models)::list, log, errors))
                .post(
                        Routes.VAD,
                        new Endpoint(
                                new VadEndpoint(models, uploads, config.maxUploadBytes(), metrics, watchdog),
                                log,
                                errors))
                .post(
                        Routes.KEYWORDS,
                        new Endpoint(
                                new KeywordsEndpoint(models, uploads, config.maxUploadBytes(), metrics, watchdog),
                                log,
                                errors))
                .post(
                        Routes.NOTES,
                        new Endpoint(
                                new NotesEndpoint(models, uploads, config.maxUploadBytes(), metrics, watchdog),
                                log,
                                errors))
                .get(
                        Routes.REALTIME,
                        new Endpoint(
                                // a WebSocket upgrade the realtime endpoint refused comes here, as does a plain GET
                                (req, res) -> {
                                    if (req.headers()
                                            .first(io.helidon.http.HeaderNames.UPGRADE)
                                            .filter(u -> u.toLowerCase(java.util.Locale.ROOT)
                                                    .contains("websocket"))
                                            .isPresent())
                                        throw ApiError.invalid(
                                                "intent",
                                                "invalid_intent",
                                                Routes.REALTIME + " serves transcription and keyword sessions: "
                                                        + "connect to " + Routes.REALTIME
                                                        + "?intent=transcription, or ?intent=keywords where a kws "
                                                        + "model is served");
                                    throw ApiError.invalid(
                                            null,
                                            "websocket_required",
                                            Routes.REALTIME + " is a WebSocket: connect with ws://host:port"
                                                    + Routes.REALTIME + "?intent=transcription (docs/SERVER.md)");
                                },
                                log,
                                errors))
                .get(Routes.MODELS, new Endpoint(list::list, log, errors))
                .get(Routes.MODELS + "/{id}", new Endpoint(list::one, log, errors))
                .get(Routes.HEALTH, new Endpoint(probes::health, log, errors))
                .get(Routes.READY, new Endpoint(probes::ready, log, errors))
                .get(
                        Routes.METRICS,
                        new Endpoint(
                                (req, res) -> {
                                    res.header(HeaderValues.create(
                                            "Content-Type", "text/plain; version=0.0.4; charset=utf-8"));
                                    res.send(metrics.render(
                                            models.all(),
                                            engine.backend().device().name(),
                                            engine.deviceMemory()));
                                },
                                log,
                                errors));
        if (config.ui()) new WebPage().route(routing, log, errors); // without --ui, / stays a 404
        routing.any(new Endpoint(
                (req, res) -> {
                    String method = req.prologue().method().text(),
                            path = req.path().path();
                    // a served path asked with another method: 405 and what it takes, as OpenAI answers
                    Routes.method(path).ifPresent(allow -> {
                        throw ApiError.methodNotAllowed(
                                allow, method + " " + path + " is not served; " + path + " takes " + allow);
                    });
                    throw ApiError.notFound("no endpoint "
                            + req.prologue().method().text() + " "
                            + req.path().path() + "; this server has POST "
                            + Routes.TRANSCRIPTIONS + ", POST " + Routes.TRANSLATIONS + ", POST " + Routes.SPEECH
                            + ", GET " + Routes.VOICES + ", POST " + Routes.VAD + ", POST " + Routes.KEYWORDS
                            + ", POST " + Routes.NOTES + ", GET " + Routes.MODELS
                            + ", GET " + Routes.REALTIME + " (WebSocket), GET " + Routes.HEALTH + ", GET "
                            + Routes.READY + ", GET " + Routes.METRICS);
                },
                log,
                errors));
        headerTimeout = new HeaderTimeout(config.connections().headerTimeout(), metrics, log);
        FramingErrors framing = new FramingErrors(metrics, log, config.maxUploadBytes(), headerTimeout);
        DirectHandlers.Builder direct = DirectHandlers.builder();
        for (DirectHandler.EventType t : DirectHandler.EventType.values()) direct.addHandler(t, framing);
        web = WebServer.builder()
                .host(config.host())
                .port(config.port())
                .shutdownHook(false) // close() drains first; Helidon's hook would cut requests in flight
                .maxPayloadSize(config.maxUploadBytes())
                .protocolsDiscoverServices(false)
                .addProtocol(
                        Http1Config.builder().addReceiveListener(headerTimeout).build())
                // a realtime message is at most this long (an append of some 20 s of 24 kHz audio)
                .addProtocol(WsConfig.builder()
                        .maxFrameLength(RealtimeEndpoint.MAX_MESSAGE_BYTES)
                        .build())
                // Helidon's idle check: a connection with no request under way (not even a whole request line) is
                // closed
                // after the idle timeout; checked four times per timeout, so one is closed within 1.25 times it
                .idleConnectionTimeout(config.connections().idleTimeout())
                .idleConnectionPeriod(checkPeriod(config.connections().idleTimeout()))
                // beyond the cap, connections wait in the kernel's accept queue, not in this process's descriptors
                .maxTcpConnections(config.connections().maxConnections())
                .directHandlers(direct.build())
                .routing(routing)
                .addRouting(realtime.routing())
                .build();
    }

    private static Duration checkPeriod(Duration idle) {
        return Duration.ofMillis(Math.max(10, Math.min(15_000, idle.toMillis() / 4)));
    }

    /**
     * Starts listening, then (with --preload) loads every model; /health answers meanwhile and /ready says loading.
     * A model that fails to preload stops the server and is thrown.
     */
    public static SpeechServer start(ServerConfig config, AudioEngine engine, ModelLoader loader) throws IOException {
        return start(config, List.of(engine), loader);
    }

    /**
     * As {@link #start(ServerConfig, AudioEngine, ModelLoader)} on several devices (one engine each, which the server
     * does not close): every model gets a replica per device, with its own workers and batch, and each request goes
     * to the replica with the fewest requests running and waiting.
     */
    public static SpeechServer start(ServerConfig config, List<AudioEngine> engines, ModelLoader loader)
            throws IOException {
        return start(config, engines, engines, loader);
    }

    /**
     * As {@link #start(ServerConfig, List, ModelLoader)}, with speech synthesis models on {@code ttsEngines} instead
     * (serve --tts-replicas: several engines per device, each its own stream and copy of the model). A synthesizer
     * runs one piece at a time on its engine, and on a GPU one piece leaves the device partly idle; replicas on engines
     * of their own let concurrent requests overlap there (docs/PERFORMANCE.md, "Kokoro on the GPU"). Recognition
     * models stay on {@code engines}: they batch concurrent requests in one engine instead.
     */
    public static SpeechServer start(
            ServerConfig config, List<AudioEngine> engines, List<AudioEngine> ttsEngines, ModelLoader loader)
            throws IOException {
        if (engines.isEmpty() || ttsEngines.isEmpty())
            throw new IllegalArgumentException("a server needs at least one engine");
        AudioEngine engine = engines.getFirst();
        checkAddress(config.host(), config.port());
        SpeechServer s = new SpeechServer(config, engines, ttsEngines, loader);
        s.web.start();
        if (!s.web.isRunning()) {
            // Helidon logs why (the port is taken, the address is not this machine's) and returns instead of throwing
            s.close();
            throw new CannotListen(
                    "could not listen on " + config.host() + ":" + config.port() + " (the server log above says why: "
                            + "a port in use, an address that is not this machine's)",
                    null);
        }
        config.log()
                .accept("audioengine serve: listening on " + s.uri() + " (models "
                        + String.join(
                                ", ",
                                s.models.all().stream().map(ServedModel::id).toList()) + " on "
                        + engine.backend().registryName() + ", "
                        + String.join(
                                " + ",
                                engines.stream().map(e -> e.device().name()).toList())
                        + "; " + config.workers() + " at once and "
                        + config.queue() + " queued per model; uploads up to " + config.maxUploadBytes()
                        + " bytes; up to "
                        + config.connections().maxConnections() + " connections"
                        + (config.apiKey().isPresent() ? "; API key required" : "") + ")");
        if (config.preload()) {
            try {
                long t0 = System.nanoTime();
                s.models.preload();
                config.log()
                        .accept(String.format(
                                java.util.Locale.ROOT,
                                "audioengine serve: models loaded in %.1f s",
                                (System.nanoTime() - t0) / 1e9));
            } catch (IOException | RuntimeException e) {
                s.close();
                throw e;
            }
        }
        s.preloaded = true;
        return s;
    }

    /**
     * Binds the address once and lets it go, so that a port in use or an address that is not this machine's is one
     * IOException saying which, with the option to change: Helidon, asked to listen there, logs the bind failure with
     * its stack trace (some 40 lines) before it returns.
     */
    static void checkAddress(String host, int port) throws IOException {
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new CannotListen(
                    "cannot listen on " + host + ":" + port + ": --host " + host + " is not a known name or address",
                    null);
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(
                    true); // as the listener binds: a port whose old connections linger in TIME_WAIT is free
            probe.bind(address);
        } catch (BindException e) {
            String message = String.valueOf(e.getMessage());
            String why = message.contains("in use")
                    ? "the port is in use (another server? pick another with --port, or 0 for a free one)"
                    : message.contains("assign")
                            ? "--host " + host + " is not an address of this machine (0.0.0.0 listens on all of them)"
                            : message + " (--host, --port)";
            throw new CannotListen("cannot listen on " + host + ":" + port + ": " + why, e);
        }
    }

    /** The address given cannot be listened on; the message says why and which option to change, in one line. */
    public static final class CannotListen extends IOException {
        CannotListen(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Checks the --models names against the installed families before an engine is built or a model pulled: an
     * IllegalArgumentException names what is wrong (an unknown name, a task without an endpoint, a repeat).
     */
    public static void checkModels(FamilyRegistry registry, List<String> names) {
        ServedModels.resolve(registry, names);
    }

    /** The port it listens on (the one picked, for port 0). */
    public int port() {
        return web.port();
    }

    /** Where a client reaches it: {@code http://host:port}. */
    public URI uri() {
        String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        return URI.create("http://" + host + ":" + port());
    }

    /** The folder uploads are spooled to while their requests run. */
    Path uploadFolder() {
        return uploads.path();
    }

    Metrics metrics() {
        return metrics;
    }

    ServedModels models() {
        return models;
    }

    /** Live transcription sessions open now. */
    int realtimeSessions() {
        return realtime.openSessions();
    }

    /** Blocks until {@link #close} has finished. */
    public void awaitClosed() throws InterruptedException {
        closed.await();
    }

    /** Refuses new requests, lets those in flight finish (at most the drain timeout), then stops and closes the models. */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            try {
                awaitClosed();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        try {
            gate.close();
            realtime.close(); // a live session has no natural end to wait for
            long deadline = System.nanoTime() + config.drainTimeout().toNanos();
            int left;
            while ((left = metrics.inFlight()) > 0 && System.nanoTime() < deadline) Thread.sleep(20);
            boolean drained = left == 0 && models.drain(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            if (!drained)
                config.log()
                        .accept("audioengine serve: the drain timeout passed with " + metrics.inFlight()
                                + " requests in flight; stopping anyway");
            web.stop();
            watchdog.close();
            headerTimeout.close();
            models.close();
            uploads.close();
            config.log().accept("audioengine serve: stopped");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            web.stop();
            watchdog.close();
            headerTimeout.close();
            models.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove the upload folder " + uploads.path(), e);
        } finally {
            closed.countDown();
        }
    }
}
