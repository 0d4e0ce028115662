package dev.audioengine.server.openai;

import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.output.Segment;
import dev.audioengine.model.output.SegmentFormat;
import dev.audioengine.model.output.SegmentWriter;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptSegment;
import java.util.List;

/**
 * A transcript in OpenAI's response formats. verbose_json's segments carry what this engine knows (id, seek in
 * 10 ms frames as Whisper counts, start, end, text, tokens, temperature) and, from a recognizer that samples with
 * fallback (Whisper), its statistics as OpenAI gives them (avg_logprob, compression_ratio, no_speech_prob; the
 * temperature of the pass that was kept); Moonshine's greedy segments say temperature 0 and leave the statistics out
 * rather than make them up. srt and vtt leave out windows that decoded to nothing, as the CLI's subtitle files do.
 */
final class TranscriptFormats {
    private TranscriptFormats() {}

    static String mediaType(TranscriptionRequest.Format f) {
        return switch (f) {
            case JSON, VERBOSE_JSON -> "application/json";
            case TEXT, SRT -> "text/plain; charset=utf-8";
            case VTT -> "text/vtt; charset=utf-8";
        };
    }

    static String render(TranscriptionRequest.Format f, Transcript t) {
        return render(f, t, dev.audioengine.model.task.AsrOptions.DEFAULTS);
    }

    /**
     * {@code options}: the request's, for verbose_json's {@code task} (transcribe or translate), {@code language}
     * (the code asked for; when none was, the code the model detected, "english" when it does not say) and
     * {@code words} (with timestamp_granularities[]=word).
     */
    static String render(TranscriptionRequest.Format f, Transcript t, dev.audioengine.model.task.AsrOptions options) {
        return switch (f) {
            case JSON ->
                new JsonWriter()
                        .beginObject()
                        .name("text")
                        .value(t.text())
                        .name("usage")
                        .beginObject()
                        .name("type")
                        .value("duration")
                        .name("seconds")
                        .number(t.audioSeconds())
                        .endObject()
                        .endObject()
                        .toString();
            case TEXT -> t.text() + "\n";
            case SRT -> SegmentWriter.render(SegmentFormat.SRT, "", java.util.Map.of(), spoken(t));
            case VTT -> SegmentWriter.render(SegmentFormat.VTT, "", java.util.Map.of(), spoken(t));
            case VERBOSE_JSON -> verbose(t, options);
        };
    }

    private static String verbose(Transcript t, dev.audioengine.model.task.AsrOptions options) {
        // the language asked for; when none was (or auto), the one the recognizer detected in the first window that
        // has text (the code, as a request gives it); "english" when the recognizer does not say
        String detected = t.segments().stream()
                .filter(s -> !s.text().isEmpty() && s.language() != null)
                .map(TranscriptSegment::language)
                .findFirst()
                .orElse("english");
        String language =
                options.language() == null || options.language().equals("auto") ? detected : options.language();
        JsonWriter w = new JsonWriter()
                .beginObject()
                .name("task")
                .value(options.translate() ? "translate" : "transcribe")
                .name("language")
                .value(options.translate() ? "english" : language)
                .name("duration")
                .number(t.audioSeconds())
                .name("text")
                .value(t.text())
                .name("segments")
                .beginArray();
        List<TranscriptSegment> segments = t.segments();
        for (int i = 0; i < segments.size(); i++) {
            TranscriptSegment s = segments.get(i);
            w.beginObject()
                    .name("id")
                    .value(i)
                    .name("seek")
                    .value(Math.round(s.startSeconds() * 100))
                    .name("start")
                    .number(s.startSeconds())
                    .name("end")
                    .number(s.endSeconds())
                    .name("text")
                    .value(s.text())
                    .name("tokens")
                    .beginArray();
            for (int token : s.tokens()) w.value(token);
            w.endArray();
            dev.audioengine.model.task.DecodingStats d = s.decoding();
            w.name("temperature").number(d == null ? 0 : d.temperature());
            if (d != null)
                w.name("avg_logprob")
                        .numberOrNull(d.averageLogProbability())
                        .name("compression_ratio")
                        .numberOrNull(d.compressionRatio())
                        .name("no_speech_prob")
                        .numberOrNull(d.noSpeechProbability());
            w.endObject();
        }
        w.endArray();
        if (options.wordTimestamps()) {
            // OpenAI's words: text without the leading space, start and end in seconds
            w.name("words").beginArray();
            for (TranscriptSegment s : segments)
                for (dev.audioengine.model.task.TranscriptWord word : s.words())
                    w.beginObject()
                            .name("word")
                            .value(word.text().strip())
                            .name("start")
                            .number(word.start())
                            .name("end")
                            .number(word.end())
                            .endObject();
            w.endArray();
        }
        return w.name("usage")
                .beginObject()
                .name("type")
                .value("duration")
                .name("seconds")
                .number(t.audioSeconds())
                .endObject()
                .endObject()
                .toString();
    }

    /** The segments with text, as the subtitle writers take them. */
    private static List<Segment> spoken(Transcript t) {
        return t.segments().stream()
                .filter(s -> !s.text().isEmpty())
                .map(s -> new Segment(s.startSample(), s.endSample(), s.sampleRate(), null, s.text()))
                .toList();
    }
}
