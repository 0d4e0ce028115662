package dev.audioengine.model.output;

import java.util.List;
import java.util.Locale;

/**
 * Audacity's label track text: {@code start<TAB>end<TAB>label} per line, seconds with 6 decimals
 * (as Audacity exports it). The format is one label per line, so tabs and line breaks inside the
 * caption become spaces.
 */
final class AudacityLabels {
    private AudacityLabels() {}

    static String render(List<Segment> segments) {
        StringBuilder out = new StringBuilder();
        for (Segment s : segments) {
            String caption =
                    SegmentWriter.caption(s).replaceAll("[\\t\\r\\n]+", " ").strip();
            out.append(String.format(Locale.ROOT, "%.6f\t%.6f\t%s\n", s.startSeconds(), s.endSeconds(), caption));
        }
        return out.toString();
    }
}
