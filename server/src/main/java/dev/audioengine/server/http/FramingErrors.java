package dev.audioengine.server.http;

import dev.audioengine.server.serving.Metrics;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Errors Helidon meets before a request reaches routing (a malformed request line or header, bad chunking): written
 * in OpenAI's error shape like every other error, logged and counted, so no answer of this server is Helidon's HTML.
 * <p>
 * A connection that ends while its headers are read (the client hung up, or {@link HeaderTimeout} closed it) reaches
 * here as Helidon's internal error, since Helidon 4.5 wraps the failed read as one; it is answered with nothing, and a
 * hang-up is logged in one line as 499 and counted so (the timeout has logged its own as 408): Helidon would otherwise
 * log it as a 500 with its stack trace and write a 500 to a socket nobody reads.
 */
public final class FramingErrors implements DirectHandler {
    private final Metrics metrics;
    private final Consumer<String> log;
    private final long maxUploadBytes;
    private final HeaderTimeout headerTimeout;

    public FramingErrors(Metrics metrics, Consumer<String> log, long maxUploadBytes, HeaderTimeout headerTimeout) {
        this.metrics = metrics;
        this.log = log;
        this.maxUploadBytes = maxUploadBytes;
        this.headerTimeout = headerTimeout;
    }

    @Override
    public TransportResponse handle(
            TransportRequest request,
            EventType eventType,
            Status status,
            ServerResponseHeaders headers,
            String message) {
        // whatever ended the reading of a request's headers, they are no longer awaited (nor to be timed out)
        var cut = headerTimeout.failed();
        // and reading them can fail with anything but a bad request (its own event) only through the connection's end
        if (eventType == EventType.INTERNAL_ERROR && cut.isPresent()) {
            HeaderTimeout.Pending p = cut.get();
            if (p.timedOut())
                throw new CloseConnectionException("the header timeout closed the connection"); // logged as 408 already
            String why = "the client closed the connection before its headers were complete";
            metrics.started();
            metrics.finished(RequestLog.endpoint(p.path), 499, p.seconds());
            log.accept(String.format(
                    java.util.Locale.ROOT,
                    "%s %s 499 %.0f ms client=%s (%s)",
                    LogText.escape(p.method),
                    LogText.escape(p.path),
                    p.seconds() * 1e3,
                    LogText.escape(p.client),
                    why));
            throw new CloseConnectionException(why);
        }
        String text = status.code() == 413
                ? "the request body is larger than this server takes: at most " + maxUploadBytes + " bytes ("
                        + (maxUploadBytes >> 20) + " MiB, --max-upload-mb)"
                : message == null || message.isBlank() ? status.reasonPhrase() : message;
        ApiError e = ApiError.ofStatus(status.code(), text);
        String path = safe(request.path());
        metrics.started();
        metrics.finished(RequestLog.endpoint(path), status.code(), 0);
        log.accept(safe(request.method()) + " " + path + " " + status.code() + " (refused before routing: "
                + LogText.escape(text) + ")");
        headers.set(HeaderValues.CONTENT_TYPE_JSON);
        return TransportResponse.builder()
                .status(status)
                .headers(headers)
                .entity(e.json().getBytes(StandardCharsets.UTF_8))
                .build();
    }

    /** A request's own text for the log: escaped, at most 200 characters of it (a request line may be kilobytes). */
    private static String safe(String s) {
        if (s == null || s.isEmpty()) return "-";
        return LogText.escape(s.length() > 200 ? s.substring(0, 200) + "..." : s);
    }
}
