package dev.audioengine.server.http;

import dev.audioengine.server.serving.Metrics;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The header timeout Helidon 4.5 lacks: a request line must be followed by the end of its headers within
 * --header-timeout-s, or the connection is closed. Helidon's idle-connection check (set to --idle-timeout-s) ends a
 * connection that has sent no request line or only part of one, but it spares a connection whose headers are being
 * read, so a client that sends half its headers and waits would hold its socket for good. This listener hears each
 * request line and each end of headers on the connection's own thread; one platform thread ticks for the whole server,
 * closes the sockets whose headers are late and logs each as 408 (counted so; nothing can be answered on them).
 * <p>
 * It also tells {@link FramingErrors} which request's headers the current thread was reading when Helidon gave up on
 * it: a client that hung up there is then logged as 499, not as Helidon's 500.
 */
public final class HeaderTimeout implements Http1ConnectionListener, AutoCloseable {
    private final long timeoutNanos;
    private final Metrics metrics;
    private final Consumer<String> log;
    private final Set<Pending> pending = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<Pending> reading = new ThreadLocal<>();
    private final ScheduledExecutorService clock;

    public HeaderTimeout(Duration timeout, Metrics metrics, Consumer<String> log) {
        timeoutNanos = timeout.toNanos();
        this.metrics = metrics;
        this.log = log;
        clock = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "audioengine-header-timeout");
            t.setDaemon(true);
            return t;
        });
        long tick = Math.max(10, Math.min(1000, timeout.toMillis() / 4));
        clock.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    /** A request's headers being read: what the log needs to name it, and whether the timeout ended it. */
    static final class Pending {
        final String method, path, client;
        private final ConnectionContext connection;
        private final long since = System.nanoTime();
        private volatile boolean timedOut;

        private Pending(ConnectionContext connection, String method, String path, String client) {
            this.connection = connection;
            this.method = method;
            this.path = path;
            this.client = client;
        }

        boolean timedOut() {
            return timedOut;
        }

        double seconds() {
            return (System.nanoTime() - since) / 1e9;
        }
    }

    @Override
    public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
        String client;
        try {
            client = ctx.remotePeer().host();
        } catch (RuntimeException gone) {
            client = "-";
        }
        Pending p =
                new Pending(ctx, prologue.method().text(), prologue.uriPath().path(), client);
        Pending before = reading.get();
        if (before != null)
            pending.remove(before); // the previous request's headers failed and were answered as a bad request
        reading.set(p);
        pending.add(p);
    }

    @Override
    public void headers(ConnectionContext ctx, Headers headers) {
        Pending p = reading.get();
        if (p == null) return;
        reading.remove();
        pending.remove(p);
    }

    /**
     * The request whose headers the calling thread was reading when its connection failed (the client hung up, or the
     * timeout closed it, which has logged it already), forgotten from here on; empty when the thread was reading none.
     */
    Optional<Pending> failed() {
        Pending p = reading.get();
        if (p == null) return Optional.empty();
        reading.remove();
        pending.remove(p);
        return Optional.of(p);
    }

    private void tick() {
        long now = System.nanoTime();
        for (Pending p : pending) {
            if (now - p.since <= timeoutNanos) continue;
            p.timedOut = true;
            pending.remove(p);
            try {
                // the connection's thread is blocked reading the headers: closing the socket ends that read
                p.connection.serverSocket().close();
            } catch (RuntimeException alreadyGone) {
                // the client hung up meanwhile: nothing is left to close
            }
            metrics.started();
            metrics.finished(RequestLog.endpoint(p.path), 408, p.seconds());
            log.accept(String.format(
                    Locale.ROOT,
                    "%s %s 408 %.0f ms client=%s (no complete headers within %d ms, --header-timeout-s: disconnected)",
                    LogText.escape(p.method),
                    LogText.escape(p.path),
                    p.seconds() * 1e3,
                    LogText.escape(p.client),
                    timeoutNanos / 1_000_000));
        }
    }

    @Override
    public void close() {
        clock.shutdownNow();
    }
}
