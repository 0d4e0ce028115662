package dev.audioengine.audio;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * Every format libsndfile reads (FLAC, Ogg Vorbis and Opus, MP3, AIFF, AU/SND, W64, CAF, RF64,
 * ...), as float frames; integer encodings come out scaled to [-1, 1) as sox scales them. Owns
 * its SNDFILE and the native buffer it reads into, both freed by {@link #close()}. Not thread-safe.
 */
final class SndfileDecoder implements FrameDecoder {
    /** libsndfile's frame count for a stream whose length it cannot know (SF_COUNT_MAX). */
    private static final long UNKNOWN_FRAMES = Long.MAX_VALUE;

    private final Libsndfile sf;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment file;
    private final VirtualInput stream;
    private final String source;
    private final int rate, channels;
    private final long frames;
    private final String description;
    private MemorySegment buffer = MemorySegment.NULL;
    private boolean closed;

    private SndfileDecoder(Libsndfile sf, MemorySegment file, MemorySegment info, VirtualInput stream, String source) {
        this.sf = sf;
        this.file = file;
        this.stream = stream;
        this.source = source;
        rate = info.get(ValueLayout.JAVA_INT, offset("samplerate"));
        channels = info.get(ValueLayout.JAVA_INT, offset("channels"));
        long n = info.get(ValueLayout.JAVA_LONG, offset("frames"));
        // from a stream, a count near the pretended length is libsndfile's arithmetic on it, not the file's
        frames = n < 0 || n == UNKNOWN_FRAMES || (stream != null && n > VirtualInput.UNKNOWN_LENGTH >> 16) ? -1 : n;
        int format = info.get(ValueLayout.JAVA_INT, offset("format"));
        description = sf.formatName(format & Libsndfile.SF_FORMAT_TYPEMASK) + ", "
                + sf.formatName(format & Libsndfile.SF_FORMAT_SUBMASK) + " (libsndfile " + sf.versionString() + ")";
    }

    /** Opens a file; {@code guess} names what the first bytes look like, for the message when libsndfile is missing. */
    static SndfileDecoder open(Path path, String source, String guess) throws IOException {
        Libsndfile sf = Libsndfile.get(source, guess);
        Arena scratch = Arena.ofConfined();
        try (scratch) {
            MemorySegment info = scratch.allocate(Libsndfile.SF_INFO);
            MemorySegment file = (MemorySegment)
                    sf.open.invokeExact(scratch.allocateFrom(path.toString()), Libsndfile.SFM_READ, info);
            if (file.equals(MemorySegment.NULL)) {
                throw new DecoderRefusedException(source + ": "
                        + (guess.startsWith("WAV")
                                ? "a " + guess
                                        + ", which the WAV reader does not decode and libsndfile cannot read either (libsndfile: "
                                        + sf.error(MemorySegment.NULL) + ")"
                                : "not a WAV file, and libsndfile cannot read it either: "
                                        + sf.error(MemorySegment.NULL)));
            }
            return checked(new SndfileDecoder(sf, file, info, null, source));
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("sf_open failed", t);
        }
    }

    /** Opens a stream whose first bytes, {@code head}, were already read from it. */
    static SndfileDecoder open(byte[] head, InputStream rest, String source, String guess) throws IOException {
        Libsndfile sf = Libsndfile.get(source, guess);
        VirtualInput stream = new VirtualInput(head, rest, source);
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment info = scratch.allocate(Libsndfile.SF_INFO);
            MemorySegment file = (MemorySegment)
                    sf.openVirtual.invokeExact(VirtualInput.callbacks(), Libsndfile.SFM_READ, info, stream.userData());
            if (file.equals(MemorySegment.NULL)) {
                if (stream.failure() != null) // the stream's fault, not the format's: no other decoder can do better
                throw new AudioFormatException(source
                        + ": not a WAV stream, and libsndfile cannot read it from a stream (" + guess
                        + "): reading it failed: " + stream.failure().getMessage());
                throw new DecoderRefusedException(source
                        + ": not a WAV stream, and libsndfile cannot read it from a stream (" + guess + "): "
                        + sf.error(MemorySegment.NULL) + "; formats that need seeking must be passed as a file");
            }
            return checked(new SndfileDecoder(sf, file, info, stream, source));
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e;
        } catch (Throwable t) {
            stream.close();
            throw new IllegalStateException("sf_open_virtual failed", t);
        }
    }

    private static SndfileDecoder checked(SndfileDecoder d) throws IOException {
        try {
            if (d.channels < 1 || d.channels > 1024)
                throw new AudioFormatException(d.source + ": " + d.channels + " channels");
            SampleRateRange.check(Integer.toUnsignedLong(d.rate), d.source);
            return d;
        } catch (IOException e) {
            d.close();
            throw e;
        }
    }

    private static long offset(String field) {
        return Libsndfile.SF_INFO.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }

    @Override
    public int sampleRate() {
        return rate;
    }

    @Override
    public int channels() {
        return channels;
    }

    @Override
    public long frames() {
        return frames;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public int read(float[] dst, int maxFrames) throws IOException {
        long floats = (long) maxFrames * channels;
        if (buffer.byteSize() < floats * Float.BYTES) buffer = arena.allocate(ValueLayout.JAVA_FLOAT, floats);
        long got;
        try {
            got = (long) sf.readfFloat.invokeExact(file, buffer, (long) maxFrames);
        } catch (Throwable t) {
            throw new IllegalStateException("sf_readf_float failed", t);
        }
        if (got <= 0) {
            if (stream != null && stream.failure() != null)
                throw new IOException(
                        source + ": reading the stream failed: "
                                + stream.failure().getMessage(),
                        stream.failure());
            return -1;
        }
        MemorySegment.copy(buffer, ValueLayout.JAVA_FLOAT, 0, dst, 0, (int) (got * channels));
        return (int) got;
    }

    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        try {
            int unused = (int) sf.close.invokeExact(file); // sf_close reports only errors of a file being written
        } catch (Throwable t) {
            throw new IllegalStateException("sf_close failed", t);
        } finally {
            if (stream != null) stream.close();
            arena.close();
        }
    }
}
