package dev.audioengine.server.openai;

import dev.audioengine.audio.StreamingResampler;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.TranscriptEvent;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.JsonBody;
import dev.audioengine.server.serving.ModelPool;
import dev.audioengine.server.serving.ServedModel;
import io.helidon.common.buffers.BufferData;
import io.helidon.websocket.WsSession;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One live transcription over WebSocket, in the shape of OpenAI's Realtime transcription session: the client appends
 * base64 PCM16, the server runs the library's live transcription ({@link SpeechRecognizer#stream}: voice activity
 * detection, partial decodes while someone speaks, a final decode at the end of each stretch of speech) and answers
 * with OpenAI's events. Helidon calls the listener methods on the connection's own (virtual) thread one after another;
 * the decoding runs on the model's worker pool like any request's, and this thread waits for it, so a client that
 * sends faster than real time is slowed by TCP rather than buffered: what a session holds is the audio of the open
 * segment (at most a window) and under {@link #PIECE} samples waiting to be fed.
 * <p>
 * Every method that touches the stream holds this object's lock; {@link #release} (the client closed or vanished,
 * the session idled out, the server stops) takes it too, so the stream is never closed under a decode.
 */
final class RealtimeSession implements LiveSession {
    /** The rate the recognizer hears; 24 kHz input is resampled to it. */
    static final int RATE = 16_000;
    /** Audio goes to the live transcription in pieces of 100 ms, so its partials come at the same points however the client splits its appends. */
    static final int PIECE = RATE / 10;
    /** The longest text message taken (an append of about 20 s of 24 kHz audio); longer ones are an error event. */
    static final int MAX_MESSAGE_BYTES = 1 << 20;

    private static final AtomicLong IDS = new AtomicLong();

    private final RealtimeEndpoint endpoint;
    private final String id = "sess_" + Long.toString(IDS.incrementAndGet(), 36);
    private final ByteArrayOutputStream fragments = new ByteArrayOutputStream();
    private volatile long lastMessageNanos = System.nanoTime();
    private volatile boolean busy;
    private WsSession ws;
    private long events;
    private long items;
    private boolean released;
    private volatile String closing; // why the server closes the session, once it does

    // the session's settings
    private ServedModel model;
    private int rate = 24_000;
    private String language; // null: not given
    private VadOptions vad; // null: no turn detection, the client commits
    private final String prompt = "";

    // the audio
    private StreamingResampler resampler;
    private float[] pending = new float[2 * PIECE];
    private int pendingN;
    private ServedModel.Replica replica;
    private AsrStream stream;
    private long streamStart; // samples at RATE heard before the stream began
    private long streamFed; // samples fed to the stream
    private long appendedSinceCommit; // samples at RATE since the last commit or clear

    // the item being transcribed
    private String item; // null: none open
    private String previousItem;
    private TranscriptDeltas deltas;
    private final StringBuilder itemText = new StringBuilder(); // without turn detection: the finals joined

    RealtimeSession(RealtimeEndpoint endpoint) {
        this.endpoint = endpoint;
        this.model = endpoint.defaultModel();
        this.vad = AsrOptions.DEFAULTS.vad();
    }

    @Override
    public String id() {
        return id;
    }

    /**
     * Since when the session has been waiting for its client, by {@link System#nanoTime()}: the end of the last message's
     * processing; {@link Long#MAX_VALUE} while a message is being processed (a decode waiting for a busy model is the
     * server's doing, not a stalled client's).
     */
    @Override
    public long waitingSinceNanos() {
        return busy ? Long.MAX_VALUE : lastMessageNanos;
    }

    @Override
    public void onOpen(WsSession session) {
        synchronized (this) {
            ws = session;
            endpoint.opened(this);
            send(sessionEvent("transcription_session.created"));
        }
    }

