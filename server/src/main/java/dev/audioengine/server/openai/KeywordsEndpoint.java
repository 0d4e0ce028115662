package dev.audioengine.server.openai;

import dev.audioengine.audio.AudioFormatException;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.output.KeywordOutput;
import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import dev.audioengine.model.task.KeywordSpotter;
import dev.audioengine.model.task.KeywordStream;
import dev.audioengine.model.task.VadGatedKeywordStream;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import dev.audioengine.server.http.ApiError;
import dev.audioengine.server.http.Endpoint;
import dev.audioengine.server.http.MultipartForm;
import dev.audioengine.server.http.RequestNote;
import dev.audioengine.server.http.Routes;
import dev.audioengine.server.http.Upload;
import dev.audioengine.server.http.UploadFolder;
import dev.audioengine.server.http.UploadWatchdog;
import dev.audioengine.server.http.UploadedAudio;
import dev.audioengine.server.serving.Metrics;
import dev.audioengine.server.serving.ModelPool;
import dev.audioengine.server.serving.ServedModel;
import dev.audioengine.server.serving.ServedModels;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Future;

/**
 * {@code POST /v1/audio/keywords} (this engine's, not OpenAI's): the wake words heard in the uploaded audio, as
 * {@code audioengine --task kws --json} prints them: the model, the options, the keywords listened for, the audio's
 * length and {@code detections: [{keyword, time, frame, score}]} (time: the end of the detecting frame, in seconds). The
 * audio is decoded and scored block by block, resampled to the model's rate where it has another. An unknown keyword
 * is a 400 naming the model's keywords. {@code vad_threshold} gates the scores with the first served voice activity
 * detector, as {@code --task kws --vad-threshold} does.
 */
public final class KeywordsEndpoint implements Endpoint.Body {
    private static final int BLOCK = 1 << 16;

    private final ServedModels models;
    private final UploadFolder uploads;
    private final long maxUploadBytes;
    private final Metrics metrics;
    private final UploadWatchdog watchdog;

    public KeywordsEndpoint(
            ServedModels models, UploadFolder uploads, long maxUploadBytes, Metrics metrics, UploadWatchdog watchdog) {
        this.models = models;
        this.uploads = uploads;
        this.maxUploadBytes = maxUploadBytes;
        this.metrics = metrics;
        this.watchdog = watchdog;
    }

    private record Result(
            List<String> keywords, List<KeywordDetection> detections, double audioSeconds, double seconds) {}

    @Override
    public void handle(ServerRequest req, ServerResponse res) throws Exception {
        RequestNote note = req.context().get(RequestNote.class).orElseThrow();
        try (MultipartForm form = MultipartForm.read(req, res, uploads, maxUploadBytes, Set.of("file"), watchdog)) {
            KeywordsRequest r = KeywordsRequest.of(form);
            Upload file = UploadedAudio.required(form.file("file"));
            ServedModel model = keywordModel(models, r.model(), "model", Routes.KEYWORDS);
            note.model(model.id());
            VoiceActivityDetector vad = r.vadThreshold().isEmpty() ? null : gate(models, "vad_threshold");
            try (AudioStream in = UploadedAudio.open(file)) {
                ServedModel.Replica replica = model.replica();
                Future<Result> work = replica.pool().start(() -> detect(replica.get(KeywordSpotter.class), vad, in, r));
                Result result;
                try {
                    result = ModelPool.result(work);
                } catch (AudioFormatException e) {
                    throw UploadedAudio.invalid(file, e);
                } catch (IllegalArgumentException e) {
                    if (String.valueOf(e.getMessage()).startsWith("unknown keyword"))
                        throw ApiError.invalid("keywords", e.getMessage());
                    throw e;
                }
                metrics.processed(model.id(), result.audioSeconds(), result.seconds());
                note.audio(result.audioSeconds(), result.seconds());
                res.header(HeaderNames.CONTENT_TYPE, "application/json");
                res.send(json(model.id(), r.options(), result).toString());
            }
        }
    }

    /** The served kws model {@code name} names, else the first; {@code param} and {@code where} for the errors. */
    static ServedModel keywordModel(ServedModels models, Optional<String> name, String param, String where) {
        if (name.isEmpty()) {
            return models.first(Task.KWS)
                    .orElseThrow(
                            () -> ApiError.modelNotFound("this server serves no keyword spotting model (--models)"));
        }
        ServedModel m = models.require(name.get());
        if (m.task() != Task.KWS)
            throw ApiError.invalid(
                    param, m.id() + " is a " + m.task().cliName() + " model; " + where + " needs a kws model");
        return m;
    }

    /** The detector that gates scores (vad_threshold): the first served vad model, loaded now if it is not yet. */
    static VoiceActivityDetector gate(ServedModels models, String param) throws java.io.IOException {
        ServedModel m = models.first(Task.VAD)
                .orElseThrow(() -> ApiError.invalid(
                        param,
                        "vad_threshold gates detections with a voice activity detector, and this server serves none"
                                + " (--models ...,silero_vad)"));
        return m.get(VoiceActivityDetector.class);
    }

    private static Result detect(KeywordSpotter kws, VoiceActivityDetector vad, AudioStream in, KeywordsRequest r)
            throws Exception {
        long t0 = System.nanoTime();
        KeywordOptions options = r.options();
        if (in.sourceRate() != kws.sampleRate()) in.resampleTo(kws.sampleRate());
        List<KeywordDetection> found = new ArrayList<>();
        List<String> keywords;
        float[] block = new float[BLOCK];
        try (KeywordStream s = vad == null
                ? kws.stream(options)
                : new VadGatedKeywordStream(
                        kws.stream(options),
                        vad.stream(kws.sampleRate(), VadOptions.DEFAULTS),
                        options,
                        r.vadThreshold().get())) {
            keywords = s.keywords();
            for (int n; (n = in.read(block, 0, block.length)) >= 0; )
                found.addAll(s.accept(block, 0, n).detections());
            found.addAll(s.finish().detections());
        }
        return new Result(keywords, found, in.samplesRead() / (double) in.sampleRate(), (System.nanoTime() - t0) / 1e9);
    }

    private static JsonWriter json(String model, KeywordOptions options, Result r) {
        JsonWriter w = new JsonWriter()
                .beginObject()
                .name("model")
                .value(model)
                .name("duration")
                .number(r.audioSeconds());
        KeywordOutput.detections(w, options, r.keywords(), r.detections());
        return w.endObject();
    }
}
