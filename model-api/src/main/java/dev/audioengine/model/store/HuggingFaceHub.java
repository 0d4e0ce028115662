package dev.audioengine.model.store;

import dev.audioengine.model.ModelSource;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Hugging Face hub as the store uses it: one API call per repository and revision for the commit and every file's
 * size and hash ({@code GET /api/models/REPO/revision/REV?blobs=true}, whose {@code siblings} carry {@code rfilename},
 * {@code size}, {@code blobId} and, for LFS files, {@code lfs.sha256} and {@code lfs.size}), then the file itself from
 * {@code /REPO/resolve/COMMIT/PATH}. The token, when there is one, goes to the hub's own host only.
 */
final class HuggingFaceHub {
    /** The public hub. */
    static final URI DEFAULT_ENDPOINT = URI.create("https://huggingface.co");

    private final URI endpoint;
    private final String token;
    private final HttpsFetcher https;
    /** One API answer per repository and revision for the duration of one pull. */
    private final Map<String, Revision> revisions = new HashMap<>();

    HuggingFaceHub(URI endpoint, String token, HttpsFetcher https) {
        this.endpoint = endpoint;
        this.token = token == null || token.isBlank() ? null : token.strip();
        this.https = https;
    }

    /** A file as the hub's API lists it at a commit: its size and its LFS sha256, or its git blob id. */
    record Remote(String repo, String commit, String path, long bytes, String lfsSha256, String gitBlob) {}

    private record Revision(String commit, Map<String, Remote> files) {}

    private Map<String, String> headers() {
        return token == null ? Map.of() : Map.of("Authorization", "Bearer " + token);
    }

    URI apiUrl(ModelSource.HuggingFace s) {
        return URI.create(base() + "/api/models/" + s.repo() + "/revision/" + segment(s.revision()) + "?blobs=true");
    }

    URI fileUrl(String repo, String commit, String path) {
        StringBuilder b = new StringBuilder(base())
                .append('/')
                .append(repo)
                .append("/resolve/")
                .append(segment(commit));
        for (String part : path.split("/")) b.append('/').append(segment(part));
        return URI.create(b.toString());
    }

    private String base() {
        String b = endpoint.toString();
        return b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
    }

    private static String segment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** What the hub's API says of {@code s}'s file now. */
    Remote describe(ModelSource.HuggingFace s) throws IOException {
        String key = s.repo() + "@" + s.revision();
        Revision rev = revisions.get(key);
        if (rev == null) {
            rev = askApi(s);
            revisions.put(key, rev);
        }
        Remote r = rev.files().get(s.path());
        if (r == null)
            throw new IOException("the hub lists no " + s.path() + " in " + s.repo() + " at " + s.revision()
                    + " (commit " + rev.commit() + "; it has "
                    + String.join(", ", rev.files().keySet()) + ")");
        return r;
    }

