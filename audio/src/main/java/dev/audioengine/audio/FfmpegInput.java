package dev.audioengine.audio;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes FFmpeg demuxes, served from Java through an AVIOContext's read and seek callbacks: a file through its
 * {@link FileChannel} (seekable, with a size: MP4's index at the end is reached by seeking), a stream front to back (no
 * seek callback, so FFmpeg knows it cannot seek; what it probes it keeps in its own buffer).
 *
 * <p>Why callbacks rather than handing FFmpeg the path: FFmpeg reads a path as a URL (a name with a colon is a protocol,
 * {@code concat:}, {@code subfile,}), and demuxers such as HLS or concat open further URLs named inside the file. Here
 * FFmpeg sees only these bytes; the decoder also sets an empty protocol whitelist so a file cannot reach any other file
 * or the network. A pipe, standard input and a file then take the same path, and memory stays bounded by FFmpeg's
 * buffer and probe size. Callbacks run on the thread that called FFmpeg; not thread-safe.
 */
final class FfmpegInput implements AutoCloseable {
    private static final int SEEK_SET = 0, SEEK_CUR = 1, SEEK_END = 2;
    private static final Map<Long, FfmpegInput> OPEN = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong(1);
    static final MemorySegment READ, SEEK;

    static {
        Linker linker = Linker.nativeLinker();
        var lookup = MethodHandles.lookup();
        try {
            READ = linker.upcallStub(
                    lookup.findStatic(
                            FfmpegInput.class,
                            "read",
                            MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, int.class)),
                    FunctionDescriptor.of(
                            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
                    Arena.global());
            SEEK = linker.upcallStub(
                    lookup.findStatic(
                            FfmpegInput.class,
                            "seek",
                            MethodType.methodType(long.class, MemorySegment.class, long.class, int.class)),
                    FunctionDescriptor.of(
                            ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT),
                    Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id = IDS.getAndIncrement();
    private final FileChannel channel;
    private final InputStream stream;
    private final long size;
    private byte[] bytes;
    private long position;
    private IOException failure;

    private FfmpegInput(FileChannel channel, InputStream stream, long size) {
        this.channel = channel;
        this.stream = stream;
        this.size = size;
        OPEN.put(id, this);
    }

    static FfmpegInput of(Path file) throws IOException {
        FileChannel c = FileChannel.open(file, StandardOpenOption.READ);
        try {
            return new FfmpegInput(c, null, c.size());
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    static FfmpegInput of(InputStream stream) {
        return new FfmpegInput(null, stream, -1);
    }

    boolean seekable() {
        return channel != null;
    }

    /** The opaque pointer that names this input to the callbacks. */
    MemorySegment opaque() {
        return MemorySegment.ofAddress(id);
    }

    /** Why reading failed (the Java stream's exception), or null. */
    IOException failure() {
        return failure;
    }

    /** Bytes handed to FFmpeg so far (a file: the position). */
    long position() {
        return position;
    }

    @Override
    public void close() throws IOException {
        OPEN.remove(id);
        if (channel != null) channel.close();
        else stream.close();
    }

    // The callbacks: an exception must never reach native code, so each catches everything.

    private static int read(MemorySegment opaque, MemorySegment buf, int size) {
        FfmpegInput in = OPEN.get(opaque.address());
        if (in == null || size <= 0) return Ffmpeg.AVERROR_EIO;
        try {
            int n = in.read(buf.reinterpret(size), size);
            if (n < 0) return Ffmpeg.AVERROR_EOF;
            in.position += n;
            return n;
        } catch (Throwable t) {
            in.failure = t instanceof IOException e ? e : new IOException(t);
            return Ffmpeg.AVERROR_EIO;
        }
    }

    private int read(MemorySegment dst, int size) throws IOException {
        if (channel != null) return channel.read(dst.asByteBuffer());
        if (bytes == null || bytes.length < size) bytes = new byte[Math.max(size, 1 << 15)];
        int n = stream.read(bytes, 0, size);
        while (n == 0) n = stream.read(bytes, 0, size); // FFmpeg reads 0 as an error; a stream's 0 is "try again"
        if (n > 0) MemorySegment.copy(bytes, 0, dst, ValueLayout.JAVA_BYTE, 0, n);
        return n;
    }

    private static long seek(MemorySegment opaque, long offset, int whence) {
        FfmpegInput in = OPEN.get(opaque.address());
        if (in == null || in.channel == null) return Ffmpeg.AVERROR_EIO;
        try {
            if ((whence & Ffmpeg.AVSEEK_SIZE) != 0) return in.size;
            long target = switch (whence & ~Ffmpeg.AVSEEK_FORCE) {
                case SEEK_SET -> offset;
                case SEEK_CUR -> in.position + offset;
                case SEEK_END -> in.size + offset;
                default -> -1;
            };
            if (target < 0) return Ffmpeg.AVERROR_EIO;
            in.channel.position(target);
            in.position = target;
            return target;
        } catch (Throwable t) {
            in.failure = t instanceof IOException e ? e : new IOException(t);
            return Ffmpeg.AVERROR_EIO;
        }
    }
}
