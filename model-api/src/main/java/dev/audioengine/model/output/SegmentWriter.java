package dev.audioengine.model.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes segments in a {@link SegmentFormat}, UTF-8. {@code recording} names the audio (RTTM's
 * file field, JSON's "audio"); {@code properties} are extra facts JSON carries before the
 * segments (model, sample rate, options: String, Number, Boolean or null values, in the map's
 * order); the other formats have no place for them. A segment's text is shown where the format
 * shows text, else its label, else "speech".
 */
public final class SegmentWriter {
    private SegmentWriter() {}

    /**
     * The file's text.
     *
     * @param format the file format; only JSON carries {@code properties}
     * @param recording what names the audio (a file name), for RTTM and JSON
     * @param properties extra JSON members (String, Number, Boolean or null values); ignored by the other formats
     * @param segments the segments, in the order to write them
     * @return the whole file's text, ending in a newline where the format wants one
     * @throws IllegalArgumentException if a property value is of another type, or a number is not finite
     */
    public static String render(
            SegmentFormat format, String recording, Map<String, ?> properties, List<Segment> segments) {
        return switch (format) {
            case JSON -> JsonSegments.render(recording, properties, segments);
            case CSV -> CsvSegments.render(segments);
            case SRT -> SubtitleSegments.srt(segments);
            case VTT -> SubtitleSegments.vtt(segments);
            case RTTM -> RttmSegments.render(recording, segments);
            case AUDACITY -> AudacityLabels.render(segments);
        };
    }

    /**
     * Writes {@link #render} to a file, replacing it.
     *
     * @param file the output file, created or truncated
     * @param format the format (see {@link SegmentFormat#choose} to pick it from the file name)
     * @param recording what names the audio
     * @param properties extra JSON members; ignored by the other formats
     * @param segments the segments
     * @throws IOException if the file cannot be written
     */
    public static void write(
            Path file, SegmentFormat format, String recording, Map<String, ?> properties, List<Segment> segments)
            throws IOException {
        Files.writeString(file, render(format, recording, properties, segments), StandardCharsets.UTF_8);
    }

    /** What a text-only format shows for a segment. */
    static String caption(Segment s) {
        if (s.text() != null && !s.text().isBlank()) return s.text();
        if (s.label() != null && !s.label().isBlank()) return s.label();
        return "speech";
    }
}
