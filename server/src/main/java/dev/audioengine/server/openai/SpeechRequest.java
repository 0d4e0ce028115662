package dev.audioengine.server.openai;

import dev.audioengine.model.task.SynthesisOptions;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.JsonBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JSON body of {@code POST /v1/audio/speech}, checked as OpenAI defines it. {@code instructions} (gpt-4o-mini-tts'
 * steering) is accepted without effect and named in {@link #ignored()}; a member this server does not know is refused,
 * as OpenAI refuses it.
 *
 * @param voice    the voice asked for (a name, or the id of OpenAI's {@code {"id": ...}} form); empty: the model's default
 * @param delivery how the audio goes back: whole, streamed as it is made, or as events
 */
record SpeechRequest(
        String model,
        String input,
        Optional<String> voice,
        SpeechFormat format,
        double speed,
        Delivery delivery,
        List<String> ignored) {
    /** How the answer is sent. */
    enum Delivery {
        /** Once the whole audio is made: WAV with its true sizes, FLAC, with a Content-Length. */
        WHOLE,
        /** Chunk by chunk as each piece of the text is synthesized (stream_format audio). */
        AUDIO,
        /** Server-Sent Events speech.audio.delta, then speech.audio.done (stream_format sse). */
        SSE
    }

    static final Set<String> FIELDS =
            Set.of("model", "input", "voice", "response_format", "speed", "stream_format", "instructions");

    static SpeechRequest of(Map<String, Object> body, int maxInputChars) {
        for (String name : body.keySet()) {
            if (!FIELDS.contains(name)) {
                throw ApiError.invalid(
                        name,
                        "unrecognized parameter " + name + "; this endpoint takes "
                                + String.join(", ", FIELDS.stream().sorted().toList()));
            }
        }
        String model = string(body, "model")
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .orElseThrow(
                        () -> ApiError.invalid("model", "you must provide a model parameter (see GET /v1/models)"));
        String input = string(body, "input")
                .orElseThrow(() -> ApiError.invalid("input", "you must provide the input: the text to say"));
        if (input.isBlank()) throw ApiError.invalid("input", "input is empty; give the text to say");
        int chars = input.codePointCount(0, input.length());
        if (chars > maxInputChars) {
            throw ApiError.invalid(
                    "input",
                    "input is " + chars + " characters; this server says at most " + maxInputChars
                            + " per request (--max-input-chars); split the text");
        }
        Optional<String> voice = voice(body.get("voice"));
        SpeechFormat format =
                string(body, "response_format").map(SpeechFormat::parse).orElse(SpeechFormat.WAV);
        double speed = SynthesisOptions.DEFAULTS.speed();
        Object s = body.get("speed");
        if (s != null && s != JsonBody.NULL) {
            if (!(s instanceof Double d)) throw ApiError.invalid("speed", "speed must be a number, got " + describe(s));
            if (!(d >= 0.25 && d <= 4)) throw ApiError.invalid("speed", "speed must be between 0.25 and 4, got " + d);
            speed = d;
        }
        Delivery delivery = delivery(string(body, "stream_format"), format);
        List<String> ignored = new ArrayList<>();
        string(body, "instructions").filter(t -> !t.isBlank()).ifPresent(t -> ignored.add("instructions"));
        return new SpeechRequest(model, input, voice, format, speed, delivery, List.copyOf(ignored));
    }

    /**
     * stream_format audio streams what can be streamed without a false header: pcm, and WAV with 0xFFFFFFFF sizes;
     * FLAC is sent once encoded (its header holds the length and checksum). With no stream_format, pcm still streams
     * (its bytes are the same either way) while WAV and FLAC are sent whole with their true sizes.
     */
    private static Delivery delivery(Optional<String> streamFormat, SpeechFormat format) {
        if (streamFormat.isEmpty()) return format == SpeechFormat.PCM ? Delivery.AUDIO : Delivery.WHOLE;
        return switch (streamFormat.get().strip()) {
            case "audio" -> format == SpeechFormat.FLAC ? Delivery.WHOLE : Delivery.AUDIO;
            case "sse" -> {
                if (format == SpeechFormat.FLAC) {
                    throw ApiError.invalid(
                            "stream_format",
                            "stream_format sse sends the audio as it is made, and flac is encoded whole; "
                                    + "stream pcm or wav, or ask for flac without sse");
                }
                yield Delivery.SSE;
            }
            default ->
                throw ApiError.invalid(
                        "stream_format", "stream_format must be audio or sse, got '" + streamFormat.get() + "'");
        };
    }

    private static Optional<String> voice(Object v) {
        if (v == null || v == JsonBody.NULL) return Optional.empty();
        if (v instanceof Map<?, ?> m) {
            // OpenAI's custom-voice form, {"id": "..."}
            if (m.size() == 1 && m.get("id") instanceof String id && !id.isBlank()) return Optional.of(id.strip());
            throw ApiError.invalid("voice", "voice must be a voice name or {\"id\": NAME}, got " + describe(v));
        }
        if (!(v instanceof String s)) throw ApiError.invalid("voice", "voice must be a string, got " + describe(v));
        if (s.isBlank())
            throw ApiError.invalid(
                    "voice", "voice is empty; name a voice (GET /v1/audio/voices) or leave it out for the default");
        return Optional.of(s.strip());
    }

    private static Optional<String> string(Map<String, Object> body, String name) {
        Object v = body.get(name);
        if (v == null || v == JsonBody.NULL) return Optional.empty();
        if (!(v instanceof String s)) throw ApiError.invalid(name, name + " must be a string, got " + describe(v));
        return Optional.of(s);
    }

    private static String describe(Object v) {
        return switch (v) {
            case String s -> "the string \"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
            case Double d -> "the number " + d;
            case Boolean b -> b.toString();
            case Map<?, ?> m -> "an object";
            case List<?> l -> "an array";
            default -> "null";
        };
    }
}
