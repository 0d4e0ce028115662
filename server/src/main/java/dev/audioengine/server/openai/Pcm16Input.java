package dev.audioengine.server.openai;

import dev.audioengine.server.http.ApiError;
import java.util.Base64;
import java.util.Map;
import java.util.Set;

/**
 * The audio a realtime session takes, whatever its intent: {@code input_audio_buffer.append} with base64 PCM16
 * (16-bit little-endian mono) at 24 kHz, OpenAI's rate, or 16 kHz ({@code input_audio_sample_rate}, this server's
 * addition). One place, so that the transcription and keyword sessions take and refuse the same audio.
 */
final class Pcm16Input {
    /** OpenAI's pcm16 is 24 kHz; 16 kHz is taken too. */
    static final Set<Integer> RATES = Set.of(16_000, 24_000);

    private Pcm16Input() {}

    /** {@code session.input_audio_format}: pcm16 only. */
    static void format(Object v) {
        if (!"pcm16".equals(v))
            throw ApiError.invalid(
                    "session.input_audio_format",
                    "invalid_value",
                    "input_audio_format " + v + " is not supported; this server takes pcm16 (16-bit "
                            + "little-endian mono, 24 kHz as OpenAI's, or 16 kHz with input_audio_sample_rate)");
    }

    /** {@code session.input_audio_sample_rate}: one of {@link #RATES}. */
    static int rate(Object v) {
        if (!(v instanceof Double d) || !RATES.contains((int) (double) d) || d != Math.rint(d))
            throw ApiError.invalid(
                    "session.input_audio_sample_rate",
                    "invalid_value",
                    "input_audio_sample_rate must be 16000 or 24000, got " + v);
        return (int) (double) d;
    }

    /** The samples of an {@code input_audio_buffer.append} event, in [-1, 1); an error event's ApiError when it has none. */
    static float[] samples(Map<String, Object> event) {
        if (!(event.get("audio") instanceof String b64))
            throw ApiError.invalid("audio", "invalid_value", "input_audio_buffer.append needs \"audio\": base64 PCM16");
        byte[] pcm;
        try {
            pcm = Base64.getDecoder().decode(b64);
        } catch (IllegalArgumentException e) {
            throw ApiError.invalid("audio", "invalid_value", "audio is not valid base64: " + e.getMessage());
        }
        if (pcm.length % 2 != 0)
            throw ApiError.invalid(
                    "audio",
                    "invalid_value",
                    "audio has " + pcm.length + " bytes, an odd number: pcm16 takes 2 bytes a sample, so an append "
                            + "holds whole samples");
        float[] x = new float[pcm.length / 2];
        for (int i = 0; i < x.length; i++) x[i] = (short) ((pcm[2 * i] & 0xff) | (pcm[2 * i + 1] << 8)) / 32768f;
        return x;
    }
}
