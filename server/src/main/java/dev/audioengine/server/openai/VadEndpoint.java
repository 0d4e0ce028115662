package dev.audioengine.server.openai;

import dev.audioengine.audio.AudioFormatException;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.SegmentWriter;
import dev.audioengine.model.output.VadOutput;
import dev.audioengine.model.task.OfflineVad;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
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
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;

/**
 * {@code POST /v1/audio/vad} (this engine's, not OpenAI's): the speech segments of the uploaded audio, as
 * {@code audioengine --task vad --segments-out F.json} writes them: the model, the rate it ran at, every option, the
 * audio's length, and {@code segments: [{start, end, start_sample, end_sample, label}]}. The audio is decoded and
 * detected block by block, resampled to the detector's rate where it has another.
 */
public final class VadEndpoint implements Endpoint.Body {
    private static final int BLOCK = 1 << 16;

    private final ServedModels models;
    private final UploadFolder uploads;
    private final long maxUploadBytes;
    private final Metrics metrics;
    private final UploadWatchdog watchdog;

    public VadEndpoint(
            ServedModels models, UploadFolder uploads, long maxUploadBytes, Metrics metrics, UploadWatchdog watchdog) {
        this.watchdog = watchdog;
        this.models = models;
        this.uploads = uploads;
        this.maxUploadBytes = maxUploadBytes;
        this.metrics = metrics;
    }

    private record Result(List<SpeechSegment> segments, int rate, double audioSeconds, double seconds) {}

    @Override
    public void handle(ServerRequest req, ServerResponse res) throws Exception {
        RequestNote note = req.context().get(RequestNote.class).orElseThrow();
        try (MultipartForm form = MultipartForm.read(req, res, uploads, maxUploadBytes, Set.of("file"), watchdog)) {
            VadRequest r = VadRequest.of(form);
            Upload file = UploadedAudio.required(form.file("file"));
            ServedModel model = vadModel(r);
            note.model(model.id());
            try (AudioStream in = UploadedAudio.open(file)) {
                ServedModel.Replica replica = model.replica();
                Future<Result> work =
                        replica.pool().start(() -> detect(replica.get(VoiceActivityDetector.class), in, r.options()));
                Result result;
                try {
                    result = ModelPool.result(work);
                } catch (AudioFormatException e) {
                    throw UploadedAudio.invalid(file, e);
                }
                metrics.processed(model.id(), result.audioSeconds(), result.seconds());
                note.audio(result.audioSeconds(), result.seconds());
                Map<String, Object> properties = VadOutput.properties(result.rate(), model.id(), false, r.options());
                properties.put("duration", result.audioSeconds());
                res.header(HeaderNames.CONTENT_TYPE, VadRequest.mediaType(r.format()));
                res.send(SegmentWriter.render(
                        r.format(), file.filename(), properties, VadOutput.labelled(result.segments())));
            }
        }
    }

    private ServedModel vadModel(VadRequest r) {
        if (r.model().isEmpty()) {
            return models.first(Task.VAD)
                    .orElseThrow(() ->
                            ApiError.modelNotFound("this server serves no voice activity detection model (--models)"));
        }
        ServedModel m = models.require(r.model().get());
        if (m.task() != Task.VAD)
            throw ApiError.invalid(
                    "model", m.id() + " is a " + m.task().cliName() + " model; /v1/audio/vad needs a vad model");
        return m;
    }

    private static Result detect(VoiceActivityDetector vad, AudioStream in, VadOptions options) throws Exception {
        long t0 = System.nanoTime();
        if (!vad.sampleRates().contains(in.sourceRate()))
            in.resampleTo(vad.sampleRates().stream().max(Integer::compare).orElseThrow());
        List<SpeechSegment> segments = new ArrayList<>();
        float[] block = new float[BLOCK];
        try (OfflineVad session = vad.offline(in.sampleRate(), options)) {
            for (int n; (n = in.read(block, 0, block.length)) >= 0; )
                segments.addAll(session.accept(block, 0, n).segments());
            segments.addAll(session.finish().segments());
        }
        return new Result(
                segments, in.sampleRate(), in.samplesRead() / (double) in.sampleRate(), (System.nanoTime() - t0) / 1e9);
    }
}
