package dev.audioengine.model.output;

import java.util.List;
import java.util.Locale;

/**
 * NIST RTTM (as pyannote and dscore read it): {@code SPEAKER <file> 1 <onset> <duration> <NA>
 * <NA> <label> <NA> <NA>}, times in seconds with 3 decimals; the file field is the recording's
 * name without folders and extension. Fields are separated by spaces, so
 * whitespace inside the file name or label becomes '_'; the label is "speech" when a segment has none.
 */
final class RttmSegments {
    private RttmSegments() {}

    static String render(String recording, List<Segment> segments) {
        String file = token(recording == null ? "audio" : stem(recording));
        StringBuilder out = new StringBuilder();
        for (Segment s : segments) {
            String label = token(s.label() == null || s.label().isBlank() ? "speech" : s.label());
            out.append(String.format(
                    Locale.ROOT,
                    "SPEAKER %s 1 %.3f %.3f <NA> <NA> %s <NA> <NA>\n",
                    file,
                    s.startSeconds(),
                    s.endSeconds() - s.startSeconds(),
                    label));
        }
        return out.toString();
    }

    /** The recording's file name without folders and extension (the "uri" pyannote matches on). */
    private static String stem(String path) {
        String name = path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private static String token(String s) {
        String t = s.strip().replaceAll("\\s+", "_");
        return t.isEmpty() ? "_" : t;
    }
}
