/** Model families written against the graph API; they never see a backend type. */
module dev.audioengine.models {
    requires transitive dev.audioengine.api;
    requires transitive dev.audioengine.weights; // SileroWeights.fromOnnx takes an OnnxModel
    requires transitive dev.audioengine.model;   // VadOutput's formats

    exports dev.audioengine.models;
    exports dev.audioengine.models.silero;
}
