package dev.audioengine.server;

import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Once the server is draining (SIGTERM), new requests are refused with 503, Retry-After and a closed connection, so a
 * balancer's retry goes to another replica while the requests already in flight finish here. The probes still answer:
 * /ready says "draining" (503), /health and /metrics as before.
 */
final class ShutdownGate implements Filter {
    private volatile boolean draining;

    void close() { draining = true; }

    boolean draining() { return draining; }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        if (draining && !Routes.isProbe(req.path().path())) {
            res.header(HeaderValues.CONNECTION_CLOSE);
            Endpoint.send(req, res, ApiError.unavailable("shutting_down", "the server is shutting down", ModelPool.RETRY_AFTER_SECONDS));
            return;
        }
        chain.proceed();
    }
}
