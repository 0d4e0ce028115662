package dev.audioengine.model.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every format parsed back by a parser written here from the format's grammar, on awkward
 * segments: none at all, past one hour (and past 100 hours), text with line breaks (blank lines
 * too), commas, quotes, tabs, "-->", markup characters and non-ASCII text.
 */
class SegmentFormatsTest {
    private static final int SR = 16000;
    private static final String TRICKY = "She said \"hi, there\",\nthen\n\n\tleft --> <b>&</b> naïve 日本語 🎤";

    private static List<Segment> tricky() {
        return List.of(
                new Segment(0, 19488, SR), // 0.000 - 1.218
                new Segment(19488, 80160, SR, "speech", TRICKY),
                new Segment(3723L * SR + 7296, 3725L * SR, SR, "speaker 2", "a,b"), // 1:02:03.456
                new Segment(360_000L * SR + 8, 360_001L * SR, SR, null, "\"quoted\"")); // 100 hours in
    }

    /** What each segment shows in a text-only format. */
    private static final List<String> CAPTIONS = List.of("speech", TRICKY, "a,b", "\"quoted\"");

    @Test
    void srtParsesAsNumberedCuesWithCommaMilliseconds() {
        for (List<Segment> segs : List.of(tricky(), List.<Segment>of())) {
            String srt = SegmentWriter.render(SegmentFormat.SRT, "x", Map.of(), segs);
            List<String[]> cues = parseSubtitles(srt, false);
            assertThat(cues).hasSameSizeAs(segs);
            for (int i = 0; i < segs.size(); i++) {
                assertThat(cues.get(i)[0]).isEqualTo(Integer.toString(i + 1));
                assertThat(Long.parseLong(cues.get(i)[1])).isEqualTo(segs.get(i).startMillis());
                assertThat(Long.parseLong(cues.get(i)[2])).isEqualTo(segs.get(i).endMillis());
                assertThat(cues.get(i)[3])
                        .isEqualTo(expectedSubtitleText(CAPTIONS.get(i)).replace("-->", "->"));
            }
        }
        assertThat(SegmentWriter.render(SegmentFormat.SRT, "x", Map.of(), tricky()))
                .contains("01:02:03,456 --> 01:02:05,000")
                .contains("100:00:00,001 --> 100:00:01,000");
    }

    /**
     * A window of a long talk (17 s, 45 words) becomes cues a viewer can read: at most 7 s and two lines of 42 characters
     * each, cut between words, back to back over the window, the words in order; the times follow the characters.
     */
    @Test
    void aLongSegmentIsSplitIntoSubtitleSizedCues() {
        StringBuilder words = new StringBuilder();
        for (int i = 0; i < 45; i++)
            words.append(i == 0 ? "" : " ").append(i % 3 == 0 ? "understanding" : i % 3 == 1 ? "of" : "everything");
        Segment talk = new Segment(2 * SR, 19 * SR, SR, "speech", words.toString());
        for (boolean vtt : new boolean[] {false, true}) {
            String doc =
                    SegmentWriter.render(vtt ? SegmentFormat.VTT : SegmentFormat.SRT, "x", Map.of(), List.of(talk));
            List<String[]> cues = parseSubtitles(vtt ? doc.substring("WEBVTT\n\n".length()) : doc, vtt);
            assertThat(cues).hasSizeGreaterThanOrEqualTo(3);
            long at = 2000;
            List<String> said = new ArrayList<>();
            for (String[] cue : cues) {
                long start = Long.parseLong(cue[1]), end = Long.parseLong(cue[2]);
                assertThat(start).as("back to back").isEqualTo(at);
                assertThat(end - start).as("cue %s", cue[3]).isBetween(1L, 7000L);
                List<String> lines = List.of(cue[3].split("\n"));
                assertThat(lines)
                        .hasSizeBetween(1, 2)
                        .allMatch(l -> l.length() <= 42 && !l.startsWith(" ") && !l.endsWith(" "));
                for (String l : lines) said.addAll(List.of(l.split(" ")));
                at = end;
            }
            assertThat(at).isEqualTo(19000);
            assertThat(String.join(" ", said)).isEqualTo(words.toString());
        }
        // a short segment stays one cue, one line
        assertThat(SegmentWriter.render(
                        SegmentFormat.SRT, "x", Map.of(), List.of(new Segment(0, SR, SR, null, "Hello there."))))
                .isEqualTo("1\n00:00:00,000 --> 00:00:01,000\nHello there.\n\n");
    }

