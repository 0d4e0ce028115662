package dev.audioengine.server.openai;

import dev.audioengine.model.output.SegmentFormat;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.MultipartForm;
import java.util.Optional;
import java.util.Set;

/**
 * The form fields of {@code POST /v1/audio/vad}: the CLI's VAD options under Silero's names (get_speech_timestamps'),
 * with the CLI's defaults, and a segment format (json by default; srt, vtt, csv, rttm, audacity).
 */
record VadRequest(Optional<String> model, VadOptions options, SegmentFormat format) {
    static final Set<String> FIELDS = Set.of(
            "file",
            "model",
            "threshold",
            "neg_threshold",
            "min_speech_ms",
            "min_silence_ms",
            "speech_pad_ms",
            "max_speech_s",
            "response_format");

    static VadRequest of(MultipartForm form) {
        for (String name : form.fieldNames()) {
            if (!FIELDS.contains(name)) {
                throw ApiError.invalid(
                        name,
                        "unrecognized parameter " + name + "; this endpoint takes "
                                + String.join(", ", FIELDS.stream().sorted().toList()));
            }
        }
        VadOptions d = VadOptions.DEFAULTS;
        double threshold = form.field("threshold")
                .map(s -> TranscriptionRequest.number("threshold", s))
                .orElse(d.threshold());
        double neg = form.field("neg_threshold")
                .map(s -> TranscriptionRequest.number("neg_threshold", s))
                .orElse(Double.NaN);
        int minSpeech = form.field("min_speech_ms")
                .map(s -> integer("min_speech_ms", s))
                .orElse(d.minSpeechMs());
        int minSilence = form.field("min_silence_ms")
                .map(s -> integer("min_silence_ms", s))
                .orElse(d.minSilenceMs());
        int pad = form.field("speech_pad_ms")
                .map(s -> integer("speech_pad_ms", s))
                .orElse(d.speechPadMs());
        double maxSpeech = form.field("max_speech_s")
                .map(s -> TranscriptionRequest.number("max_speech_s", s))
                .orElse(d.maxSpeechS());
        VadOptions options;
        try {
            options = new VadOptions(threshold, neg, minSpeech, minSilence, pad, maxSpeech);
        } catch (IllegalArgumentException e) {
            throw outOfRange(e.getMessage());
        }
        SegmentFormat format;
        try {
            format = form.field("response_format").map(SegmentFormat::named).orElse(SegmentFormat.JSON);
        } catch (IllegalArgumentException e) {
            throw ApiError.invalid("response_format", e.getMessage());
        }
        return new VadRequest(form.field("model").map(String::strip).filter(s -> !s.isEmpty()), options, format);
    }

    /**
     * VadOptions' range error in the form's terms: it starts with the option as the command line spells it
     * ("min-speech-ms must not be negative"), which is the form field with dashes for underscores; that field is the
     * error's param, and the message names it as the form does.
     */
    static ApiError outOfRange(String message) {
        int cut = message.indexOf(' ');
        String field = (cut < 0 ? message : message.substring(0, cut)).replace('-', '_');
        if (!FIELDS.contains(field)) return ApiError.invalid(null, message); // an option of its own: say it as it is
        return ApiError.invalid(field, field + (cut < 0 ? "" : message.substring(cut)));
    }

    private static int integer(String name, String s) {
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            throw ApiError.invalid(name, name + " must be a whole number of milliseconds, got '" + s + "'");
        }
    }

    static String mediaType(SegmentFormat f) {
        return switch (f) {
            case JSON -> "application/json";
            case CSV -> "text/csv; charset=utf-8";
            case VTT -> "text/vtt; charset=utf-8";
            case SRT, RTTM, AUDACITY -> "text/plain; charset=utf-8";
        };
    }
}
