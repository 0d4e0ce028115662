package dev.audioengine.model.output;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes 16-bit PCM mono WAV piece by piece, for audio whose length is not known when it starts (speech synthesized
 * as it is read).
 * <p>
 * The header goes first with both sizes (RIFF and data) set to 0xFFFFFFFF, which readers take as "the samples run to
 * the end of the stream": ffmpeg writes it to a pipe and reads it back so, as do sox, libsndfile and this project's
 * WavHeader. A file is then patched with the true sizes on {@link #close} (so a file read while it is still growing,
 * or left by a killed process, still plays); a stream (standard output, a socket) cannot be, and keeps 0xFFFFFFFF.
 * Buffering the whole audio to write exact sizes was the alternative; it would lose the point of streaming.
 */
public final class WavStreamWriter implements AutoCloseable {
    private static final int UNKNOWN = 0xFFFF_FFFF;

    private final OutputStream out;
    private final FileChannel file;
    private long dataBytes;
    private boolean closed;

    private WavStreamWriter(OutputStream out, FileChannel file, int sampleRate) throws IOException {
        this.out = out;
        this.file = file;
        out.write(WavWriter.pcm16Header(sampleRate, UNKNOWN, UNKNOWN));
    }

    /**
     * Creates (or truncates) {@code path}; the sizes are filled in on close.
     *
     * @param path the WAV file
     * @param sampleRate samples per second, {@code > 0}
     * @return the writer, which owns the file and closes it
     * @throws IOException if the file cannot be opened or the header written
     * @throws IllegalArgumentException if the rate is not positive
     */
    public static WavStreamWriter toFile(Path path, int sampleRate) throws IOException {
        FileChannel ch = FileChannel.open(
                path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        try {
            return new WavStreamWriter(new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16), ch, sampleRate);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Writes to {@code out}, which is flushed after every piece and left open on close (it may be standard output).
     *
     * @param out the stream; the header is written to it at once; not buffered here, so wrap a raw stream
     * @param sampleRate samples per second, {@code > 0}
     * @return the writer; the sizes stay 0xFFFFFFFF
     * @throws IOException if the header cannot be written
     * @throws IllegalArgumentException if the rate is not positive
     */
    public static WavStreamWriter toStream(OutputStream out, int sampleRate) throws IOException {
        return new WavStreamWriter(out, null, sampleRate);
    }

    /**
     * Appends {@code samples} (converted as {@link WavWriter#pcm16}) and flushes them to the stream.
     *
     * @param samples mono audio in [-1, 1] (clipped beyond) at the writer's rate
     * @throws IOException if writing fails, or a file would outgrow WAV's 4 GiB
     * @throws IllegalStateException if the writer is closed
     */
    public void write(float[] samples) throws IOException {
        if (closed) throw new IllegalStateException("the WAV stream is closed");
        long after = dataBytes + 2L * samples.length;
        if (file != null && WavWriter.PCM16_HEADER - 8 + after > 0xFFFF_FFFFL) {
            throw new IOException("the audio outgrew one WAV file (4 GiB); synthesize shorter text per file");
        }
        WavWriter.writePcm16Samples(out, samples, 0, samples.length);
        dataBytes = after;
        if (file == null) out.flush(); // a player on the pipe hears each piece as soon as it is made
    }

    /**
     * Samples written so far.
     *
     * @return the count, in samples (not bytes)
     */
    public long samples() {
        return dataBytes / 2;
    }

    /**
     * Ends the audio (idempotent): a file gets its true sizes and is closed; a stream is flushed and left open.
     *
     * @throws IOException if flushing or patching the header fails
     */
    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        if (file == null) {
            out.flush();
            return;
        }
        try (file) {
            out.flush();
            ByteBuffer size = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            file.write(size.putInt(0, (int) (WavWriter.PCM16_HEADER - 8 + dataBytes)), 4);
            file.write(size.clear().putInt(0, (int) dataBytes), WavWriter.PCM16_HEADER - 4);
        }
    }
}
