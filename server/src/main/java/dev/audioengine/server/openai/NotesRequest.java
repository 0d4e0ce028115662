package dev.audioengine.server.openai;

import dev.audioengine.model.task.NoteOptions;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.MultipartForm;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The form fields of {@code POST /v1/audio/notes}: the CLI's --task notes options under form names
 * ({@code onset_threshold}, {@code frame_threshold}, {@code min_note_frames}, {@code melodia}, {@code pitch_bends},
 * {@code min_freq}, {@code max_freq}) with the CLI's defaults, and {@code response_format}: {@code json} (what
 * {@code --task notes --json} prints), {@code midi} (the file {@code --out} writes) or {@code csv} (what {@code --csv}
 * writes).
 */
record NotesRequest(Optional<String> model, NoteOptions options, Format format) {
    enum Format {
        JSON("application/json"),
        MIDI("audio/midi"),
        CSV("text/csv; charset=utf-8");

        final String contentType;

        Format(String contentType) {
            this.contentType = contentType;
        }
    }

    static final Set<String> FIELDS = Set.of(
            "file",
            "model",
            "response_format",
            "onset_threshold",
            "frame_threshold",
            "min_note_frames",
            "melodia",
            "pitch_bends",
            "min_freq",
            "max_freq");

    static NotesRequest of(MultipartForm form) {
        for (String name : form.fieldNames()) {
            if (!FIELDS.contains(name)) {
                throw ApiError.invalid(
                        name,
                        "unrecognized parameter " + name + "; this endpoint takes "
                                + String.join(", ", FIELDS.stream().sorted().toList()));
            }
        }
        NoteOptions d = NoteOptions.DEFAULTS;
        Format format = form.field("response_format")
                .map(s -> switch (s.strip().toLowerCase(Locale.ROOT)) {
                    case "json" -> Format.JSON;
                    case "midi", "mid" -> Format.MIDI;
                    case "csv" -> Format.CSV;
                    default ->
                        throw ApiError.invalid(
                                "response_format", "response_format must be json, midi or csv, got '" + s + "'");
                })
                .orElse(Format.JSON);
        double onset = number(form, "onset_threshold", d.onsetThreshold());
        double frame = number(form, "frame_threshold", d.frameThreshold());
        double minFreq = number(form, "min_freq", d.minFrequency());
        double maxFreq = number(form, "max_freq", d.maxFrequency());
        int minFrames = form.field("min_note_frames")
                .map(s -> {
                    try {
                        return Integer.parseInt(s.strip());
                    } catch (NumberFormatException e) {
                        throw ApiError.invalid(
                                "min_note_frames", "min_note_frames must be a whole number, got '" + s + "'");
                    }
                })
                .orElse(d.minNoteFrames());
        boolean melodia = form.field("melodia")
                .map(s -> TranscriptionRequest.bool("melodia", s))
                .orElse(d.melodiaTrick());
        boolean bends = form.field("pitch_bends")
                .map(s -> TranscriptionRequest.bool("pitch_bends", s))
                .orElse(d.pitchBends());
        // the CLI's checks and words, each naming the field it is about
        if (!(onset > 0 && onset < 1))
            throw ApiError.invalid("onset_threshold", "onset_threshold must be between 0 and 1, got " + onset);
        if (!(frame > 0 && frame < 1))
            throw ApiError.invalid("frame_threshold", "frame_threshold must be between 0 and 1, got " + frame);
        if (minFrames < 0)
            throw ApiError.invalid("min_note_frames", "min_note_frames must not be negative, got " + minFrames);
        if (minFreq < 0) throw ApiError.invalid("min_freq", "min_freq must not be negative, got " + minFreq);
        if (maxFreq < 0 || (maxFreq > 0 && minFreq >= maxFreq))
            throw ApiError.invalid(
                    "max_freq", "max_freq must be above min_freq (0 for none), got " + maxFreq + " and " + minFreq);
        NoteOptions options = d.withThresholds(onset, frame)
                .withMinNoteFrames(minFrames)
                .withMelodiaTrick(melodia)
                .withPitchBends(bends)
                .withFrequencyRange(minFreq, maxFreq);
        return new NotesRequest(form.field("model").map(String::strip).filter(s -> !s.isEmpty()), options, format);
    }

    private static double number(MultipartForm form, String name, double otherwise) {
        return form.field(name).map(s -> TranscriptionRequest.number(name, s)).orElse(otherwise);
    }
}