    @Override
    public void onMessage(WsSession session, String text, boolean last) {
        lastMessageNanos = System.nanoTime();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (fragments.size() + bytes.length > MAX_MESSAGE_BYTES) {
            fragments.reset();
            if (!last) return; // the rest of the message is dropped with it: the error comes at its end
            synchronized (this) {
                error(
                        ApiError.invalid(
                                null,
                                "message_too_large",
                                "a message may be at most " + MAX_MESSAGE_BYTES
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
                // the stall time runs while the session waits for the client, not while it decodes
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
            case "transcription_session.update" -> update(event);
            case "input_audio_buffer.append" -> append(event);
            case "input_audio_buffer.commit" -> commit();
            case "input_audio_buffer.clear" -> clear();
            default ->
                throw ApiError.invalid(
                        "type",
                        "invalid_value",
                        "unknown or unsupported event type '" + t + "'; a transcription session takes "
                                + "transcription_session.update, input_audio_buffer.append, input_audio_buffer.commit "
                                + "and input_audio_buffer.clear");
        }
    }

    // ---- transcription_session.update

    private void update(Map<String, Object> event) {
        if (!(event.get("session") instanceof Map<?, ?> s))
            throw ApiError.invalid(
                    "session", "invalid_value", "transcription_session.update needs a \"session\" object");
        ServedModel newModel = model;
        int newRate = rate;
        String newLanguage = language;
        VadOptions newVad = vad;
        for (Map.Entry<?, ?> e : s.entrySet()) {
            String name = (String) e.getKey();
            Object v = e.getValue();
            switch (name) {
                case "input_audio_format" -> Pcm16Input.format(v);
                case "input_audio_sample_rate" -> newRate = Pcm16Input.rate(v);
                case "input_audio_transcription" -> {
                    if (v == JsonBody.NULL) break;
                    if (!(v instanceof Map<?, ?> tr))
                        throw ApiError.invalid(
                                "session.input_audio_transcription",
                                "invalid_value",
                                "input_audio_transcription must be an object");
                    for (Map.Entry<?, ?> f : tr.entrySet()) {
                        Object fv = f.getValue();
                        switch ((String) f.getKey()) {
                            case "model" -> {
                                if (!(fv instanceof String m))
                                    throw ApiError.invalid(
                                            "session.input_audio_transcription.model",
                                            "invalid_value",
                                            "model must be a string");
                                newModel = TranscriptionEndpoint.asrModel(endpoint.models(), m, null);
                            }
                            case "language" -> {
                                if (fv == JsonBody.NULL || "".equals(fv)) newLanguage = null;
                                else if (fv instanceof String l && l.strip().matches("[A-Za-z]{2,3}(-.*)?"))
                                    newLanguage = l.strip().split("-")[0].toLowerCase(Locale.ROOT); // en-US: en
                                else
                                    throw ApiError.invalid(
                                            "session.input_audio_transcription.language",
                                            "unsupported_language",
                                            "language must be a code such as en or de, got " + fv);
                            }
                            case "prompt" -> {
                                // accepted: OpenAI's clients send it empty; the recognizers take no prompt
                            }
                            default ->
                                throw ApiError.invalid(
                                        "session.input_audio_transcription." + f.getKey(),
                                        "unknown_parameter",
                                        "unknown parameter input_audio_transcription." + f.getKey());
                        }
                    }
                }
                case "turn_detection" -> newVad = turnDetection(v);
                case "input_audio_noise_reduction", "include", "client_secret" -> {
                    // accepted without effect, as docs/SERVER.md says
                }
                default ->
                    throw ApiError.invalid(
                            "session." + name,
                            "unknown_parameter",
                            "unknown parameter session." + name + "; a transcription session takes "
                                    + "input_audio_format, input_audio_sample_rate, input_audio_transcription, "
                                    + "turn_detection");
            }
        }
        if (newLanguage != null) {
            // the recognizer refuses what it cannot hear now, not at the first turn
            try {
                newModel.get(SpeechRecognizer.class).requireSupported(AsrOptions.DEFAULTS.withLanguage(newLanguage));
            } catch (IllegalArgumentException e) {
                throw ApiError.invalid(
                        "session.input_audio_transcription.language",
                        "unsupported_language",
                        newModel.id() + ": " + e.getMessage());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        boolean changed = newModel != model
                || newRate != rate
                || !java.util.Objects.equals(newVad, vad)
                || !java.util.Objects.equals(newLanguage, language);
        if (changed) {
            finishStream(false); // what was heard so far is transcribed with the old settings
            flushResampler();
        }
        model = newModel;
        rate = newRate;
        language = newLanguage;
        vad = newVad;
        send(sessionEvent("transcription_session.updated"));
    }

    private VadOptions turnDetection(Object v) {
        if (v == JsonBody.NULL) return null;
        if (!(v instanceof Map<?, ?> td))
            throw ApiError.invalid(
                    "session.turn_detection", "invalid_value", "turn_detection must be an object or null");
        VadOptions d = AsrOptions.DEFAULTS.vad();
        double threshold = d.threshold();
        double silenceMs = d.minSilenceMs(), padMs = d.speechPadMs();
        for (Map.Entry<?, ?> e : td.entrySet()) {
            String name = (String) e.getKey();
            Object x = e.getValue();
            switch (name) {
                case "type" -> {
                    if (!"server_vad".equals(x))
                        throw ApiError.invalid(
                                "session.turn_detection.type",
                                "invalid_value",
                                "turn_detection type " + x + " is not supported; this server has server_vad "
                                        + "(or turn_detection null, and the client commits)");
                }
                case "threshold" -> threshold = number(x, "threshold", 0, 1);
                case "silence_duration_ms" -> silenceMs = number(x, "silence_duration_ms", 0, 10_000);
                case "prefix_padding_ms" -> padMs = number(x, "prefix_padding_ms", 0, 5_000);
                case "create_response", "interrupt_response" -> {
                    // a conversation's settings; a transcription session makes no responses
                }
                default ->
                    throw ApiError.invalid(
                            "session.turn_detection." + name,
                            "unknown_parameter",
                            "unknown parameter turn_detection." + name);
            }
        }
        try {
            return new VadOptions(
                    threshold, d.negThreshold(), d.minSpeechMs(), (int) silenceMs, (int) padMs, d.maxSpeechS());
        } catch (IllegalArgumentException e) {
            throw ApiError.invalid("session.turn_detection", "invalid_value", e.getMessage());
        }
    }

    private static double number(Object x, String name, double min, double max) {
        if (!(x instanceof Double d) || !(d >= min && d <= max))
            throw ApiError.invalid(
                    "session.turn_detection." + name,
                    "invalid_value",
                    "turn_detection." + name + " must be a number in [" + (long) min + ", " + (long) max + "], got "
                            + x);
        return d;
    }

    // ---- input_audio_buffer.append / commit / clear

    private void append(Map<String, Object> event) {
        float[] x = Pcm16Input.samples(event);
        if (rate == RATE) {
            add(x, x.length);
        } else {
            if (resampler == null) resampler = new StreamingResampler(rate, RATE);
            resampler.push(x, 0, x.length);
            drainResampler();
        }
        if (pendingN >= PIECE) feed(pendingN / PIECE * PIECE);
    }

    private void commit() {
        flushResampler();
        if (appendedSinceCommit == 0 && pendingN == 0 && item == null) {
            throw ApiError.invalid(
                    null,
                    "input_audio_buffer_commit_empty",
                    "the audio buffer is empty: nothing was appended since the last commit or clear");
        }
        boolean before = item != null;
        long itemsBefore = items;
        finishStream(true);
        if (vad != null && items == itemsBefore && !before)
            // turn detection found no speech in what was committed: no item, as the VAD would make none
            throw ApiError.invalid(
                    null,
                    "input_audio_buffer_commit_empty",
                    "no speech was heard in the audio since the last item, so there is nothing to commit");
        appendedSinceCommit = 0;
    }

    private void clear() {
        resampler = null;
        pendingN = 0;
        closeStream();
        item = null;
        itemText.setLength(0);
        appendedSinceCommit = 0;
        send(event("input_audio_buffer.cleared"));
    }

    private void add(float[] x, int n) {
        if (pendingN + n > pending.length) pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingN + n));
        System.arraycopy(x, 0, pending, pendingN, n);
        pendingN += n;
        appendedSinceCommit += n;
    }

    private void drainResampler() {
        float[] out = new float[4096];
        for (int n; (n = resampler.pull(out, 0, out.length)) > 0; ) add(out, n);
    }

    /** The resampler's tail, so that a commit or a change of rate transcribes all that was sent. */
    private void flushResampler() {
        if (resampler == null) return;
        resampler.finish();
        drainResampler();
        resampler = null;
    }

    /** Feeds the first {@code n} pending samples to the stream on the model's pool, in {@link #PIECE}s, and answers its events. */
    private void feed(int n) {
        if (n == 0 || released) return;
        float[] audio = Arrays.copyOf(pending, n);
        System.arraycopy(pending, n, pending, 0, pendingN - n);
        pendingN -= n;
        boolean opening = stream == null;
        if (opening) replica = model.replica();
        AsrOptions options = options();
        List<TranscriptEvent> out = onPool(() -> {
            if (stream == null) stream = replica.get(SpeechRecognizer.class).stream(options);
            List<TranscriptEvent> all = new ArrayList<>();
            for (int i = 0; i < audio.length; i += PIECE)
                all.addAll(stream.accept(audio, i, Math.min(PIECE, audio.length - i)));
            return all;
        });
        streamFed += n;
        answer(out);
    }

    /** Ends the stream (feeding what is pending first): its open segment is decoded and reported; the next audio opens a new one. */
    private void finishStream(boolean committing) {
        feed(pendingN);
        if (released) return;
        if (stream != null) {
            List<TranscriptEvent> out = onPool(() -> stream.finish());
            answer(out);
            closeStream();
        }
        if (vad == null && committing && item != null) completeManual();
        else if (vad == null && committing) {
            // audio without speech: an item with an empty transcript, as OpenAI commits what the client sent
            openItem(0);
            completeManual();
        }
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

    private AsrOptions options() {
        // without turn detection the detector still finds the speech inside what the client commits, so a long
        // buffer is decoded in windows; the client's commit ends the item
        AsrOptions o = vad == null ? AsrOptions.DEFAULTS : AsrOptions.DEFAULTS.withVad(vad);
        return language == null ? o : o.withLanguage(language);
    }

    private <T> T onPool(java.util.concurrent.Callable<T> work) {
        try {
            Future<T> f = replica.pool().start(work);
            long t0 = System.nanoTime();
            T result = ModelPool.result(f);
            endpoint.modelTime(model.id(), (System.nanoTime() - t0) / 1e9);
            return result;
        } catch (ApiError e) {
            throw e; // refused: busy or shutting down; the client is told, and this audio is not transcribed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiError.unavailable("shutting_down", "the session was interrupted", ModelPool.RETRY_AFTER_SECONDS);
        } catch (Exception e) {
            closeStream(); // its state is unknown after a failure: the next audio opens a fresh one
            item = null;
            throw new IllegalStateException("live transcription failed", e);
        }
    }

    // ---- the live transcription's events, told as OpenAI's

    private void answer(List<TranscriptEvent> out) {
        for (TranscriptEvent e : out) {
            TranscriptSegment seg = e.segment();
            if (item == null) openItem(seg.startSample());
            switch (e) {
                case TranscriptEvent.Partial p -> {
                    if (vad == null) continue; // without turn detection the item grows by finals only
                    delta(deltas.partial(seg.text()));
                }
                case TranscriptEvent.Final f -> {
                    if (vad == null) {
                        if (seg.text().isEmpty()) continue;
                        String add = itemText.isEmpty() ? seg.text() : " " + seg.text();
                        itemText.append(add);
                        delta(deltas.fin(itemText.toString()));
                        continue;
                    }
                    send(event("input_audio_buffer.speech_stopped")
                            .name("audio_end_ms")
                            .value(ms(seg.endSample()))
                            .name("item_id")
                            .value(item));
                    committed();
                    delta(deltas.fin(seg.text()));
                    completed(seg.text());
                }
            }
        }
    }

    private void openItem(long startSample) {
        item = "item_" + id.substring(5) + "_" + ++items;
        deltas = new TranscriptDeltas();
        itemText.setLength(0);
        if (vad != null)
            send(event("input_audio_buffer.speech_started")
                    .name("audio_start_ms")
                    .value(ms(startSample))
                    .name("item_id")
                    .value(item));
    }

    private void completeManual() {
        committed();
        delta(deltas.fin(itemText.toString()));
        completed(itemText.toString());
    }

    private void committed() {
        send(event("input_audio_buffer.committed")
                .name("previous_item_id")
                .value(previousItem)
                .name("item_id")
                .value(item));
    }

    private void delta(String d) {
        if (d.isEmpty()) return;
        send(event("conversation.item.input_audio_transcription.delta")
                .name("item_id")
                .value(item)
                .name("content_index")
                .value(0)
                .name("delta")
                .value(d));
    }

    private void completed(String transcript) {
        send(event("conversation.item.input_audio_transcription.completed")
                .name("item_id")
                .value(item)
                .name("content_index")
                .value(0)
                .name("transcript")
                .value(transcript));
        previousItem = item;
        item = null;
        deltas = null;
    }

    /** A stream position in milliseconds from the session's first audio. */
    private long ms(long streamSample) {
        return (streamStart + streamSample) * 1000 / RATE;
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
        JsonWriter w = event(type)
                .name("session")
                .beginObject()
                .name("id")
                .value(id)
                .name("object")
                .value("realtime.transcription_session")
                .name("input_audio_format")
                .value("pcm16")
                .name("input_audio_sample_rate")
                .value(rate)
                .name("input_audio_transcription")
                .beginObject()
                .name("model")
                .value(model == null ? null : model.id())
                .name("language")
                .value(language)
                .name("prompt")
                .value(prompt)
                .endObject()
                .name("turn_detection");
        if (vad == null) w.value((String) null);
        else
            w.beginObject()
                    .name("type")
                    .value("server_vad")
                    .name("threshold")
                    .number(vad.threshold())
                    .name("prefix_padding_ms")
                    .value(vad.speechPadMs())
                    .name("silence_duration_ms")
                    .value(vad.minSilenceMs())
                    .endObject();
        return w.name("input_audio_noise_reduction")
                .value((String) null)
                .name("include")
                .value((String) null)
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

    /**
     * Pings the client (from the idle check, while the client is quiet): Helidon tells the listener nothing when a
     * connection just drops, so a write that fails is how a client that vanished is found before the stall timeout.
     */
    @Override
    public void ping() {
        WsSession s = ws;
        if (s == null || released) return;
        Thread.ofVirtual()
                .start(
                        () -> { // a client that reads nothing blocks the write, not the idle check
                            try {
                                s.ping(io.helidon.common.buffers.BufferData.empty());
                            } catch (RuntimeException e) {
                                release("the client did not take a ping: " + e);
                            }
                        });
    }

    /** Closes the connection with {@code code} and {@code reason}, then releases the session (idle, shutdown). */
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
