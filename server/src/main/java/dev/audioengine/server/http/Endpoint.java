package dev.audioengine.server.http;

import dev.audioengine.server.serving.ModelPool;
import io.helidon.http.RequestException;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.function.Consumer;

/**
 * A route's handler with the server's error rule: an {@link ApiError} becomes its status and OpenAI's error body; a
 * size limit Helidon meets while the body is read becomes 413; anything else is a server bug, 500 with its message,
 * its stack trace in the log; {@link ErrorResponder} writes them.
 */
public final class Endpoint implements Handler {
    /** A route's own work; it throws {@link ApiError} for requests it refuses. */
    public interface Body {
        void handle(ServerRequest req, ServerResponse res) throws Exception;
    }

    private final Body body;
    private final Consumer<String> log;
    private final ErrorResponder errors;

    public Endpoint(Body body, Consumer<String> log, ErrorResponder errors) {
        this.body = body;
        this.log = log;
        this.errors = errors;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        try {
            body.handle(req, res);
        } catch (ApiError e) {
            errors.send(req, res, e, false);
        } catch (CloseConnectionException e) {
            // the connection has failed or must end: nothing can be answered on it
            req.context().get(RequestNote.class).ifPresent(n -> {
                n.unanswered(
                        switch (e) {
                            case MultipartForm.Stalled x -> 408;
                            case BrokenStream x -> 500;
                            case StreamCut x ->
                                200; // answered with 200 and cut short by the client, as the log counts an event
                            // stream's
                            default -> 499;
                        });
                n.note(e.getMessage());
            });
            throw e;
        } catch (RequestException e) {
            errors.send(req, res, ApiError.ofStatus(e.status().code(), e.getMessage()), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            errors.send(
                    req,
                    res,
                    ApiError.unavailable("shutting_down", "the server is shutting down", ModelPool.RETRY_AFTER_SECONDS),
                    false);
        } catch (Exception e) {
            log.accept("error: internal error answering "
                    + LogText.escape(req.prologue().method().text()) + " "
                    + LogText.escape(req.path().path()) + ": " + LogText.escape(e.toString()));
            log.accept(trace(e));
            errors.send(req, res, ApiError.internal("internal error: " + e), false);
        }
    }

    /**
     * The stack trace, a line per frame and the causes after it as printStackTrace gives them (suppressed exceptions
     * left out), but with each exception's own text escaped: a message may quote what the client sent, and must not
     * start a line of its own.
     */
    static String trace(Throwable e) {
        StringBuilder b = new StringBuilder();
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
            if (t != e) b.append("\nCaused by: ");
            b.append(LogText.escape(t.toString()));
            for (StackTraceElement f : t.getStackTrace()) b.append("\n\tat ").append(f);
        }
        return b.toString();
    }

    /** The server failed after a streamed answer began: the connection is ended so the client sees a cut body (500 in the log). */
    public static final class BrokenStream extends CloseConnectionException {
        public BrokenStream(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The client left while a streamed answer (begun with 200) was being sent: the connection is ended. */
    public static final class StreamCut extends CloseConnectionException {
        public StreamCut(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
