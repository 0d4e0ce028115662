package dev.audioengine.model.output;

import java.util.List;
import java.util.Locale;

/** CSV per RFC 4180: start,end,label,text with CRLF line ends; a field with a comma, quote or line break is quoted, quotes doubled. */
final class CsvSegments {
    private CsvSegments() {}

    static String render(List<Segment> segments) {
        StringBuilder out = new StringBuilder("start,end,label,text\r\n");
        for (Segment s : segments) {
            out.append(String.format(Locale.ROOT, "%.3f,%.3f,", s.startSeconds(), s.endSeconds()));
            field(out, s.label()).append(',');
            field(out, s.text()).append("\r\n");
        }
        return out.toString();
    }

    private static StringBuilder field(StringBuilder out, String v) {
        if (v == null) return out;
        boolean quote = v.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r');
        return quote ? out.append('"').append(v.replace("\"", "\"\"")).append('"') : out.append(v);
    }
}
