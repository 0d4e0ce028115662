package dev.audioengine.server.openai;

import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.MultipartForm;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The form fields of {@code POST /v1/audio/keywords}: the CLI's --task kws options under form names ({@code keywords}
 * comma-separated, {@code threshold}, {@code refractory_ms}, {@code vad_threshold}) with the CLI's defaults.
 */
record KeywordsRequest(Optional<String> model, KeywordOptions options, Optional<Double> vadThreshold) {
    static final Set<String> FIELDS =
            Set.of("file", "model", "keywords", "threshold", "refractory_ms", "vad_threshold");

    static KeywordsRequest of(MultipartForm form) {
        for (String name : form.fieldNames()) {
            if (!FIELDS.contains(name)) {
                throw ApiError.invalid(
                        name,
                        "unrecognized parameter " + name + "; this endpoint takes "
                                + String.join(", ", FIELDS.stream().sorted().toList()));
            }
        }
        KeywordOptions d = KeywordOptions.DEFAULTS;
        double threshold = form.field("threshold")
                .map(s -> TranscriptionRequest.number("threshold", s))
                .orElse(d.threshold());
        double refractory = form.field("refractory_ms")
                .map(s -> {
                    try {
                        return Integer.parseInt(s.strip()) / 1000.0;
                    } catch (NumberFormatException e) {
                        throw ApiError.invalid(
                                "refractory_ms",
                                "refractory_ms must be a whole number of milliseconds, got '" + s + "'");
                    }
                })
                .orElse(d.refractorySeconds());
        List<String> keywords = form.field("keywords")
                .map(s -> Arrays.stream(s.split(","))
                        .map(String::strip)
                        .filter(k -> !k.isEmpty())
                        .toList())
                .orElse(List.of());
        if (form.field("keywords").isPresent() && keywords.isEmpty())
            throw ApiError.invalid("keywords", "keywords names no keyword");
        KeywordOptions options = options(threshold, refractory, keywords, "");
        Optional<Double> vad = form.field("vad_threshold").map(s -> TranscriptionRequest.number("vad_threshold", s));
        if (vad.isPresent() && !(vad.get() > 0 && vad.get() < 1))
            throw ApiError.invalid("vad_threshold", "vad_threshold must be in (0, 1), got " + vad.get());
        return new KeywordsRequest(form.field("model").map(String::strip).filter(s -> !s.isEmpty()), options, vad);
    }

    /** The options, their errors naming {@code prefix} + the parameter (threshold, refractory_ms, keywords). */
    static KeywordOptions options(double threshold, double refractorySeconds, List<String> keywords, String prefix) {
        try {
            return new KeywordOptions(threshold, refractorySeconds, keywords);
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            String param =
                    m.startsWith("threshold") ? "threshold" : m.startsWith("refractory") ? "refractory_ms" : "keywords";
            throw ApiError.invalid(prefix + param, m);
        }
    }
}
