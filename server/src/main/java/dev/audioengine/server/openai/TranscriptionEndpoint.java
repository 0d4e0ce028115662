package dev.audioengine.server.openai;

import dev.audioengine.audio.AudioFormatException;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.LongFormOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptSegment;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.Endpoint;
import dev.audioengine.server.http.MultipartForm;
import dev.audioengine.server.http.RequestNote;
import dev.audioengine.server.http.Upload;
import dev.audioengine.server.http.UploadFolder;
import dev.audioengine.server.http.UploadWatchdog;
import dev.audioengine.server.http.UploadedAudio;
import dev.audioengine.server.serving.Metrics;
import dev.audioengine.server.serving.ModelPool;
import dev.audioengine.server.serving.ServedModel;
import dev.audioengine.server.serving.ServedModels;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code POST /v1/audio/transcriptions}: OpenAI's transcription request, answered by a served speech recognizer.
 * The upload is spooled and its header checked before the request waits for the model; the recognizer reads the
 * spooled file as a stream (voice activity finds the speech, windows of up to 20 s are decoded). With stream=true the
 * answer is Server-Sent Events: one {@code transcript.text.delta} per decoded window as it is produced, then
 * {@code transcript.text.done} with the whole text (the deltas joined); a failure after the events began is an
 * {@code error} event, as OpenAI streams errors.
 */
public final class TranscriptionEndpoint implements Endpoint.Body {
    /** The response header naming the fields that were accepted without effect. */
    public static final String IGNORED_HEADER = "X-Audioengine-Ignored";

    private final ServedModels models;
    private final UploadFolder uploads;
    private final long maxUploadBytes;
    private final Metrics metrics;
    private final UploadWatchdog watchdog;
    private final boolean translation;

    public TranscriptionEndpoint(
            ServedModels models, UploadFolder uploads, long maxUploadBytes, Metrics metrics, UploadWatchdog watchdog) {
        this(models, uploads, maxUploadBytes, metrics, watchdog, false);
    }

    /**
     * {@code translation}: {@code POST /v1/audio/translations}, OpenAI's request for English text of speech in any
     * language, on a recognizer that can translate (Whisper's translate task); its fields are that endpoint's.
     */
    public TranscriptionEndpoint(
            ServedModels models,
            UploadFolder uploads,
            long maxUploadBytes,
            Metrics metrics,
            UploadWatchdog watchdog,
            boolean translation) {
        this.translation = translation;
        this.watchdog = watchdog;
        this.models = models;
        this.uploads = uploads;
        this.maxUploadBytes = maxUploadBytes;
        this.metrics = metrics;
    }

    /** What the model work gave, and how long it took. */
    private record Result(Transcript transcript, double seconds) {}

    @Override
    public void handle(ServerRequest req, ServerResponse res) throws Exception {
        RequestNote note = req.context().get(RequestNote.class).orElseThrow();
        try (MultipartForm form = MultipartForm.read(req, res, uploads, maxUploadBytes, Set.of("file"), watchdog)) {
            TranscriptionRequest r = TranscriptionRequest.of(form, translation);
            Upload file = UploadedAudio.required(form.file("file"));
            ServedModel model = asrModel(models, r.model(), note);
            note.model(model.id());
            AsrOptions options = r.options();
            List<String> ignored = new ArrayList<>(r.ignored());
            // OpenAI's clients send a prompt and a temperature to any model: one that takes no prompt or does not
            // sample (Moonshine) answers without them, each judged with the other left out
            AsrOptions sansPrompt = options.withPrompt(null), sansTemperature = firstTemperatureDefault(options);
            AsrOptions neither = firstTemperatureDefault(sansPrompt);
            boolean dropPrompt =
                    options.prompt() != null && !supports(model, sansTemperature) && supports(model, neither);
            boolean dropTemperature =
                    !sansTemperature.equals(options) && !supports(model, sansPrompt) && supports(model, neither);
            if (dropPrompt) {
                options = options.withPrompt(null);
                ignored.add(0, "prompt");
            }
            if (dropTemperature) {
                LongFormOptions given = options.longForm(), none = AsrOptions.DEFAULTS.longForm();
                if (given.temperature() != none.temperature()) ignored.add("temperature");
                if (given.temperatureIncrement() != none.temperatureIncrement()) ignored.add("temperature_inc");
                options = firstTemperatureDefault(options);
            }
            requireSupported(model, options);
            if (!ignored.isEmpty()) {
                res.header(IGNORED_HEADER, String.join(",", ignored));
                note.note("accepted without effect: " + String.join(", ", ignored));
            }
            try (AudioStream in = UploadedAudio.open(file)) {
                if (r.stream()) streamEvents(req, res, model, in, file, note, options);
                else answer(res, r.format(), options, model, in, file, note);
            }
        }
    }