    @Test
    void vttParsesWithItsHeaderDotMillisecondsAndEscapes() {
        for (List<Segment> segs : List.of(tricky(), List.<Segment>of())) {
            String vtt = SegmentWriter.render(SegmentFormat.VTT, "x", Map.of(), segs);
            assertThat(vtt).startsWith("WEBVTT\n\n");
            List<String[]> cues = parseSubtitles(vtt.substring("WEBVTT\n\n".length()), true);
            assertThat(cues).hasSameSizeAs(segs);
            for (int i = 0; i < segs.size(); i++) {
                assertThat(Long.parseLong(cues.get(i)[1])).isEqualTo(segs.get(i).startMillis());
                assertThat(Long.parseLong(cues.get(i)[2])).isEqualTo(segs.get(i).endMillis());
                assertThat(cues.get(i)[3]).doesNotContain("-->", "<", ">");
                String text =
                        cues.get(i)[3].replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
                assertThat(text).isEqualTo(expectedSubtitleText(CAPTIONS.get(i)));
            }
        }
    }

    /** The caption's non-blank lines: a blank line would end the cue. */
    private static String expectedSubtitleText(String caption) {
        return String.join("\n", caption.lines().filter(l -> !l.isBlank()).toList());
    }

    /**
     * Cues separated by blank lines: [index line (SRT)], a timing line, one or more text lines.
     * Returns {index, start ms, end ms, text}.
     */
    private static List<String[]> parseSubtitles(String doc, boolean vtt) {
        Pattern timing = Pattern.compile(
                vtt
                        ? "(\\d{2,}):([0-5]\\d):([0-5]\\d)\\.(\\d{3}) --> (\\d{2,}):([0-5]\\d):([0-5]\\d)\\.(\\d{3})"
                        : "(\\d{2,}):([0-5]\\d):([0-5]\\d),(\\d{3}) --> (\\d{2,}):([0-5]\\d):([0-5]\\d),(\\d{3})");
        List<String[]> cues = new ArrayList<>();
        if (doc.isEmpty()) return cues;
        assertThat(doc).endsWith("\n\n").doesNotContain("\r");
        for (String block : doc.substring(0, doc.length() - 2).split("\n\n", -1)) {
            List<String> lines = List.of(block.split("\n", -1));
            int k = 0;
            String index = "";
            if (!vtt) {
                index = lines.get(k++);
                assertThat(index).matches("[1-9]\\d*");
            }
            Matcher m = timing.matcher(lines.get(k++));
            assertThat(m.matches()).as("timing line '%s'", lines.get(k - 1)).isTrue();
            long start = ms(m, 1), end = ms(m, 5);
            assertThat(end).isGreaterThanOrEqualTo(start);
            List<String> text = lines.subList(k, lines.size());
            assertThat(text).as("cue text").isNotEmpty().noneMatch(String::isBlank);
            cues.add(new String[] {index, Long.toString(start), Long.toString(end), String.join("\n", text)});
        }
        return cues;
    }

    private static long ms(Matcher m, int g) {
        return ((Long.parseLong(m.group(g)) * 60 + Long.parseLong(m.group(g + 1))) * 60
                                + Long.parseLong(m.group(g + 2)))
                        * 1000
                + Long.parseLong(m.group(g + 3));
    }

    @Test
    void rttmHasTenSpaceSeparatedFieldsPerSegment() {
        String rttm = SegmentWriter.render(SegmentFormat.RTTM, "my recording", Map.of(), tricky());
        List<String> lines = rttm.lines().toList();
        assertThat(rttm).endsWith("\n");
        assertThat(lines).hasSize(4);
        String[] labels = {"speech", "speech", "speaker_2", "speech"};
        for (int i = 0; i < lines.size(); i++) {
            String[] f = lines.get(i).split(" ", -1);
            assertThat(f).hasSize(10);
            assertThat(f[0]).isEqualTo("SPEAKER");
            assertThat(f[1]).isEqualTo("my_recording");
            assertThat(f[2]).isEqualTo("1");
            assertThat(Double.parseDouble(f[3])).isCloseTo(tricky().get(i).startSeconds(), within(5e-4));
            assertThat(Double.parseDouble(f[4]))
                    .isCloseTo(tricky().get(i).endSeconds() - tricky().get(i).startSeconds(), within(5e-4))
                    .isNotNegative();
            assertThat(f[5]).isEqualTo("<NA>");
            assertThat(f[6]).isEqualTo("<NA>");
            assertThat(f[7]).isEqualTo(labels[i]);
            assertThat(f[8]).isEqualTo("<NA>");
            assertThat(f[9]).isEqualTo("<NA>");
        }
        assertThat(SegmentWriter.render(SegmentFormat.RTTM, "x", Map.of(), List.of()))
                .isEmpty();
        assertThat(SegmentWriter.render(
                        SegmentFormat.RTTM, "../some dir/talk.v2.wav", Map.of(), tricky().subList(0, 1)))
                .startsWith("SPEAKER talk.v2 1 0.000 1.218 ");
    }

