package dev.audioengine.server;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Errors Helidon meets before a request reaches routing (a malformed request line or header, bad chunking): written
 * in OpenAI's error shape like every other error, logged and counted, so no answer of this server is Helidon's HTML.
 */
final class FramingErrors implements DirectHandler {
    private final Metrics metrics;
    private final Consumer<String> log;
    private final long maxUploadBytes;

    FramingErrors(Metrics metrics, Consumer<String> log, long maxUploadBytes) {
        this.metrics = metrics;
        this.log = log;
        this.maxUploadBytes = maxUploadBytes;
    }

    @Override
    public TransportResponse handle(TransportRequest request, EventType eventType, Status status, ServerResponseHeaders headers, String message) {
        String text = status.code() == 413
                ? "the request body is larger than this server takes: at most " + maxUploadBytes + " bytes (" + (maxUploadBytes >> 20) + " MiB, --max-upload-mb)"
                : message == null || message.isBlank() ? status.reasonPhrase() : message;
        ApiError e = ApiError.ofStatus(status.code(), text);
        String path = safe(request.path());
        metrics.started();
        metrics.finished(RequestLog.endpoint(path), status.code(), 0);
        log.accept(safe(request.method()) + " " + path + " " + status.code() + " (refused before routing: " + text + ")");
        headers.set(HeaderValues.CONTENT_TYPE_JSON);
        return TransportResponse.builder().status(status).headers(headers).entity(e.json().getBytes(StandardCharsets.UTF_8)).build();
    }

    /** A request's own text for the log: printable ASCII only, at most 200 characters. */
    private static String safe(String s) {
        if (s == null || s.isEmpty()) return "-";
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < 200; i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return b.toString();
    }
}
