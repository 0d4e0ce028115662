package dev.audioengine.server.openai;

import dev.audioengine.audio.StreamingResampler;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordSpotter;
import dev.audioengine.model.task.KeywordStream;
import dev.audioengine.model.task.VadGatedKeywordStream;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.JsonBody;
import dev.audioengine.server.serving.ModelPool;
import dev.audioengine.server.serving.ServedModel;
import io.helidon.common.buffers.BufferData;
import io.helidon.websocket.WsSession;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wake words over WebSocket ({@code /v1/realtime?intent=keywords}, this server's, not OpenAI's): the client appends
 * base64 PCM16 as a transcription session's does ({@link Pcm16Input}), the server runs the library's streaming keyword
 * spotter ({@link KeywordSpotter#stream}, gated by the first served VAD with {@code vad_threshold}, as
 * {@code /v1/audio/keywords} does) and sends a {@code keyword.detected} event per detection as the frame that makes it
 * is scored. Settings come in {@code session.update}. As in {@link RealtimeSession}: Helidon calls the listener on the
 * connection's thread, the scoring runs on the model's pool while that thread waits (a fast client is slowed by TCP),
 * and every method that touches the stream holds this object's lock, {@link #release} too.
 */
final class KeywordSession implements LiveSession {
    private static final AtomicLong IDS = new AtomicLong();

    private final RealtimeEndpoint endpoint;
    private final String id = "sess_k" + Long.toString(IDS.incrementAndGet(), 36);
    private final ByteArrayOutputStream fragments = new ByteArrayOutputStream();
    private volatile long lastMessageNanos = System.nanoTime();
    private volatile boolean busy;
    private volatile String closing; // why the server closes the session, once it does
    private WsSession ws;
    private long events;
    private boolean released;

    // the session's settings
    private ServedModel model;
    private int modelRate; // the rate the model hears, and the stream's positions count in
    private KeywordOptions options = KeywordOptions.DEFAULTS;
    private Double vadThreshold; // null: no gate
    private int rate = 24_000;

    // the audio
    private StreamingResampler resampler;
    private ServedModel.Replica replica;
    private KeywordStream stream;
    private long streamStart; // samples at the model's rate heard before the stream began
    private long streamFed; // samples fed to the stream

    KeywordSession(RealtimeEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public long waitingSinceNanos() {
        return busy ? Long.MAX_VALUE : lastMessageNanos;
    }

    @Override
    public void onOpen(WsSession session) {
        synchronized (this) {
            ws = session;
            endpoint.opened(this);
            try {
                model = KeywordsEndpoint.keywordModel(endpoint.models(), Optional.empty(), "session.model", "");
                modelRate = spotter(model).sampleRate();
                send(sessionEvent("session.created"));
            } catch (ApiError e) {
                error(e, null);
            } catch (IOException | RuntimeException e) {
                endpoint.log("realtime session " + id + ": " + e);
                error(ApiError.internal("the keyword model could not be loaded: " + e), null);
            }
        }
    }

    @Override
    public void onMessage(WsSession session, String text, boolean last) {
        lastMessageNanos = System.nanoTime();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (fragments.size() + bytes.length > RealtimeSession.MAX_MESSAGE_BYTES) {
            fragments.reset();
            if (!last) return; // the rest of the message is dropped with it: the error comes at its end
            synchronized (this) {
                error(
                        ApiError.invalid(
                                null,
                                "message_too_large",
                                "a message may be at most " + RealtimeSession.MAX_MESSAGE_BYTES
                                        + " bytes; send audio in smaller appends (100 ms to 1 s each is usual)"),
                        null);
            }
            return;
        }
        fragments.writeBytes(bytes);
        if (!last) return;
        byte[] message = fragments.toByteArray();
        fragments.reset();
        synchronized (this) {
            if (released) return;
            String eventId = null;
            busy = true;
            try {
                Map<String, Object> event = JsonBody.parse(message);
                eventId = event.get("event_id") instanceof String s ? s : null;
                handle(event);
            } catch (ApiError e) {
                error(e, eventId);
            } catch (RuntimeException e) {
                endpoint.log("realtime session " + id + ": " + e);
                error(ApiError.internal("internal error: " + e), eventId);
            } finally {
                lastMessageNanos = System.nanoTime();
                busy = false;
            }
        }
    }

    @Override
    public void onMessage(WsSession session, BufferData buffer, boolean last) {
        lastMessageNanos = System.nanoTime();
        if (!last) return;
        synchronized (this) {
            error(
                    ApiError.invalid(
                            null,
                            "invalid_event",
                            "binary messages are not taken: send JSON text events, audio as base64 in "
                                    + "input_audio_buffer.append"),
                    null);
        }
    }

    @Override
    public void onClose(WsSession session, int status, String reason) {
        String ours = closing;
        release(ours != null ? ours : "closed by the client (" + status + ")");
    }

    @Override
    public void onError(WsSession session, Throwable t) {
        release("connection failed: " + t);
    }

    private void handle(Map<String, Object> event) {
        Object type = event.get("type");
        if (!(type instanceof String t))
            throw ApiError.invalid("type", "invalid_value", "every event needs a \"type\" string");
        switch (t) {
            case "session.update" -> update(event);
            case "input_audio_buffer.append" -> append(Pcm16Input.samples(event));
            case "input_audio_buffer.commit" -> {
                long end = finishStream();
                send(event("input_audio_buffer.committed").name("audio_end_ms").value(end));
            }
            case "input_audio_buffer.clear" -> {
                resampler = null;
                closeStream();
                send(event("input_audio_buffer.cleared"));
            }
            default ->
                throw ApiError.invalid(
                        "type",
                        "invalid_value",
                        "unknown or unsupported event type '" + t + "'; a keyword session takes session.update, "
                                + "input_audio_buffer.append, input_audio_buffer.commit and input_audio_buffer.clear");
        }
    }

    // ---- session.update

    private void update(Map<String, Object> event) {
        if (!(event.get("session") instanceof Map<?, ?> s))
            throw ApiError.invalid("session", "invalid_value", "session.update needs a \"session\" object");
        ServedModel newModel = model;
        int newRate = rate;
        double threshold = options.threshold(), refractory = options.refractorySeconds();
        List<String> keywords = options.keywords();
        Double newVad = vadThreshold;
        for (Map.Entry<?, ?> e : s.entrySet()) {
            String name = (String) e.getKey();
            Object v = e.getValue();
            switch (name) {
                case "input_audio_format" -> Pcm16Input.format(v);
                case "input_audio_sample_rate" -> newRate = Pcm16Input.rate(v);
                case "model" -> {
                    if (!(v instanceof String m))
                        throw ApiError.invalid("session.model", "invalid_value", "model must be a string");
                    newModel = KeywordsEndpoint.keywordModel(
                            endpoint.models(), Optional.of(m), "session.model", "intent=keywords");
                }
                case "keywords" -> {
                    if (v == JsonBody.NULL) keywords = List.of();
                    else if (v instanceof List<?> l
                            && !l.isEmpty()
                            && l.stream().allMatch(k -> k instanceof String))
                        keywords = l.stream().map(k -> ((String) k).strip()).toList();
                    else
                        throw ApiError.invalid(
                                "session.keywords",
                                "invalid_value",
                                "keywords must be a non-empty array of keyword names, or null for all the model's, "
                                        + "got " + v);
                }
                case "threshold" -> threshold = number(v, "threshold");
                case "refractory_ms" -> {
                    if (!(v instanceof Double d) || d != Math.rint(d))
                        throw ApiError.invalid(
                                "session.refractory_ms",
                                "invalid_value",
                                "refractory_ms must be a whole number of milliseconds, got " + v);
                    refractory = d / 1000;
                }
                case "vad_threshold" -> {
                    if (v == JsonBody.NULL) newVad = null;
                    else if (v instanceof Double d && d > 0 && d < 1) newVad = d;
                    else
                        throw ApiError.invalid(
                                "session.vad_threshold",
                                "invalid_value",
                                "vad_threshold must be in (0, 1) or null, got " + v);
                }
                default ->
                    throw ApiError.invalid(
                            "session." + name,
                            "unknown_parameter",
                            "unknown parameter session." + name + "; a keyword session takes model, keywords, "
                                    + "threshold, refractory_ms, vad_threshold, input_audio_format, "
                                    + "input_audio_sample_rate");
            }
        }
        KeywordOptions newOptions = KeywordsRequest.options(threshold, refractory, keywords, "session.");
        // refused now, not at the first audio: an unknown keyword (with the model's own message), a gate without a VAD
        try {
            for (String k : newOptions.keywords())
                if (!spotter(newModel).keywords().contains(k))
                    throw ApiError.invalid(
                            "session.keywords",
                            "invalid_value",
                            "unknown keyword '" + k + "'; this model spots "
                                    + String.join(", ", spotter(newModel).keywords()));
            if (newVad != null) KeywordsEndpoint.gate(endpoint.models(), "session.vad_threshold");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        boolean changed = newModel != model
                || newRate != rate
                || !newOptions.equals(options)
                || !java.util.Objects.equals(newVad, vadThreshold);
        if (changed) finishStream(); // what was heard so far is scored with the old settings
        model = newModel;
        try {
            modelRate = spotter(model).sampleRate();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rate = newRate;
        options = newOptions;
        vadThreshold = newVad;
        send(sessionEvent("session.updated"));
    }

    private static double number(Object x, String name) {
        if (!(x instanceof Double d))
            throw ApiError.invalid("session." + name, "invalid_value", name + " must be a number, got " + x);
        return d;
    }

    private static KeywordSpotter spotter(ServedModel m) throws IOException {
        return m.get(KeywordSpotter.class);
    }

    // ---- the audio

    private void append(float[] x) {
        if (model == null)
            throw ApiError.internal("the session has no keyword model (its loading failed at connect; see the log)");
        if (rate == modelRate) {
            feed(x, x.length);
        } else {
            if (resampler == null) resampler = new StreamingResampler(rate, modelRate);
            resampler.push(x, 0, x.length);
            drainResampler();
        }
    }

    private void drainResampler() {
        float[] out = new float[4096];
        for (int n; (n = resampler.pull(out, 0, out.length)) > 0; ) feed(out, n);
    }

    /** Scores {@code n} samples at the model's rate on the model's pool and sends the detections they complete. */
    private void feed(float[] audio, int n) {
        if (n == 0 || released) return;
        if (stream == null) replica = model.replica();
        KeywordOptions o = options;
        Double gate = vadThreshold;
        List<KeywordDetection> found = onPool(() -> {
            if (stream == null) stream = open(replica.get(KeywordSpotter.class), o, gate);
            return stream.accept(audio, 0, n).detections();
        });
        detected(found);
        streamFed += n;
    }

    private KeywordStream open(KeywordSpotter kws, KeywordOptions o, Double gate) throws IOException {
        if (gate == null) return kws.stream(o);
        VoiceActivityDetector vad = KeywordsEndpoint.gate(endpoint.models(), "session.vad_threshold");
        return new VadGatedKeywordStream(kws.stream(o), vad.stream(kws.sampleRate(), VadOptions.DEFAULTS), o, gate);
    }

    /** Ends the stream (the resampler's tail fed first): its last frames are scored; returns the audio's end in ms. */
    private long finishStream() {
        if (resampler != null) {
            resampler.finish();
            drainResampler();
            resampler = null;
        }
        if (stream != null && !released) detected(onPool(() -> stream.finish().detections()));
        closeStream();
        return ms(0);
    }

    private void closeStream() {
        if (stream != null) {
            stream.close();
            stream = null;
        }
        streamStart += streamFed;
        streamFed = 0;
        replica = null;
    }

    private <T> T onPool(Callable<T> work) {
        try {
            Future<T> f = replica.pool().start(work);
            long t0 = System.nanoTime();
            T result = ModelPool.result(f);
            endpoint.modelTime(model.id(), (System.nanoTime() - t0) / 1e9);
            return result;
        } catch (ApiError e) {
            throw e; // refused: busy or shutting down; the client is told, and this audio is not scored
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiError.unavailable("shutting_down", "the session was interrupted", ModelPool.RETRY_AFTER_SECONDS);
        } catch (Exception e) {
            closeStream(); // its state is unknown after a failure: the next audio opens a fresh one
            throw new IllegalStateException("keyword spotting failed", e);
        }
    }

    private void detected(List<KeywordDetection> found) {
        for (KeywordDetection d : found)
            send(event("keyword.detected")
                    .name("keyword")
                    .value(d.keyword())
                    .name("score")
                    .number(d.score())
                    .name("audio_end_ms")
                    .value(ms(d.seconds())));
    }

    /** A time in the current stream, in milliseconds from the session's first audio. */
    private long ms(double streamSeconds) {
        return Math.round((streamStart / (double) modelRate + streamSeconds) * 1000);
    }

    // ---- writing events

    private JsonWriter event(String type) {
        return new JsonWriter()
                .beginObject()
                .name("event_id")
                .value("event_" + id.substring(5) + "_" + ++events)
                .name("type")
                .value(type);
    }

    private JsonWriter sessionEvent(String type) {
        List<String> keywords = options.keywords();
        if (keywords.isEmpty())
            try {
                keywords = spotter(model).keywords();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        JsonWriter w = event(type)
                .name("session")
                .beginObject()
                .name("id")
                .value(id)
                .name("object")
                .value("realtime.keywords_session")
                .name("model")
                .value(model.id())
                .name("keywords")
                .beginArray();
        for (String k : keywords) w.value(k);
        w.endArray()
                .name("threshold")
                .number(options.threshold())
                .name("refractory_ms")
                .value(Math.round(options.refractorySeconds() * 1000))
                .name("vad_threshold");
        if (vadThreshold == null) w.value((String) null);
        else w.number(vadThreshold);
        return w.name("input_audio_format")
                .value("pcm16")
                .name("input_audio_sample_rate")
                .value(rate)
                .endObject();
    }

    private void error(ApiError e, String clientEventId) {
        JsonWriter w = event("error").name("error").beginObject();
        e.body(w).name("event_id").value(clientEventId);
        send(w.endObject());
    }

    /** Sends one event; a client that has gone is released (its session ends), not an error of the caller's. */
    private void send(JsonWriter event) {
        if (released || ws == null) return;
        try {
            ws.send(event.endObject().toString(), true);
        } catch (RuntimeException e) {
            release("the client did not take an event: " + e);
        }
    }

    /** Ends the session: the stream is closed, the session no longer counted; idempotent. */
    synchronized void release(String why) {
        if (released) return;
        released = true;
        try {
            if (stream != null) stream.close();
        } finally {
            stream = null;
            endpoint.released(this, why);
        }
    }

    @Override
    public void ping() {
        WsSession s = ws;
        if (s == null || released) return;
        Thread.ofVirtual()
                .start(
                        () -> { // a client that reads nothing blocks the write, not the idle check
                            try {
                                s.ping(BufferData.empty());
                            } catch (RuntimeException e) {
                                release("the client did not take a ping: " + e);
                            }
                        });
    }

    @Override
    public void close(int code, String reason) {
        closing = reason; // the client's answering close frame is then not told as its own doing
        Thread.ofVirtual().start(() -> {
            try {
                WsSession s = ws;
                if (s != null) s.close(code, reason);
            } catch (RuntimeException ignored) {
                // the connection is gone already
            }
            try {
                WsSession s = ws;
                if (s != null) s.terminate();
            } catch (RuntimeException ignored) {
                // as above
            }
        });
        Thread.ofVirtual().start(() -> release(reason));
    }
}