    @Test
    void csvRoundTripsThroughAnRfc4180Parser() {
        String csv = SegmentWriter.render(SegmentFormat.CSV, "x", Map.of(), tricky());
        List<List<String>> rows = parseCsv(csv);
        assertThat(rows.getFirst()).containsExactly("start", "end", "label", "text");
        assertThat(rows).hasSize(5);
        for (int i = 0; i < 4; i++) {
            Segment s = tricky().get(i);
            List<String> r = rows.get(i + 1);
            assertThat(r).hasSize(4);
            assertThat(Double.parseDouble(r.get(0))).isCloseTo(s.startSeconds(), within(5e-4));
            assertThat(Double.parseDouble(r.get(1))).isCloseTo(s.endSeconds(), within(5e-4));
            assertThat(r.get(2)).isEqualTo(s.label() == null ? "" : s.label());
            assertThat(r.get(3)).isEqualTo(s.text() == null ? "" : s.text());
        }
        assertThat(parseCsv(SegmentWriter.render(SegmentFormat.CSV, "x", Map.of(), List.of())))
                .hasSize(1);
    }

    /** RFC 4180: CRLF records, fields quoted when they hold a comma, quote or line break, "" for a quote. */
    private static List<List<String>> parseCsv(String doc) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int i = 0;
        boolean quoted = false, wasQuoted = false;
        while (i < doc.length()) {
            char c = doc.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < doc.length() && doc.charAt(i + 1) == '"') {
                    field.append('"');
                    i += 2;
                    continue;
                }
                if (c == '"') {
                    quoted = false;
                    i++;
                    continue;
                }
                field.append(c);
                i++;
                continue;
            }
            if (c == '"') {
                assertThat(field).as("a quote opens a field only at its start").isEmpty();
                quoted = wasQuoted = true;
                i++;
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
                wasQuoted = false;
                i++;
            } else if (c == '\r') {
                assertThat(doc.charAt(i + 1)).as("records end with CRLF").isEqualTo('\n');
                row.add(field.toString());
                rows.add(row);
                row = new ArrayList<>();
                field.setLength(0);
                wasQuoted = false;
                i += 2;
            } else {
                assertThat(c)
                        .as("unquoted line break or text after a closing quote")
                        .isNotEqualTo('\n');
                assertThat(wasQuoted).as("text after a closing quote").isFalse();
                field.append(c);
                i++;
            }
        }
        assertThat(quoted).as("unterminated quote").isFalse();
        assertThat(row).as("the last record ends with CRLF").isEmpty();
        return rows;
    }

    @Test
    void audacityLabelsAreThreeTabSeparatedFieldsPerLine() {
        String txt = SegmentWriter.render(SegmentFormat.AUDACITY, "x", Map.of(), tricky());
        List<String> lines = txt.lines().toList();
        assertThat(lines).hasSize(4);
        for (int i = 0; i < 4; i++) {
            String[] f = lines.get(i).split("\t", -1);
            assertThat(f).hasSize(3);
            assertThat(f[0]).matches("\\d+\\.\\d{6}");
            assertThat(f[1]).matches("\\d+\\.\\d{6}");
            assertThat(Double.parseDouble(f[0])).isCloseTo(tricky().get(i).startSeconds(), within(5e-7));
            assertThat(Double.parseDouble(f[1])).isCloseTo(tricky().get(i).endSeconds(), within(5e-7));
            assertThat(f[2])
                    .isEqualTo(CAPTIONS.get(i).replaceAll("[\\t\\r\\n]+", " ").strip());
        }
        assertThat(SegmentWriter.render(SegmentFormat.AUDACITY, "x", Map.of(), List.of()))
                .isEmpty();
    }

    @Test
    void jsonParsesAndKeepsPropertiesSamplesLabelsAndText() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("sample_rate", SR);
        props.put("model", "silero_vad_v6");
        props.put("threshold", 0.5);
        props.put("max_speech_s", Double.POSITIVE_INFINITY);
        props.put("note", "tab\there \u0001 \u2028");
        props.put("streaming", false);
        String json = SegmentWriter.render(SegmentFormat.JSON, "dir/a \"b\".wav", props, tricky());
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) new TinyJson(json).parseDocument();
        assertThat(doc.keySet())
                .containsExactly(
                        "audio", "sample_rate", "model", "threshold", "max_speech_s", "note", "streaming", "segments");
        assertThat(doc.get("audio")).isEqualTo("dir/a \"b\".wav");
        assertThat(doc.get("sample_rate")).isEqualTo(16000.0);
        assertThat(doc.get("max_speech_s")).isNull();
        assertThat(doc.get("note")).isEqualTo("tab\there \u0001 \u2028");
        assertThat(doc.get("streaming")).isEqualTo(false);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> segs = (List<Map<String, Object>>) doc.get("segments");
        assertThat(segs).hasSize(4);
        for (int i = 0; i < 4; i++) {
            Segment s = tricky().get(i);
            assertThat((Double) segs.get(i).get("start")).isEqualTo(s.startSeconds());
            assertThat((Double) segs.get(i).get("end")).isEqualTo(s.endSeconds());
            assertThat(segs.get(i).get("start_sample")).isEqualTo((double) s.startSample());
            assertThat(segs.get(i).get("end_sample")).isEqualTo((double) s.endSample());
            assertThat(segs.get(i).get("label")).isEqualTo(s.label());
            assertThat(segs.get(i).get("text")).isEqualTo(s.text());
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> empty = (Map<String, Object>)
                new TinyJson(SegmentWriter.render(SegmentFormat.JSON, "x", Map.of(), List.of())).parseDocument();
        assertThat((List<?>) empty.get("segments")).isEmpty();
        assertThatThrownBy(() -> SegmentWriter.render(SegmentFormat.JSON, "x", Map.of("bad", new Object()), List.of()))
                .hasMessageContaining("String, Number, Boolean or null");
    }

    @Test
    void formatsAreChosenByExtensionOrName(@TempDir Path dir) throws Exception {
        assertThat(SegmentFormat.of(Path.of("a/b.SRT"))).isEqualTo(SegmentFormat.SRT);
        assertThat(SegmentFormat.of(Path.of("labels.txt"))).isEqualTo(SegmentFormat.AUDACITY);
        assertThat(SegmentFormat.of(Path.of("x.rttm"))).isEqualTo(SegmentFormat.RTTM);
        assertThat(SegmentFormat.of(Path.of("x.vtt"))).isEqualTo(SegmentFormat.VTT);
        assertThat(SegmentFormat.of(Path.of("x.csv"))).isEqualTo(SegmentFormat.CSV);
        assertThat(SegmentFormat.of(Path.of("x.json"))).isEqualTo(SegmentFormat.JSON);
        assertThat(SegmentFormat.named("Audacity")).isEqualTo(SegmentFormat.AUDACITY);
        assertThat(SegmentFormat.named("labels")).isEqualTo(SegmentFormat.AUDACITY);
        assertThat(SegmentFormat.choose(Path.of("x.out"), "vtt")).isEqualTo(SegmentFormat.VTT);
        assertThatThrownBy(() -> SegmentFormat.of(Path.of("x.out")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'x.out'")
                .hasMessageContaining(".srt")
                .hasMessageContaining("--format");
        assertThatThrownBy(() -> SegmentFormat.named("ass"))
                .hasMessageContaining("unknown segment format 'ass'")
                .hasMessageContaining("json, csv, srt, vtt, rttm, audacity");
        Path f = dir.resolve("s.srt");
        SegmentWriter.write(f, SegmentFormat.SRT, "x", Map.of(), tricky());
        assertThat(Files.readString(f)).isEqualTo(SegmentWriter.render(SegmentFormat.SRT, "x", Map.of(), tricky()));
    }

    @Test
    void segmentsCheckTheirBoundsAndRoundMillisecondsHalfUp() {
        assertThatThrownBy(() -> new Segment(10, 5, SR)).hasMessageContaining("not end before it starts");
        assertThatThrownBy(() -> new Segment(-1, 5, SR)).hasMessageContaining("start at 0");
        assertThatThrownBy(() -> new Segment(0, 5, 0)).hasMessageContaining("sample rate");
        Segment s = new Segment(8, 24, SR); // 0.5 ms and 1.5 ms
        assertThat(s.startMillis()).isEqualTo(1);
        assertThat(s.endMillis()).isEqualTo(2);
        assertThat(new Segment(7, 7, SR).startMillis()).isZero();
    }
}
