package dev.audioengine.api.audio;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Hands a Java stream to libsndfile as a pipe: a daemon thread writes the bytes already read (to
 * recognize the format) and then the rest of the stream into the pipe's write end, and libsndfile
 * reads the other end with its own pipe support, which decides which formats can stream. The
 * thread ends at the stream's end, or when the reader has closed its end (the write fails).
 */
final class PipeFeeder implements AutoCloseable {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle PIPE = libc("pipe", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    private static final MethodHandle WRITE = libc("write",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle CLOSE = libc("close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private final int readFd, writeFd;
    private final Thread thread;
    private volatile IOException failure;
    private boolean closed;

    private PipeFeeder(int readFd, int writeFd, byte[] head, InputStream rest, String source) {
        this.readFd = readFd;
        this.writeFd = writeFd;
        thread = Thread.ofPlatform().daemon().name("audioengine-pipe " + source).unstarted(() -> pump(head, rest));
    }

    static PipeFeeder start(byte[] head, InputStream rest, String source) throws IOException {
        int[] fds = new int[2];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pair = arena.allocate(ValueLayout.JAVA_INT, 2);
            if ((int) PIPE.invokeExact(pair) != 0) throw new IOException(source + ": could not create a pipe for libsndfile");
            fds[0] = pair.getAtIndex(ValueLayout.JAVA_INT, 0);
            fds[1] = pair.getAtIndex(ValueLayout.JAVA_INT, 1);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("pipe() failed", t);
        }
        PipeFeeder feeder = new PipeFeeder(fds[0], fds[1], head, rest, source);
        feeder.thread.start();
        return feeder;
    }

    /** The descriptor libsndfile reads. */
    int readFd() { return readFd; }

    /** Why the stream could not be read to its end, or null. */
    IOException failure() { return failure; }

    private void pump(byte[] head, InputStream rest) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(1 << 16);
            byte[] bytes = new byte[(int) block.byteSize()];
            if (!write(block, head, head.length)) return;
            int n;
            while ((n = rest.read(bytes)) > 0) if (!write(block, bytes, n)) return;
        } catch (IOException e) {
            failure = e;
        } finally {
            closeFd(writeFd);
        }
    }

    /** False when the reader's end is closed. */
    private boolean write(MemorySegment block, byte[] bytes, int n) {
        MemorySegment.copy(bytes, 0, block, ValueLayout.JAVA_BYTE, 0, n);
        long done = 0;
        while (done < n) {
            long w;
            try {
                w = (long) WRITE.invokeExact(writeFd, block.asSlice(done), (long) (n - done));
            } catch (Throwable t) {
                throw new IllegalStateException("write() failed", t);
            }
            if (w <= 0) return false;
            done += w;
        }
        return true;
    }

    /** Closes the read end (libsndfile does not own it); the pump then stops at its next write. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        closeFd(readFd);
    }

    private static void closeFd(int fd) {
        try {
            int unused = (int) CLOSE.invokeExact(fd); // nothing to do about a failed close of a pipe end
        } catch (Throwable t) {
            throw new IllegalStateException("close() failed", t);
        }
    }

    private static MethodHandle libc(String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow(name), fd);
    }
}
