package dev.audioengine.audio;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Reads a whole RIFF/WAVE file into a mono clip: PCM 8 (unsigned), 16, 24 and 32-bit integer,
 * 32 and 64-bit float, 8-bit A-law and µ-law, plain or WAVE_FORMAT_EXTENSIBLE, any channel count
 * (averaged to mono), rates from 1 kHz to 768 kHz. Built on {@link AudioStream}, which reads the
 * other formats too and does not need the whole clip in memory. Stateless and thread-safe.
 */
public final class WavReader {
    private static final System.Logger LOG = System.getLogger(WavReader.class.getName());

    private WavReader() {}

    /** Reads a WAV file; warnings (a truncated file) are logged at WARNING. */
    public static AudioClip read(Path file) throws IOException {
        return read(file, w -> LOG.log(System.Logger.Level.WARNING, w));
    }

    /** Reads a WAV file; warnings (a truncated file, decoded as far as it goes) go to {@code warnings}. */
    public static AudioClip read(Path file, Consumer<String> warnings) throws IOException {
        try (AudioStream in = AudioStream.openWav(file, warnings)) {
            return in.readAll();
        }
    }

    /** Decodes WAV bytes; {@code source} names them in error messages; warnings go to {@code warnings}. */
    public static AudioClip decode(byte[] bytes, String source, Consumer<String> warnings) throws IOException {
        try (AudioStream in = AudioStream.openWav(new ByteArrayInputStream(bytes), source, bytes.length, warnings)) {
            return in.readAll();
        }
    }

    /** Decodes WAV bytes; warnings are logged at WARNING. */
    public static AudioClip decode(byte[] bytes, String source) throws IOException {
        return decode(bytes, source, w -> LOG.log(System.Logger.Level.WARNING, w));
    }
}
