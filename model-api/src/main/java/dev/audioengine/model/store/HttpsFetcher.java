package dev.audioengine.model.store;

import dev.audioengine.model.ModelSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Downloads one file over HTTPS into a partial file, resuming where an earlier, interrupted download of the same file
 * stopped (an HTTP Range request; a server that ignores it sends the whole file again, which is detected). The caller
 * checks the sha256 and moves the finished file into place.
 */
final class HttpsFetcher {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /** No byte for this long and the download is given up (it resumes on the next pull). */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private static final int MAX_REDIRECTS = 10;

    private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");

    private final HttpClient client;

    HttpsFetcher() {
        // redirects are followed by hand (send): the JDK's own following would carry a hub token to whatever host
        // the hub redirects to (its CDN)
        this.client = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /**
     * Brings {@code part} to the whole content of {@code url}, appending to what it already holds when the server
     * honours the range. {@code name} and {@code listener} are for progress.
     */
    void fetch(URI url, Path part, String name, PullListener listener) throws IOException {
        fetch(url, Map.of(), part, name, listener);
    }

    /**
     * As {@link #fetch(URI, Path, String, PullListener)}, with extra request headers (a hub token) that are sent to
     * {@code url}'s host only, never to a host it redirects to.
     */
    void fetch(URI url, Map<String, String> headers, Path part, String name, PullListener listener) throws IOException {
        long have = Files.exists(part) ? Files.size(part) : 0;
        HttpResponse<InputStream> r = send(url, headers, have > 0 ? "bytes=" + have + "-" : null);
        int status = r.statusCode();
        long total;
        boolean append;
        if (status == 416 && have > 0) {
            r.body().close();
            listener.message(name + ": the partial download is already complete");
            return; // the range starts at the end: nothing is missing (the hash check decides)
        } else if (status == 206) {
            Optional<String> cr = r.headers().firstValue("Content-Range");
            Matcher m = CONTENT_RANGE.matcher(cr.orElse(""));
            if (!m.matches() || Long.parseLong(m.group(1)) != have) {
                r.body().close();
                throw new IOException(url + " answered a resume request with Content-Range '" + cr.orElse("")
                        + "', expected bytes " + have + "-");
            }
            total = m.group(3).equals("*") ? 0 : Long.parseLong(m.group(3));
            append = true;
            listener.message(name + ": resuming at " + have + " bytes");
        } else if (status == 200) {
            total = r.headers().firstValueAsLong("Content-Length").orElse(0);
            append = false;
            have = 0;
        } else {
            r.body().close();
            throw new IOException(
                    url + " answered HTTP " + status + (status == 404 ? " (not found: the file may have moved)" : ""));
        }
        try (InputStream in = r.body();
                OutputStream out = Files.newOutputStream(
                        part,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING)) {
            byte[] buf = new byte[1 << 16];
            long done = have, reported = 0;
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
                done += n;
                if (done - reported >= (1 << 22)) {
                    listener.progress(name, done, total);
                    reported = done;
                }
            }
            listener.progress(name, done, total);
            if (total > 0 && done != total) {
                throw new IOException(url + " ended after " + done + " of " + total + " bytes; pull again to resume");
            }
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().contains("pull again")) throw e;
            throw new IOException("the download of " + url + " broke off (" + e + "); pull again to resume", e);
        }
    }

    /**
     * One GET, following up to {@link #MAX_REDIRECTS} redirects; {@code headers} go to {@code url}'s host only, and a
     * redirect may not leave https (loopback http excepted, as {@link ModelSource.Https} allows).
     *
     * @param range a Range header value, or null
     * @return the final response, its body unread
     */
    HttpResponse<InputStream> send(URI url, Map<String, String> headers, String range) throws IOException {
        URI at = url;
        for (int hop = 0; ; hop++) {
            HttpRequest.Builder rb =
                    HttpRequest.newBuilder(at).timeout(READ_TIMEOUT).GET().header("User-Agent", "audioengine");
            if (range != null) rb.header("Range", range);
            if (Objects.equals(at.getHost(), url.getHost()) && at.getPort() == url.getPort())
                headers.forEach(rb::header);
            HttpResponse<InputStream> r;
            try {
                r = client.send(rb.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while connecting to " + at, e);
            } catch (IOException e) {
                throw new IOException("could not reach " + at + ": " + e, e);
            }
            int status = r.statusCode();
            if (status != 301 && status != 302 && status != 303 && status != 307 && status != 308) return r;
            r.body().close();
            String location = r.headers().firstValue("Location").orElse(null);
            if (location == null) throw new IOException(at + " answered HTTP " + status + " without a Location");
            if (hop == MAX_REDIRECTS) throw new IOException(url + " redirected more than " + MAX_REDIRECTS + " times");
            URI next = at.resolve(location);
            try {
                new ModelSource.Https(next);
            } catch (IllegalArgumentException e) {
                throw new IOException(at + " redirected to " + next + ", which is not https; not following it", e);
            }
            at = next;
        }
    }
}
