package dev.audioengine.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * With --api-key, every /v1 request must carry {@code Authorization: Bearer KEY} (what OpenAI's clients send);
 * otherwise 401 before the body is read. The key is compared in constant time (MessageDigest.isEqual takes time that
 * depends on the expected key's length only), so response times do not leak how much of a guess was right.
 */
public final class BearerAuth implements Filter {
    private static final String SCHEME = "Bearer ";
    private final byte[] key;
    private final ErrorResponder errors;

    public BearerAuth(String key, ErrorResponder errors) {
        this.key = key.getBytes(StandardCharsets.UTF_8);
        this.errors = errors;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        if (!Routes.needsKey(req.path().path())
                || authorized(req.headers().first(HeaderNames.AUTHORIZATION))
                || (req.path().path().equals(Routes.REALTIME) && authorizedBySubprotocol(req))) {
            chain.proceed();
            return;
        }
        boolean given = req.headers().contains(HeaderNames.AUTHORIZATION);
        errors.send(
                req,
                res,
                ApiError.unauthorized(
                        given ? "incorrect API key provided" : "no API key provided: send Authorization: Bearer KEY"),
                false);
    }

    /** The subprotocol "openai-insecure-api-key.KEY": how a browser's WebSocket, which cannot set headers, sends the key. */
    private boolean authorizedBySubprotocol(RoutingRequest req) {
        for (String p : req.headers()
                .first(HeaderNames.create("Sec-WebSocket-Protocol"))
                .orElse("")
                .split(",")) {
            String s = p.strip();
            if (s.startsWith(KEY_PROTOCOL)
                    && MessageDigest.isEqual(
                            key, s.substring(KEY_PROTOCOL.length()).getBytes(StandardCharsets.UTF_8))) return true;
        }
        return false;
    }

    /** The prefix of OpenAI's subprotocol that carries the key. */
    public static final String KEY_PROTOCOL = "openai-insecure-api-key.";

    private boolean authorized(Optional<String> header) {
        if (header.isEmpty() || !header.get().regionMatches(true, 0, SCHEME, 0, SCHEME.length())) return false;
        byte[] given = header.get().substring(SCHEME.length()).strip().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(key, given);
    }
}
