package dev.audioengine.server.openai;

import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.server.serving.ServedModel;
import dev.audioengine.server.serving.ServedModels;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code GET /v1/models} and {@code GET /v1/models/{id}} in OpenAI's list shape. {@code created} is when this server
 * started (the weights carry no date), {@code owned_by} the model's family; the engine's own facts (task, loaded)
 * are extra members, which OpenAI's clients keep as additional properties.
 */
public final class ModelsEndpoint {
    private final ServedModels models;
    private final long created;

    public ModelsEndpoint(ServedModels models, long createdEpochSeconds) {
        this.models = models;
        this.created = createdEpochSeconds;
    }

    public void list(ServerRequest req, ServerResponse res) {
        JsonWriter w = new JsonWriter()
                .beginObject()
                .name("object")
                .value("list")
                .name("data")
                .beginArray();
        for (ServedModel m : models.all()) model(w, m);
        send(res, w.endArray().endObject());
    }

    public void one(ServerRequest req, ServerResponse res) {
        send(
                res,
                model(
                        new JsonWriter(),
                        models.require(req.path().pathParameters().get("id"))));
    }

    private JsonWriter model(JsonWriter w, ServedModel m) {
        return w.beginObject()
                .name("id")
                .value(m.id())
                .name("object")
                .value("model")
                .name("created")
                .value(created)
                .name("owned_by")
                .value(m.family().name())
                .name("task")
                .value(m.task().cliName())
                .name("loaded")
                .value(m.isLoaded())
                .endObject();
    }

    private static void send(ServerResponse res, JsonWriter body) {
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        res.send(body.toString());
    }
}
