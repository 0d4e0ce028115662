package dev.audioengine.server.serving;

import dev.audioengine.model.output.JsonWriter;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.function.BooleanSupplier;

/**
 * What a balancer or an orchestrator asks. {@code /health}: the process answers (liveness; also while draining).
 * {@code /ready}: this replica should get traffic: the backend is up (the engine was built before the server
 * started), no model is failing to load, every model is loaded when --preload asked for that, and the server is not
 * draining; 503 otherwise, with each model's state.
 */
public final class Probes {
    private final ServedModels models;
    private final String backend;
    private final boolean preload;
    private final BooleanSupplier draining, preloaded;

    public Probes(
            ServedModels models, String backend, boolean preload, BooleanSupplier draining, BooleanSupplier preloaded) {
        this.models = models;
        this.backend = backend;
        this.preload = preload;
        this.draining = draining;
        this.preloaded = preloaded;
    }

    public void health(ServerRequest req, ServerResponse res) {
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        res.send(new JsonWriter()
                .beginObject()
                .name("status")
                .value("ok")
                .endObject()
                .toString());
    }

    public void ready(ServerRequest req, ServerResponse res) {
        String status;
        if (draining.getAsBoolean()) status = "draining";
        else if (models.all().stream().anyMatch(ServedModel::failed)) status = "failed";
        else if (preload && !preloaded.getAsBoolean()) status = "loading";
        else status = "ready";
        JsonWriter w = new JsonWriter()
                .beginObject()
                .name("status")
                .value(status)
                .name("backend")
                .value(backend)
                .name("models")
                .beginObject();
        for (ServedModel m : models.all()) w.name(m.id()).value(m.state());
        res.status(status.equals("ready") ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503);
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        res.send(w.endObject().endObject().toString());
    }
}
