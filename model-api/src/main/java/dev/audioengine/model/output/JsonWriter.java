package dev.audioengine.model.output;

/**
 * A minimal JSON writer for machine-readable output (the CLI's, the segment files'): objects, arrays, strings
 * (escaped per RFC 8259), numbers, booleans and null. Commas are placed automatically;
 * the caller is responsible for balanced begin/end calls.
 */
public final class JsonWriter {
    private final StringBuilder out = new StringBuilder();
    private boolean needComma;

    /** An empty writer; {@link #toString()} gives what was written so far. */
    public JsonWriter() {}

    /**
     * Opens an object: <code>&#123;</code>.
     *
     * @return this writer
     */
    public JsonWriter beginObject() {
        separate();
        out.append('{');
        needComma = false;
        return this;
    }

    /**
     * Closes the innermost object: <code>&#125;</code>. Not checked against the open calls.
     *
     * @return this writer
     */
    public JsonWriter endObject() {
        out.append('}');
        needComma = true;
        return this;
    }

    /**
     * Opens an array: {@code [}.
     *
     * @return this writer
     */
    public JsonWriter beginArray() {
        separate();
        out.append('[');
        needComma = false;
        return this;
    }

    /**
     * Closes the innermost array: {@code ]}. Not checked against the open calls.
     *
     * @return this writer
     */
    public JsonWriter endArray() {
        out.append(']');
        needComma = true;
        return this;
    }

    /**
     * Writes a member name; the next value call writes its value.
     *
     * @param name the member name, escaped as needed; duplicates are not detected
     * @return this writer
     */
    public JsonWriter name(String name) {
        separate();
        quote(name);
        out.append(':');
        needComma = false;
        return this;
    }

    /**
     * Writes a string value, escaped per RFC 8259 (and U+2028/U+2029, so the output is valid JavaScript too).
     *
     * @param s the string, or null for JSON {@code null}
     * @return this writer
     */
    public JsonWriter value(String s) {
        separate();
        if (s == null) out.append("null");
        else quote(s);
        needComma = true;
        return this;
    }

    /**
     * Writes an integer value, exactly (readers that hold numbers as doubles lose precision above 2^53).
     *
     * @param n any long, written in decimal
     * @return this writer
     */
    public JsonWriter value(long n) {
        separate();
        out.append(n);
        needComma = true;
        return this;
    }

    /**
     * A finite number in its shortest round-trip form (NaN and infinities are not JSON).
     *
     * @param d a finite number; whole numbers below 1e15 are written without a fraction ({@code 3}, not {@code 3.0})
     * @return this writer
     * @throws IllegalArgumentException if {@code d} is NaN or infinite (write {@code value((String) null)} for a
     *     missing number)
     */
    public JsonWriter number(double d) {
        if (!Double.isFinite(d)) throw new IllegalArgumentException("JSON has no " + d);
        separate();
        out.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d));
        needComma = true;
        return this;
    }

    /**
     * Writes a number, or {@code null} where it is not finite (JSON has no infinities: an empty result's mean
     * log-probability, say).
     *
     * @param d any double
     * @return this writer
     */
    public JsonWriter numberOrNull(double d) {
        return Double.isFinite(d) ? number(d) : value((String) null);
    }

    /**
     * Writes {@code true} or {@code false}.
     *
     * @param b written as the literal {@code true} or {@code false}
     * @return this writer
     */
    public JsonWriter value(boolean b) {
        separate();
        out.append(b);
        needComma = true;
        return this;
    }

    /**
     * The JSON written so far, compact (no whitespace).
     *
     * @return the text; valid JSON once every begin has its end
     */
    @Override
    public String toString() {
        return out.toString();
    }

    private void separate() {
        if (needComma) out.append(',');
        needComma = false;
    }

    private void quote(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    // Control characters must be escaped; U+2028/2029 too, so the output is also valid JavaScript.
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }
}
