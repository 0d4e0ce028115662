package dev.audioengine.model.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Hugging Face hub on the loopback address, as far as the store uses one: the model API's revision answer (commit,
 * siblings with size, blobId and, for "LFS" files, lfs.sha256 and lfs.size) and {@code /REPO/resolve/COMMIT/PATH},
 * which redirects to a second path ({@code /cdn/...}) as the real hub redirects to its CDN. Files are listed with the
 * hashes of their true bytes; {@link #corrupt} serves other bytes under the same listing. Shared with the modules
 * whose tests pull by name (model-api's test jar).
 */
public final class FakeHub implements AutoCloseable {
    public final HttpServer server;
    public final String commit = "0123456789abcdef0123456789abcdef01234567";
    /** repo → path → bytes. */
    public final Map<String, Map<String, byte[]>> repos = new ConcurrentHashMap<>();
    /** Paths served with other bytes than the API lists. */
    public final Map<String, byte[]> corrupt = new ConcurrentHashMap<>();
    /** When set, the resolve redirect goes to this host name (another host than 127.0.0.1, as the hub's CDN is). */
    public volatile String cdnHost;
    /** Every request: method, path, and whether it carried an Authorization header. */
    public final List<String> requests = new CopyOnWriteArrayList<>();

    public FakeHub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::serve);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public FakeHub put(String repo, String path, byte[] bytes) {
        repos.computeIfAbsent(repo, r -> new LinkedHashMap<>()).put(path, bytes);
        return this;
    }

    public long count(String pathPart) {
        return requests.stream().filter(r -> r.contains(pathPart)).count();
    }

    private void serve(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath();
        requests.add(ex.getRequestMethod() + " " + ex.getRequestURI()
                + (ex.getRequestHeaders().containsKey("Authorization") ? " auth" : ""));
        try (ex) {
            if (path.startsWith("/api/models/")) {
                String[] p = path.substring("/api/models/".length()).split("/");
                Map<String, byte[]> files = repos.get(p[0] + "/" + p[1]);
                if (files == null || p.length < 4 || !p[2].equals("revision")) {
                    send(ex, 404, "{\"error\":\"Repository not found\"}".getBytes(StandardCharsets.UTF_8));
                    return;
                }
                StringBuilder b = new StringBuilder(
                        "{\"id\":\"" + p[0] + "/" + p[1] + "\",\"sha\":\"" + commit + "\",\"siblings\":[");
                String sep = "";
                for (var e : files.entrySet()) {
                    byte[] bytes = e.getValue();
                    b.append(sep).append("{\"rfilename\":\"").append(e.getKey()).append("\",\"size\":");
                    if (lfs(e.getKey())) {
                        b.append(130)
                                .append(",\"blobId\":\"")
                                .append(hex("SHA-1", "pointer".getBytes()))
                                .append("\",\"lfs\":{\"sha256\":\"")
                                .append(hex("SHA-256", bytes))
                                .append("\",\"size\":")
                                .append(bytes.length)
                                .append(",\"pointerSize\":130}}");
                    } else {
                        byte[] head = ("blob " + bytes.length + "\0").getBytes(StandardCharsets.US_ASCII);
                        byte[] obj = new byte[head.length + bytes.length];
                        System.arraycopy(head, 0, obj, 0, head.length);
                        System.arraycopy(bytes, 0, obj, head.length, bytes.length);
                        b.append(bytes.length)
                                .append(",\"blobId\":\"")
                                .append(hex("SHA-1", obj))
                                .append("\"}");
                    }
                    sep = ",";
                }
                send(ex, 200, b.append("]}").toString().getBytes(StandardCharsets.UTF_8));
            } else if (path.contains("/resolve/") && !path.startsWith("/cdn/")) {
                // /owner/name/resolve/COMMIT/PATH → the "CDN"
                ex.getResponseHeaders()
                        .add(
                                "Location",
                                (cdnHost == null
                                                ? ""
                                                : "http://" + cdnHost + ":"
                                                        + server.getAddress().getPort()) + "/cdn" + path);
                ex.sendResponseHeaders(302, -1);
            } else if (path.startsWith("/cdn/")) {
                String[] p = path.substring("/cdn/".length()).split("/", 5);
                Map<String, byte[]> files = repos.get(p[0] + "/" + p[1]);
                byte[] bytes = files == null || !p[3].equals(commit) ? null : files.get(p[4]);
                if (bytes == null) {
                    send(ex, 404, new byte[0]);
                    return;
                }
                send(ex, 200, corrupt.getOrDefault(p[4], bytes));
            } else {
                send(ex, 404, new byte[0]);
            }
        }
    }

    /** Files named *.bin or *.safetensors are "LFS" files (listed with lfs.sha256); others are plain git blobs. */
    public static boolean lfs(String path) {
        return path.endsWith(".bin") || path.endsWith(".safetensors");
    }

    private static void send(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0)
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
    }

    public static String hex(String algorithm, byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
