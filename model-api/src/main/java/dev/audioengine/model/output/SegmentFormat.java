package dev.audioengine.model.output;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The segment file formats, chosen by name ({@code --format}) or by a file's extension. */
public enum SegmentFormat {
    /** One JSON object: the recording's properties, then "segments": [{start, end, start_sample, end_sample, label, text}]. */
    JSON("json", "json"),
    /** RFC 4180: a header line start,end,label,text; seconds with 3 decimals. */
    CSV("csv", "csv"),
    /** SubRip subtitles: numbered cues, HH:MM:SS,mmm. */
    SRT("srt", "srt"),
    /** WebVTT subtitles: WEBVTT header, HH:MM:SS.mmm cues. */
    VTT("vtt", "vtt"),
    /** NIST RTTM: one SPEAKER line per segment (file, channel 1, onset, duration, label). */
    RTTM("rttm", "rttm"),
    /** Audacity's label track (File > Import > Labels): start TAB end TAB label, seconds with 6 decimals. */
    AUDACITY("audacity", "txt");
    private final String cliName, extension;

    SegmentFormat(String cliName, String extension) {
        this.cliName = cliName;
        this.extension = extension;
    }

    /**
     * The name {@link #named} takes.
     *
     * @return the lower-case {@code --format} value, e.g. {@code "srt"}
     */
    public String cliName() {
        return cliName;
    }

    /**
     * The file extension (without the dot) that selects this format.
     *
     * @return e.g. {@code "json"}; {@code "txt"} for Audacity labels
     */
    public String extension() {
        return extension;
    }

    /**
     * By name, case-insensitive ("txt" and "labels" also name AUDACITY); unknown names fail listing the valid ones.
     *
     * @param name a {@link #cliName()} or one of the aliases
     * @return the format of that name
     * @throws IllegalArgumentException if no format has that name
     */
    public static SegmentFormat named(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.equals("txt") || n.equals("labels")) return AUDACITY;
        for (SegmentFormat f : values()) if (f.cliName.equals(n)) return f;
        throw new IllegalArgumentException("unknown segment format '" + name + "'; formats: " + names());
    }

    /**
     * By the file's extension; an unknown or missing one fails naming the extensions and the way to pick a format.
     *
     * @param file the output file; only its name's extension is read, case-insensitive
     * @return the format whose {@link #extension()} the file has
     * @throws IllegalArgumentException if the extension selects no format
     */
    public static SegmentFormat of(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        for (SegmentFormat f : values()) if (f.extension.equals(ext)) return f;
        throw new IllegalArgumentException(
                "cannot tell the segment format of '" + file + "' from its extension; use one of "
                        + Arrays.stream(values()).map(f -> "." + f.extension).collect(Collectors.joining(", "))
                        + " or name one with --format ("
                        + names() + ")");
    }

    /**
     * {@code name} when given, else by the file's extension.
     *
     * @param file the output file, consulted only when {@code name} is null
     * @param name a format name, or null
     * @return the named format, else the one the extension selects
     * @throws IllegalArgumentException if the name is unknown, or (without a name) the extension selects no format
     */
    public static SegmentFormat choose(Path file, String name) {
        return name != null ? named(name) : of(file);
    }

    private static String names() {
        return Arrays.stream(values()).map(SegmentFormat::cliName).collect(Collectors.joining(", "));
    }
}
