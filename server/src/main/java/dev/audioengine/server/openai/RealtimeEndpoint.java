package dev.audioengine.server.openai;

import dev.audioengine.model.Task;
import dev.audioengine.server.http.Routes;
import dev.audioengine.server.serving.Metrics;
import dev.audioengine.server.serving.ServedModel;
import dev.audioengine.server.serving.ServedModels;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsCloseCodes;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import io.helidon.websocket.WsUpgradeException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@code GET /v1/realtime?intent=transcription}: live transcription over WebSocket, as OpenAI's Realtime transcription
 * sessions (one {@link RealtimeSession} per connection); {@code ?intent=keywords}, this server's: wake words as they are
 * heard (one {@link KeywordSession} per connection). Keeps the open sessions, so that {@code /metrics} can count
 * them, a session whose client sends nothing for the idle timeout is closed (a stalled client, or one that vanished
 * without a TCP close), and shutdown closes them all. Upgrades are checked here, before a session exists: the
 * intent, the API key (the {@code Authorization} header, or for browsers, which cannot set headers on a WebSocket,
 * OpenAI's {@code openai-insecure-api-key.KEY} subprotocol), and that the server is not draining.
 */
public final class RealtimeEndpoint implements AutoCloseable {
    /** The subprotocol OpenAI's browser clients offer beside the key; echoed, as a browser requires one to be. */
    static final String SUBPROTOCOL = "realtime";

    private static final String KEY_PROTOCOL = dev.audioengine.server.http.BearerAuth.KEY_PROTOCOL;
    /** A client quiet for this long is pinged at every idle check, to find one that has gone. */
    private static final long PING_AFTER_NANOS = 500_000_000L;

    /** The longest message a session takes, and so the longest WebSocket frame the server reads. */
    public static final int MAX_MESSAGE_BYTES = RealtimeSession.MAX_MESSAGE_BYTES;

    private final ServedModels models;
    private final Metrics metrics;
    private final Optional<String> apiKey;
    private final Duration idleTimeout;
    private final BooleanSupplier draining;
    private final Consumer<String> log;
    private final Set<LiveSession> open = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService reaper;

    public RealtimeEndpoint(
            ServedModels models,
            Metrics metrics,
            Optional<String> apiKey,
            Duration idleTimeout,
            BooleanSupplier draining,
            Consumer<String> log) {
        this.models = models;
        this.metrics = metrics;
        this.apiKey = apiKey;
        this.idleTimeout = idleTimeout;
        this.draining = draining;
        this.log = log;
        reaper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "audioengine-realtime-idle");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(10, Math.min(1000, idleTimeout.toMillis() / 4));
        reaper.scheduleWithFixedDelay(this::closeIdle, period, period, TimeUnit.MILLISECONDS);
    }

    /** The WebSocket route, for the server's listener. */
    public WsRouting.Builder routing() {
        return WsRouting.builder().endpoint(Routes.REALTIME, Upgrade::new);
    }

    /** Sessions open now. */
    public int openSessions() {
        return open.size();
    }

    ServedModels models() {
        return models;
    }

    /** What a session that names no model transcribes with: the first served recognizer. */
    ServedModel defaultModel() {
        return models.first(Task.ASR).orElse(null);
    }

    void opened(LiveSession s) {
        open.add(s);
        metrics.realtimeSession(+1);
        log.accept("realtime session " + s.id() + " opened (" + open.size() + " open)");
    }

    void released(LiveSession s, String why) {
        if (open.remove(s)) {
            metrics.realtimeSession(-1);
            log.accept("realtime session " + s.id() + " ended: " + why + " (" + open.size() + " open)");
        }
    }

    void modelTime(String model, double seconds) {
        metrics.processed(model, 0, seconds);
    }

    void log(String line) {
        log.accept(line);
    }

    private void closeIdle() {
        long now = System.nanoTime();
        for (LiveSession s : open) {
            long since = s.waitingSinceNanos();
            if (since == Long.MAX_VALUE) continue; // processing a message: not idle
            long quiet = now - since;
            if (quiet > idleTimeout.toNanos()) {
                s.close(
                        WsCloseCodes.VIOLATED_POLICY,
                        "no message for " + idleTimeout.toSeconds() + " s (--upload-stall-s); session closed");
            } else if (quiet > PING_AFTER_NANOS) {
                s.ping();
            }
        }
    }

    /** Closes every session (the server stops). */
    @Override
    public void close() {
        reaper.shutdownNow();
        for (LiveSession s : open) s.close(WsCloseCodes.GOING_AWAY, "the server is shutting down");
    }

    /** The upgrade's checks, then the session its intent names. */
    private final class Upgrade implements WsListener {
        private LiveSession session;

        @Override
        public Optional<Headers> onHttpUpgrade(HttpPrologue prologue, Headers headers) throws WsUpgradeException {
            if (draining.getAsBoolean()) throw new WsUpgradeException("the server is shutting down");
            List<String> intent = prologue.query().all("intent", List::of);
            if (intent.equals(List.of("transcription"))) session = new RealtimeSession(RealtimeEndpoint.this);
            else if (intent.equals(List.of("keywords"))) {
                if (models.first(Task.KWS).isEmpty())
                    throw new WsUpgradeException("intent=keywords needs a served kws model, and this server serves "
                            + "none (--models ...,openwakeword)");
                session = new KeywordSession(RealtimeEndpoint.this);
            } else
                throw new WsUpgradeException(Routes.REALTIME
                        + " serves transcription and keyword sessions only: connect to " + Routes.REALTIME
                        + "?intent=transcription or ?intent=keywords");
            List<String> offered = headers.first(HeaderNames.create("Sec-WebSocket-Protocol"))
                    .map(v -> List.of(v.split("\\s*,\\s*")))
                    .orElse(List.of());
            if (apiKey.isPresent()) {
                String given = headers.first(HeaderNames.AUTHORIZATION)
                        .filter(a -> a.regionMatches(true, 0, "Bearer ", 0, 7))
                        .map(a -> a.substring(7).strip())
                        .orElse(offered.stream()
                                .filter(p -> p.startsWith(KEY_PROTOCOL))
                                .map(p -> p.substring(KEY_PROTOCOL.length()))
                                .findFirst()
                                .orElse(""));
                if (!MessageDigest.isEqual(
                        given.getBytes(StandardCharsets.UTF_8), apiKey.get().getBytes(StandardCharsets.UTF_8)))
                    throw new WsUpgradeException("a valid API key is required (Authorization: Bearer KEY, or the "
                            + KEY_PROTOCOL + "KEY subprotocol)");
            }
            if (offered.isEmpty()) return Optional.empty();
            // a browser fails the handshake unless the server picks one of the subprotocols it offered
            WritableHeaders<?> answer = WritableHeaders.create();
            answer.set(
                    HeaderNames.create("Sec-WebSocket-Protocol"),
                    offered.contains(SUBPROTOCOL) ? SUBPROTOCOL : offered.getFirst());
            return Optional.of(answer);
        }

        @Override
        public void onOpen(WsSession s) {
            session.onOpen(s);
        }

        @Override
        public void onMessage(WsSession s, String text, boolean last) {
            session.onMessage(s, text, last);
        }

        @Override
        public void onMessage(WsSession s, io.helidon.common.buffers.BufferData buffer, boolean last) {
            session.onMessage(s, buffer, last);
        }

        @Override
        public void onClose(WsSession s, int status, String reason) {
            session.onClose(s, status, reason);
        }

        @Override
        public void onError(WsSession s, Throwable t) {
            session.onError(s, t);
        }
    }
}
