package dev.audioengine.cli.daemon;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire format between the client and the resident process, over a Unix domain socket: frames of a type byte, a
 * big-endian int length and that many bytes. Only java.base, so that the client stays small. Reads come from one
 * thread and writes from any (they are serialized here), as SocketChannel allows.
 *
 * <p>Client to daemon: {@link #RUN} (the job), {@link #STATUS}, {@link #STOP}, {@link #STDIN} (bytes the daemon asked
 * for; empty at end of input), {@link #STDOUT_CLOSED}. Daemon to client: {@link #HELLO} (its pid), {@link #STDOUT} and
 * {@link #STDERR} (bytes as the job writes them), {@link #STDIN_WANTED} (the job reads standard input: up to n bytes),
 * {@link #EXIT} (the job's exit status, last), {@link #TEXT} (the answer to STATUS or STOP).
 */
final class Frames {
    static final byte RUN = 'R', STATUS = 'S', STOP = 'Q', STDIN = 'I', STDOUT_CLOSED = 'P';
    static final byte HELLO = 'H', STDOUT = 'O', STDERR = 'E', STDIN_WANTED = 'N', EXIT = 'X', TEXT = 'T';

    /** The most a frame may carry: a guard against reading garbage as a length. */
    static final int MAX_PAYLOAD = 1 << 24;

    private final SocketChannel channel;
    private final ByteBuffer header = ByteBuffer.allocate(5);
    private final Object writeLock = new Object();

    Frames(SocketChannel channel) {
        this.channel = channel;
    }

    /** One frame read from the peer. */
    record Frame(byte type, byte[] payload) {
        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }

        int intValue() {
            return ByteBuffer.wrap(payload).getInt();
        }
    }

    /** The next frame; EOFException when the peer closed the connection (between or inside frames). */
    Frame read() throws IOException {
        header.clear();
        readFully(header);
        header.flip();
        byte type = header.get();
        int length = header.getInt();
        if (length < 0 || length > MAX_PAYLOAD) throw new IOException("bad frame length " + length);
        ByteBuffer payload = ByteBuffer.allocate(length);
        readFully(payload);
        return new Frame(type, payload.array());
    }

    private void readFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) if (channel.read(b) < 0) throw new EOFException("connection closed");
    }

    void write(byte type, byte[] payload, int offset, int length) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(5).put(type).putInt(length).flip();
        ByteBuffer p = ByteBuffer.wrap(payload, offset, length);
        synchronized (writeLock) {
            while (h.hasRemaining() || p.hasRemaining()) channel.write(new ByteBuffer[] {h, p});
        }
    }

    void write(byte type, byte[] payload) throws IOException {
        write(type, payload, 0, payload.length);
    }

    void write(byte type, String text) throws IOException {
        write(type, text.getBytes(StandardCharsets.UTF_8));
    }

    void writeInt(byte type, int value) throws IOException {
        write(type, ByteBuffer.allocate(4).putInt(value).array());
    }

    /** Strings as a payload: a count, then each as a length and UTF-8 bytes. */
    static byte[] strings(List<String> values) {
        List<byte[]> encoded = new ArrayList<>();
        int size = 4;
        for (String v : values) {
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            encoded.add(b);
            size += 4 + b.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size).putInt(values.size());
        for (byte[] b : encoded) out.putInt(b.length).put(b);
        return out.array();
    }

    /** The inverse of {@link #strings}. */
    static List<String> strings(byte[] payload) throws IOException {
        try {
            ByteBuffer in = ByteBuffer.wrap(payload);
            int n = in.getInt();
            List<String> values = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte[] b = new byte[in.getInt()];
                in.get(b);
                values.add(new String(b, StandardCharsets.UTF_8));
            }
            return values;
        } catch (RuntimeException e) {
            throw new IOException("malformed request: " + e, e);
        }
    }
}