    private Revision askApi(ModelSource.HuggingFace s) throws IOException {
        URI url = apiUrl(s);
        HttpResponse<InputStream> r;
        try {
            r = https.send(url, headers(), null);
        } catch (IOException e) {
            throw new IOException(
                    "could not ask the Hugging Face hub for the file's hash (" + e.getMessage()
                            + "); the hub is " + endpoint
                            + (endpoint.equals(DEFAULT_ENDPOINT)
                                    ? " (set HF_ENDPOINT to use a mirror)"
                                    : " (from HF_ENDPOINT)"),
                    e);
        }
        byte[] body;
        try (InputStream in = r.body()) {
            body = in.readNBytes(64 << 20);
        }
        int status = r.statusCode();
        if (status == 401 || status == 403)
            throw new IOException(url + " answered HTTP " + status + ": " + s.repo() + " is gated or private"
                    + (token == null
                            ? "; accept its terms on the hub and set HF_TOKEN"
                            : " and HF_TOKEN does not open it"));
        if (status == 404)
            throw new IOException(
                    url + " answered HTTP 404: the hub has no repository " + s.repo() + " at revision " + s.revision());
        if (status != 200) throw new IOException(url + " answered HTTP " + status);
        Object doc;
        try {
            doc = new Json(new String(body, StandardCharsets.UTF_8)).document();
        } catch (IllegalArgumentException e) {
            throw new IOException(url + " answered something that is not JSON: " + e.getMessage(), e);
        }
        if (!(doc instanceof Map<?, ?> m)
                || !(m.get("sha") instanceof String commit)
                || !(m.get("siblings") instanceof List<?> siblings))
            throw new IOException(url + " answered JSON without \"sha\" and \"siblings\": not the hub's model API");
        Map<String, Remote> files = new LinkedHashMap<>();
        for (Object o : siblings) {
            if (!(o instanceof Map<?, ?> f) || !(f.get("rfilename") instanceof String name)) continue;
            String lfsSha = null, blob = f.get("blobId") instanceof String b ? b.toLowerCase(Locale.ROOT) : null;
            long size = f.get("size") instanceof Number n ? n.longValue() : -1;
            if (f.get("lfs") instanceof Map<?, ?> lfs) {
                if (lfs.get("sha256") instanceof String h) lfsSha = h.toLowerCase(Locale.ROOT);
                if (lfs.get("size") instanceof Number n) size = n.longValue();
            }
            files.put(name, new Remote(s.repo(), commit, name, size, lfsSha, blob));
        }
        return new Revision(commit, files);
    }

    /** Downloads the file {@code r} names at its commit into {@code part}, resuming what it holds. */
    void download(Remote r, Path part, String name, PullListener listener) throws IOException {
        https.fetch(fileUrl(r.repo(), r.commit(), r.path()), headers(), part, name, listener);
    }

    /** Git's object id of a blob: sha1 over "blob SIZE\0" and the bytes; what the hub lists for non-LFS files. */
    static String gitBlobId(Path file) throws IOException {
        MessageDigest sha1;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-1", e);
        }
        sha1.update(("blob " + java.nio.file.Files.size(file) + "\0").getBytes(StandardCharsets.US_ASCII));
        try (InputStream in = java.nio.file.Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) sha1.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(sha1.digest());
    }

    /** Just enough JSON for the hub's answer: objects, arrays, strings, numbers (as Long or Double), literals. */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object document() {
            Object v = value();
            ws();
            if (i != s.length()) throw error("trailing characters");
            return v;
        }

        private Object value() {
            ws();
            if (i >= s.length()) throw error("unexpected end");
            char c = s.charAt(i);
            switch (c) {
                case '{' -> {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (peek('}')) return m;
                    do {
                        ws();
                        String k = string();
                        ws();
                        expect(':');
                        m.put(k, value());
                        ws();
                    } while (peek(','));
                    expect('}');
                    return m;
                }
                case '[' -> {
                    i++;
                    List<Object> a = new ArrayList<>();
                    ws();
                    if (peek(']')) return a;
                    do a.add(value());
                    while (peekAfterWs(','));
                    ws();
                    expect(']');
                    return a;
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    if (s.startsWith("true", i)) return literal(4, Boolean.TRUE);
                    if (s.startsWith("false", i)) return literal(5, Boolean.FALSE);
                    if (s.startsWith("null", i)) return literal(4, null);
                    return number();
                }
            }
        }

        private Object literal(int n, Object v) {
            i += n;
            return v;
        }

        private Object number() {
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            String t = s.substring(start, i);
            if (t.isEmpty()) throw error("unexpected character '" + s.charAt(start) + "'");
            try {
                if (t.matches("-?\\d{1,18}")) return Long.parseLong(t);
                return Double.parseDouble(t); // fractions, exponents, and integers too long for a long
            } catch (NumberFormatException e) {
                throw error("bad number " + t);
            }
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= s.length()) throw error("unterminated string");
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (i >= s.length()) throw error("unterminated escape");
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        if (i + 4 > s.length()) throw error("short \\u escape");
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> b.append(e); // \" \\ \/
                }
            }
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        private boolean peek(char c) {
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        private boolean peekAfterWs(char c) {
            ws();
            return peek(c);
        }

        private void expect(char c) {
            if (!peek(c)) throw error("expected '" + c + "'");
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at character " + i);
        }
    }
}