    /**
     * A language the model does not hear, or translation by one that cannot translate, is a 400 before any work is
     * queued (loading the model first if this is its first request, as the work would).
     */
    private static void requireSupported(ServedModel model, AsrOptions options) throws IOException {
        if (options.wordTimestamps()
                && !supports(model, options)
                && supports(model, options.withWordTimestamps(false, null)))
            throw ApiError.invalid(
                    "timestamp_granularities[]",
                    "unsupported_value",
                    model.id() + " gives no word times (whisper models do): " + message(model, options));
        try {
            model.get(SpeechRecognizer.class).requireSupported(options);
        } catch (IllegalArgumentException e) {
            throw options.translate()
                    ? ApiError.invalid("model", "unsupported_task", model.id() + ": " + e.getMessage())
                    : ApiError.invalid("language", "unsupported_language", model.id() + ": " + e.getMessage());
        }
    }

    private static String message(ServedModel model, AsrOptions options) throws IOException {
        try {
            model.get(SpeechRecognizer.class).requireSupported(options);
            return "";
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * {@code o} with OpenAI's default temperature, 0, and the default fallback step (temperature_inc): Whisper's
     * fallback from greedy decoding.
     */
    private static AsrOptions firstTemperatureDefault(AsrOptions o) {
        return o.withLongForm(o.longForm()
                .withTemperatures(
                        AsrOptions.DEFAULTS.longForm().temperature(),
                        AsrOptions.DEFAULTS.longForm().temperatureIncrement()));
    }

    private static boolean supports(ServedModel model, AsrOptions options) throws IOException {
        try {
            model.get(SpeechRecognizer.class).requireSupported(options);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The served recognizer {@code name} means (one of ours, or OpenAI's name for the default); else a 400 or 404. */
    static ServedModel asrModel(ServedModels models, String name, RequestNote note) {
        Optional<ServedModel> openAi = models.openAiName(name, ServedModels.OPENAI_TRANSCRIPTION_MODELS, Task.ASR);
        if (openAi.isPresent()) {
            if (note != null)
                note.note(
                        "OpenAI's model " + name.strip() + " is " + openAi.get().id());
            return openAi.get();
        }
        ServedModel m = models.require(name);
        if (m.task() != Task.ASR) {
            throw ApiError.invalid(
                    "model",
                    m.id() + " is a " + m.task().cliName() + " model; transcriptions need a speech recognition model: "
                            + String.join(
                                    ", ",
                                    models.all().stream()
                                            .filter(x -> x.task() == Task.ASR)
                                            .map(ServedModel::id)
                                            .toList()));
        }
        return m;
    }

    private void answer(
            ServerResponse res,
            TranscriptionRequest.Format format,
            AsrOptions options,
            ServedModel model,
            AudioStream in,
            Upload file,
            RequestNote note)
            throws Exception {
        ServedModel.Replica replica = model.replica();
        Future<Result> work = replica.pool().start(() -> {
            long t0 = System.nanoTime();
            Transcript t = replica.get(SpeechRecognizer.class).transcribe(in, options);
            return new Result(t, (System.nanoTime() - t0) / 1e9);
        });
        Result result = outcome(work, file);
        account(model, result, note);
        res.header(HeaderNames.CONTENT_TYPE, TranscriptFormats.mediaType(format));
        res.send(TranscriptFormats.render(format, result.transcript(), options));
    }

    private void streamEvents(
            ServerRequest req,
            ServerResponse res,
            ServedModel model,
            AudioStream in,
            Upload file,
            RequestNote note,
            AsrOptions options)
            throws Exception {
        // no Accept check: the request asked for events by name, and OpenAI's Python SDK sends Accept: application/json
        // with stream=True too (OpenAI does not check it)
        BlockingQueue<TranscriptSegment> decoded = new LinkedBlockingQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        ServedModel.Replica replica = model.replica();
        Future<Result> work = replica.pool().start(() -> {
            long t0 = System.nanoTime();
            Transcript t = replica.get(SpeechRecognizer.class).transcribe(in, options, segment -> {
                // the next window is not worth decoding for a client that has gone
                if (stop.get()) throw new CancellationException("the client closed the connection");
                decoded.add(segment);
            });
            return new Result(t, (System.nanoTime() - t0) / 1e9);
        });
        try {
            // accepted and running: from here the answer is an event stream, and errors become error events
            emitEvents(res, work, decoded, model, file, note);
        } finally {
            // however this ended, the audio stays open until the work has let go of it
            if (!work.isDone()) {
                stop.set(true);
                try {
                    ModelPool.result(work);
                } catch (CancellationException ignored) {
                    // stopped at the next window, as asked
                } catch (Exception failure) {
                    note.note("the work failed too: " + failure);
                }
            }
        }
    }

    /**
     * The events, written to the body directly rather than through Helidon's SSE sink, which refuses a request whose
     * Accept header does not name text/event-stream.
     */
    private void emitEvents(
            ServerResponse res,
            Future<Result> work,
            BlockingQueue<TranscriptSegment> decoded,
            ServedModel model,
            Upload file,
            RequestNote note)
            throws InterruptedException {
        res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        boolean gone = false;
        OutputStream out = res.outputStream();
        try {
            out.flush(); // the status and headers now, as the sink sent them: the first window may take a while
            StringBuilder text = new StringBuilder();
            while (!(work.isDone() && decoded.isEmpty())) {
                TranscriptSegment s = decoded.poll(50, TimeUnit.MILLISECONDS);
                if (s == null || s.text().isEmpty()) continue;
                String delta = text.isEmpty() ? s.text() : " " + s.text();
                text.append(delta);
                SpeechEndpoint.event(
                        out,
                        new JsonWriter()
                                .beginObject()
                                .name("type")
                                .value("transcript.text.delta")
                                .name("delta")
                                .value(delta)
                                .endObject());
            }
            Result result;
            try {
                result = outcome(work, file);
            } catch (ApiError e) {
                note.note("failed after the stream began: " + e.getMessage());
                SpeechEndpoint.event(out, errorEvent(e));
                return;
            } catch (Exception e) {
                SpeechEndpoint.event(out, errorEvent(ApiError.internal("internal error: " + e)));
                throw new IllegalStateException(
                        "the transcription failed after its stream began", e); // Endpoint logs the trace
            }
            account(model, result, note);
            SpeechEndpoint.event(
                    out,
                    new JsonWriter()
                            .beginObject()
                            .name("type")
                            .value("transcript.text.done")
                            .name("text")
                            .value(result.transcript().text())
                            .endObject());
        } catch (UncheckedIOException | CloseConnectionException | IOException e) {
            gone = true; // a write failed: the client has gone
            note.note("client closed the stream");
        } finally {
            try {
                out.close();
            } catch (UncheckedIOException | CloseConnectionException | IOException e) {
                if (!gone) throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
            }
        }
    }

    /** The work's result, with a problem of the audio met while decoding told as a 400 about the client's file. */
    private static Result outcome(Future<Result> work, Upload file) throws Exception {
        try {
            return ModelPool.result(work);
        } catch (AudioFormatException e) {
            throw UploadedAudio.invalid(file, e);
        }
    }

    private void account(ServedModel model, Result result, RequestNote note) {
        metrics.processed(model.id(), result.transcript().audioSeconds(), result.seconds());
        note.audio(result.transcript().audioSeconds(), result.seconds());
    }

    private static JsonWriter errorEvent(ApiError e) {
        return e.body(new JsonWriter()
                        .beginObject()
                        .name("type")
                        .value("error")
                        .name("error")
                        .beginObject())
                .endObject()
                .endObject();
    }
}
