package dev.audioengine.model.output;

/**
 * A minimal JSON writer for machine-readable output (the CLI's, the segment files'): objects, arrays, strings
 * (escaped per RFC 8259), numbers, booleans and null. Commas are placed automatically;
 * the caller is responsible for balanced begin/end calls.
 */
public final class JsonWriter {
    private final StringBuilder out = new StringBuilder();
    private boolean needComma;

    public JsonWriter beginObject() {
        separate();
        out.append('{');
        needComma = false;
        return this;
    }

    public JsonWriter endObject() {
        out.append('}');
        needComma = true;
        return this;
    }

    public JsonWriter beginArray() {
        separate();
        out.append('[');
        needComma = false;
        return this;
    }

    public JsonWriter endArray() {
        out.append(']');
        needComma = true;
        return this;
    }

    /** Writes a member name; the next value call writes its value. */
    public JsonWriter name(String name) {
        separate();
        quote(name);
        out.append(':');
        needComma = false;
        return this;
    }

    public JsonWriter value(String s) {
        separate();
        if (s == null) out.append("null");
        else quote(s);
        needComma = true;
        return this;
    }

    public JsonWriter value(long n) {
        separate();
        out.append(n);
        needComma = true;
        return this;
    }

    /** A finite number in its shortest round-trip form (NaN and infinities are not JSON). */
    public JsonWriter number(double d) {
        if (!Double.isFinite(d)) throw new IllegalArgumentException("JSON has no " + d);
        separate();
        out.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d));
        needComma = true;
        return this;
    }

    public JsonWriter value(boolean b) {
        separate();
        out.append(b);
        needComma = true;
        return this;
    }

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
