package dev.audioengine.server;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.util.function.Consumer;

/**
 * A route's handler with the server's error rule: an {@link ApiError} becomes its status and OpenAI's error body; a
 * size limit Helidon meets while the body is read becomes 413; anything else is a server bug, 500 with its message,
 * its stack trace in the log. A response refused before its body was read closes the connection, so the server never
 * reads (and throws away) an upload it has already answered.
 */
final class Endpoint implements Handler {
    /** A route's own work; it throws {@link ApiError} for requests it refuses. */
    interface Body {
        void handle(ServerRequest req, ServerResponse res) throws Exception;
    }

    private final Body body;
    private final Consumer<String> log;

    private Endpoint(Body body, Consumer<String> log) {
        this.body = body;
        this.log = log;
    }

    static Endpoint of(Body body, Consumer<String> log) { return new Endpoint(body, log); }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        try {
            body.handle(req, res);
        } catch (ApiError e) {
            send(req, res, e);
        } catch (RequestException e) {
            send(req, res, ApiError.ofStatus(e.status().code(), e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(req, res, ApiError.unavailable("shutting_down", "the server is shutting down", ModelPool.RETRY_AFTER_SECONDS));
        } catch (Exception e) {
            log.accept("error: internal error answering " + req.prologue().method().text() + " " + req.path().path() + ": " + e);
            java.io.StringWriter trace = new java.io.StringWriter();
            e.printStackTrace(new java.io.PrintWriter(trace));
            log.accept(trace.toString().stripTrailing());
            send(req, res, ApiError.internal("internal error: " + e));
        }
    }

    /** Writes {@code e} as the response, unless the response has begun already (then the connection is all we can end). */
    static void send(ServerRequest req, ServerResponse res, ApiError e) {
        if (res.isSent()) return;
        res.status(Status.create(e.status()));
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        if (e.retryAfterSeconds() > 0) res.header(HeaderNames.RETRY_AFTER, Integer.toString(e.retryAfterSeconds()));
        if (e.status() == 401) res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer");
        if (!req.content().consumed()) res.header(HeaderValues.CONNECTION_CLOSE);
        res.send(e.json());
    }
}
