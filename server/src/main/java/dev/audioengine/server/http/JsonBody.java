package dev.audioengine.server.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.helidon.http.HeaderNames;
import io.helidon.http.RequestException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A JSON request body (OpenAI's speech request), read whole up to a byte limit and parsed by Jackson's streaming
 * parser into plain values: a {@code Map} per object (members in order), a {@code List} per array, String, Double,
 * Boolean, and {@link #NULL} for null. Strict as OpenAI is: one object at the top, no repeated member, nothing after
 * it; a body that is not JSON is a 400 that says where it broke.
 */
public final class JsonBody {
    /** JSON's null, so a member given as null is told apart from one not given. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /**
     * How deep objects and arrays may nest: a speech request nests 2 deep (its voice object), so anything near this is
     * not a request; well below Jackson's own 1000, and so also a bound on {@link #value}'s recursion.
     */
    public static final int MAX_DEPTH = 64;

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(
                    StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .build();

    private JsonBody() {}

    /**
     * The members of the body's top-level object. A declared length over {@code maxBytes} is refused before the body
     * is read; a chunked body as soon as it passes the limit (413). The read is watched for stalls like an upload.
     */
    public static Map<String, Object> read(
            ServerRequest req, ServerResponse res, long maxBytes, UploadWatchdog watchdog) throws IOException {
        String type = req.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        if (!type.isEmpty() && !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw ApiError.invalid(
                    null,
                    "expected a JSON body (Content-Type: application/json), got Content-Type " + type
                            + " (with curl: -H 'Content-Type: application/json' -d '{...}')");
        }
        long declared = req.headers().contentLength().orElse(-1);
        if (declared > maxBytes) throw tooLarge(declared, maxBytes);
        byte[] body;
        InputStream raw = req.content().inputStream();
        try (UploadWatchdog.Watch watch = watchdog.watch(ErrorResponder.stalled(res, watchdog))) {
            try {
                body = watch.watched(raw).readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            } catch (RequestException e) {
                if (e.status().code() == 413) throw tooLarge(-1, maxBytes);
                throw ApiError.invalid(null, "the request body could not be read: " + e.getMessage());
            } catch (RuntimeException | IOException e) {
                if (watch.fired()) throw stalled(watchdog, e);
                throw e;
            }
            if (watch.fired()) throw stalled(watchdog, null); // answered 408 just as the last byte came
        }
        if (body.length > maxBytes) {
            ErrorResponder.abandoned(req, raw); // a chunked body: the rest is read after the 413, so the client gets it
            throw tooLarge(-1, maxBytes);
        }
        return parse(body);
    }

    /** The members of {@code body}'s top-level object; anything else is a 400 (also a realtime session's error event). */
    public static Map<String, Object> parse(byte[] body) {
        if (body.length == 0) throw ApiError.invalid(null, "the request body is empty; send a JSON object");
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT)
                throw ApiError.invalid(null, "the request body must be a JSON object");
            Map<String, Object> members = object(p);
            JsonToken after = p.nextToken();
            if (after != null)
                throw ApiError.invalid(
                        null,
                        "unexpected " + after.asString() + " after the JSON object, at byte "
                                + p.currentLocation().getByteOffset());
            return members;
        } catch (StreamConstraintsException e) {
            // Jackson gives this one no location
            throw ApiError.invalid(
                    null,
                    "the request body nests JSON objects and arrays more than " + MAX_DEPTH
                            + " deep; a speech request nests 2 deep at most");
        } catch (JsonProcessingException e) {
            throw ApiError.invalid(
                    null,
                    "the request body is not valid JSON: " + e.getOriginalMessage()
                            + (e.getLocation() == null
                                    ? ""
                                    : " (at byte " + e.getLocation().getByteOffset() + ")"));
        } catch (IOException e) {
            throw ApiError.invalid(null, "the request body could not be parsed: " + e.getMessage());
        }
    }

    private static Map<String, Object> object(JsonParser p) throws IOException {
        Map<String, Object> members = new LinkedHashMap<>();
        for (JsonToken t; (t = p.nextToken()) != JsonToken.END_OBJECT; ) {
            String name = p.currentName();
            p.nextToken();
            members.put(name, value(p));
        }
        return Collections.unmodifiableMap(members);
    }

    private static Object value(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case START_OBJECT -> object(p);
            case START_ARRAY -> {
                List<Object> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) items.add(value(p));
                yield Collections.unmodifiableList(items);
            }
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> NULL;
            default -> throw ApiError.invalid(null, "unexpected " + p.currentToken() + " in the JSON body");
        };
    }

    private static MultipartForm.Stalled stalled(UploadWatchdog watchdog, Exception cause) {
        return new MultipartForm.Stalled(
                "the upload stalled: no data for " + watchdog.stall().toMillis() + " ms", cause);
    }

    private static ApiError tooLarge(long bytes, long max) {
        return ApiError.tooLarge(
                null,
                "the request body is " + (bytes >= 0 ? bytes + " bytes" : "larger") + "; a JSON request to this "
                        + "server is at most " + max
                        + " bytes (--max-input-chars bounds the text, --max-upload-mb every body)");
    }
}
