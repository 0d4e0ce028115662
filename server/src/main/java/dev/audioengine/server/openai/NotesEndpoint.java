package dev.audioengine.server.openai;

import dev.audioengine.audio.AudioFormatException;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.output.NoteOutput;
import dev.audioengine.model.task.NoteEvent;
import dev.audioengine.model.task.NoteTranscriber;
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
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;

/**
 * {@code POST /v1/audio/notes} (this engine's, not OpenAI's): the notes played in the uploaded audio, as
 * {@code audioengine --task notes} gives them: JSON (the model, the audio's length, the options and
 * {@code notes: [{start, end, pitch, velocity, amplitude}]}, as {@code --json} prints), a Standard MIDI File
 * ({@code response_format=midi}, what {@code --out} writes) or CSV ({@code response_format=csv}). The whole upload is
 * decoded, resampled to the model's rate and transcribed at once (the model looks at all of it; the upload limit
 * bounds its memory).
 */
public final class NotesEndpoint implements Endpoint.Body {
    private final ServedModels models;
    private final UploadFolder uploads;
    private final long maxUploadBytes;
    private final Metrics metrics;
    private final UploadWatchdog watchdog;

    public NotesEndpoint(
            ServedModels models, UploadFolder uploads, long maxUploadBytes, Metrics metrics, UploadWatchdog watchdog) {
        this.models = models;
        this.uploads = uploads;
        this.maxUploadBytes = maxUploadBytes;
        this.metrics = metrics;
        this.watchdog = watchdog;
    }

    private record Result(List<NoteEvent> notes, double audioSeconds, double seconds) {}

    @Override
    public void handle(ServerRequest req, ServerResponse res) throws Exception {
        RequestNote note = req.context().get(RequestNote.class).orElseThrow();
        try (MultipartForm form = MultipartForm.read(req, res, uploads, maxUploadBytes, Set.of("file"), watchdog)) {
            NotesRequest r = NotesRequest.of(form);
            Upload file = UploadedAudio.required(form.file("file"));
            ServedModel model = notesModel(r);
            note.model(model.id());
            try (AudioStream in = UploadedAudio.open(file)) {
                ServedModel.Replica replica = model.replica();
                Future<Result> work = replica.pool().start(() -> transcribe(replica.get(NoteTranscriber.class), in, r));
                Result result;
                try {
                    result = ModelPool.result(work);
                } catch (AudioFormatException e) {
                    throw UploadedAudio.invalid(file, e);
                }
                metrics.processed(model.id(), result.audioSeconds(), result.seconds());
                note.audio(result.audioSeconds(), result.seconds());
                res.header(HeaderNames.CONTENT_TYPE, r.format().contentType);
                switch (r.format()) {
                    case JSON -> {
                        JsonWriter w = new JsonWriter()
                                .beginObject()
                                .name("model")
                                .value(model.id())
                                .name("duration")
                                .number(result.audioSeconds());
                        NoteOutput.json(w, r.options(), result.notes());
                        res.send(w.endObject().toString());
                    }
                    case MIDI -> res.send(NoteOutput.midi(NoteOutput.sorted(result.notes())));
                    case CSV ->
                        res.send(NoteOutput.csv(NoteOutput.sorted(result.notes()))
                                .getBytes(StandardCharsets.UTF_8));
                }
            }
        }
    }

    private ServedModel notesModel(NotesRequest r) {
        if (r.model().isEmpty()) {
            return models.first(Task.NOTES)
                    .orElseThrow(() -> ApiError.modelNotFound("this server serves no audio-to-notes model (--models)"));
        }
        ServedModel m = models.require(r.model().get());
        if (m.task() != Task.NOTES)
            throw ApiError.invalid(
                    "model", m.id() + " is a " + m.task().cliName() + " model; /v1/audio/notes needs a notes model");
        return m;
    }

    private static Result transcribe(NoteTranscriber model, AudioStream in, NotesRequest r) throws Exception {
        long t0 = System.nanoTime();
        if (in.sourceRate() != model.sampleRate()) in.resampleTo(model.sampleRate());
        float[] samples = in.readAll().samples();
        List<NoteEvent> notes = model.transcribe(samples, model.sampleRate(), r.options());
        return new Result(notes, samples.length / (double) model.sampleRate(), (System.nanoTime() - t0) / 1e9);
    }
}
