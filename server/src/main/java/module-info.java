/**
 * {@code audioengine serve}: an OpenAI-compatible speech server (transcriptions, speech, voices, models, VAD, live
 * transcription over WebSocket, a web page, probes, metrics) on
 * Helidon SE's WebServer. A module of its own so that applications embedding the engine through
 * dev.audioengine.model never pull a web server; the CLI requires it for its serve command.
 */
module dev.audioengine.server {
    requires dev.audioengine.model;
    requires com.fasterxml.jackson.core;
    requires io.helidon.common.buffers;
    requires io.helidon.common.media.type;
    requires io.helidon.http;
    requires io.helidon.http.sse;
    requires io.helidon.webserver;
    requires io.helidon.webserver.sse;
    requires io.helidon.webserver.websocket;
    requires io.helidon.websocket;
    requires org.apache.commons.fileupload2.core;

    exports dev.audioengine.server;
}
