package dev.audioengine.audio;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Java stream as libsndfile's SF_VIRTUAL_IO, so a pipe (standard input) can hold any format
 * libsndfile decodes front to back. libsndfile treats virtual I/O as seekable and seeks while it
 * reads headers, so the bytes read so far are kept in a window (all of the first
 * {@value #WINDOW} bytes, then the latest ones) and seeks inside it are served; a seek behind the
 * window or to the end fails, and libsndfile reports that the format cannot be read this way.
 * Memory is bounded by the window. Callbacks run on the reading thread; never thread-safe.
 */
final class VirtualInput implements AutoCloseable {
    private static final int WINDOW = 1 << 20;
    private static final int SEEK_SET = 0, SEEK_CUR = 1;
    /**
     * The length reported for a stream, which has none: libsndfile bounds its reads by the file
     * length (a negative one reads nothing), and sizes its frame count from it, which the decoder
     * then reports as unknown.
     */
    static final long UNKNOWN_LENGTH = Long.MAX_VALUE >> 2;

    /** SF_VIRTUAL_IO: get_filelen, seek, read, write, tell. */
    static final StructLayout SF_VIRTUAL_IO = MemoryLayout.structLayout(
            ValueLayout.ADDRESS.withName("get_filelen"),
            ValueLayout.ADDRESS.withName("seek"),
            ValueLayout.ADDRESS.withName("read"),
            ValueLayout.ADDRESS.withName("write"),
            ValueLayout.ADDRESS.withName("tell"));

    private static final Map<Long, VirtualInput> OPEN = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong(1);
    private static final MemorySegment CALLBACKS = callbacks();

    private final long id = IDS.getAndIncrement();
    private final InputStream in;
    private final String source;
    private byte[] window = new byte[1 << 16];
    private long windowStart; // stream offset of window[0]
    private int windowLength;
    private long position;
    private boolean eof;
    private IOException failure;

    VirtualInput(byte[] head, InputStream in, String source) {
        this.in = in;
        this.source = source;
        System.arraycopy(head, 0, window, 0, head.length);
        windowLength = head.length;
        OPEN.put(id, this);
    }

    /** The callbacks struct to pass to sf_open_virtual (shared by every stream). */
    static MemorySegment callbacks() {
        if (CALLBACKS != null) return CALLBACKS;
        Linker linker = Linker.nativeLinker();
        Arena arena = Arena.global();
        MemorySegment s = arena.allocate(SF_VIRTUAL_IO);
        try {
            var lookup = MethodHandles.lookup();
            s.set(
                    ValueLayout.ADDRESS,
                    0,
                    linker.upcallStub(
                            lookup.findStatic(
                                    VirtualInput.class,
                                    "fileLength",
                                    MethodType.methodType(long.class, MemorySegment.class)),
                            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
                            arena));
            s.set(
                    ValueLayout.ADDRESS,
                    8,
                    linker.upcallStub(
                            lookup.findStatic(
                                    VirtualInput.class,
                                    "seek",
                                    MethodType.methodType(long.class, long.class, int.class, MemorySegment.class)),
                            FunctionDescriptor.of(
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.ADDRESS),
                            arena));
            s.set(
                    ValueLayout.ADDRESS,
                    16,
                    linker.upcallStub(
                            lookup.findStatic(
                                    VirtualInput.class,
                                    "read",
                                    MethodType.methodType(
                                            long.class, MemorySegment.class, long.class, MemorySegment.class)),
                            FunctionDescriptor.of(
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.ADDRESS,
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.ADDRESS),
                            arena));
            s.set(
                    ValueLayout.ADDRESS,
                    24,
                    linker.upcallStub(
                            lookup.findStatic(
                                    VirtualInput.class,
                                    "write",
                                    MethodType.methodType(
                                            long.class, MemorySegment.class, long.class, MemorySegment.class)),
                            FunctionDescriptor.of(
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.ADDRESS,
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.ADDRESS),
                            arena));
            s.set(
                    ValueLayout.ADDRESS,
                    32,
                    linker.upcallStub(
                            lookup.findStatic(
                                    VirtualInput.class, "tell", MethodType.methodType(long.class, MemorySegment.class)),
                            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
                            arena));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return s;
    }

    /** The user_data pointer that names this stream to the callbacks. */
    MemorySegment userData() {
        return MemorySegment.ofAddress(id);
    }

    /** Why reading the stream failed, or null. */
    IOException failure() {
        return failure;
    }

    @Override
    public void close() throws IOException {
        OPEN.remove(id);
        in.close();
    }

    // The callbacks: an exception must never cross into native code, so each one catches everything.

    private static long fileLength(MemorySegment user) {
        return UNKNOWN_LENGTH;
    }

    private static long tell(MemorySegment user) {
        VirtualInput v = OPEN.get(user.address());
        return v == null ? -1 : v.position;
    }

    private static long write(MemorySegment ptr, long count, MemorySegment user) {
        return 0;
    }

    private static long seek(long offset, int whence, MemorySegment user) {
        VirtualInput v = OPEN.get(user.address());
        if (v == null) return -1;
        long target = switch (whence) {
            case SEEK_SET -> offset;
            case SEEK_CUR -> v.position + offset;
            default -> -1; // SEEK_END: the end of a pipe is not known
        };
        if (target < v.windowStart) return -1;
        v.position = target;
        return target;
    }

    private static long read(MemorySegment ptr, long count, MemorySegment user) {
        VirtualInput v = OPEN.get(user.address());
        if (v == null) return 0;
        try {
            return v.read(ptr.reinterpret(count), count);
        } catch (Throwable t) {
            v.failure = t instanceof IOException e ? e : new IOException(t);
            return 0;
        }
    }

    private long read(MemorySegment dst, long count) throws IOException {
        if (position < windowStart) return 0;
        long done = 0;
        while (done < count) {
            long at = position - windowStart;
            if (at < windowLength) {
                int n = (int) Math.min(count - done, windowLength - at);
                MemorySegment.copy(window, (int) at, dst, ValueLayout.JAVA_BYTE, done, n);
                done += n;
                position += n;
            } else if (!fill()) {
                break;
            }
        }
        return done;
    }

    /** Reads more of the stream onto the window's end, sliding or growing it; false at the end. */
    private boolean fill() throws IOException {
        if (eof) return false;
        if (windowLength == window.length) {
            if (window.length < WINDOW) {
                window = java.util.Arrays.copyOf(window, Math.min(2 * window.length, WINDOW));
            } else {
                int drop = window.length / 2; // keep the latest half for seeks a little way back
                System.arraycopy(window, drop, window, 0, windowLength - drop);
                windowLength -= drop;
                windowStart += drop;
            }
        }
        int n = in.read(window, windowLength, window.length - windowLength);
        if (n < 0) {
            eof = true;
            return false;
        }
        windowLength += n;
        return true;
    }

    @Override
    public String toString() {
        return "VirtualInput[" + source + " at " + position + "]";
    }
}
