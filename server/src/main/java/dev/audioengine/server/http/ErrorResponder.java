package dev.audioengine.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * Writes an {@link ApiError} as the response: its status, OpenAI's body, Retry-After for 503, WWW-Authenticate for
 * 401, Allow for 405. An answer given before the request body was read ends the connection, since Helidon 4.5 would go on to parse
 * the unread body as the next request. Closing a socket with unread bytes makes the kernel reset it, and a client
 * still sending then loses the answer, so a body of at most {@link #DRAIN_BYTES} is read and thrown away first (under
 * the stall watchdog); one that was never sent (Expect: 100-continue without the 100) needs no draining, and a larger
 * one is not worth reading.
 */
public final class ErrorResponder {
    static final long DRAIN_BYTES = 4L << 20;

    private final UploadWatchdog watchdog;

    public ErrorResponder(UploadWatchdog watchdog) {
        this.watchdog = watchdog;
    }

    /**
     * The answer to an upload that stalled, for {@link UploadWatchdog#watch(Runnable)}: a 408 in OpenAI's shape with
     * Connection: close, written by the watchdog's thread while the request's own thread is blocked reading the body (it
     * writes nothing until the read returns), just before the watchdog closes the socket.
     */
    static Runnable stalled(ServerResponse res, UploadWatchdog watchdog) {
        return () -> {
            if (res.isSent()) return;
            ApiError e = ApiError.ofStatus(
                    408, "the upload stalled: no data for " + watchdog.stall().toMillis() + " ms (--upload-stall-s)");
            res.status(Status.create(408));
            res.header(HeaderValues.CONTENT_TYPE_JSON);
            res.header(HeaderValues.CONNECTION_CLOSE);
            res.send(e.json());
        };
    }

    /**
     * A body a reader gave up on partway (over its limit, or not what its headers said): {@link #send} ends the
     * connection after its answer, and first reads and throws away the rest of it from {@code body}, the stream the
     * reader had (Helidon lets a request's body be asked for once): a lingering close. A chunked body has no length to
     * decide by, and closing on it unread would reset the connection under a client still sending it, which loses the
     * answer. What is read is bounded as any upload is: Helidon's --max-upload-mb, and the stall watchdog.
     */
    static void abandoned(ServerRequest req, InputStream body) {
        req.context().register(new Abandoned(body));
    }

    private record Abandoned(InputStream body) {}

    /** Answers with {@code e}; {@code close} ends the connection even when the body was read (a draining server). */
    void send(ServerRequest req, ServerResponse res, ApiError e, boolean close) {
        req.context().get(RequestNote.class).ifPresent(n -> n.note(e.getMessage()));
        if (res.isSent()) return; // a stream already under way: the connection is all that could be ended
        Optional<Abandoned> abandoned = req.context().get(Abandoned.class);
        boolean unread = abandoned.isPresent() || !req.content().consumed();
        res.status(Status.create(e.status()));
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        if (e.retryAfterSeconds() > 0) res.header(HeaderNames.RETRY_AFTER, Integer.toString(e.retryAfterSeconds()));
        if (e.status() == 401) res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer");
        if (e.allow() != null) res.header(HeaderNames.ALLOW, e.allow());
        if (!unread && !close) {
            res.send(e.json());
            return;
        }
        res.header(HeaderValues.CONNECTION_CLOSE);
        res.send(e.json());
        if (abandoned.isPresent()) linger(abandoned.get().body());
        else if (unread && drainable(req)) drain(req);
        throw new CloseConnectionException("answered " + e.status() + (unread ? " with the request body unread" : ""));
    }

    private static boolean drainable(ServerRequest req) {
        boolean neverSent = req.headers().containsToken(HeaderValues.EXPECT_100) && !req.continueSent();
        long length = req.headers().contentLength().orElse(-1);
        return !neverSent && length >= 0 && length <= DRAIN_BYTES;
    }

    /** Reads and throws away the rest of an abandoned body, under the stall watchdog. */
    private void linger(InputStream body) {
        try (UploadWatchdog.Watch watch = watchdog.watch();
                InputStream in = watch.watched(body)) {
            byte[] buffer = new byte[64 << 10];
            while (in.read(buffer) >= 0) {
                // thrown away
            }
        } catch (RuntimeException | IOException gone) {
            // the client left or stalled, or the body passed Helidon's own limit: the connection ends either way
        }
    }

    private void drain(ServerRequest req) {
        try (UploadWatchdog.Watch ignored = watchdog.watch()) {
            req.content().consume();
        } catch (RuntimeException gone) {
            // the client left or stalled: the connection ends either way
        }
    }
}
