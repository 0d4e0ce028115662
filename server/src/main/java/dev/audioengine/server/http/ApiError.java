package dev.audioengine.server.http;

import dev.audioengine.model.output.JsonWriter;

/**
 * A request the server refuses, with the HTTP status and OpenAI's error body:
 * {@code {"error": {"message", "type", "param", "code"}}}. Thrown anywhere in a handler; {@link Endpoint} writes it.
 *
 * @param retryAfterSeconds for 503: the Retry-After header's value; 0 for none
 */
public final class ApiError extends RuntimeException {
    private final int status;
    private final String type, param, code;
    private final int retryAfterSeconds;
    private String allow;

    private ApiError(int status, String type, String param, String code, String message, int retryAfterSeconds) {
        super(message);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** 400: a parameter, or the audio, is wrong; {@code param} names the form field (null when none is to blame). */
    public static ApiError invalid(String param, String message) {
        return new ApiError(400, "invalid_request_error", param, null, message, 0);
    }

    /** 400 with a machine-readable code ("unsupported_language", "invalid_audio", ...). */
    public static ApiError invalid(String param, String code, String message) {
        return new ApiError(400, "invalid_request_error", param, code, message, 0);
    }

    static ApiError unauthorized(String message) {
        return new ApiError(401, "invalid_request_error", null, "invalid_api_key", message, 0);
    }

    public static ApiError modelNotFound(String message) {
        return new ApiError(404, "invalid_request_error", "model", "model_not_found", message, 0);
    }

    public static ApiError notFound(String message) {
        return new ApiError(404, "invalid_request_error", null, "not_found", message, 0);
    }

    /** 405: the path is served, for other methods; {@code allow} is the Allow header's value. */
    public static ApiError methodNotAllowed(String allow, String message) {
        ApiError e = new ApiError(405, "invalid_request_error", null, "method_not_allowed", message, 0);
        e.allow = allow;
        return e;
    }

    static ApiError tooLarge(String message) {
        return tooLarge("file", message);
    }

    /** 413 blaming {@code param} (null: the body as a whole). */
    static ApiError tooLarge(String param, String message) {
        return new ApiError(413, "invalid_request_error", param, "payload_too_large", message, 0);
    }

    /** 503 with Retry-After: the model's queue is full, or the server is shutting down. */
    public static ApiError unavailable(String code, String message, int retryAfterSeconds) {
        return new ApiError(503, "server_error", null, code, message, retryAfterSeconds);
    }

    public static ApiError internal(String message) {
        return new ApiError(500, "server_error", null, null, message, 0);
    }

    /** The error type OpenAI uses for a status (for errors Helidon raises before routing). */
    static ApiError ofStatus(int status, String message) {
        return switch (status) {
            case 401 -> unauthorized(message);
            case 404 -> notFound(message);
            case 413 -> tooLarge(message);
            default ->
                status >= 500
                        ? new ApiError(status, "server_error", null, null, message, 0)
                        : new ApiError(status, "invalid_request_error", null, null, message, 0);
        };
    }

    public int status() {
        return status;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** For 405: the methods the path takes; null otherwise. */
    String allow() {
        return allow;
    }

    public String code() {
        return code;
    }

    /** The body, as OpenAI shapes it. */
    String json() {
        JsonWriter w = new JsonWriter().beginObject().name("error").beginObject();
        return body(w).endObject().endObject().toString();
    }

    /** The members of the error object, for a stream's error event too. */
    public JsonWriter body(JsonWriter w) {
        return w.name("message")
                .value(getMessage())
                .name("type")
                .value(type)
                .name("param")
                .value(param)
                .name("code")
                .value(code);
    }
}
