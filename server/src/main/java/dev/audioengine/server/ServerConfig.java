package dev.audioengine.server;

import dev.audioengine.model.task.Batching;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What {@code audioengine serve} was asked for.
 *
 * @param host           the address to bind (loopback by default: exposing the server is a decision)
 * @param port           0 picks a free port (tests)
 * @param models         variant names from {@code models list} this server serves, in order; the first of a task is
 *                       that task's default where a request names none (the VAD endpoint)
 * @param maxConcurrent  requests each model works on at once
 * @param queue          requests each model holds waiting beyond those; more are refused with 503
 * @param queueTimeout   how long a request may wait in the queue before it is refused with 503
 * @param maxUploadBytes the largest request body; larger ones are refused with 413, by Content-Length before reading
 * @param maxInputChars  the longest text POST /v1/audio/speech says, in characters (code points); longer is a 400
 * @param apiKey         when present, every /v1 request needs {@code Authorization: Bearer KEY}
 * @param preload        load every model before accepting requests (otherwise on first use)
 * @param uploadStall    an upload that sends nothing for this long is ended (Helidon applies no read timeout to a
 *                       request in progress, and a stalled client would hold its connection for good)
 * @param drainTimeout   on shutdown, how long in-flight requests may take to finish
 * @param connections    how long a connection may take to send its headers or sit idle, and how many may be open
 * @param batching       how ASR models batch decoding across concurrent requests (--max-batch, --gpu-memory-budget);
 *                       each model's workers are at least its batch size, so that a batch can fill
 * @param ui             serve the web page (microphone, upload, speech) at {@code /} (--ui)
 * @param log            where the one line per request (and the server's own lines) go
 */
public record ServerConfig(
        String host,
        int port,
        List<String> models,
        int maxConcurrent,
        int queue,
        Duration queueTimeout,
        long maxUploadBytes,
        int maxInputChars,
        Optional<String> apiKey,
        boolean preload,
        Duration uploadStall,
        Duration drainTimeout,
        Connections connections,
        Batching batching,
        boolean ui,
        Consumer<String> log) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    public static final List<String> DEFAULT_MODELS = List.of("moonshine-tiny", "kokoro", "silero_vad");
    /** OpenAI's limit on the speech endpoint's input. */
    public static final int DEFAULT_MAX_INPUT_CHARS = 4096;

    public ServerConfig {
        Objects.requireNonNull(host, "host");
        models = List.copyOf(models);
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(connections, "connections");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(batching, "batching");
        if (port < 0 || port > 65535) throw new IllegalArgumentException("--port must be in [0, 65535], got " + port);
        if (models.isEmpty()) throw new IllegalArgumentException("--models names no model");
        if (maxConcurrent < 1)
            throw new IllegalArgumentException("--max-concurrent must be at least 1, got " + maxConcurrent);
        if (queue < 0) throw new IllegalArgumentException("--queue must not be negative, got " + queue);
        if (maxUploadBytes < 1)
            throw new IllegalArgumentException("--max-upload-mb must be positive, got " + maxUploadBytes + " bytes");
        if (maxInputChars < 1 || maxInputChars > MAX_INPUT_CHARS_LIMIT) {
            throw new IllegalArgumentException(
                    "--max-input-chars must be in [1, " + MAX_INPUT_CHARS_LIMIT + "], got " + maxInputChars);
        }
        if (queueTimeout.isNegative()) throw new IllegalArgumentException("--queue-timeout-s must not be negative");
        if (!uploadStall.isPositive()) throw new IllegalArgumentException("--upload-stall-s must be positive");
        if (drainTimeout.isNegative()) throw new IllegalArgumentException("--drain-timeout-s must not be negative");
        if (apiKey.isPresent() && apiKey.get().isBlank()) {
            throw new IllegalArgumentException(
                    "--api-key is empty (an unset variable in --api-key \"$KEY\"?, or AUDIOENGINE_API_KEY set to nothing); "
                            + "give the key, or leave both out to serve without one");
        }
    }

    /** The most --max-input-chars may be: the JSON body it allows (12 bytes a character, escaped) stays in an array. */
    public static final int MAX_INPUT_CHARS_LIMIT = 1 << 24;

    /** The defaults of {@code audioengine serve}, logging to {@code log}. */
    public static ServerConfig defaults(Consumer<String> log) {
        return new ServerConfig(
                DEFAULT_HOST,
                DEFAULT_PORT,
                DEFAULT_MODELS,
                2,
                16,
                Duration.ofSeconds(30),
                25L << 20,
                DEFAULT_MAX_INPUT_CHARS,
                Optional.empty(),
                false,
                Duration.ofSeconds(30),
                Duration.ofSeconds(30),
                Connections.DEFAULTS,
                Batching.NONE,
                false,
                log);
    }

    public ServerConfig withBatching(Batching b) {
        return new ServerConfig(
                host,
                port,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                maxInputChars,
                apiKey,
                preload,
                uploadStall,
                drainTimeout,
                connections,
                b,
                ui,
                log);
    }

    public ServerConfig withUi(boolean u) {
        return new ServerConfig(
                host,
                port,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                maxInputChars,
                apiKey,
                preload,
                uploadStall,
                drainTimeout,
                connections,
                batching,
                u,
                log);
    }

    /** Requests a model works on at once: --max-concurrent, or the batch size when that is larger. */
    public int workers() {
        return Math.max(maxConcurrent, batching.maxBatch());
    }

    public ServerConfig withHost(String h) {
        return new ServerConfig(
                h,
                port,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                maxInputChars,
                apiKey,
                preload,
                uploadStall,
                drainTimeout,
                connections,
                batching,
                ui,
                log);
    }

    public ServerConfig withPort(int p) {
        return new ServerConfig(
                host,
                p,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                maxInputChars,
                apiKey,
                preload,
                uploadStall,
                drainTimeout,
                connections,
                batching,
                ui,
                log);
    }

    public ServerConfig withModels(List<String> m) {
        return new ServerConfig(
                host,
                port,
                m,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                maxInputChars,
                apiKey,
                preload,
                uploadStall,
                drainTimeout,
                connections,
                batching,
                ui,
                log);
    }

    public ServerConfig withConcurrency(int maxConcurrentRequests, int queueLength, Duration timeout) {
        return new ServerConfig(
                host,
                port,
                models,
                maxConcurrentRequests,
                queueLength,
                timeout,
                maxUploadBytes,
                maxInputChars,
                apiKey,
                preload,
                uploadStall,
                drainTimeout,
                connections,
                batching,
                ui,
                log);
    }

    public ServerConfig withMaxUploadBytes(long bytes) {
        return new ServerConfig(
                host,
                port,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                bytes,
                maxInputChars,
                apiKey,
                preload,
                uploadStall,
                drainTimeout,
                connections,
                batching,
                ui,
                log);
    }

    public ServerConfig withApiKey(String key) {
        return new ServerConfig(
                host,
                port,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                maxInputChars,
                Optional.ofNullable(key),
                preload,
                uploadStall,
                drainTimeout,
                connections,
                batching,
                ui,
                log);
    }

    public ServerConfig withUploadStall(Duration stall) {
        return new ServerConfig(
                host,
                port,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                maxInputChars,
                apiKey,
                preload,
                stall,
                drainTimeout,
                connections,
                batching,
                ui,
                log);
    }

    public ServerConfig withPreload(boolean p) {
        return new ServerConfig(
                host,
                port,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                maxInputChars,
                apiKey,
                p,
                uploadStall,
                drainTimeout,
                connections,
                batching,
                ui,
                log);
    }

    public ServerConfig withMaxInputChars(int chars) {
        return new ServerConfig(
                host,
                port,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                chars,
                apiKey,
                preload,
                uploadStall,
                drainTimeout,
                connections,
                batching,
                ui,
                log);
    }

    public ServerConfig withConnectionLimits(Duration headerTimeout, Duration idleTimeout, int maxConnections) {
        return new ServerConfig(
                host,
                port,
                models,
                maxConcurrent,
                queue,
                queueTimeout,
                maxUploadBytes,
                maxInputChars,
                apiKey,
                preload,
                uploadStall,
                drainTimeout,
                new Connections(headerTimeout, idleTimeout, maxConnections),
                batching,
                ui,
                log);
    }

    /**
     * What a connection may hold. Helidon 4.5 would otherwise keep a socket that sends half its headers, or nothing,
     * for as long as the client likes (its idle check runs every 2 minutes and spares a connection in its headers), so
     * a few thousand such sockets would use up the process's descriptors.
     *
     * @param headerTimeout  from a request line to the end of its headers: a client that takes longer is disconnected
     * @param idleTimeout    a connection with no request under way (none begun, or waiting for the next one on a kept-alive
     *                       connection) is closed after this long; a request line that has not ended by then counts as none
     * @param maxConnections connections open at once; more wait in the kernel's accept queue, costing no descriptor here,
     *                       until one closes
     */
    public record Connections(Duration headerTimeout, Duration idleTimeout, int maxConnections) {
        /**
         * Ten seconds for headers (a client sends them at once); 75 s of keep-alive, above the 60 s a balancer such as
         * AWS's ALB keeps an idle connection, so the balancer, not this server, closes it, and never just as it sends a
         * request on it; 512 connections.
         */
        public static final Connections DEFAULTS = new Connections(Duration.ofSeconds(10), Duration.ofSeconds(75), 512);

        public Connections {
            Objects.requireNonNull(headerTimeout, "headerTimeout");
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            if (!headerTimeout.isPositive()) throw new IllegalArgumentException("--header-timeout-s must be positive");
            if (!idleTimeout.isPositive()) throw new IllegalArgumentException("--idle-timeout-s must be positive");
            if (maxConnections < 1)
                throw new IllegalArgumentException("--max-connections must be at least 1, got " + maxConnections);
        }
    }

    /** The largest JSON body a speech request may be: the text at 12 bytes a character (a surrogate pair escaped) and room for the rest. */
    public long maxJsonBytes() {
        return Math.min(maxUploadBytes, (64L << 10) + 12L * maxInputChars);
    }
}
