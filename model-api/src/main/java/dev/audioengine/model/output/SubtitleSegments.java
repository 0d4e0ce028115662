package dev.audioengine.model.output;

import java.util.List;
import java.util.Locale;

/**
 * SubRip (.srt) and WebVTT (.vtt) cues, one per segment. A blank line ends a cue in both, so
 * line breaks in the text are kept but empty lines are dropped; hours take as many digits as
 * they need. WebVTT text escapes &amp;, &lt; and &gt; (and so never holds "-->").
 */
final class SubtitleSegments {
    private SubtitleSegments() {}

    static String srt(List<Segment> segments) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            out.append(i + 1).append('\n')
                    .append(time(s.startMillis(), ',')).append(" --> ").append(time(s.endMillis(), ',')).append('\n')
                    .append(lines(SegmentWriter.caption(s).replace("-->", "->"))).append("\n\n");
        }
        return out.toString();
    }

    static String vtt(List<Segment> segments) {
        StringBuilder out = new StringBuilder("WEBVTT\n\n");
        for (Segment s : segments) {
            String text = SegmentWriter.caption(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
            out.append(time(s.startMillis(), '.')).append(" --> ").append(time(s.endMillis(), '.')).append('\n')
                    .append(lines(text)).append("\n\n");
        }
        return out.toString();
    }

    /** HH:MM:SS then the separator and milliseconds. */
    static String time(long millis, char separator) {
        return String.format(Locale.ROOT, "%02d:%02d:%02d%c%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, separator, millis % 1000);
    }

    /** The text's non-blank lines, joined by \n (CR LF and CR count as line breaks). */
    private static String lines(String text) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\r\n|\r|\n")) {
            if (line.isBlank()) continue;
            if (!out.isEmpty()) out.append('\n');
            out.append(line);
        }
        return out.isEmpty() ? "speech" : out.toString();
    }
}
