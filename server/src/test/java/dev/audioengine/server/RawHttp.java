package dev.audioengine.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 exchange on a plain socket, for what a well-behaved client library will not do: stop sending halfway,
 * trickle a body, or keep sending after the answer came. Tests only; loopback only.
 */
final class RawHttp implements AutoCloseable {
    final Socket socket;
    final OutputStream out;
    final InputStream in;

    RawHttp(URI server, int readTimeoutMillis) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(server.getHost(), server.getPort()), 5000);
        socket.setSoTimeout(readTimeoutMillis);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** Request line and headers, then the blank line. */
    void head(String method, String path, String... headers) throws IOException {
        StringBuilder s = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n");
        for (String h : headers) s.append(h).append("\r\n");
        out.write(s.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** One chunk of a chunked body. */
    void chunk(byte[] data, int from, int length) throws IOException {
        out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(data, from, length);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** The status code of the response, or -1 when the connection ended first. */
    int status() throws IOException {
        String line = line();
        if (line == null) return -1;
        String[] parts = line.split(" ");
        return Integer.parseInt(parts[1]);
    }

    /**
     * The rest of the response after the status line: headers and body, the body as long as Content-Length says, or
     * until the server closes when it gives none (a reset after the answer, as from a server that closes with unread
     * bytes, ends it too).
     */
    String rest() throws IOException {
        StringBuilder out = new StringBuilder();
        long length = -1;
        for (String h; (h = line()) != null && !h.isEmpty(); ) {
            out.append(h).append('\n');
            if (h.regionMatches(true, 0, "Content-Length:", 0, 15))
                length = Long.parseLong(h.substring(15).strip());
        }
        out.append('\n');
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            while (length < 0 || b.size() < length) {
                int n = in.read(buf, 0, length < 0 ? buf.length : (int) Math.min(buf.length, length - b.size()));
                if (n < 0) break;
                b.write(buf, 0, n);
            }
        } catch (java.net.SocketException e) {
            // reset after the answer
        }
        return out.append(b.toString(StandardCharsets.UTF_8)).toString();
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c; (c = in.read()) >= 0; ) {
            if (c == '\n') return b.toString(StandardCharsets.US_ASCII).stripTrailing();
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
