package dev.audioengine.server.ui;

import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.Endpoint;
import dev.audioengine.server.http.ErrorResponder;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The page of {@code serve --ui}: {@code GET /} and the few files it loads from {@code /ui/}, kept as resources beside
 * this class in the server jar (plain HTML, CSS and JavaScript; no build step, nothing fetched from elsewhere). The
 * page talks to the server's own API only: the realtime WebSocket, transcriptions, voices and speech.
 */
public final class WebPage {
    /** The files the page is made of, by their name under /ui/, with their media types. */
    static final Map<String, String> FILES = Map.of(
            "app.js", "text/javascript; charset=utf-8",
            "pcm-worklet.js", "text/javascript; charset=utf-8",
            "app.css", "text/css; charset=utf-8");

    private final Map<String, byte[]> content;
    private final byte[] index;

    public WebPage() {
        index = read("index.html");
        java.util.HashMap<String, byte[]> c = new java.util.HashMap<>();
        for (String f : FILES.keySet()) c.put(f, read(f));
        content = Map.copyOf(c);
    }

    private static byte[] read(String name) {
        try (InputStream in = WebPage.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("the server jar lacks its web page's " + name);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the web page's " + name + " from the server jar", e);
        }
    }

    /** Adds GET / and GET /ui/{file}, logged and answering errors as the API's endpoints do. */
    public void route(HttpRouting.Builder routing, Consumer<String> log, ErrorResponder errors) {
        routing.get("/", new Endpoint(this::index, log, errors))
                .get("/ui/{file}", new Endpoint(this::file, log, errors));
    }

    private void index(ServerRequest req, ServerResponse res) {
        send(res, "text/html; charset=utf-8", index);
    }

    private void file(ServerRequest req, ServerResponse res) {
        String name = req.path().pathParameters().get("file");
        byte[] body = content.get(name);
        if (body == null) throw ApiError.notFound("no file /ui/" + name + " (the page has " + FILES.keySet() + ")");
        send(res, FILES.get(name), body);
    }

    private static void send(ServerResponse res, String type, byte[] body) {
        res.header(HeaderNames.CONTENT_TYPE, type);
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        res.send(body);
    }
}
