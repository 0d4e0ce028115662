package dev.audioengine.server.http;

import dev.audioengine.server.serving.Metrics;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The first filter: one log line per request when it has been answered (method, path, status, milliseconds, client,
 * and what the handler noted), and the request counted in {@link Metrics} under its route's name.
 */
public final class RequestLog implements Filter {
    /** The routes metrics are labelled by; every other path counts as "other". */
    static final List<String> ROUTES = List.of(
            Routes.TRANSCRIPTIONS,
            Routes.SPEECH,
            Routes.VOICES,
            Routes.VAD,
            Routes.MODELS,
            Routes.HEALTH,
            Routes.READY,
            Routes.METRICS);

    private final Metrics metrics;
    private final Consumer<String> log;

    public RequestLog(Metrics metrics, Consumer<String> log) {
        this.metrics = metrics;
        this.log = log;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        long t0 = System.nanoTime();
        String client = req.remotePeer().host(); // now: once the connection is gone its peer may be too
        RequestNote note = new RequestNote();
        req.context().register(note);
        metrics.started();
        boolean returned = false;
        try {
            chain.proceed();
            returned = true;
        } catch (CloseConnectionException e) {
            // the connection failed after the handler was done: Helidon writes a streamed answer's last chunk itself,
            // once
            // the handler returns, and a client that left meanwhile fails that write. The answer began with its status;
            // the client cut it short, as the log counts a stream a client leaves
            if (note.unansweredStatus() == 0) {
                note.unanswered(res.status().code());
                note.note("client closed the connection before the answer's end");
            }
            throw e;
        } finally {
            // thrown past the handlers: an answer sent before the connection was ended (Endpoint) has its status,
            // anything else is Helidon's 500
            int status = note.unansweredStatus() != 0
                    ? note.unansweredStatus()
                    : returned || res.isSent() ? res.status().code() : 500;
            double seconds = (System.nanoTime() - t0) / 1e9;
            String path = req.path().path();
            metrics.finished(endpoint(path), status, seconds);
            // every part a client chose (the path, and the notes that quote its fields, file name and model) is escaped
            log.accept(String.format(
                    Locale.ROOT,
                    "%s %s %d %.0f ms client=%s%s",
                    LogText.escape(req.prologue().method().text()),
                    LogText.escape(path),
                    status,
                    seconds * 1e3,
                    LogText.escape(client),
                    LogText.escape(note.describe())));
        }
    }

    public static String endpoint(String path) {
        if (path.startsWith(Routes.MODELS + "/")) return Routes.MODELS + "/{id}";
        return ROUTES.contains(path) ? path : "other";
    }
}
