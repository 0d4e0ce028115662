/** The built-in model families, written against the graph API; they never see a backend type. */
module dev.audioengine.models {
    requires transitive dev.audioengine.model;
    requires transitive dev.audioengine.weights; // SileroWeights.fromOnnx takes an OnnxModel

    exports dev.audioengine.models.asr;
    exports dev.audioengine.models.silero;

    provides dev.audioengine.model.ModelFamily with dev.audioengine.models.silero.SileroVadFamily;
}
