package dev.audioengine.weights;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A strict RFC 8259 JSON parser for safetensors headers. Objects become {@link JsonObject}s
 * (duplicate keys rejected), arrays unmodifiable Lists, integers that fit Longs, other numbers
 * Doubles. Rejects invalid UTF-8, control characters in strings, bad escapes, leading zeros,
 * trailing commas, trailing garbage (whitespace is allowed, as safetensors pads headers with
 * spaces), nesting deeper than {@value #MAX_DEPTH} levels (so hostile input cannot overflow
 * the stack) and more than {@value #MAX_VALUES} values (so it cannot exhaust the heap).
 * Errors name the file and the absolute byte offset.
 */
final class StrictJsonParser {
    static final int MAX_DEPTH = 64;
    /**
     * Parsed values cost far more heap than their bytes (an empty object is 2 bytes of text and
     * hundreds of heap bytes); real headers have about ten values per tensor.
     */
    static final int MAX_VALUES = 1 << 20;

    private final Path file;
    private final long base;
    private final byte[] text;
    private int pos;
    private int valueCount;

    private StrictJsonParser(Path file, long base, byte[] text) {
        this.file = file;
        this.base = base;
        this.text = text;
    }

    /** Parses {@code text}, which sits at byte {@code base} of {@code file}, as one JSON value. */
    static Object parse(Path file, long base, byte[] text) throws WeightFormatException {
        StrictJsonParser p = new StrictJsonParser(file, base, text);
        p.checkUtf8();
        p.skipWhitespace();
        Object value = p.value(0);
        p.skipWhitespace();
        if (p.pos != text.length) throw p.error(p.pos, "unexpected " + p.describe(p.pos) + " after the JSON value");
        return value;
    }

    private WeightFormatException error(int at, String problem) {
        return new WeightFormatException(file, base + at, "JSON header: " + problem);
    }

    private String describe(int at) {
        if (at >= text.length) return "end of header";
        int b = text[at] & 0xff;
        return b >= 0x21 && b < 0x7f ? "'" + (char) b + "'" : String.format("byte 0x%02x", b);
    }

    private void checkUtf8() throws WeightFormatException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(text);
        CharBuffer out = CharBuffer.allocate(4096);
        while (true) {
            CoderResult r = decoder.decode(in, out, true);
            if (r.isError()) throw error(in.position(), "invalid UTF-8");
            if (r.isUnderflow()) break;
            out.clear();
        }
    }

    private void skipWhitespace() {
        while (pos < text.length && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r')) pos++;
    }

    private Object value(int depth) throws WeightFormatException {
        if (pos >= text.length) throw error(pos, "unexpected end of header, expected a value");
        if (++valueCount > MAX_VALUES) throw error(pos, "more than " + MAX_VALUES + " values");
        return switch (text[pos]) {
            case '{' -> object(depth + 1);
            case '[' -> array(depth + 1);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (text[pos] == '-' || (text[pos] >= '0' && text[pos] <= '9')) yield number();
                throw error(pos, "unexpected " + describe(pos) + ", expected a value");
            }
        };
    }

    private void expect(char c, String context) throws WeightFormatException {
        if (pos >= text.length || text[pos] != c) {
            throw error(pos, "expected '" + c + "' " + context + ", found " + describe(pos));
        }
        pos++;
    }

    private JsonObject object(int depth) throws WeightFormatException {
        if (depth > MAX_DEPTH) throw error(pos, "nested deeper than " + MAX_DEPTH + " levels");
        pos++; // '{'
        JsonObject obj = new JsonObject();
        skipWhitespace();
        if (pos < text.length && text[pos] == '}') {
            pos++;
            return obj;
        }
        while (true) {
            skipWhitespace();
            int keyAt = pos;
            if (pos >= text.length || text[pos] != '"') throw error(pos, "expected a string key, found " + describe(pos));
            String key = string();
            skipWhitespace();
            expect(':', "after object key \"" + key + "\"");
            skipWhitespace();
            int valueAt = pos;
            Object v = value(depth);
            if (!obj.put(key, v, valueAt)) throw error(keyAt, "duplicate key \"" + key + "\"");
            skipWhitespace();
            if (pos < text.length && text[pos] == ',') {
                pos++;
                continue;
            }
            expect('}', "or ',' in object");
            return obj;
        }
    }

    private List<Object> array(int depth) throws WeightFormatException {
        if (depth > MAX_DEPTH) throw error(pos, "nested deeper than " + MAX_DEPTH + " levels");
        pos++; // '['
        List<Object> list = new ArrayList<>();
        skipWhitespace();
        if (pos < text.length && text[pos] == ']') {
            pos++;
            return Collections.unmodifiableList(list);
        }
        while (true) {
            skipWhitespace();
            list.add(value(depth));
            skipWhitespace();
            if (pos < text.length && text[pos] == ',') {
                pos++;
                continue;
            }
            expect(']', "or ',' in array");
            return Collections.unmodifiableList(list);
        }
    }

    private Object literal(String word, Object value) throws WeightFormatException {
        for (int i = 0; i < word.length(); i++) {
            if (pos + i >= text.length || text[pos + i] != word.charAt(i)) throw error(pos, "invalid literal, expected " + word);
        }
        pos += word.length();
        return value;
    }

    private String string() throws WeightFormatException {
        int start = pos;
        pos++; // opening quote
        StringBuilder sb = new StringBuilder();
        int run = pos; // start of bytes copied verbatim (already checked to be valid UTF-8)
        while (true) {
            if (pos >= text.length) throw error(start, "unterminated string");
            int b = text[pos] & 0xff;
            if (b == '"') {
                sb.append(new String(text, run, pos - run, StandardCharsets.UTF_8));
                pos++;
                return sb.toString();
            }
            if (b < 0x20) throw error(pos, String.format("control character 0x%02x in a string (must be escaped)", b));
            if (b != '\\') {
                pos++;
                continue;
            }
            sb.append(new String(text, run, pos - run, StandardCharsets.UTF_8));
            int escAt = pos;
            pos++;
            if (pos >= text.length) throw error(start, "unterminated string");
            switch (text[pos]) {
                case '"' -> sb.append('"');
                case '\\' -> sb.append('\\');
                case '/' -> sb.append('/');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (pos + 4 >= text.length) throw error(escAt, "truncated \\u escape");
                    int cp = 0;
                    for (int i = 1; i <= 4; i++) {
                        int d = Character.digit(text[pos + i], 16);
                        if (d < 0) throw error(escAt, "\\u escape needs four hex digits");
                        cp = cp * 16 + d;
                    }
                    sb.append((char) cp);
                    pos += 4;
                }
                default -> throw error(escAt, "invalid escape \\" + describe(pos));
            }
            pos++;
            run = pos;
        }
    }

    private Object number() throws WeightFormatException {
        int start = pos;
        boolean integral = true;
        if (text[pos] == '-') pos++;
        if (pos >= text.length || !isDigit(text[pos])) throw error(start, "invalid number");
        if (text[pos] == '0') {
            pos++;
            if (pos < text.length && isDigit(text[pos])) throw error(start, "numbers must not have leading zeros");
        } else {
            while (pos < text.length && isDigit(text[pos])) pos++;
        }
        if (pos < text.length && text[pos] == '.') {
            integral = false;
            pos++;
            if (pos >= text.length || !isDigit(text[pos])) throw error(start, "invalid number: digits must follow '.'");
            while (pos < text.length && isDigit(text[pos])) pos++;
        }
        if (pos < text.length && (text[pos] == 'e' || text[pos] == 'E')) {
            integral = false;
            pos++;
            if (pos < text.length && (text[pos] == '+' || text[pos] == '-')) pos++;
            if (pos >= text.length || !isDigit(text[pos])) throw error(start, "invalid number: digits must follow the exponent");
            while (pos < text.length && isDigit(text[pos])) pos++;
        }
        String literal = new String(text, start, pos - start, StandardCharsets.US_ASCII);
        if (integral) {
            try {
                return Long.parseLong(literal);
            } catch (NumberFormatException tooLarge) {
                // falls through: an integer beyond 64 bits is kept as a Double, which integer fields reject
            }
        }
        return Double.parseDouble(literal);
    }

    private static boolean isDigit(byte b) { return b >= '0' && b <= '9'; }
}
