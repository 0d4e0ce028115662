package dev.audioengine.model.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * SubRip (.srt) and WebVTT (.vtt) cues. A blank line ends a cue in both, so line breaks in the text are kept but empty
 * lines are dropped; hours take as many digits as they need. WebVTT text escapes &amp;, &lt; and &gt; (and so never
 * holds "-->").
 * <p>
 * A segment a viewer can read at once is one cue. A longer one (a recognizer's window is up to 20 s and 50 words) is
 * cut into cues of at most {@link #MAX_CUE_SECONDS} and {@link #MAX_LINES} lines of {@link #LINE_CHARS} characters,
 * between words, each wrapped into balanced lines. Segments carry no word times, so a cue's times are the segment's
 * shared out by characters: speech runs at a roughly even number of characters a second within a window.
 */
final class SubtitleSegments {
    /** The limits subtitle guidelines (Netflix's, the BBC's) set for what a viewer reads in one cue. */
    static final int LINE_CHARS = 42, MAX_LINES = 2;

    static final double MAX_CUE_SECONDS = 7;

    private SubtitleSegments() {}

    /** One cue: its times and its text, lines joined by \n, not yet escaped. */
    record Cue(long startMillis, long endMillis, String text) {}

    static String srt(List<Segment> segments) {
        StringBuilder out = new StringBuilder();
        int n = 0;
        for (Segment s : segments) {
            for (Cue c : cues(s)) {
                out.append(++n)
                        .append('\n')
                        .append(time(c.startMillis(), ','))
                        .append(" --> ")
                        .append(time(c.endMillis(), ','))
                        .append('\n')
                        .append(c.text().replace("-->", "->"))
                        .append("\n\n");
            }
        }
        return out.toString();
    }

    static String vtt(List<Segment> segments) {
        StringBuilder out = new StringBuilder("WEBVTT\n\n");
        for (Segment s : segments) {
            for (Cue c : cues(s)) {
                String text =
                        c.text().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
                out.append(time(c.startMillis(), '.'))
                        .append(" --> ")
                        .append(time(c.endMillis(), '.'))
                        .append('\n')
                        .append(text)
                        .append("\n\n");
            }
        }
        return out.toString();
    }

    /** HH:MM:SS then the separator and milliseconds. */
    static String time(long millis, char separator) {
        return String.format(
                Locale.ROOT,
                "%02d:%02d:%02d%c%03d",
                millis / 3_600_000,
                millis / 60_000 % 60,
                millis / 1000 % 60,
                separator,
                millis % 1000);
    }

    /**
     * The cues of one segment: itself when it is short enough to read (its own line breaks kept, a line too long
     * wrapped), else pieces of its words, each at most {@link #MAX_CUE_SECONDS} by its share of the characters and at
     * most {@link #MAX_LINES} lines, as even in length as those limits allow.
     */
    static List<Cue> cues(Segment s) {
        String caption = SegmentWriter.caption(s);
        String[] words = caption.strip().split("\\s+");
        String joined = String.join(" ", words);
        double seconds = s.endSeconds() - s.startSeconds();
        if (words.length < 2 || seconds <= MAX_CUE_SECONDS && joined.length() <= LINE_CHARS * MAX_LINES) {
            List<String> given = lines(caption);
            boolean asGiven = given.stream().allMatch(l -> l.length() <= LINE_CHARS);
            return List.of(
                    new Cue(s.startMillis(), s.endMillis(), asGiven ? String.join("\n", given) : wrap(List.of(words))));
        }
        int total = joined.length();
        // characters a cue may hold (its trailing space counted, as the next cue starts after it) to last at most the
        // limit
        double timeChars = seconds > 0 ? total * MAX_CUE_SECONDS / seconds - 0.5 : Double.POSITIVE_INFINITY;
        int pieces = (int)
                Math.max(Math.ceil(seconds / MAX_CUE_SECONDS), Math.ceil(total / (double) (LINE_CHARS * MAX_LINES)));
        double target = total / (double) pieces;
        List<List<String>> groups = new ArrayList<>();
        List<String> current = new ArrayList<>();
        int length = 0;
        for (String w : words) {
            int with = current.isEmpty() ? w.length() : length + 1 + w.length();
            List<String> candidate = new ArrayList<>(current);
            candidate.add(w);
            boolean full = !current.isEmpty()
                    && (with + 1 > timeChars
                            || !fits(candidate)
                            || groups.size() < pieces - 1 && length + 1 + w.length() / 2.0 > target);
            if (full) {
                groups.add(current);
                current = new ArrayList<>();
                with = w.length();
            }
            current.add(w);
            length = with;
        }
        groups.add(current);

        List<Cue> cues = new ArrayList<>();
        long span = s.endSample() - s.startSample();
        int offset = 0;
        for (List<String> g : groups) {
            int end = Math.min(total, offset + String.join(" ", g).length() + 1);
            long from = s.startSample() + Math.round(span * (double) offset / total),
                    to = s.startSample() + Math.round(span * (double) end / total);
            Segment piece = new Segment(from, to, s.sampleRate());
            cues.add(new Cue(piece.startMillis(), piece.endMillis(), wrap(g)));
            offset = end;
        }
        return cues;
    }

    /** Whether {@code words} go into at most two lines of {@link #LINE_CHARS}. */
    private static boolean fits(List<String> words) {
        if (String.join(" ", words).length() <= LINE_CHARS) return true;
        for (int i = 1; i < words.size(); i++) {
            if (String.join(" ", words.subList(0, i)).length() <= LINE_CHARS
                    && String.join(" ", words.subList(i, words.size())).length() <= LINE_CHARS) {
                return true;
            }
        }
        return false;
    }

    /** One line when it fits, else two cut between words where the longer of them is shortest. */
    private static String wrap(List<String> words) {
        String one = String.join(" ", words);
        if (one.length() <= LINE_CHARS || words.size() < 2) return one;
        int best = 1, bestLongest = Integer.MAX_VALUE;
        for (int i = 1; i < words.size(); i++) {
            int longest = Math.max(
                    String.join(" ", words.subList(0, i)).length(),
                    String.join(" ", words.subList(i, words.size())).length());
            if (longest < bestLongest) {
                best = i;
                bestLongest = longest;
            }
        }
        return String.join(" ", words.subList(0, best)) + "\n" + String.join(" ", words.subList(best, words.size()));
    }

    /** The text's non-blank lines (CR LF and CR count as line breaks); "speech" when there are none. */
    private static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\r\n|\r|\n")) if (!line.isBlank()) out.add(line);
        return out.isEmpty() ? List.of("speech") : out;
    }
}
