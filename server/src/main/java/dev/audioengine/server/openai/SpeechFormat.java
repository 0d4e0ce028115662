package dev.audioengine.server.openai;

import dev.audioengine.audio.FlacEncoder;
import dev.audioengine.model.output.WavStreamWriter;
import dev.audioengine.model.output.WavWriter;
import dev.audioengine.server.http.ApiError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The audio encodings POST /v1/audio/speech answers in, by OpenAI's names: 16-bit mono samples in a WAV file, raw
 * (pcm: little-endian, no header, as OpenAI documents it), or FLAC. Every one carries the same 16-bit samples
 * ({@link WavWriter#pcm16}), so a client gets the same audio whatever it asks for. OpenAI's lossy formats (mp3, opus,
 * aac) are refused by name: there is no encoder for them here.
 */
enum SpeechFormat {
    WAV("wav", "audio/wav"),
    PCM("pcm", "audio/pcm"),
    FLAC("flac", "audio/flac");

    /** OpenAI's response formats this server cannot encode. */
    static final List<String> LOSSY = List.of("mp3", "opus", "aac");

    final String wireName;
    private final String mediaType;

    SpeechFormat(String wireName, String mediaType) {
        this.wireName = wireName;
        this.mediaType = mediaType;
    }

    static SpeechFormat parse(String s) {
        String name = s.strip();
        for (SpeechFormat f : values()) if (f.wireName.equals(name)) return f;
        throw ApiError.invalid(
                "response_format",
                (LOSSY.contains(name)
                                ? "response_format " + name + " cannot be encoded by this server"
                                : "response_format '" + s + "' is not a speech format")
                        + "; it gives wav, pcm (16-bit little-endian mono) and flac");
    }

    /** The Content-Type of audio at {@code rate}; pcm's names the rate and layout, since nothing in the bytes does. */
    String mediaType(int rate) {
        return this == PCM ? mediaType + ";rate=" + rate + ";bits=16;channels=1;endianness=little" : mediaType;
    }

    /** The whole audio as one body: WAV with its true sizes, raw samples, or a FLAC file. */
    byte[] whole(float[] samples, int rate) {
        return switch (this) {
            case WAV -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream(44 + 2 * samples.length);
                try {
                    WavWriter.writePcm16(out, samples, rate);
                } catch (IOException e) {
                    throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
                }
                yield out.toByteArray();
            }
            case PCM -> pcm16(samples);
            case FLAC -> FlacEncoder.encode(pcm16Samples(samples), rate);
        };
    }

    /**
     * What a stream of this format starts with before its first samples: WAV's header with both sizes 0xFFFFFFFF
     * ("to the end of the stream", as {@link WavStreamWriter} writes to a pipe), nothing for pcm.
     */
    byte[] streamHeader(int rate) {
        if (this == PCM) return new byte[0];
        if (this != WAV) throw new IllegalStateException(wireName + " is not streamed");
        ByteArrayOutputStream out = new ByteArrayOutputStream(44);
        try {
            WavStreamWriter.toStream(out, rate).close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The samples as 16-bit little-endian integers, WAV's data chunk and pcm's whole body. */
    static byte[] pcm16(float[] samples) {
        byte[] out = new byte[2 * samples.length];
        for (int i = 0; i < samples.length; i++) {
            short v = WavWriter.pcm16(samples[i]);
            out[2 * i] = (byte) v;
            out[2 * i + 1] = (byte) (v >> 8);
        }
        return out;
    }

    static short[] pcm16Samples(float[] samples) {
        short[] out = new short[samples.length];
        for (int i = 0; i < samples.length; i++) out[i] = WavWriter.pcm16(samples[i]);
        return out;
    }
}
