package dev.audioengine.weights.json;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The engine's one strict RFC 8259 reader for files it loads (safetensors headers, tokenizer and config files),
 * built on Jackson's streaming parser, the same one the server reads request bodies with. Objects become
 * {@link JsonObject}s (insertion-ordered Maps; a duplicate key is an error, as a second "vocab" or tensor entry
 * would silently win otherwise), arrays unmodifiable Lists, integers that fit a long Longs, other numbers
 * Doubles (which integer fields then refuse), and JSON null Java null.
 *
 * <p>Refuses invalid UTF-8, control characters in strings, bad escapes, leading zeros, trailing commas,
 * anything but whitespace after the value (safetensors pads headers with spaces), strings holding an unpaired
 * surrogate (a token must be real text), nesting deeper than {@value #MAX_DEPTH} levels (so hostile input
 * cannot overflow the stack) and more values than the caller allows (so it cannot exhaust the heap).
 */
public final class StrictJson {
    public static final int MAX_DEPTH = 64;
    /**
     * The default value-count cap. Parsed values cost far more heap than their bytes (an empty object is 2
     * bytes of text and hundreds of heap bytes); real safetensors headers have about ten values per tensor.
     */
    public static final int MAX_VALUES = 1 << 20;

    /**
     * Jackson bounds nesting too, but reports the violation at the end of its input buffer, so the tree walk
     * refuses level {@value #MAX_DEPTH} + 1 first, where it opens; Jackson's limit is the backstop.
     */
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH + 1)
                    .build())
            .build();

    private final byte[] text;
    private final int maxValues;
    private int valueCount;

    private StrictJson(byte[] text, int maxValues) {
        this.text = text;
        this.maxValues = maxValues;
    }

    /** Parses the whole of {@code text} as one JSON value, allowing at most {@value #MAX_VALUES} values. */
    public static Object parse(byte[] text) throws JsonFormatException {
        return parse(text, MAX_VALUES);
    }

    /** Parses the whole of {@code text} as one JSON value of at most {@code maxValues} values. */
    public static Object parse(byte[] text, int maxValues) throws JsonFormatException {
        StrictJson reader = new StrictJson(text, maxValues);
        reader.checkUtf8();
        JsonParser p;
        try {
            p = JSON.createParser(text);
        } catch (IOException e) {
            throw new IllegalStateException("reading a byte array cannot fail with I/O", e);
        }
        try (p) {
            JsonToken first = p.nextToken();
            if (first == null) throw reader.error(text.length, "unexpected end of input, expected a value");
            Object value = reader.value(p, first, 0);
            reader.end(p);
            return value;
        } catch (JacksonException e) {
            throw reader.error(locate(e, p), readable(e.getOriginalMessage()), e);
        } catch (IOException e) {
            throw new IllegalStateException("reading a byte array cannot fail with I/O", e);
        }
    }

    /** Only whitespace may follow the value; Jackson alone would call trailing garbage an unrecognized token. */
    private void end(JsonParser p) throws IOException, JsonFormatException {
        JsonToken extra;
        try {
            extra = p.nextToken();
        } catch (JacksonException e) {
            throw error(
                    locate(e, p), "unexpected content after the JSON value: " + readable(e.getOriginalMessage()), e);
        }
        if (extra != null) throw error(p.currentTokenLocation(), "unexpected content after the JSON value");
    }

    private Object value(JsonParser p, JsonToken token, int depth) throws IOException, JsonFormatException {
        if (++valueCount > maxValues) throw error(p.currentTokenLocation(), "more than " + maxValues + " values");
        if ((token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) && depth == MAX_DEPTH) {
            throw error(p.currentTokenLocation(), "nested deeper than " + MAX_DEPTH + " levels");
        }
        return switch (token) {
            case START_OBJECT -> {
                JsonObject object = new JsonObject();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                    JsonLocation keyAt = p.currentTokenLocation();
                    String key = checkSurrogates(p.currentName(), keyAt);
                    JsonToken v = p.nextToken();
                    long valueAt = p.currentTokenLocation().getByteOffset();
                    // Jackson (STRICT_DUPLICATE_DETECTION) refuses a repeated key first; this keeps the map honest
                    // regardless
                    if (!object.put(key, value(p, v, depth + 1), valueAt))
                        throw error(keyAt, "duplicate key \"" + key + "\"");
                }
                yield object;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken())
                    list.add(value(p, t, depth + 1));
                yield Collections.unmodifiableList(list);
            }
            case VALUE_STRING -> checkSurrogates(p.getText(), p.currentTokenLocation());
            case VALUE_NUMBER_INT ->
                switch (p.getNumberType()) {
                    case INT, LONG -> p.getLongValue();
                    default -> p.getDoubleValue(); // beyond 64 bits: a Double, which integer fields refuse
                };
            case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw error(p.currentTokenLocation(), "unexpected " + token);
        };
    }

    /** Escapes can spell half of a surrogate pair; such a string is not text, so it is refused. */
    private String checkSurrogates(String s, JsonLocation at) throws JsonFormatException {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw error(at, String.format("the string holds an unpaired surrogate U+%04X", (int) c));
            }
        }
        return s;
    }

    /** Jackson checks UTF-8 only inside strings as it decodes them; this covers every byte, overlong forms too. */
    private void checkUtf8() throws JsonFormatException {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(text);
        CharBuffer out = CharBuffer.allocate(4096);
        while (true) {
            CoderResult r = decoder.decode(in, out, true);
            if (r.isError()) throw error(in.position(), "invalid UTF-8");
            if (r.isUnderflow()) break;
            out.clear();
        }
    }

    /** Where Jackson found the problem, or where its parser stands when the exception has no location. */
    private static long locate(JacksonException e, JsonParser p) {
        JsonLocation at =
                e.getLocation() == null || e.getLocation().getByteOffset() < 0 ? p.currentLocation() : e.getLocation();
        return at.getByteOffset();
    }

    /** Jackson's message on one line, without its advice on which setting would accept the input. */
    private static String readable(String message) {
        if (message == null) return "malformed JSON";
        String m = message.replace(" in null", "");
        for (String advice : new String[] {"\n", " (start marker at", ": enable `", "; Use `"}) {
            int cut = m.indexOf(advice);
            if (cut >= 0) m = m.substring(0, cut);
        }
        return m.strip();
    }

    private JsonFormatException error(JsonLocation at, String problem) {
        return error(at.getByteOffset(), problem, null);
    }

    private JsonFormatException error(long offset, String problem) {
        return error(offset, problem, null);
    }

    /** Line and column are counted here from the byte offset, the same way for Jackson's errors and ours. */
    private JsonFormatException error(long offset, String problem, Throwable cause) {
        int at = (int) Math.max(0, Math.min(offset, text.length));
        int line = 1, lineStart = 0;
        for (int i = 0; i < at; i++) {
            if (text[i] == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        String before = new String(text, lineStart, at - lineStart, StandardCharsets.UTF_8);
        int column = before.codePointCount(0, before.length()) + 1;
        return new JsonFormatException(problem, at, line, column, cause);
    }
}
