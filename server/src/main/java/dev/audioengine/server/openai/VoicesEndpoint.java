package dev.audioengine.server.openai;

import dev.audioengine.model.Task;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.server.serving.ServedModel;
import dev.audioengine.server.serving.ServedModels;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/audio/voices[?model=NAME]}: the voices of the served speech models, as the synthesizers report them,
 * in OpenAI's list shape: {@code {"object": "list", "data": [{"id", "object": "voice", "name", "language", "gender",
 * "model"}], "openai_voices": {"alloy": "af_alloy", ...}}}. OpenAI has no such list (its voices are fixed); the ids
 * are what {@code voice} takes. A model not yet loaded is loaded to ask it.
 */
public final class VoicesEndpoint {
    private final ServedModels models;

    public VoicesEndpoint(ServedModels models) {
        this.models = models;
    }

    public void list(ServerRequest req, ServerResponse res) throws Exception {
        List<ServedModel> speech = req.query()
                .first("model")
                .asOptional()
                .map(name -> List.of(models.requireSpeech(name)))
                .orElseGet(() ->
                        models.all().stream().filter(m -> m.task() == Task.TTS).toList());
        JsonWriter w = new JsonWriter()
                .beginObject()
                .name("object")
                .value("list")
                .name("data")
                .beginArray();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (ServedModel m : speech) {
            for (SpeechSynthesizer.Voice v : m.get(SpeechSynthesizer.class).voices()) {
                names.add(v.name());
                w.beginObject()
                        .name("id")
                        .value(v.name())
                        .name("object")
                        .value("voice")
                        .name("name")
                        .value(v.name())
                        .name("language")
                        .value(v.language())
                        .name("gender")
                        .value(v.gender())
                        .name("model")
                        .value(m.id())
                        .endObject();
            }
        }
        w.endArray().name("openai_voices").beginObject();
        for (Map.Entry<String, String> e : OpenAiVoices.TABLE.entrySet()) {
            if (names.contains(e.getValue())) w.name(e.getKey()).value(e.getValue());
        }
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        res.send(w.endObject().endObject().toString());
    }
}
