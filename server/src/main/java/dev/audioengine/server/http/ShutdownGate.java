package dev.audioengine.server.http;

import dev.audioengine.server.serving.ModelPool;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Once the server is draining (SIGTERM), new requests are refused with 503, Retry-After and a closed connection, so a
 * balancer's retry goes to another replica while the requests already in flight finish here. The probes still answer:
 * /ready says "draining" (503), /health and /metrics as before.
 */
public final class ShutdownGate implements Filter {
    private final ErrorResponder errors;
    private volatile boolean draining;

    public ShutdownGate(ErrorResponder errors) {
        this.errors = errors;
    }

    public void close() {
        draining = true;
    }

    public boolean draining() {
        return draining;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        if (draining && !Routes.isProbe(req.path().path())) {
            errors.send(
                    req,
                    res,
                    ApiError.unavailable("shutting_down", "the server is shutting down", ModelPool.RETRY_AFTER_SECONDS),
                    true);
            return;
        }
        chain.proceed();
    }
}
