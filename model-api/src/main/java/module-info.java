/**
 * The model platform: the {@link dev.audioengine.model.ModelFamily} service that family jars provide, the registry
 * that finds them, the store that fetches and verifies their files, and the typed task interfaces users call.
 * Depends on the engine's contract (and the audio reader, for the file forms of the task calls); families depend on
 * it, never on a backend.
 */
module dev.audioengine.model {
    requires transitive dev.audioengine.api;
    requires transitive dev.audioengine.audio;
    requires java.net.http;

    exports dev.audioengine.model;
    exports dev.audioengine.model.store;
    exports dev.audioengine.model.task;
    exports dev.audioengine.model.output;

    uses dev.audioengine.model.ModelFamily;
}
