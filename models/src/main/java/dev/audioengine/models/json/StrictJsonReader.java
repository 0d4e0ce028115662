package dev.audioengine.models.json;

import dev.audioengine.model.ModelFormatException;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 reader for tokenizer files. Objects become insertion-ordered Maps (a duplicate key is an
 * error, as a second "vocab" entry would silently win otherwise), arrays Lists, integers that fit a long Longs,
 * other numbers Doubles, and JSON null Java null. Rejects invalid UTF-8, unpaired surrogate escapes (a token
 * must be real text), control characters in strings, leading zeros, trailing commas, trailing garbage and
 * nesting deeper than {@value #MAX_DEPTH}. Errors name the file, line and column.
 *
 * <p>The weights module has a parser of its own for safetensors headers, but it is internal to that module and
 * its errors speak of headers, so the model families share this small one (not exported from the module).
 */
public final class StrictJsonReader {
    static final int MAX_DEPTH = 64;

    private final Path file;
    private final String text;
    private int pos;

    private StrictJsonReader(Path file, String text) {
        this.file = file;
        this.text = text;
    }

    /** Parses the whole of {@code bytes}, read from {@code file} (named in errors), as one JSON value. */
    public static Object read(Path file, byte[] bytes) throws ModelFormatException {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (MalformedInputException e) {
            throw new ModelFormatException(file + ": not valid UTF-8 (a JSON file must be UTF-8)", e);
        } catch (CharacterCodingException e) {
            throw new ModelFormatException(file + ": not valid UTF-8: " + e.getMessage(), e);
        }
        StrictJsonReader r = new StrictJsonReader(file, text);
        r.skipWhitespace();
        Object value = r.value(0);
        r.skipWhitespace();
        if (r.pos != text.length()) throw r.error(r.pos, "unexpected " + r.describe(r.pos) + " after the JSON value");
        return value;
    }

    private ModelFormatException error(int at, String problem) {
        int line = 1, lineStart = 0;
        for (int i = 0; i < at && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new ModelFormatException(file + ": invalid JSON at line " + line + ", column " + (at - lineStart + 1) + ": " + problem);
    }

    private String describe(int at) {
        if (at >= text.length()) return "end of file";
        char c = text.charAt(at);
        return c > 0x20 && c < 0x7f ? "'" + c + "'" : String.format("character U+%04X", (int) c);
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
            pos++;
        }
    }

    private Object value(int depth) throws ModelFormatException {
        if (pos >= text.length()) throw error(pos, "unexpected end of file, expected a value");
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object(depth + 1);
            case '[' -> array(depth + 1);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || isDigit(c)) yield number();
                throw error(pos, "unexpected " + describe(pos) + ", expected a value");
            }
        };
    }

    private void expect(char c, String context) throws ModelFormatException {
        if (pos >= text.length() || text.charAt(pos) != c) throw error(pos, "expected '" + c + "' " + context + ", found " + describe(pos));
        pos++;
    }

    private boolean consume(char c) {
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private Map<String, Object> object(int depth) throws ModelFormatException {
        if (depth > MAX_DEPTH) throw error(pos, "nested deeper than " + MAX_DEPTH + " levels");
        pos++; // '{'
        Map<String, Object> members = new LinkedHashMap<>();
        skipWhitespace();
        if (consume('}')) return Collections.unmodifiableMap(members);
        while (true) {
            skipWhitespace();
            int keyAt = pos;
            if (pos >= text.length() || text.charAt(pos) != '"') throw error(pos, "expected a string key, found " + describe(pos));
            String key = string();
            if (members.containsKey(key)) throw error(keyAt, "duplicate key \"" + key + "\"");
            skipWhitespace();
            expect(':', "after the key \"" + key + "\"");
            skipWhitespace();
            members.put(key, value(depth));
            skipWhitespace();
            if (consume(',')) continue;
            expect('}', "or ',' in an object");
            return Collections.unmodifiableMap(members);
        }
    }

    private List<Object> array(int depth) throws ModelFormatException {
        if (depth > MAX_DEPTH) throw error(pos, "nested deeper than " + MAX_DEPTH + " levels");
        pos++; // '['
        List<Object> elements = new ArrayList<>();
        skipWhitespace();
        if (consume(']')) return Collections.unmodifiableList(elements);
        while (true) {
            skipWhitespace();
            elements.add(value(depth));
            skipWhitespace();
            if (consume(',')) continue;
            expect(']', "or ',' in an array");
            return Collections.unmodifiableList(elements);
        }
    }

    private Object literal(String word, Object value) throws ModelFormatException {
        if (!text.startsWith(word, pos)) throw error(pos, "unexpected " + describe(pos) + ", expected a value");
        pos += word.length();
        return value;
    }

    private String string() throws ModelFormatException {
        int start = pos;
        pos++; // opening quote
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) throw error(start, "unterminated string");
            char c = text.charAt(pos);
            if (c == '"') {
                pos++;
                return checkSurrogates(sb, start);
            }
            if (c < 0x20) throw error(pos, String.format("control character U+%04X in a string (it must be escaped)", (int) c));
            pos++;
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            int escapeAt = pos - 1;
            if (pos >= text.length()) throw error(start, "unterminated string");
            char e = text.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) throw error(escapeAt, "truncated \\u escape");
                    int unit = 0;
                    for (int i = 0; i < 4; i++) {
                        char h = text.charAt(pos + i);
                        int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                        if (d < 0) throw error(escapeAt, "a \\u escape needs four hex digits");
                        unit = unit * 16 + d;
                    }
                    sb.append((char) unit);
                    pos += 4;
                }
                default -> throw error(escapeAt, "invalid escape \\" + e);
            }
        }
    }

    /** Escapes can spell half of a surrogate pair; such a string is not text, so it is refused. */
    private String checkSurrogates(StringBuilder sb, int start) throws ModelFormatException {
        for (int i = 0; i < sb.length(); i++) {
            char c = sb.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < sb.length() && Character.isLowSurrogate(sb.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw error(start, String.format("the string holds an unpaired surrogate U+%04X", (int) c));
            }
        }
        return sb.toString();
    }

    private Object number() throws ModelFormatException {
        int start = pos;
        boolean integral = true;
        consume('-');
        if (pos >= text.length() || !isDigit(text.charAt(pos))) throw error(start, "invalid number");
        if (consume('0')) {
            if (pos < text.length() && isDigit(text.charAt(pos))) throw error(start, "numbers must not have leading zeros");
        } else {
            skipDigits();
        }
        if (consume('.')) {
            integral = false;
            if (pos >= text.length() || !isDigit(text.charAt(pos))) throw error(start, "invalid number: digits must follow '.'");
            skipDigits();
        }
        if (consume('e') || consume('E')) {
            integral = false;
            if (!consume('+')) consume('-');
            if (pos >= text.length() || !isDigit(text.charAt(pos))) throw error(start, "invalid number: digits must follow the exponent");
            skipDigits();
        }
        String literal = text.substring(start, pos);
        if (integral) {
            try {
                return Long.parseLong(literal);
            } catch (NumberFormatException beyond64Bits) {
                // kept as a Double below, which every integer field of a tokenizer file rejects
            }
        }
        return Double.parseDouble(literal);
    }

    private void skipDigits() {
        while (pos < text.length() && isDigit(text.charAt(pos))) pos++;
    }

    private static boolean isDigit(char c) { return c >= '0' && c <= '9'; }
}
