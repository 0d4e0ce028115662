package dev.audioengine.server.openai;

import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.MultipartForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The form fields of {@code POST /v1/audio/transcriptions}, checked as OpenAI defines them. Fields this server
 * accepts but cannot act on (a sampling temperature or a prompt for a model that takes none, found by the endpoint)
 * are listed in {@link #ignored()}, which the response names in a header;
 * fields it does not know are refused, as OpenAI refuses them.
 */
record TranscriptionRequest(String model, Format format, boolean stream, List<String> ignored, AsrOptions options) {
    /** The response formats, by OpenAI's names. */
    enum Format {
        JSON("json"),
        TEXT("text"),
        SRT("srt"),
        VTT("vtt"),
        VERBOSE_JSON("verbose_json");

        final String wireName;

        Format(String wireName) {
            this.wireName = wireName;
        }

        static Format parse(String s) {
            for (Format f : values()) if (f.wireName.equals(s.trim())) return f;
            throw ApiError.invalid(
                    "response_format",
                    "response_format must be one of json, text, srt, verbose_json, vtt; got '" + s + "'");
        }
    }

    /** Every field this endpoint takes. */
    static final Set<String> FIELDS = Set.of(
            "file",
            "model",
            "language",
            "prompt",
            "response_format",
            "temperature",
            "temperature_inc",
            "timestamp_granularities[]",
            "stream");

    /** Every field {@code POST /v1/audio/translations} takes (OpenAI's: no language, stream or granularities). */
    static final Set<String> TRANSLATION_FIELDS =
            Set.of("file", "model", "prompt", "response_format", "temperature", "temperature_inc");

    static TranscriptionRequest of(MultipartForm form) {
        return of(form, false);
    }

    /**
     * The request's fields checked; {@code translation} for {@code /v1/audio/translations}: English text of speech in
     * any language (the recognizer's translate task), with that endpoint's fields.
     */
    static TranscriptionRequest of(MultipartForm form, boolean translation) {
        Set<String> fields = translation ? TRANSLATION_FIELDS : FIELDS;
        for (String name : form.fieldNames()) {
            if (!fields.contains(name)) {
                throw ApiError.invalid(
                        name,
                        "unrecognized parameter " + name + "; this endpoint takes "
                                + String.join(", ", fields.stream().sorted().toList()));
            }
        }
        String model = form.field("model")
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .orElseThrow(
                        () -> ApiError.invalid("model", "you must provide a model parameter (see GET /v1/models)"));
        AsrOptions options = AsrOptions.DEFAULTS.withTranslate(translation);
        Optional<String> language = form.field("language")
                .map(l -> l.strip().toLowerCase(Locale.ROOT))
                .filter(l -> !l.isEmpty())
                .map(l -> l.equals("english") ? "en" : l);
        if (language.isPresent()) {
            try {
                options = options.withLanguage(language.get());
            } catch (IllegalArgumentException e) {
                throw ApiError.invalid("language", "unsupported_language", e.getMessage());
            }
        }
        Format format = form.field("response_format").map(Format::parse).orElse(Format.JSON);
        for (String g : form.fields("timestamp_granularities[]")) {
            String granularity = g.strip();
            if (granularity.equals("word")) {
                // OpenAI's rule: word times come in verbose_json only
                if (format != Format.VERBOSE_JSON)
                    throw ApiError.invalid(
                            "timestamp_granularities[]",
                            "timestamp_granularities[]=word needs response_format verbose_json, not "
                                    + format.wireName);
                options = options.withWordTimestamps(true, null);
            } else if (!granularity.equals("segment")) {
                throw ApiError.invalid(
                        "timestamp_granularities[]",
                        "timestamp granularity '" + g + "' is not supported; this server gives segment and word times");
            }
        }
        boolean stream = form.field("stream").map(s -> bool("stream", s)).orElse(false);
        if (stream && format != Format.JSON && format != Format.TEXT) {
            throw ApiError.invalid(
                    "stream",
                    "stream=true gives transcript.text events; it takes response_format json or text, not "
                            + format.wireName);
        }
        List<String> ignored = new ArrayList<>();
        Optional<String> prompt = form.field("prompt").filter(p -> !p.isBlank());
        if (prompt.isPresent()) options = options.withPrompt(prompt.get());
        // whisper.cpp's server's field (not OpenAI's): the step of Whisper's fallback; 0 decodes each window once
        Optional<String> increment = form.field("temperature_inc");
        if (increment.isPresent()) {
            double v = number("temperature_inc", increment.get());
            if (!(v >= 0 && v <= 1))
                throw ApiError.invalid(
                        "temperature_inc", "temperature_inc must be between 0 and 1, got " + increment.get());
            options = options.withLongForm(
                    options.longForm().withTemperatures(options.longForm().temperature(), v));
        }
        Optional<String> temperature = form.field("temperature");
        if (temperature.isPresent()) {
            double v = number("temperature", temperature.get());
            if (!(v >= 0 && v <= 1))
                throw ApiError.invalid("temperature", "temperature must be between 0 and 1, got " + temperature.get());
            // OpenAI: 0 (the default) lets the model raise it on doubtful output, as Whisper's fallback does; another
            // value is the first temperature (Whisper's long-form decoding; a model that does not sample ignores it)
            if (v != 0)
                options = options.withLongForm(options.longForm()
                        .withTemperatures(v, options.longForm().temperatureIncrement()));
        }
        return new TranscriptionRequest(model, format, stream, List.copyOf(ignored), options);
    }

    static boolean bool(String name, String s) {
        return switch (s.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw ApiError.invalid(name, name + " must be true or false, got '" + s + "'");
        };
    }

    static double number(String name, String s) {
        try {
            double v = Double.parseDouble(s.strip());
            if (!Double.isFinite(v)) throw new NumberFormatException();
            return v;
        } catch (NumberFormatException e) {
            throw ApiError.invalid(name, name + " must be a number, got '" + s + "'");
        }
    }
}
