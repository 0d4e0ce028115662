package dev.audioengine.server;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.function.Consumer;

/**
 * A route's handler with the server's error rule: an {@link ApiError} becomes its status and OpenAI's error body; a
 * size limit Helidon meets while the body is read becomes 413; anything else is a server bug, 500 with its message,
 * its stack trace in the log. An answer given before the request body was read closes the connection, so the server
 * never reads (and throws away) an upload it has already refused.
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
        } catch (CloseConnectionException e) {
            // the connection has failed or must end: nothing can be answered on it
            req.context().get(RequestNote.class).ifPresent(n -> {
                n.clientGone();
                n.note(e.getMessage());
            });
            throw e;
        } catch (RequestException e) {
            send(req, res, ApiError.ofStatus(e.status().code(), e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(req, res, ApiError.unavailable("shutting_down", "the server is shutting down", ModelPool.RETRY_AFTER_SECONDS));
        } catch (Exception e) {
            log.accept("error: internal error answering " + req.prologue().method().text() + " " + req.path().path() + ": " + e);
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            log.accept(trace.toString().stripTrailing());
            send(req, res, ApiError.internal("internal error: " + e));
        }
    }

    /** Writes {@code e} as the response, unless the response has begun already (then the connection is all we can end). */
    static void send(ServerRequest req, ServerResponse res, ApiError e) {
        req.context().get(RequestNote.class).ifPresent(n -> n.note(e.getMessage()));
        if (res.isSent()) return;
        res.status(Status.create(e.status()));
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        if (e.retryAfterSeconds() > 0) res.header(HeaderNames.RETRY_AFTER, Integer.toString(e.retryAfterSeconds()));
        if (e.status() == 401) res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer");
        boolean unread = !req.content().consumed();
        if (unread) res.header(HeaderValues.CONNECTION_CLOSE);
        res.send(e.json());
        // Helidon 4.5 would go on to parse the unread body as the next request; ending the connection is ours to do
        if (unread) throw new CloseConnectionException("answered " + e.status() + " with the request body unread");
    }
}
