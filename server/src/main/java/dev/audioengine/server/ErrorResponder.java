package dev.audioengine.server;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Writes an {@link ApiError} as the response: its status, OpenAI's body, Retry-After for 503, WWW-Authenticate for
 * 401. An answer given before the request body was read ends the connection, since Helidon 4.5 would go on to parse
 * the unread body as the next request. Closing a socket with unread bytes makes the kernel reset it, and a client
 * still sending then loses the answer, so a body of at most {@link #DRAIN_BYTES} is read and thrown away first (under
 * the stall watchdog); one that was never sent (Expect: 100-continue without the 100) needs no draining, and a larger
 * one is not worth reading.
 */
final class ErrorResponder {
    static final long DRAIN_BYTES = 4L << 20;

    private final UploadWatchdog watchdog;

    ErrorResponder(UploadWatchdog watchdog) { this.watchdog = watchdog; }

    /** Answers with {@code e}; {@code close} ends the connection even when the body was read (a draining server). */
    void send(ServerRequest req, ServerResponse res, ApiError e, boolean close) {
        req.context().get(RequestNote.class).ifPresent(n -> n.note(e.getMessage()));
        if (res.isSent()) return; // a stream already under way: the connection is all that could be ended
        boolean unread = !req.content().consumed();
        res.status(Status.create(e.status()));
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        if (e.retryAfterSeconds() > 0) res.header(HeaderNames.RETRY_AFTER, Integer.toString(e.retryAfterSeconds()));
        if (e.status() == 401) res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer");
        if (!unread && !close) {
            res.send(e.json());
            return;
        }
        res.header(HeaderValues.CONNECTION_CLOSE);
        res.send(e.json());
        if (unread && drainable(req)) drain(req);
        throw new CloseConnectionException("answered " + e.status() + (unread ? " with the request body unread" : ""));
    }

    private static boolean drainable(ServerRequest req) {
        boolean neverSent = req.headers().containsToken(HeaderValues.EXPECT_100) && !req.continueSent();
        long length = req.headers().contentLength().orElse(-1);
        return !neverSent && length >= 0 && length <= DRAIN_BYTES;
    }

    private void drain(ServerRequest req) {
        try (UploadWatchdog.Watch ignored = watchdog.watch()) {
            req.content().consume();
        } catch (RuntimeException gone) {
            // the client left or stalled: the connection ends either way
        }
    }
}
