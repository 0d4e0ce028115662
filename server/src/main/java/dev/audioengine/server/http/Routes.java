package dev.audioengine.server.http;

/** The server's paths. */
public final class Routes {
    private Routes() {}

    public static final String TRANSCRIPTIONS = "/v1/audio/transcriptions";
    public static final String TRANSLATIONS = "/v1/audio/translations";
    public static final String SPEECH = "/v1/audio/speech";
    public static final String VOICES = "/v1/audio/voices";
    public static final String VAD = "/v1/audio/vad";
    public static final String KEYWORDS = "/v1/audio/keywords";
    public static final String NOTES = "/v1/audio/notes";
    public static final String MODELS = "/v1/models";
    /** Live transcription over WebSocket ({@code ?intent=transcription}). */
    public static final String REALTIME = "/v1/realtime";

    public static final String HEALTH = "/health";
    public static final String READY = "/ready";
    public static final String METRICS = "/metrics";

    /** The method each path takes (one each), for a 405's Allow header; empty for a path this server does not have. */
    public static java.util.Optional<String> method(String path) {
        return java.util.Optional.ofNullable(
                switch (path) {
                    case TRANSCRIPTIONS, TRANSLATIONS, SPEECH, VAD, KEYWORDS, NOTES -> "POST";
                    case VOICES, MODELS, HEALTH, READY, METRICS, REALTIME -> "GET";
                    default ->
                        path.startsWith(MODELS + "/") && path.indexOf('/', MODELS.length() + 1) < 0 ? "GET" : null;
                });
    }

    /** What balancers, orchestrators and Prometheus ask: open without the API key, answered while draining. */
    static boolean isProbe(String path) {
        return path.equals(HEALTH) || path.equals(READY) || path.equals(METRICS);
    }

    /** Paths that need the API key when one is set: the OpenAI-style API, not the probes a balancer or Prometheus uses. */
    static boolean needsKey(String path) {
        return path.equals("/v1") || path.startsWith("/v1/");
    }
}
