package dev.audioengine.model.output;

import java.util.List;
import java.util.Map;

/** JSON (RFC 8259): {"audio": ..., properties..., "segments": [{"start", "end", "start_sample", "end_sample", "label"?, "text"?}]}. */
final class JsonSegments {
    private JsonSegments() {}

    static String render(String recording, Map<String, ?> properties, List<Segment> segments) {
        StringBuilder out = new StringBuilder("{");
        quote(out, "audio").append(':');
        value(out, recording);
        for (Map.Entry<String, ?> e : properties.entrySet()) {
            out.append(',');
            quote(out, e.getKey()).append(':');
            value(out, e.getValue());
        }
        out.append(",\"segments\":[");
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            if (i > 0) out.append(',');
            out.append("{\"start\":");
            number(out, s.startSeconds());
            out.append(",\"end\":");
            number(out, s.endSeconds());
            out.append(",\"start_sample\":").append(s.startSample()).append(",\"end_sample\":").append(s.endSample());
            if (s.label() != null) quote(out.append(",\"label\":"), s.label());
            if (s.text() != null) quote(out.append(",\"text\":"), s.text());
            out.append('}');
        }
        return out.append("]}\n").toString();
    }

    private static void value(StringBuilder out, Object v) {
        switch (v) {
            case null -> out.append("null");
            case String s -> quote(out, s);
            case Boolean b -> out.append(b);
            case Integer n -> out.append(n);
            case Long n -> out.append(n);
            case Number n -> {
                if (Double.isFinite(n.doubleValue())) number(out, n.doubleValue());
                else out.append("null"); // JSON has no NaN or infinity: an unlimited option is null
            }
            default -> throw new IllegalArgumentException("a JSON property must be a String, Number, Boolean or null, got " + v.getClass().getName());
        }
    }

    /** The shortest round-trip form; whole numbers without a fraction. */
    private static void number(StringBuilder out, double d) {
        out.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d));
    }

    private static StringBuilder quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    // other control characters must be escaped; U+2028/2029 too, so the output is also valid JavaScript
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        return out.append('"');
    }
}
