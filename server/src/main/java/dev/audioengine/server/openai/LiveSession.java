package dev.audioengine.server.openai;

import io.helidon.websocket.WsListener;

/**
 * A session of {@code /v1/realtime}, whatever its intent, as {@link RealtimeEndpoint} keeps it: counted while open,
 * pinged while its client is quiet, closed when it idles out or the server stops.
 */
interface LiveSession extends WsListener {
    /** The session's id, as its events and the log name it. */
    String id();

    /** Since when the session has waited for its client, by {@link System#nanoTime()}; {@link Long#MAX_VALUE} while busy. */
    long waitingSinceNanos();

    /** Pings the client, so that one that vanished is found; never blocks the caller. */
    void ping();

    /** Closes the connection with {@code code} and {@code reason}, then releases the session. */
    void close(int code, String reason);
}
